// TBuf::GetWithOffset takes a byte offset that must be a multiple of 32 when the tensor is a vector or DMA
// operand. A tensor only read and written element by element (scalar SetValue/GetValue, SIMT code) may
// start anywhere.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void carve(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> tmp;
    pipe.InitBuffer(tmp, 16384);
    LocalTensor<float> a = tmp.GetWithOffset<float>(64, 0);
    LocalTensor<float> b = tmp.GetWithOffset<float>(64, 100);  // expected-error {{GetWithOffset at byte offset 100; offsets in VECCALC must be a multiple of 32 bytes}} [ASC405]
    uint32_t rows = 3;
    LocalTensor<half> c = tmp.GetWithOffset<half>(64, rows * 20);  // expected-error {{byte offset 60}} [ASC405]
    LocalTensor<half> d = tmp.GetWithOffset<half>(64, rows * 64 * sizeof(float));
    LocalTensor<int32_t> params = tmp.GetWithOffset<int32_t>(3, 8200);
    params.SetValue(0, 7);
    Duplicate(a, 0.0f, 64);
    Duplicate(b, 0.0f, 64);
    Duplicate(c, (half)0, 64);
    Duplicate(d, (half)0, 64);
}
