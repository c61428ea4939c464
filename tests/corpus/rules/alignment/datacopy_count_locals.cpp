// Counts computed from constants through local variables are folded: 3 * 10 floats = 120 bytes.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void copy_locals(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 4096);
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> t = buf.Get<float>();
    uint32_t rows = 3;
    uint32_t cols = 10;
    uint32_t count = rows * cols;
    // expected-error@+1 {{DataCopy moves 30 x float = 120 bytes, not a multiple of 32 bytes; only the first 96 bytes (24 elements) are copied}} [ASC401]
    DataCopy(t, xGm, count);
    DataCopy(t, xGm, count + 2);                       // 32 floats = 128 bytes: fine
    DataCopyExtParams params{1, count * 4, 0, 0, 0};   // DataCopyPad takes exact bytes: fine
    DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
    DataCopyPad(t, xGm, params, pad);
}
