// A repeat holds 128 half or 64 float lanes: the continuous mask cannot ask for more.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void mask_lanes(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> fbuf;
    TBuf<TPosition::VECCALC> hbuf;
    pipe.InitBuffer(fbuf, 8192);
    pipe.InitBuffer(hbuf, 8192);
    LocalTensor<float> f = fbuf.Get<float>();
    LocalTensor<half> h = hbuf.Get<half>();
    // expected-error@+1 {{Add has mask 128, but a repeat of 32-bit elements holds 64 lanes; the continuous mask is 1..64}} [ASC505]
    Add(f, f, f, 128, 16, {1, 1, 1, 8, 8, 8});
    Add(f, f, f, 64, 32, {1, 1, 1, 8, 8, 8});
    Muls(h, h, (half)2.0, 256, 8, {1, 1, 8, 8});  // expected-error {{Muls has mask 256, but a repeat of 16-bit elements holds 128 lanes}} [ASC505]
    Muls(h, h, (half)2.0, 128, 8, {1, 1, 8, 8});
    Exp(f, f, 100, 4, {1, 1, 8, 8});  // expected-error {{Exp has mask 100}} [ASC505]
    Exp(f, f, 48, 4, {1, 1, 8, 8});
    uint64_t all = 0xFFFFFFFFFFFFFFFF;  // all ones is a bit mask, not a count of lanes
    Relu(f, f, all, 1, {1, 1, 8, 8});  // expected-error {{Relu has mask 0xFFFFFFFFFFFFFFFF, but a repeat of 32-bit elements holds 64 lanes}} [ASC505]
}
