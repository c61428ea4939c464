// Function objects kept one per stage, in an array, and a hook made from the stage chosen at run time
// (`MakeCallback(&aicWaitFuncList[stageId])` in catlass's grouped kernels): the hook's object is one of two, so
// calling it runs the operator() of the one whose number the pointer holds. Stage k adds k + 1 to the
// accumulator; y[i] is the accumulator after iteration i's hook (stage i % 2): x0 + 1, + 2, + 1, + 2, ...
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

template <typename F>
__aicore__ inline Hook Bind(F *f)
{
    Hook hook;
    hook.target = f;
    hook.invoke = &Trampoline<F>;
    return hook;
}

class Staged {
public:
    struct Stage {
        __aicore__ inline void operator()() const { ptr->acc = ptr->acc + static_cast<float>(id + 1); }
        __aicore__ inline uint32_t Id() const { return id; }
        Staged *ptr{nullptr};
        uint32_t id;
    };

    __aicore__ inline void Run(GM_ADDR x, GM_ADDR y, uint32_t n)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, 1);
        yGm.SetGlobalBuffer((__gm__ float *)y, 2 * n);
        acc = xGm.GetValue(0);
        stages[0].ptr = this;
        stages[0].id = 0;
        stages[1].ptr = this;
        stages[1].id = 1;
        for (uint32_t i = 0; i < n; ++i) {
            Hook hook = Bind(&stages[i % 2]);
            hook();
            yGm.SetValue(i, acc);
            Stage *stage = &stages[i % 2];
            yGm.SetValue(n + i, static_cast<float>(stage->id * 10 + stage->Id()));
        }
    }

    float acc;

private:
    Stage stages[2];
    GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void hook_stages(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    Staged op;
    op.Run(x, y, 4);
}
