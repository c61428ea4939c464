// A class kernel that streams rows through one TBuf: each iteration loads the row at the top and writes
// it back at the bottom, so iteration i+1's load races with iteration i's store. The row count comes
// from tiling: any run with two rows or more is affected.
#include "kernel_operator.h"
using namespace AscendC;

struct ClampTiling {
    uint32_t rows;
    uint32_t width;
};

class ClampRows {
public:
    __aicore__ inline ClampRows() {}
    __aicore__ inline void Init(GM_ADDR src, GM_ADDR dst, uint32_t rows, uint32_t width)
    {
        rowCount = rows;
        rowWidth = width;
        srcGm.SetGlobalBuffer((__gm__ half *)src, rows * width);
        dstGm.SetGlobalBuffer((__gm__ half *)dst, rows * width);
        pipe.InitBuffer(rowBuf, width * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount; ++r) {
            LoadRow(r);
            ClampRow();
            StoreRow(r);
        }
    }

private:
    __aicore__ inline void LoadRow(uint32_t r)
    {
        LocalTensor<half> row = rowBuf.Get<half>();
        DataCopy(row, srcGm[r * rowWidth], rowWidth);  // expected-error {{DataCopy reloads TBuf rowBuf while the previous iteration's DataCopy may still be writing it back to GM}} [ASC708]
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    }
    __aicore__ inline void ClampRow()
    {
        LocalTensor<half> row = rowBuf.Get<half>();
        Maxs(row, row, (half)0.0, rowWidth);
        Mins(row, row, (half)6.0, rowWidth);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    }
    __aicore__ inline void StoreRow(uint32_t r)
    {
        LocalTensor<half> row = rowBuf.Get<half>();
        DataCopy(dstGm[r * rowWidth], row, rowWidth);
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> rowBuf;
    GlobalTensor<half> srcGm;
    GlobalTensor<half> dstGm;
    uint32_t rowCount = 0;
    uint32_t rowWidth = 0;
};

extern "C" __global__ __aicore__ void clamp_rows(GM_ADDR src, GM_ADDR dst, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ClampRows op;
    op.Init(src, dst, td.rows, td.width);
    op.Process();
}
