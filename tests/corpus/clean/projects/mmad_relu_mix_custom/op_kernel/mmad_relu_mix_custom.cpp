/**
 * @file mmad_relu_mix_custom.cpp
 * @brief MmadReluMixCustom kernel (MIX 1:2, basic API). Block b takes the 64 x 64 tiles b, b + blockDim, ...
 *        of C. Its cube core computes each tile (ND2NZ, LoadData, Mmad over K, Fixpipe) into one of two GM
 *        workspace slots and signals its vector cores (CrossCoreSetFlag mode 2, flag = slot); each vector core
 *        waits for that flag, adds the bias to its half of the tile's rows, applies ReLU, writes C, and hands
 *        the slot back (flag 2 + slot; the cube core goes on once both vector cores have).
 */
#include "kernel_operator.h"

namespace mix_kernel {
constexpr int32_t TILE = 64;
constexpr int32_t FRACTAL_ELEMS = 256;
constexpr int32_t SLOTS = 2;

__aicore__ inline int32_t CeilDiv(int32_t a, int32_t b)
{
    return (a + b - 1) / b;
}

__aicore__ inline int32_t Min(int32_t a, int32_t b)
{
    return a < b ? a : b;
}

class MmadReluMixKernel {
public:
    __aicore__ inline MmadReluMixKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace, uint32_t m,
                                uint32_t n, uint32_t k, uint32_t tilesM, uint32_t tilesN)
    {
        this->m = static_cast<int32_t>(m);
        this->n = static_cast<int32_t>(n);
        this->k = static_cast<int32_t>(k);
        this->tilesM = static_cast<int32_t>(tilesM);
        this->tilesN = static_cast<int32_t>(tilesN);
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), static_cast<uint64_t>(m) * k);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), static_cast<uint64_t>(k) * n);
        biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias), n);
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), static_cast<uint64_t>(m) * n);
        // this block's two workspace tiles; GetBlockIdx() / GetTaskRation() is the block on either kind of core
        const int32_t group = static_cast<int32_t>(AscendC::GetBlockIdx() / AscendC::GetTaskRation());
        GM_ADDR user = AscendC::GetUserWorkspace(workspace);
        wsGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(user) + group * SLOTS * TILE * TILE, SLOTS * TILE * TILE);
        this->group = group;
    }

    __aicore__ inline void ProcessCube()
    {
        pipe.InitBuffer(inQueueA1, 1, TILE * TILE * sizeof(half));
        pipe.InitBuffer(inQueueB1, 1, TILE * TILE * sizeof(half));
        pipe.InitBuffer(inQueueA2, 1, TILE * TILE * sizeof(half));
        pipe.InitBuffer(inQueueB2, 1, TILE * TILE * sizeof(half));
        pipe.InitBuffer(outQueueCO1, 1, TILE * TILE * sizeof(float));
        const int32_t blocks = static_cast<int32_t>(AscendC::GetBlockNum());
        int32_t i = 0;
        for (int32_t t = group; t < tilesM * tilesN; t += blocks) {
            const int32_t slot = i % SLOTS;
            if (i >= SLOTS) {
                AscendC::CrossCoreWaitFlag(SLOTS + slot); // both vector cores are done with this slot
            }
            const int32_t mIdx = t / tilesN;
            const int32_t nIdx = t % tilesN;
            ComputeTile(mIdx, nIdx, Min(TILE, m - mIdx * TILE), Min(TILE, n - nIdx * TILE), slot);
            AscendC::CrossCoreSetFlag<2, PIPE_FIX>(slot);
            i++;
        }
        // take back the slots still out, so every flag set is waited for
        for (int32_t j = (i > SLOTS ? i - SLOTS : 0); j < i; j++) {
            AscendC::CrossCoreWaitFlag(SLOTS + j % SLOTS);
        }
    }

    __aicore__ inline void ProcessVector()
    {
        pipe.InitBuffer(inQueue, 1, TILE * sizeof(float));
        pipe.InitBuffer(outQueue, 1, TILE * sizeof(float));
        pipe.InitBuffer(biasBuf, TILE * sizeof(float));
        const int32_t blocks = static_cast<int32_t>(AscendC::GetBlockNum());
        const int32_t sub = static_cast<int32_t>(AscendC::GetSubBlockIdx());
        int32_t i = 0;
        for (int32_t t = group; t < tilesM * tilesN; t += blocks) {
            const int32_t slot = i % SLOTS;
            const int32_t mIdx = t / tilesN;
            const int32_t nIdx = t % tilesN;
            const int32_t curM = Min(TILE, m - mIdx * TILE);
            const int32_t curN = Min(TILE, n - nIdx * TILE);
            AscendC::LocalTensor<float> biasLocal = biasBuf.Get<float>();
            AscendC::DataCopyExtParams biasParams{1, static_cast<uint32_t>(curN * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(biasLocal, biasGm[nIdx * TILE], biasParams, noPad);
            AscendC::CrossCoreWaitFlag(slot);
            const int32_t rowsPerCore = CeilDiv(curM, 2);
            const int32_t rowEnd = Min(curM, (sub + 1) * rowsPerCore);
            for (int32_t row = sub * rowsPerCore; row < rowEnd; row++) {
                BiasRelu(slot, row, (mIdx * TILE + row) * n + nIdx * TILE, curN, biasLocal);
            }
            AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(SLOTS + slot);
            i++;
        }
    }

private:
    __aicore__ inline void ComputeTile(int32_t mIdx, int32_t nIdx, int32_t curM, int32_t curN, int32_t slot)
    {
        AscendC::LocalTensor<float> c1Local = outQueueCO1.AllocTensor<float>();
        for (int32_t kIdx = 0; kIdx < CeilDiv(k, TILE); kIdx++) {
            const int32_t curK = Min(TILE, k - kIdx * TILE);
            CopyIn(mIdx, nIdx, kIdx, curM, curN, curK);
            Split(curM, curN, curK);
            AscendC::LocalTensor<half> a2Local = inQueueA2.DeQue<half>();
            AscendC::LocalTensor<half> b2Local = inQueueB2.DeQue<half>();
            AscendC::Mmad(c1Local, a2Local, b2Local,
                          AscendC::MmadParams(static_cast<uint16_t>(curM), static_cast<uint16_t>(curN),
                                              static_cast<uint16_t>(curK), 0, false, kIdx == 0));
            inQueueA2.FreeTensor(a2Local);
            inQueueB2.FreeTensor(b2Local);
        }
        outQueueCO1.EnQue<float>(c1Local);
        c1Local = outQueueCO1.DeQue<float>();
        AscendC::FixpipeParamsV220 params;
        params.nSize = static_cast<uint16_t>(curN);
        params.mSize = static_cast<uint16_t>(curM);
        params.srcStride = static_cast<uint16_t>(CeilDiv(curM, 16) * 16);
        params.dstStride = TILE;
        AscendC::Fixpipe(wsGm[slot * TILE * TILE], c1Local, params);
        outQueueCO1.FreeTensor(c1Local);
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
        aParams.srcDValue = static_cast<uint16_t>(k);
        aParams.dstNzC0Stride = static_cast<uint16_t>(CeilDiv(curM, 16) * 16);
        aParams.dstNzNStride = 1;
        AscendC::DataCopy(a1Local, aGm[mIdx * TILE * k + kIdx * TILE], aParams);
        AscendC::Nd2NzParams bParams;
        bParams.ndNum = 1;
        bParams.nValue = static_cast<uint16_t>(curK);
        bParams.dValue = static_cast<uint16_t>(curN);
        bParams.srcDValue = static_cast<uint16_t>(n);
        bParams.dstNzC0Stride = static_cast<uint16_t>(CeilDiv(curK, 16) * 16);
        bParams.dstNzNStride = 1;
        AscendC::DataCopy(b1Local, bGm[kIdx * TILE * n + nIdx * TILE], bParams);
        inQueueA1.EnQue(a1Local);
        inQueueB1.EnQue(b1Local);
    }

    __aicore__ inline void Split(int32_t curM, int32_t curN, int32_t curK)
    {
        AscendC::LocalTensor<half> a1Local = inQueueA1.DeQue<half>();
        AscendC::LocalTensor<half> b1Local = inQueueB1.DeQue<half>();
        AscendC::LocalTensor<half> a2Local = inQueueA2.AllocTensor<half>();
        AscendC::LocalTensor<half> b2Local = inQueueB2.AllocTensor<half>();
        const int32_t mBlocks = CeilDiv(curM, 16);
        const int32_t nBlocks = CeilDiv(curN, 16);
        const int32_t kBlocks = CeilDiv(curK, 16);
        AscendC::LoadData2DParams aParams;
        aParams.repeatTimes = static_cast<uint8_t>(kBlocks);
        aParams.srcStride = static_cast<uint16_t>(mBlocks);
        for (int32_t i = 0; i < mBlocks; i++) {
            AscendC::LoadData(a2Local[i * kBlocks * FRACTAL_ELEMS], a1Local[i * FRACTAL_ELEMS], aParams);
        }
        AscendC::LoadData2DParams bParams;
        bParams.repeatTimes = static_cast<uint8_t>(nBlocks);
        bParams.srcStride = static_cast<uint16_t>(kBlocks);
        bParams.ifTranspose = true;
        for (int32_t i = 0; i < kBlocks; i++) {
            AscendC::LoadData(b2Local[i * nBlocks * FRACTAL_ELEMS], b1Local[i * FRACTAL_ELEMS], bParams);
        }
        inQueueA2.EnQue<half>(a2Local);
        inQueueB2.EnQue<half>(b2Local);
        inQueueA1.FreeTensor(a1Local);
        inQueueB1.FreeTensor(b1Local);
    }

    __aicore__ inline void BiasRelu(int32_t slot, int32_t row, int32_t cOffset, int32_t curN,
                                    const AscendC::LocalTensor<float> &biasLocal)
    {
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(curN * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        AscendC::DataCopyPad(xLocal, wsGm[slot * TILE * TILE + row * TILE], params, noPad);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        AscendC::Add(yLocal, xLocal, biasLocal, curN);
        AscendC::Relu(yLocal, yLocal, curN);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
        yLocal = outQueue.DeQue<float>();
        AscendC::DataCopyPad(cGm[cOffset], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::A1, 1> inQueueA1;
    AscendC::TQue<AscendC::TPosition::B1, 1> inQueueB1;
    AscendC::TQue<AscendC::TPosition::A2, 1> inQueueA2;
    AscendC::TQue<AscendC::TPosition::B2, 1> inQueueB2;
    AscendC::TQue<AscendC::TPosition::CO1, 1> outQueueCO1;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> biasBuf;
    AscendC::GlobalTensor<half> aGm;
    AscendC::GlobalTensor<half> bGm;
    AscendC::GlobalTensor<float> biasGm;
    AscendC::GlobalTensor<float> cGm;
    AscendC::GlobalTensor<float> wsGm;
    int32_t m;
    int32_t n;
    int32_t k;
    int32_t tilesM;
    int32_t tilesN;
    int32_t group;
};
} // namespace mix_kernel

extern "C" __global__ __aicore__ void mmad_relu_mix_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);
    mix_kernel::MmadReluMixKernel op;
    op.Init(a, b, bias, c, workspace, tilingData.m, tilingData.n, tilingData.k, tilingData.tilesM,
            tilingData.tilesN);
    if ASCEND_IS_AIC {
        op.ProcessCube();
    }
    if ASCEND_IS_AIV {
        op.ProcessVector();
    }
}
