// Cube operands in L0A/L0B start on 512-byte fractals, L0C operands on 64 bytes.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void mmad_shifted(GM_ADDR a, GM_ADDR b, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::A2> aBuf;
    TBuf<TPosition::B2> bBuf;
    TBuf<TPosition::CO1> cBuf;
    pipe.InitBuffer(aBuf, 16384);
    pipe.InitBuffer(bBuf, 16384);
    pipe.InitBuffer(cBuf, 16384);
    LocalTensor<half> a2 = aBuf.Get<half>();
    LocalTensor<half> b2 = bBuf.Get<half>();
    LocalTensor<float> c1 = cBuf.Get<float>();
    MmadParams p;
    p.m = 16;
    p.n = 16;
    p.k = 16;
    Mmad(c1, a2[100], b2, p);   // expected-error {{Mmad fm starts 200 bytes into its A2 tensor; it must be a multiple of 512 bytes}} [ASC406]
    Mmad(c1, a2[256], b2, p);
    Mmad(c1, a2, b2[128], p);   // expected-error {{Mmad filter starts 256 bytes into its B2 tensor}} [ASC406]
    Mmad(c1[8], a2, b2, p);     // expected-error {{Mmad dst starts 32 bytes into its CO1 tensor; it must be a multiple of 64 bytes}} [ASC406]
    Mmad(c1[256], a2, b2, p);
}
