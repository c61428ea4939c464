// CompareScalar and Compares take half, float or int32_t sources on 2201: the vcmpvs intrinsics have no 8-bit form,
// and the CANN build of an int8_t condition fails ("the 2nd parameter maybe need a type '__ubuf__ half *'",
// KernelHive's where_broadcast#0). Cast the condition to half first.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void where_int8(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> cbuf;
    TBuf<TPosition::VECCALC> hbuf;
    TBuf<TPosition::VECCALC> mbuf;
    pipe.InitBuffer(cbuf, 1024);
    pipe.InitBuffer(hbuf, 2048);
    pipe.InitBuffer(mbuf, 256);
    LocalTensor<int8_t> cond = cbuf.Get<int8_t>();
    LocalTensor<half> condHalf = hbuf.Get<half>();
    LocalTensor<uint8_t> mask = mbuf.Get<uint8_t>();
    CompareScalar(mask, cond, static_cast<int8_t>(0), CMPMODE::NE, 1024);  // expected-error {{CompareScalar does not support int8_t on 910B2 (arch 2201); supported element types: half, float, int32_t}} [ASC502]
    Compares(mask, cond, static_cast<int8_t>(0), CMPMODE::NE, 1024);  // expected-error {{Compares does not support int8_t}} [ASC502]
    Cast(condHalf, cond, RoundMode::CAST_NONE, 1024);
    CompareScalar(mask, condHalf, static_cast<half>(0), CMPMODE::NE, 1024);
}
