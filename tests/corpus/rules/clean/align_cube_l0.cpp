// Clean: cube operands at whole fractals (512 bytes in L0A/L0B, 64 bytes in L0C).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void mmad_blocks(GM_ADDR a, GM_ADDR b, GM_ADDR tiling)
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
    Mmad(c1, a2, b2, p);
    Mmad(c1[256], a2[256], b2[512], p);
    Mmad(c1[16], a2[1024], b2[256], p);
}
