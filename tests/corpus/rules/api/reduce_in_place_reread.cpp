// A row softmax that sums the exponentials in place: ReduceSum(expRow, expRow, ...) leaves the sum in
// expRow[0], and the division then reads expRow as the exponentials again. The max step reduces into its own
// tensor and is fine.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t ROW = 256;

extern "C" __global__ __aicore__ void softmax_row(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> rowBuf;
    TBuf<TPosition::VECCALC> expBuf;
    TBuf<TPosition::VECCALC> maxBuf;
    TBuf<TPosition::VECCALC> workBuf;
    pipe.InitBuffer(rowBuf, ROW * sizeof(float));
    pipe.InitBuffer(expBuf, ROW * sizeof(float));
    pipe.InitBuffer(maxBuf, 32);
    pipe.InitBuffer(workBuf, ROW * sizeof(float));
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + ROW * GetBlockIdx(), ROW);
    yGm.SetGlobalBuffer((__gm__ float*)y + ROW * GetBlockIdx(), ROW);

    LocalTensor<float> row = rowBuf.Get<float>();
    LocalTensor<float> expRow = expBuf.Get<float>();
    LocalTensor<float> rowMax = maxBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    DataCopy(row, xGm, ROW);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    ReduceMax(rowMax, row, work, ROW);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    float maxValue = rowMax.GetValue(0);
    SetFlag<HardEvent::S_V>(EVENT_ID0);
    WaitFlag<HardEvent::S_V>(EVENT_ID0);
    Adds(expRow, row, -maxValue, ROW);
    Exp(expRow, expRow, ROW);
    ReduceSum(expRow, expRow, work, ROW);
    SetFlag<HardEvent::V_S>(EVENT_ID1);
    WaitFlag<HardEvent::V_S>(EVENT_ID1);
    float sum = expRow.GetValue(0);
    SetFlag<HardEvent::S_V>(EVENT_ID1);
    WaitFlag<HardEvent::S_V>(EVENT_ID1);
    Muls(row, expRow, 1.0f / sum, ROW);  // expected-error {{Muls reads the tensor ReduceSum reduced in place: its first element(s) now hold the ReduceSum result, not the data}} [ASC512]
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, row, ROW);
}
