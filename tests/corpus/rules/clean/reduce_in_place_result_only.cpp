// In-place reductions whose tensor is only read for the result afterwards (GetValue(0)), or is refilled
// before it is read again, or is read in the other branch of an `if`.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t ROW = 256;

extern "C" __global__ __aicore__ void row_norm(GM_ADDR x, GM_ADDR y, GM_ADDR flag)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> rowBuf;
    TBuf<TPosition::VECCALC> sqBuf;
    TBuf<TPosition::VECCALC> workBuf;
    pipe.InitBuffer(rowBuf, ROW * sizeof(float));
    pipe.InitBuffer(sqBuf, ROW * sizeof(float));
    pipe.InitBuffer(workBuf, ROW * sizeof(float));
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + ROW * GetBlockIdx(), ROW);
    yGm.SetGlobalBuffer((__gm__ float*)y + ROW * GetBlockIdx(), ROW);

    LocalTensor<float> row = rowBuf.Get<float>();
    LocalTensor<float> sq = sqBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    DataCopy(row, xGm, ROW);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Mul(sq, row, row, ROW);
    ReduceSum(sq, sq, work, ROW);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    float norm = sq.GetValue(0);
    SetFlag<HardEvent::S_V>(EVENT_ID0);
    WaitFlag<HardEvent::S_V>(EVENT_ID0);
    Duplicate(sq, norm, ROW);  // refilled: sq holds what the code says from here on
    Div(row, row, sq, ROW);
    if (GetBlockIdx() == 0) {
        ReduceMax(work, work, sq, ROW);
    } else {
        Abs(work, row, ROW);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, row, ROW);
}
