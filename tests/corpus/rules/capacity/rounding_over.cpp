// Lengths that are not multiples of 32 bytes round up per buffer: 12 buffers of 16 KB + 4 bytes take
// 12 x 16416 = 196992 bytes, past the 196608 of UB, though the raw sum (196656) looks close.
#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t LEN = 16 * 1024 + 4;

extern "C" __global__ __aicore__ void rounding(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q0, q1, q2;
    TQue<TPosition::VECOUT, 2> q3, q4, q5;
    pipe.InitBuffer(q0, 2, LEN);
    pipe.InitBuffer(q1, 2, LEN);
    pipe.InitBuffer(q2, 2, LEN);
    pipe.InitBuffer(q3, 2, LEN);
    pipe.InitBuffer(q4, 2, LEN);
    pipe.InitBuffer(q5, 2, LEN);  // expected-error {{UB buffers need 196992 bytes}} [ASC301]
}
