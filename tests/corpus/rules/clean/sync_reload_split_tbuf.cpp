// Clean: one TBuf split in two with GetWithOffset. The write-back reads the second half; the reload
// that follows fills the first half, which the write-back does not touch, and the second reload waits.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t HALF = 512;

extern "C" __global__ __aicore__ void split_halves(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> both;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4 * HALF);
    yGm.SetGlobalBuffer((__gm__ float *)y, 4 * HALF);
    pipe.InitBuffer(both, 2 * HALF * sizeof(float));
    LocalTensor<float> lo = both.GetWithOffset<float>(HALF, 0);
    LocalTensor<float> hi = both.GetWithOffset<float>(HALF, HALF * sizeof(float));

    DataCopy(lo, xGm, HALF);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Adds(hi, lo, 1.0f, HALF);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, hi, HALF);
    DataCopy(lo, xGm[HALF], HALF);
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    DataCopy(hi, xGm[2 * HALF], HALF);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(yGm[HALF], lo, HALF);
    DataCopy(yGm[2 * HALF], hi, HALF);
}
