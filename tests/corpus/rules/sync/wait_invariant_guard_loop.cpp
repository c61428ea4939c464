// A wait under a guard that is the same in every iteration (a flag of the tiling, set before the loop) is
// judged like an unguarded one: whenever the guard holds, the first iteration waits for a flag nothing set.
// Guards that change between iterations (counters, the loop index) are not judged; see
// clean/sync_iteration_guards.cpp.
#include "kernel_operator.h"
using namespace AscendC;

class Biased {
public:
    __aicore__ inline void Init(GM_ADDR x, uint32_t rows, uint32_t hasBias)
    {
        this->rows = rows;
        this->hasBias = hasBias;
        xGm.SetGlobalBuffer((__gm__ float *)x, rows * 64);
        pipe.InitBuffer(work, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> t = work.Get<float>();
        for (uint32_t r = 0; r < rows; r++) {
            if (hasBias != 0) {
                WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);  // expected-error {{WaitFlag<HardEvent::MTE3_MTE2, event id 0> waits for a flag no SetFlag has set on any path here}} [ASC701]
            }
            DataCopy(t, xGm[r * 64], 64);
            PipeBarrier<PIPE_ALL>();
            DataCopy(xGm[r * 64], t, 64);
            PipeBarrier<PIPE_ALL>();
        }
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> work;
    GlobalTensor<float> xGm;
    uint32_t rows = 0;
    uint32_t hasBias = 0;
};

extern "C" __global__ __aicore__ void wait_invariant_guard_loop(GM_ADDR x, uint32_t rows, uint32_t hasBias)
{
    Biased op;
    op.Init(x, rows, hasBias);
    op.Process();
}
