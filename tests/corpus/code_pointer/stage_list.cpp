// Function objects kept one per stage and set up in a loop whose index is known only at run time, the way catlass's
// grouped kernels fill `aicWaitFuncList[stageId] = {this, stageId}` in their constructor: each element is
// brace-assigned (an aggregate: its only constructor is defaulted) through the element the index selects, and
// called directly (`list[1]()`) and as a member (`single()`). acc = x0 + (5 + 1) + (1 + 1) = x0 + 8.
#include "kernel_operator.h"
using namespace AscendC;

class Staged {
public:
    struct Stage {
        __aicore__ inline Stage() = default;
        __aicore__ inline void operator()() const { ptr->acc = ptr->acc + static_cast<float>(id + 1); }
        Staged *ptr{nullptr};
        uint32_t id;
    };

    __aicore__ inline Staged(uint32_t count)
    {
        for (uint32_t i = 0; i < count; ++i) {
            list[i] = {this, i};
        }
        single = {this, 5};
    }

    __aicore__ inline void Run(GM_ADDR x, GM_ADDR y)
    {
        GlobalTensor<float> xGm, yGm;
        xGm.SetGlobalBuffer((__gm__ float *)x, 1);
        yGm.SetGlobalBuffer((__gm__ float *)y, 1);
        acc = xGm.GetValue(0);
        single();
        list[1]();
        yGm.SetValue(0, acc);
    }

    float acc;

private:
    Stage list[2];
    Stage single;
};

extern "C" __global__ __aicore__ void stage_list(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    Staged op(2);
    op.Run(x, y);
}
