// A hook declared inside the loop body is a new, empty object in every iteration: the call at the top of the body
// never sees the hook the previous iteration stored (that one is gone), so y[i] stays x0 + i (only the direct
// increments), and nothing is reported.
#include "kernel_operator.h"
using namespace AscendC;

struct Hook {
    void const *target{nullptr};
    void (*invoke)(void const *){nullptr};

    __aicore__ inline void operator()() const
    {
        if (target) {
            invoke(target);
        }
    }
};

template <typename F>
__aicore__ inline void Trampoline(void const *target)
{
    (*static_cast<F const *>(target))();
}

struct Scale {
    __aicore__ inline void operator()() const { *value = *value * 100.0f; }
    float *value;
};

extern "C" __global__ __aicore__ void hook_per_iteration(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 1);
    yGm.SetGlobalBuffer((__gm__ float *)y, 4);
    float acc = xGm.GetValue(0);
    Scale scale{&acc};
    for (uint32_t i = 0; i < 4; ++i) {
        Hook hook;
        hook();
        yGm.SetValue(i, acc);
        acc = acc + 1.0f;
        hook.target = &scale;
        hook.invoke = &Trampoline<Scale>;
    }
}
