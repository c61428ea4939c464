/**
 * @file fill_custom.cpp
 * @brief FillCustom kernel: y = value everywhere, y of the shape `dims`, fp16 / fp32 / int32.
 *
 * value is a one-element tensor read through the scalar unit; each core fills one UB tile once and copies it
 * to every tile of its slice.
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class KernelFill {
public:
    __aicore__ inline KernelFill() {}

    __aicore__ inline void Init(GM_ADDR value, GM_ADDR y, const FillCustomTilingData &td)
    {
        const uint32_t idx = GetBlockIdx();
        uint64_t start = 0;
        uint32_t share = 0;
        if (idx < td.formerNum) {
            share = td.formerLength;
            start = static_cast<uint64_t>(td.formerLength) * idx;
        } else {
            share = td.tailLength;
            start = static_cast<uint64_t>(td.formerLength) * td.formerNum +
                    static_cast<uint64_t>(td.tailLength) * (idx - td.formerNum);
        }
        if (start >= td.totalLength) {
            coreLength = 0;
        } else {
            coreLength = (td.totalLength - start) < share ? static_cast<uint32_t>(td.totalLength - start) : share;
        }
        tileLength = td.tileLength;

        valueGm.SetGlobalBuffer((__gm__ T *)value, 1);
        yGm.SetGlobalBuffer((__gm__ T *)y + start, coreLength);
        pipe.InitBuffer(yQueue, 1, tileLength * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (coreLength == 0) {
            return;
        }
        const T v = valueGm.GetValue(0);
        LocalTensor<T> yLocal = yQueue.template AllocTensor<T>();
        Duplicate(yLocal, v, tileLength);
        yQueue.EnQue(yLocal);
        yLocal = yQueue.template DeQue<T>();
        for (uint32_t pos = 0; pos < coreLength; pos += tileLength) {
            const uint32_t n = (coreLength - pos) < tileLength ? (coreLength - pos) : tileLength;
            DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm[pos], yLocal, params);
        }
        yQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> yQueue;
    GlobalTensor<T> valueGm;
    GlobalTensor<T> yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void fill_custom(GM_ADDR value, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelFill<DTYPE_VALUE> op;
    op.Init(value, y, tilingData);
    op.Process();
}
