// DataCopy into or out of an unaligned UB sub-tensor; chained offsets add up.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void copy_shifted(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 4096);
    yGm.SetGlobalBuffer((__gm__ float*)y, 4096);
    pipe.InitBuffer(buf, 8192);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t[5], xGm, 64);      // expected-error {{DataCopy dst starts 5 elements = 20 bytes}} [ASC404]
    DataCopy(t[8][4], xGm, 64);   // expected-error {{DataCopy dst starts 12 elements = 48 bytes}} [ASC404]
    DataCopy(t[8][8], xGm, 64);
    DataCopy(yGm[GetBlockIdx() * 64 + 3], t[64], 64);  // GM offsets need no 32-byte alignment
    uint32_t off = GetBlockIdx() * 8;
    DataCopy(t[off], xGm, 64);    // unknown offset: not checked
}
