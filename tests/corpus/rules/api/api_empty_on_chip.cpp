// Advanced APIs that the vendor implements only for the 950 (arch 3510) and 5102: on 910B they compile
// and do nothing, so their outputs keep stale UB contents. The basic And and Compare do the work there.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void empty_on_910b(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> intBuf;
    TBuf<TPosition::VECCALC> floatBuf;
    TBuf<TPosition::VECCALC> maskBuf;
    pipe.InitBuffer(intBuf, 4096);
    pipe.InitBuffer(floatBuf, 4096);
    pipe.InitBuffer(maskBuf, 1024);
    LocalTensor<int16_t> bits = intBuf.Get<int16_t>();
    LocalTensor<float> values = floatBuf.Get<float>();
    LocalTensor<uint8_t> flags = maskBuf.Get<uint8_t>();
    BitwiseAnd(bits, bits, bits, 256);  // expected-error {{BitwiseAnd does nothing on 910B2 (arch 2201): the vendor compiles its body only for other architectures, so its outputs keep whatever they held}} [ASC514]
    And(bits, bits, bits, 256);
    Hypot(values, values, values, 256);  // expected-error {{Hypot does nothing on 910B2}} [ASC514]
    IsNan(flags, values, 256);  // expected-error {{IsNan does nothing on 910B2}} [ASC514]
    Compare(flags, values, values, CMPMODE::NE, 256);
    Where<float>(values, values, 0.0f, flags, 256);  // expected-error {{Where does nothing on 910B2}} [ASC514]
    Select(values, flags, values, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 256);
    Clamp(values, values, -1.0f, 1.0f, 256);  // expected-error {{Clamp does nothing on 910B2}} [ASC514]
    ClampMax(values, values, 1.0f, 256);
    ClampMin(values, values, -1.0f, 256);
    uint32_t seed0 = 1;
    uint32_t seed1 = 2;
    PhiloxRandom<7>(values, {seed0, seed1}, {seed0, seed1, seed0, seed1}, 256);  // expected-error {{PhiloxRandom does nothing on 910B2}} [ASC514]
}
