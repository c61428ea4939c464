// Vector calls in the mask form with constant repeat counts: 300 and 256 do not fit the 8-bit field.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void repeat_times(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 128 * 1024);
    LocalTensor<float> t = buf.Get<float>();
    // expected-error@+1 {{Add repeats 300 times; the repeat count is at most 255}} [ASC501]
    Add(t, t, t, 64, 300, {1, 1, 1, 8, 8, 8});
    Add(t, t, t, 64, 255, {1, 1, 1, 8, 8, 8});
    Muls(t, t, 2.0f, 64, 256, {1, 1, 8, 8});  // expected-error {{Muls repeats 256 times}} [ASC501]
    Muls(t, t, 2.0f, 64, 256, {1, 1, 8, 8});  // ascendc-check: ignore[ASC501]
}
