// Event ids from FetchEventID are not constants, so flags of such a HardEvent are counted rather than told
// apart by id: a WaitFlag with no flag of its event set on any path hangs, flags left set at the end of
// every path stay set, and a set or wait with no partner of its event anywhere is unpaired.
#include "kernel_operator.h"
using namespace AscendC;

class RowScale {
public:
    __aicore__ inline void Init(GM_ADDR x, uint32_t rows)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, rows * 64);
        this->rows = rows;
        pipe.InitBuffer(work, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> t = work.Get<float>();
        event_t vToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        event_t mte2ToV = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        event_t vToMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        event_t sToMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        for (uint32_t r = 0; r < rows; ++r) {
            DataCopy(t, xGm[r * 64], 64);
            SetFlag<HardEvent::MTE2_V>(mte2ToV);
            WaitFlag<HardEvent::MTE2_V>(mte2ToV);
            Abs(t, t, 64);
            SetFlag<HardEvent::V_S>(vToS);
            WaitFlag<HardEvent::V_S>(vToS);
            float first = t.GetValue(0);
            WaitFlag<HardEvent::V_S>(vToS);  // expected-error {{WaitFlag<HardEvent::V_S> waits while no SetFlag of that event, whatever its id, has left a flag set on any path here}} [ASC701]
            Muls(t, t, first, 64);
            SetFlag<HardEvent::V_MTE3>(vToMte3);
            WaitFlag<HardEvent::V_MTE3>(vToMte3);
            SetFlag<HardEvent::S_MTE3>(sToMte3);  // expected-error {{SetFlag<HardEvent::S_MTE3> has no WaitFlag of the same event in the kernel}} [ASC702]
            DataCopy(xGm[r * 64], t, 64);
            SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
            WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        }
        SetFlag<HardEvent::V_MTE3>(vToMte3);
        SetFlag<HardEvent::V_MTE3>(vToMte3);  // expected-error {{still 1 flag of HardEvent::V_MTE3 is set when the kernel ends on every path: more SetFlag than WaitFlag of this event}} [ASC702]
        WaitFlag<HardEvent::V_MTE3>(vToMte3);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> work;
    GlobalTensor<float> xGm;
    uint32_t rows = 0;
};

extern "C" __global__ __aicore__ void row_scale(GM_ADDR x, uint32_t rows)
{
    RowScale op;
    op.Init(x, rows);
    op.Process();
}
