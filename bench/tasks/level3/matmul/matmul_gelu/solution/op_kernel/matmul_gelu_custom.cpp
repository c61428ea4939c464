/**
 * @file matmul_gelu_custom.cpp
 * @brief MatmulGeluCustom kernel (mixed cube + vector): c = gelu_tanh(a @ b + bias), a [M, K] fp16, b [K, N]
 *        fp16, bias [N] fp32, c [M, N] fp32.
 *
 * The multi-core tiling gives every vector core (AIV) one singleCoreM x singleCoreN block of c. The AIV drives
 * the Matmul API (the cube core of its group computes a @ b + bias into the block of c), then runs the GELU
 * epilogue over the block it just got: rowsPerTile rows at a time through UB, read back, activated, stored.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FLOATS_PER_BLOCK = 8;
constexpr float NEG_2C = -1.5957691216057308f;   // -2 sqrt(2 / pi)
constexpr float CUBIC = 0.044715f;

using AType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using BType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using CType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
} // namespace

class KernelMatmulGelu {
public:
    __aicore__ inline KernelMatmulGelu() {}

    __aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const TCubeTiling &t, uint32_t pitch,
                               uint32_t rowsPerTile)
    {
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
        if ASCEND_IS_AIV {
            const int32_t blockIdx = static_cast<int32_t>(AscendC::GetBlockIdx());
            if (blockIdx >= t.usedCoreNum) {
                return;
            }
            // this core's block of c: row block mIdx, column block nIdx
            const int32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
            const int32_t row0 = (blockIdx % mBlocks) * t.singleCoreM;
            const int32_t col0 = (blockIdx / mBlocks) * t.singleCoreN;
            rows = static_cast<uint32_t>((t.M - row0) < t.singleCoreM ? (t.M - row0) : t.singleCoreM);
            cols = static_cast<uint32_t>((t.N - col0) < t.singleCoreN ? (t.N - col0) : t.singleCoreN);
            ldc = static_cast<uint32_t>(t.N);
            // UB rows of this block: its own width rounded up to 8 floats (edge blocks are narrower)
            blockPitch = (cols + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK * FLOATS_PER_BLOCK;
            this->rowsPerTile = rowsPerTile;
            tileBytes = rowsPerTile * pitch * sizeof(float);

            AscendC::GlobalTensor<half> aGm;
            AscendC::GlobalTensor<half> bGm;
            AscendC::GlobalTensor<float> biasGm;
            aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a) + static_cast<int64_t>(row0) * t.Ka);
            bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b) + col0);
            biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias) + col0);
            cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c) + static_cast<int64_t>(row0) * t.N + col0);

            mm.SetTail(static_cast<int32_t>(rows), static_cast<int32_t>(cols));
            mm.SetTensorA(aGm);
            mm.SetTensorB(bGm);
            mm.SetBias(biasGm);
            mm.IterateAll(cGm);
            mm.End();
            Epilogue();
        }
    }

private:
    // gelu over this core's block of c, in place
    __aicore__ inline void Epilogue()
    {
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(tmpBuf, tileBytes);
        for (uint32_t row = 0; row < rows; row += rowsPerTile) {
            const uint32_t n = (rows - row) < rowsPerTile ? (rows - row) : rowsPerTile;
            // n rows of the block: cols values each, ldc apart in GM, blockPitch apart (zero padded) in UB
            AscendC::DataCopyExtParams params{static_cast<uint16_t>(n), static_cast<uint32_t>(cols * sizeof(float)),
                                              static_cast<uint32_t>((ldc - cols) * sizeof(float)), 0, 0};
            AscendC::LocalTensor<float> x = inQueue.AllocTensor<float>();
            AscendC::DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(blockPitch - cols), 0.0f};
            AscendC::DataCopyPad(x, cGm[static_cast<uint64_t>(row) * ldc], params, pad);
            inQueue.EnQue(x);
            x = inQueue.DeQue<float>();
            AscendC::LocalTensor<float> y = outQueue.AllocTensor<float>();
            Gelu(y, x, n * blockPitch);
            outQueue.EnQue(y);
            inQueue.FreeTensor(x);
            y = outQueue.DeQue<float>();
            AscendC::DataCopyExtParams outParams{static_cast<uint16_t>(n), static_cast<uint32_t>(cols * sizeof(float)),
                                                 0, static_cast<uint32_t>((ldc - cols) * sizeof(float)), 0};
            AscendC::DataCopyPad(cGm[static_cast<uint64_t>(row) * ldc], y, outParams);
            outQueue.FreeTensor(y);
        }
    }

    // y = x / (1 + exp(-2 sqrt(2/pi) (x + 0.044715 x^3)))
    __aicore__ inline void Gelu(const AscendC::LocalTensor<float> &y, const AscendC::LocalTensor<float> &x, uint32_t n)
    {
        AscendC::LocalTensor<float> t = tmpBuf.Get<float>();
        AscendC::Mul(t, x, x, n);
        AscendC::Muls(t, t, CUBIC, n);
        AscendC::Adds(t, t, 1.0f, n);
        AscendC::Mul(t, t, x, n);
        AscendC::Muls(t, t, NEG_2C, n);
        AscendC::Exp(t, t, n);
        AscendC::Adds(t, t, 1.0f, n);
        AscendC::Div(y, x, t, n);
    }

    AscendC::TPipe pipe;
    Matmul<AType, BType, CType, BiasType, CFG_MDL> mm;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::GlobalTensor<float> cGm;
    uint32_t rows = 0;
    uint32_t cols = 0;
    uint32_t ldc = 0;
    uint32_t blockPitch = 0;
    uint32_t rowsPerTile = 0;
    uint32_t tileBytes = 0;
};

extern "C" __global__ __aicore__ void matmul_gelu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);
    KernelMatmulGelu op;
    op.Run(a, b, bias, c, tilingData.cubeTiling, tilingData.pitch, tilingData.rowsPerTile);
}
