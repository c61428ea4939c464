// Clean: a TBuf streamed row by row; from the second row on, the load waits for the previous row's
// write-back (MTE3 -> MTE2) before it overwrites the buffer.
#include "kernel_operator.h"
using namespace AscendC;

struct NegTiling {
    uint32_t rows;
    uint32_t width;
};

class NegateRows {
public:
    __aicore__ inline NegateRows() {}
    __aicore__ inline void Init(GM_ADDR src, GM_ADDR dst, uint32_t rows, uint32_t width)
    {
        rowCount = rows;
        rowWidth = width;
        srcGm.SetGlobalBuffer((__gm__ float *)src, rows * width);
        dstGm.SetGlobalBuffer((__gm__ float *)dst, rows * width);
        pipe.InitBuffer(rowBuf, width * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount; ++r) {
            LocalTensor<float> row = rowBuf.Get<float>();
            if (r != 0) {
                SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID1);
                WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID1);
            }
            DataCopy(row, srcGm[r * rowWidth], rowWidth);
            SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
            Muls(row, row, -1.0f, rowWidth);
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            DataCopy(dstGm[r * rowWidth], row, rowWidth);
        }
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> rowBuf;
    GlobalTensor<float> srcGm;
    GlobalTensor<float> dstGm;
    uint32_t rowCount = 0;
    uint32_t rowWidth = 0;
};

extern "C" __global__ __aicore__ void negate_rows(GM_ADDR src, GM_ADDR dst, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    NegateRows op;
    op.Init(src, dst, td.rows, td.width);
    op.Process();
}
