// Arange (ArithProgression's later name) fills half, float, int16_t or int32_t tensors on 910B; the
// element type of the tensor and the named T must agree.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void arange_types(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<int8_t> bytes = buf.Get<int8_t>();
    LocalTensor<float> values = buf.Get<float>();
    Arange(bytes, static_cast<int8_t>(0), static_cast<int8_t>(1), 256);  // expected-error {{Arange does not support int8_t on 910B2 (arch 2201); supported element types: half, float, int16_t, int32_t}} [ASC502]
    Arange<float>(bytes, 0.0f, 1.0f, 256);  // expected-error {{no matching function for call to 'Arange'}} [ASC101]
    Arange<float>(values, 0.0f, 1.0f, 256);
    Arange(values.ReinterpretCast<int32_t>(), 0, 1, 256);
}
