/**
 * @file mmad_custom.cpp
 * @brief MmadCustom kernel (cube only, basic API): each AIC takes 64 x 64 tiles of C in turn; for each tile it
 *        walks K in steps of 64: GM -ND2NZ-> L1 (A1/B1) -LoadData-> L0A (ZZ) / L0B (ZN, fractals transposed)
 *        -Mmad-> L0C, accumulating; then Fixpipe writes the tile to GM as ND. Tails in M, N and K are partial
 *        tiles: ND2NZ pads the last 32-byte column block with zeros and Mmad takes the exact m, n, k.
 */
#include "kernel_operator.h"

namespace mmad_kernel {
constexpr int32_t TILE = 64;
constexpr int32_t FRACTAL_ELEMS = 256; // one 16 x 16 half fractal

__aicore__ inline int32_t CeilDiv(int32_t a, int32_t b)
{
    return (a + b - 1) / b;
}

__aicore__ inline int32_t Min(int32_t a, int32_t b)
{
    return a < b ? a : b;
}

class MmadKernel {
public:
    __aicore__ inline MmadKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k,
                                uint32_t tilesM, uint32_t tilesN)
    {
        this->m = static_cast<int32_t>(m);
        this->n = static_cast<int32_t>(n);
        this->k = static_cast<int32_t>(k);
        this->tilesM = static_cast<int32_t>(tilesM);
        this->tilesN = static_cast<int32_t>(tilesN);
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), static_cast<uint64_t>(m) * k);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), static_cast<uint64_t>(k) * n);
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), static_cast<uint64_t>(m) * n);
        pipe.InitBuffer(inQueueA1, 1, TILE * TILE * sizeof(half));
        pipe.InitBuffer(inQueueB1, 1, TILE * TILE * sizeof(half));
        pipe.InitBuffer(inQueueA2, 1, TILE * TILE * sizeof(half));
        pipe.InitBuffer(inQueueB2, 1, TILE * TILE * sizeof(half));
        pipe.InitBuffer(outQueueCO1, 1, TILE * TILE * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const int32_t tiles = tilesM * tilesN;
        for (int32_t t = static_cast<int32_t>(AscendC::GetBlockIdx()); t < tiles;
             t += static_cast<int32_t>(AscendC::GetBlockNum())) {
            const int32_t mIdx = t / tilesN;
            const int32_t nIdx = t % tilesN;
            ComputeTile(mIdx, nIdx, Min(TILE, m - mIdx * TILE), Min(TILE, n - nIdx * TILE));
        }
    }

private:
    __aicore__ inline void ComputeTile(int32_t mIdx, int32_t nIdx, int32_t curM, int32_t curN)
    {
        AscendC::LocalTensor<float> c1Local = outQueueCO1.AllocTensor<float>();
        const int32_t kTiles = CeilDiv(k, TILE);
        for (int32_t kIdx = 0; kIdx < kTiles; kIdx++) {
            const int32_t curK = Min(TILE, k - kIdx * TILE);
            CopyIn(mIdx, nIdx, kIdx, curM, curN, curK);
            SplitA(curM, curK);
            SplitB(curK, curN);
            AscendC::LocalTensor<half> a2Local = inQueueA2.DeQue<half>();
            AscendC::LocalTensor<half> b2Local = inQueueB2.DeQue<half>();
            // the first K step starts C at zero, the later ones accumulate onto it in L0C
            AscendC::Mmad(c1Local, a2Local, b2Local,
                          AscendC::MmadParams(static_cast<uint16_t>(curM), static_cast<uint16_t>(curN),
                                              static_cast<uint16_t>(curK), 0, false, kIdx == 0));
            inQueueA2.FreeTensor(a2Local);
            inQueueB2.FreeTensor(b2Local);
        }
        outQueueCO1.EnQue<float>(c1Local);
        CopyOut(mIdx, nIdx, curM, curN);
    }

    __aicore__ inline void CopyIn(int32_t mIdx, int32_t nIdx, int32_t kIdx, int32_t curM, int32_t curN,
                                  int32_t curK)
    {
        AscendC::LocalTensor<half> a1Local = inQueueA1.AllocTensor<half>();
        AscendC::LocalTensor<half> b1Local = inQueueB1.AllocTensor<half>();
        AscendC::Nd2NzParams aParams;
        aParams.ndNum = 1;
        aParams.nValue = static_cast<uint16_t>(curM);
        aParams.dValue = static_cast<uint16_t>(curK);
        aParams.srcNdMatrixStride = 0;
        aParams.srcDValue = static_cast<uint16_t>(k);
        aParams.dstNzC0Stride = static_cast<uint16_t>(CeilDiv(curM, 16) * 16);
        aParams.dstNzNStride = 1;
        aParams.dstNzMatrixStride = 0;
        AscendC::DataCopy(a1Local, aGm[mIdx * TILE * k + kIdx * TILE], aParams);
        AscendC::Nd2NzParams bParams;
        bParams.ndNum = 1;
        bParams.nValue = static_cast<uint16_t>(curK);
        bParams.dValue = static_cast<uint16_t>(curN);
        bParams.srcNdMatrixStride = 0;
        bParams.srcDValue = static_cast<uint16_t>(n);
        bParams.dstNzC0Stride = static_cast<uint16_t>(CeilDiv(curK, 16) * 16);
        bParams.dstNzNStride = 1;
        bParams.dstNzMatrixStride = 0;
        AscendC::DataCopy(b1Local, bGm[kIdx * TILE * n + nIdx * TILE], bParams);
        inQueueA1.EnQue(a1Local);
        inQueueB1.EnQue(b1Local);
    }

    // L1 NZ [K/16][M][16] -> L0A ZZ: one LoadData per row of fractals, walking the K fractals M/16 apart
    __aicore__ inline void SplitA(int32_t curM, int32_t curK)
    {
        AscendC::LocalTensor<half> a1Local = inQueueA1.DeQue<half>();
        AscendC::LocalTensor<half> a2Local = inQueueA2.AllocTensor<half>();
        const int32_t mBlocks = CeilDiv(curM, 16);
        const int32_t kBlocks = CeilDiv(curK, 16);
        AscendC::LoadData2DParams params;
        params.repeatTimes = static_cast<uint8_t>(kBlocks);
        params.srcStride = static_cast<uint16_t>(mBlocks);
        params.ifTranspose = false;
        for (int32_t i = 0; i < mBlocks; i++) {
            AscendC::LoadData(a2Local[i * kBlocks * FRACTAL_ELEMS], a1Local[i * FRACTAL_ELEMS], params);
        }
        inQueueA2.EnQue<half>(a2Local);
        inQueueA1.FreeTensor(a1Local);
    }

    // L1 NZ [N/16][K][16] -> L0B ZN: one LoadData per K row of fractals, each fractal transposed
    __aicore__ inline void SplitB(int32_t curK, int32_t curN)
    {
        AscendC::LocalTensor<half> b1Local = inQueueB1.DeQue<half>();
        AscendC::LocalTensor<half> b2Local = inQueueB2.AllocTensor<half>();
        const int32_t kBlocks = CeilDiv(curK, 16);
        const int32_t nBlocks = CeilDiv(curN, 16);
        AscendC::LoadData2DParams params;
        params.repeatTimes = static_cast<uint8_t>(nBlocks);
        params.srcStride = static_cast<uint16_t>(kBlocks);
        params.ifTranspose = true;
        for (int32_t i = 0; i < kBlocks; i++) {
            AscendC::LoadData(b2Local[i * nBlocks * FRACTAL_ELEMS], b1Local[i * FRACTAL_ELEMS], params);
        }
        inQueueB2.EnQue<half>(b2Local);
        inQueueB1.FreeTensor(b1Local);
    }

    __aicore__ inline void CopyOut(int32_t mIdx, int32_t nIdx, int32_t curM, int32_t curN)
    {
        AscendC::LocalTensor<float> c1Local = outQueueCO1.DeQue<float>();
        AscendC::FixpipeParamsV220 params;
        params.nSize = static_cast<uint16_t>(curN);
        params.mSize = static_cast<uint16_t>(curM);
        params.srcStride = static_cast<uint16_t>(CeilDiv(curM, 16) * 16);
        params.dstStride = static_cast<uint32_t>(n);
        params.ndNum = 1;
        params.srcNdStride = 0;
        params.dstNdStride = 0;
        AscendC::Fixpipe(cGm[mIdx * TILE * n + nIdx * TILE], c1Local, params);
        outQueueCO1.FreeTensor(c1Local);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::A1, 1> inQueueA1;
    AscendC::TQue<AscendC::TPosition::B1, 1> inQueueB1;
    AscendC::TQue<AscendC::TPosition::A2, 1> inQueueA2;
    AscendC::TQue<AscendC::TPosition::B2, 1> inQueueB2;
    AscendC::TQue<AscendC::TPosition::CO1, 1> outQueueCO1;
    AscendC::GlobalTensor<half> aGm;
    AscendC::GlobalTensor<half> bGm;
    AscendC::GlobalTensor<float> cGm;
    int32_t m;
    int32_t n;
    int32_t k;
    int32_t tilesM;
    int32_t tilesN;
};
} // namespace mmad_kernel

extern "C" __global__ __aicore__ void mmad_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(tilingData, tiling);
    mmad_kernel::MmadKernel op;
    op.Init(a, b, c, tilingData.m, tilingData.n, tilingData.k, tilingData.tilesM, tilingData.tilesN);
    op.Process();
}
