/**
 * @file flip_gather.cpp
 * @brief torch.flip(x, dims=[-1]) for x[rows, cols], 16- or 32-bit elements.
 *
 * A byte-offset table  off[i] = (cols - 1 - i) * sizeof(T)  is built once per core with
 * CreateVecIndex / Muls / Adds, then every row is reversed in UB with a single Gather.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace kernels::flip {

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelFlip {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Gather handles 16/32-bit elements only");

public:
    __aicore__ inline KernelFlip() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rowsPerCore, uint32_t cols)
    {
        this->rowsPerCore = rowsPerCore;
        this->cols = cols; // cols * sizeof(T) is a multiple of 32
        const uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * rowsPerCore * cols;
        xGm.SetGlobalBuffer((__gm__ T *)x + base, static_cast<uint64_t>(rowsPerCore) * cols);
        yGm.SetGlobalBuffer((__gm__ T *)y + base, static_cast<uint64_t>(rowsPerCore) * cols);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, cols * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, cols * sizeof(T));
        pipe.InitBuffer(offsetBuf, cols * sizeof(uint32_t));
        BuildOffsets();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowsPerCore; ++r) {
            CopyIn(r);
            Compute();
            CopyOut(r);
        }
    }

private:
    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<int32_t> idx = offsetBuf.Get<int32_t>();
        const int32_t elemBytes = static_cast<int32_t>(sizeof(T));
        CreateVecIndex(idx, static_cast<int32_t>(0), cols);      // 0, 1, 2, ...
        Muls(idx, idx, -elemBytes, cols);                         // -i * sizeof(T)
        Adds(idx, idx, static_cast<int32_t>(cols - 1) * elemBytes, cols);
    }

    __aicore__ inline void CopyIn(uint32_t r)
    {
        LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        DataCopy(xLocal, xGm[static_cast<uint64_t>(r) * cols], cols);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        LocalTensor<uint32_t> offsets = offsetBuf.Get<uint32_t>();
        Gather(yLocal, xLocal, offsets, static_cast<uint32_t>(0), cols);
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t r)
    {
        LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        DataCopy(yGm[static_cast<uint64_t>(r) * cols], yLocal, cols);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    TBuf<TPosition::VECCALC> offsetBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    uint32_t rowsPerCore = 0;
    uint32_t cols = 0;
};

} // namespace kernels::flip

extern "C" __global__ __aicore__ void flip_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(0)) {
        kernels::flip::KernelFlip<half> op;
        op.Init(x, y, tilingData.rowsPerCore, tilingData.cols);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        kernels::flip::KernelFlip<float> op;
        op.Init(x, y, tilingData.rowsPerCore, tilingData.cols);
        op.Process();
    }
}
