/**
 * @file mmad_cube.cpp
 * @brief C[m, n] = A[m, k] * B[k, n] with the basic cube API (fp16 in, fp32 out), one tile per AIC.
 *
 * Data path:  GM --DataCopy(ND->NZ)--> L1 (A1/B1) --LoadData--> L0A/L0B (A2/B2)
 *             --Mmad--> L0C (CO1) --Fixpipe(NZ->ND)--> GM
 * Core i computes rows [i * M_TILE, (i + 1) * M_TILE) of C; B is shared by all cores.
 */
#include "kernel_operator.h"

#if defined(__NPU_ARCH__) && (__NPU_ARCH__ != 2201)
#error "mmad_custom writes L0C straight to GM with Fixpipe and targets dav-c220 (Atlas A2/A3) only"
#endif

using namespace AscendC;

namespace cube {

constexpr uint32_t FRACTAL = 16;                            // fp16 fractal edge (C0 = 16)
constexpr uint32_t FRACTAL_ELEMS = FRACTAL * FRACTAL;       // 256 elements = 512 bytes

template <uint32_t M_TILE, uint32_t N_SIZE, uint32_t K_SIZE>
class KernelMmad {
    static_assert(M_TILE % FRACTAL == 0 && N_SIZE % FRACTAL == 0 && K_SIZE % FRACTAL == 0,
                  "tile sizes must be multiples of 16");
    static_assert(M_TILE * K_SIZE * sizeof(half) <= 64 * 1024, "A tile must fit in L0A");
    static_assert(M_TILE * N_SIZE * sizeof(float) <= 128 * 1024, "C tile must fit in L0C");

public:
    __aicore__ inline KernelMmad() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c)
    {
        const uint64_t rowStart = static_cast<uint64_t>(GetBlockIdx()) * M_TILE;
        aGM.SetGlobalBuffer((__gm__ half *)a + rowStart * K_SIZE, M_TILE * K_SIZE);
        bGM.SetGlobalBuffer((__gm__ half *)b, K_SIZE * N_SIZE);
        cGM.SetGlobalBuffer((__gm__ float *)c + rowStart * N_SIZE, M_TILE * N_SIZE);

        pipe.InitBuffer(inQueueA1, 1, M_TILE * K_SIZE * sizeof(half));
        pipe.InitBuffer(inQueueB1, 1, K_SIZE * N_SIZE * sizeof(half));
        pipe.InitBuffer(inQueueA2, 1, M_TILE * K_SIZE * sizeof(half));
        pipe.InitBuffer(inQueueB2, 1, K_SIZE * N_SIZE * sizeof(half));
        pipe.InitBuffer(outQueueCO1, 1, M_TILE * N_SIZE * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        CopyIn();
        SplitA();
        SplitB();
        Compute();
        CopyOut();
    }

private:
    __aicore__ inline void CopyIn()
    {
        LocalTensor<half> a1Local = inQueueA1.AllocTensor<half>();
        LocalTensor<half> b1Local = inQueueB1.AllocTensor<half>();

        Nd2NzParams aParams;
        aParams.ndNum = 1;
        aParams.nValue = M_TILE;
        aParams.dValue = K_SIZE;
        aParams.srcNdMatrixStride = 0;
        aParams.srcDValue = K_SIZE;
        aParams.dstNzC0Stride = M_TILE;
        aParams.dstNzNStride = 1;
        aParams.dstNzMatrixStride = 0;
        DataCopy(a1Local, aGM, aParams);

        Nd2NzParams bParams{1, K_SIZE, N_SIZE, 0, N_SIZE, K_SIZE, 1, 0};
        DataCopy(b1Local, bGM, bParams);

        inQueueA1.EnQue(a1Local);
        inQueueB1.EnQue(b1Local);
    }

    // L1 NZ -> L0A ZZ: one LoadData per 16-row band, walking the K fractals of that band
    __aicore__ inline void SplitA()
    {
        LocalTensor<half> a1Local = inQueueA1.DeQue<half>();
        LocalTensor<half> a2Local = inQueueA2.AllocTensor<half>();
        LoadData2DParams params;
        params.startIndex = 0;
        params.repeatTimes = static_cast<uint8_t>(K_SIZE / FRACTAL);
        params.srcStride = static_cast<uint16_t>(M_TILE / FRACTAL);
        params.sid = 0;
        params.dstGap = 0;
        params.ifTranspose = false;
        params.addrMode = 0;
        for (uint32_t i = 0; i < M_TILE / FRACTAL; ++i) {
            LoadData(a2Local[i * FRACTAL * K_SIZE], a1Local[i * FRACTAL_ELEMS], params);
        }
        inQueueA2.EnQue(a2Local);
        inQueueA1.FreeTensor(a1Local);
    }

    // L1 NZ -> L0B ZN: transpose each fractal on the way in
    __aicore__ inline void SplitB()
    {
        LocalTensor<half> b1Local = inQueueB1.DeQue<half>();
        LocalTensor<half> b2Local = inQueueB2.AllocTensor<half>();
        LoadData2DParams params;
        params.startIndex = 0;
        params.repeatTimes = static_cast<uint8_t>(N_SIZE / FRACTAL);
        params.srcStride = static_cast<uint16_t>(K_SIZE / FRACTAL);
        params.sid = 0;
        params.dstGap = 0;
        params.ifTranspose = true;
        params.addrMode = 0;
        for (uint32_t i = 0; i < K_SIZE / FRACTAL; ++i) {
            LoadData(b2Local[i * FRACTAL * N_SIZE], b1Local[i * FRACTAL_ELEMS], params);
        }
        inQueueB2.EnQue(b2Local);
        inQueueB1.FreeTensor(b1Local);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<half> a2Local = inQueueA2.DeQue<half>();
        LocalTensor<half> b2Local = inQueueB2.DeQue<half>();
        LocalTensor<float> c1Local = outQueueCO1.AllocTensor<float>();
        MmadParams mmadParams;
        mmadParams.m = M_TILE;
        mmadParams.n = N_SIZE;
        mmadParams.k = K_SIZE;
        mmadParams.cmatrixInitVal = true; // C = A * B, no accumulation
        Mmad(c1Local, a2Local, b2Local, mmadParams);
        outQueueCO1.EnQue<float>(c1Local);
        inQueueA2.FreeTensor(a2Local);
        inQueueB2.FreeTensor(b2Local);
    }

    __aicore__ inline void CopyOut()
    {
        LocalTensor<float> c1Local = outQueueCO1.DeQue<float>();
        FixpipeParamsV220 fixParams;
        fixParams.nSize = N_SIZE;
        fixParams.mSize = M_TILE;
        fixParams.srcStride = M_TILE;
        fixParams.dstStride = N_SIZE;
        fixParams.ndNum = 1;
        fixParams.srcNdStride = 0;
        fixParams.dstNdStride = 0;
        Fixpipe<float, float, CFG_ROW_MAJOR>(cGM, c1Local, fixParams);
        outQueueCO1.FreeTensor(c1Local);
    }

private:
    TPipe pipe;
    TQue<TPosition::A1, 1> inQueueA1;
    TQue<TPosition::B1, 1> inQueueB1;
    TQue<TPosition::A2, 1> inQueueA2;
    TQue<TPosition::B2, 1> inQueueB2;
    TQue<TPosition::CO1, 1> outQueueCO1;
    GlobalTensor<half> aGM;
    GlobalTensor<half> bGM;
    GlobalTensor<float> cGM;
};

} // namespace cube

extern "C" __global__ __aicore__ void mmad_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    cube::KernelMmad<64, 128, 128> op;
    op.Init(a, b, c);
    op.Process();
}
