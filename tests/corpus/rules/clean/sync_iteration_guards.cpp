// Waits guarded by the iteration: skipped in the first iteration (`i > 0`, `flat != start`), or by a
// counter of tiles already written (`pingPong >= 2`), with the matching sets guarded for the last
// iteration. Vendor double-buffer kernels hand flags over between iterations this way; none of these waits
// can run before its set, with constant or fetched event ids.
#include "kernel_operator.h"
using namespace AscendC;

class Guards {
public:
    __aicore__ inline void Init(GM_ADDR x, int64_t start, int64_t end)
    {
        this->start = start;
        this->end = end;
        xGm.SetGlobalBuffer((__gm__ float *)x, end * 64);
        pipe.InitBuffer(work, 2 * 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> t = work.Get<float>();
        for (uint32_t i = 0; i < 32; i++) {  // constant trip, beyond full unrolling
            if (i > 0) {
                WaitFlag<HardEvent::MTE3_V>(EVENT_ID1);
            }
            Abs(t, t, 64);
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            DataCopy(xGm[i * 64], t, 64);
            if (i < 31) {
                SetFlag<HardEvent::MTE3_V>(EVENT_ID1);
            }
        }
        PipeBarrier<PIPE_ALL>();  // the last write-back of t before the next loop reloads it
        event_t reuse = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_MTE2));
        for (int64_t flat = start; flat < end; flat++) {
            if (flat != start) {
                WaitFlag<HardEvent::MTE3_MTE2>(reuse);
            }
            DataCopy(t, xGm[flat * 64], 64);
            PipeBarrier<PIPE_ALL>();
            DataCopy(xGm[flat * 64], t, 64);
            if (flat != end - 1) {
                SetFlag<HardEvent::MTE3_MTE2>(reuse);
            }
        }
        for (int64_t tile = start; tile < end; tile++) {
            event_t slot = static_cast<event_t>(EVENT_ID2 + (pingPong & 1));
            if (pingPong >= 2) {
                WaitFlag<HardEvent::MTE3_MTE2>(slot);
            }
            DataCopy(t[(pingPong & 1) * 64], xGm[tile * 64], 64);
            PipeBarrier<PIPE_ALL>();
            DataCopy(xGm[tile * 64], t[(pingPong & 1) * 64], 64);
            SetFlag<HardEvent::MTE3_MTE2>(slot);
            pingPong++;
        }
        int64_t drain = pingPong < 2 ? pingPong : 2;
        for (int64_t k = 0; k < drain; k++) {
            WaitFlag<HardEvent::MTE3_MTE2>(static_cast<event_t>(EVENT_ID2 + ((pingPong - drain + k) & 1)));
        }
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> work;
    GlobalTensor<float> xGm;
    int64_t start = 0;
    int64_t end = 0;
    int64_t pingPong = 0;
};

extern "C" __global__ __aicore__ void iteration_guards(GM_ADDR x, int64_t start, int64_t end)
{
    Guards op;
    op.Init(x, start, end);
    op.Process();
}
