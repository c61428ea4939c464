// InitGlobalMemory fills 16- and 32-bit element types only; an int8_t mask buffer cannot be cleared with it.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void clear_mask(GM_ADDR mask, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::GlobalTensor<int8_t> maskGm;
    maskGm.SetGlobalBuffer((__gm__ int8_t *)mask, 1024);
    AscendC::InitGlobalMemory(maskGm, 1024, static_cast<int8_t>(0));  // expected-error {{InitGlobalMemory does not support int8_t}} [ASC502]
}
