/**
 * @file axpy_dtype_macro.cpp
 * @brief out = alpha * x + y, element type taken from the msopgen-generated DTYPE_* macros.
 *
 * Built inside an op project, so DTYPE_X / DTYPE_Y / DTYPE_OUT are defined by the build for each
 * dtype combination listed in the OpDef. Axpy accumulates into its destination, so y is copied
 * straight into the output tile and x is folded in.
 */
#include "kernel_operator.h"

using T = DTYPE_X;
using OutT = DTYPE_OUT;
static_assert(sizeof(DTYPE_Y) == sizeof(T), "x and y must share one dtype");
static_assert(std::is_same<OutT, T>::value, "out must have the dtype of x");

constexpr int32_t BUFFER_NUM = 2;

template <typename DataT, int32_t BufferNum = BUFFER_NUM>
class KernelAxpy {
public:
    __aicore__ inline KernelAxpy() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR out, uint32_t blockLength, uint32_t tileLength, float alpha)
    {
        this->blockLength = blockLength;
        this->tileLength = tileLength;
        this->alpha = static_cast<DataT>(alpha);
        const uint32_t offset = blockLength * AscendC::GetBlockIdx();

        xGm.SetGlobalBuffer((__gm__ DataT *)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ DataT *)y + offset, blockLength);
        outGm.SetGlobalBuffer((__gm__ DataT *)out + offset, blockLength);

        pipe.InitBuffer(inQueueX, BufferNum, tileLength * sizeof(DataT));
        pipe.InitBuffer(inOutQueue, BufferNum, tileLength * sizeof(DataT));
        pipe.InitBuffer(outQueue, BufferNum, tileLength * sizeof(DataT));
    }

    __aicore__ inline void Process()
    {
        const uint32_t loops = blockLength / tileLength;
        for (uint32_t i = 0; i < loops; ++i) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t idx)
    {
        AscendC::LocalTensor<DataT> xLocal = inQueueX.template AllocTensor<DataT>();
        AscendC::LocalTensor<DataT> yLocal = inOutQueue.template AllocTensor<DataT>();
        AscendC::DataCopy(xLocal, xGm[idx * tileLength], tileLength);
        AscendC::DataCopy(yLocal, yGm[idx * tileLength], tileLength);
        inQueueX.EnQue(xLocal);
        inOutQueue.EnQue(yLocal);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<DataT> xLocal = inQueueX.template DeQue<DataT>();
        AscendC::LocalTensor<DataT> yLocal = inOutQueue.template DeQue<DataT>();
        AscendC::LocalTensor<DataT> outLocal = outQueue.template AllocTensor<DataT>();
        AscendC::DataCopy(outLocal, yLocal, tileLength);      // out = y
        AscendC::Axpy(outLocal, xLocal, alpha, tileLength);   // out += alpha * x
        outQueue.EnQue(outLocal);
        inQueueX.FreeTensor(xLocal);
        inOutQueue.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t idx)
    {
        AscendC::LocalTensor<DataT> outLocal = outQueue.template DeQue<DataT>();
        AscendC::DataCopy(outGm[idx * tileLength], outLocal, tileLength);
        outQueue.FreeTensor(outLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BufferNum> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECIN, BufferNum> inOutQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BufferNum> outQueue;
    AscendC::GlobalTensor<DataT> xGm;
    AscendC::GlobalTensor<DataT> yGm;
    AscendC::GlobalTensor<DataT> outGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    DataT alpha;
};

extern "C" __global__ __aicore__ void axpy_custom(GM_ADDR x, GM_ADDR y, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelAxpy<T> op;
    op.Init(x, y, out, tilingData.blockLength, tilingData.tileLength, tilingData.alpha);
    op.Process();
}
