// A kernel checked without its op json: DTYPE_X and DTYPE_Y are whatever types the json would list, so
// casts and element types that involve them are not judged. The lowering reads them as float, so float
// itself is not judged either in such a kernel; casts between other types the kernel spells out are.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void to_float(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf;
    TBuf<TPosition::VECCALC> floatBuf;
    TBuf<TPosition::VECCALC> maskBuf;
    pipe.InitBuffer(inBuf, 1024);
    pipe.InitBuffer(floatBuf, 1024);
    pipe.InitBuffer(maskBuf, 1024);
    LocalTensor<DTYPE_X> in = inBuf.Get<DTYPE_X>();
    LocalTensor<float> wide = floatBuf.Get<float>();
    LocalTensor<DTYPE_Y> mask = maskBuf.Get<DTYPE_Y>();
    LocalTensor<half> narrow = inBuf.Get<half>();
    LocalTensor<int8_t> bytes = maskBuf.Get<int8_t>();
    Cast(wide, in, RoundMode::CAST_NONE, 256);
    Compare(mask, wide, wide, CMPMODE::LT, 256);
    Cast(bytes, wide, RoundMode::CAST_NONE, 256);
    Cast(narrow, bytes, RoundMode::CAST_ODD, 256);  // expected-error {{Cast from int8_t to half does not take RoundMode::CAST_ODD}} [ASC504]
}
