// Clean: one TBuf carved into several tensors with GetWithOffset at 32-byte multiples.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t N = 256;

extern "C" __global__ __aicore__ void carve(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> tmp;
    pipe.InitBuffer(tmp, 4 * N * sizeof(float));
    LocalTensor<float> a = tmp.GetWithOffset<float>(N, 0);
    LocalTensor<float> b = tmp.GetWithOffset<float>(N, N * sizeof(float));
    LocalTensor<half> c = tmp.GetWithOffset<half>(N, 2 * N * sizeof(float));
    LocalTensor<half> d = tmp.GetWithOffset<half>(N, 2 * N * sizeof(float) + 96);
    Duplicate(a, 1.0f, N);
    Duplicate(b, 2.0f, N);
    Add(a, a, b, N);
    Duplicate(c, (half)0, N);
    Duplicate(d, (half)1, 16);
}
