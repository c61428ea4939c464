// A static_assert whose condition is false for code the kernel runs makes the program ill-formed ([dcl.pre]/6):
// the build stops with "static assertion failed". In a template it fails only for the instantiations whose
// arguments the condition rejects: Fill<float> builds, Fill<half> does not, and Scale is never given a
// two-byte type. A condition that holds, or one in a function no kernel calls with failing arguments, is fine.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__aicore__ inline void Fill(GlobalTensor<T> &g)
{
    static_assert(sizeof(T) == 4, "four-byte types only");  // expected-error {{static assertion failed: four-byte types only}} [ASC107]
    g.SetValue(0, (T)1);
}

template <typename T>
__aicore__ inline void Scale(GlobalTensor<T> &g)
{
    static_assert(sizeof(T) >= 4);
    g.SetValue(1, (T)2);
}

template <int32_t N>
__aicore__ inline void Tile(GlobalTensor<float> &g)
{
    static_assert(N % 8 == 0);  // expected-error {{static assertion failed}} [ASC107]
    g.SetValue(2, (float)N);
}

extern "C" __global__ __aicore__ void static_asserts(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    static_assert(true, "holds");
    GlobalTensor<float> f;
    f.SetGlobalBuffer((__gm__ float *)x, 8);
    Fill(f);
    Scale(f);
    Tile<16>(f);
    Tile<12>(f);
    GlobalTensor<half> h;
    h.SetGlobalBuffer((__gm__ half *)x, 8);
    Fill(h);
    static_assert(false, "not written yet");  // expected-error {{static assertion failed: not written yet}} [ASC107]
}
