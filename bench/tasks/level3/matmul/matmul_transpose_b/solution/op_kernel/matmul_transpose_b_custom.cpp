/**
 * @file matmul_transpose_b_custom.cpp
 * @brief MatmulTransposeBCustom kernel (cube only): c[M, N] fp32 = a[M, K] fp16 @ b[N, K]^T fp16 (a linear layer).
 *
 * The host's multi-core tiling cuts c into singleCoreM x singleCoreN blocks, one per AI Cube core; a core finds
 * its block from its index (M-major), shrinks it at the matrix edges (SetTail) and lets IterateAll run the
 * L1/L0 pipeline of its block.
 * b is read transposed (its rows are c's columns): the Matmul type of B says so, and the tiling knows.
 */
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

namespace {
using AType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using BType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, true>;
using CType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
} // namespace

class KernelMatmulTransposeB {
public:
    __aicore__ inline KernelMatmulTransposeB() {}

    __aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &t)
    {
        const int32_t blockIdx = static_cast<int32_t>(AscendC::GetBlockIdx());
        if (blockIdx >= t.usedCoreNum) {
            return;
        }
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);

        // this core's block of c: row block mIdx, column block nIdx
        const int32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
        const int32_t mIdx = blockIdx % mBlocks;
        const int32_t nIdx = blockIdx / mBlocks;
        const int32_t row0 = mIdx * t.singleCoreM;
        const int32_t col0 = nIdx * t.singleCoreN;
        const int32_t rows = (t.M - row0) < t.singleCoreM ? (t.M - row0) : t.singleCoreM;
        const int32_t cols = (t.N - col0) < t.singleCoreN ? (t.N - col0) : t.singleCoreN;

        AscendC::GlobalTensor<half> aGm;
        AscendC::GlobalTensor<half> bGm;
        AscendC::GlobalTensor<float> cGm;
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a) + static_cast<int64_t>(row0) * t.Ka);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b) + static_cast<int64_t>(col0) * t.Kb);
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c) + static_cast<int64_t>(row0) * t.N + col0);
        mm.SetTail(rows, cols);
        mm.SetTensorA(aGm);
        mm.SetTensorB(bGm, true);
        mm.IterateAll(cGm);
        mm.End();
    }

private:
    AscendC::TPipe pipe;
    Matmul<AType, BType, CType, BiasType, CFG_MDL> mm;
};

extern "C" __global__ __aicore__ void matmul_transpose_b_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                                GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(tilingData, tiling);
    KernelMatmulTransposeB op;
    op.Run(a, b, c, tilingData.cubeTiling);
}
