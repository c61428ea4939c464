// Type-erased hooks (an object's address beside the address of a function template instantiated for its class),
// the way catlass hands its epilogue synchronisation to a pipelined block: each iteration first runs the hook the
// previous iteration left, then stores its own, alternating between two function objects that reach back into
// the kernel object through a pointer member. y[i] is the accumulator after the hook left by iteration i - 1:
// x0, x0 + 1, (x0 + 1) * 2, (x0 + 1) * 2 + 1, ...; y[n] is the value after the hook left by the last iteration.
#include "kernel_operator.h"
using namespace AscendC;

struct Hook {
    void const *target{nullptr};
    void (*invoke)(void const *){nullptr};

    __aicore__ inline void operator()() const
    {
        if (target != nullptr && invoke) {
            invoke(target);
        }
    }
};

template <typename F>
__aicore__ inline void Trampoline(void const *target)
{
    (*static_cast<F const *>(target))();
}

template <typename F>
__aicore__ inline Hook Bind(F *f)
{
    Hook hook;
    hook.target = f;
    hook.invoke = &Trampoline<F>;
    return hook;
}

class Accumulate {
public:
    struct AddOne {
        __aicore__ inline void operator()() const { ptr->acc = ptr->acc + 1.0f; }
        Accumulate *ptr;
    };
    struct Twice {
        __aicore__ inline void operator()() const { ptr->acc = ptr->acc * 2.0f; }
        Accumulate *ptr;
    };
    struct Stage {
        uint32_t index;
        Hook hook;
    };

    __aicore__ inline void Run(GM_ADDR x, GM_ADDR y, uint32_t n)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, 1);
        yGm.SetGlobalBuffer((__gm__ float *)y, n + 1);
        acc = xGm.GetValue(0);
        AddOne addOne{this};
        Twice twice{this};
        for (uint32_t i = 0; i < n; ++i) {
            stages[0].hook();  // what the previous iteration left (nothing before the first)
            yGm.SetValue(i, acc);
            auto &stage = stages[0];
            stage.index = i;
            if (i % 2 == 0) {
                stage.hook = Bind(&addOne);
            } else {
                stage.hook = Bind(&twice);
            }
        }
        stages[0].hook();
        yGm.SetValue(n, acc);
    }

    float acc;

private:
    Stage stages[1];
    GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void hook_preload(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    Accumulate op;
    op.Run(x, y, 7);
}
