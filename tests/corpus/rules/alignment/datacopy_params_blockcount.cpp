// DataCopyParams.blockCount is a 12-bit field: 1..4095. Fields set after construction are followed.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void strided(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, 1 << 20);
    pipe.InitBuffer(buf, 160 * 1024);  // room for 5000 blocks: only the field's range is wrong
    LocalTensor<half> t = buf.Get<half>();
    DataCopyParams big{5000, 1, 0, 0};
    DataCopy(t, xGm, big);   // expected-error {{DataCopy with blockCount = 5000; DataCopyParams.blockCount must be in 1..4095}} [ASC402]
    DataCopyParams none;
    none.blockCount = 0;
    none.blockLen = 2;
    DataCopy(t, xGm, none);  // expected-error {{blockCount = 0}} [ASC402]
    DataCopyParams ok{4095, 1, 0, 0};
    DataCopy(t, xGm, ok);
}
