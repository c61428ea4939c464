// blockLen of 0 copies nothing; DataCopyPad's byte blockLen is at most 2097151.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void blocklen(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 1 << 22);
    pipe.InitBuffer(buf, 64 * 1024);
    LocalTensor<float> t = buf.Get<float>();
    DataCopyParams zero{4, 0, 0, 0};
    DataCopy(t, xGm, zero);  // expected-error {{DataCopy with blockLen = 0; blockLen (32-byte blocks) must be at least 1}} [ASC402]
    DataCopyExtParams huge{1, 3000000, 0, 0, 0};
    DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
    // expected-error@+1 {{DataCopyPad goes through 3000000 bytes (blockCount 1 x blockLen 3000000 bytes) of dst}} [ASC304]
    DataCopyPad(t, xGm, huge, pad);  // expected-error {{DataCopyPad with blockLen = 3000000 bytes; at most 2097151 bytes per block}} [ASC402]
    DataCopyExtParams empty{1, 0, 0, 0, 0};
    DataCopyPad(t, xGm, empty, pad);  // expected-error {{DataCopyPad with blockLen = 0; blockLen (bytes) must be at least 1}} [ASC402]
    DataCopyExtParams fine{2, 100, 0, 0, 0};
    DataCopyPad(t, xGm, fine, pad);
}
