// Lengths computed from constexpr tile sizes and BUFFER_NUM, not literals: 2 x (2 x 24 KB) for the inputs,
// 2 x 24 KB out, and a 64 KB reduction buffer = 208 KB of UB. A buffer sized by the tiling data is unknown
// and only the constant ones count.
#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = 6144;
constexpr uint32_t REDUCE_BYTES = TILE * sizeof(float) * 8 / 3;

extern "C" __global__ __aicore__ void reduce_tiles(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inX, inY;
    TQue<TPosition::VECOUT, BUFFER_NUM> outZ;
    TBuf<TPosition::VECCALC> reduceBuf, dynBuf;
    pipe.InitBuffer(inX, BUFFER_NUM, TILE * sizeof(float));
    pipe.InitBuffer(inY, BUFFER_NUM, TILE * sizeof(float));
    pipe.InitBuffer(dynBuf, td.extraBytes);
    pipe.InitBuffer(outZ, BUFFER_NUM, TILE * sizeof(float));
    pipe.InitBuffer(reduceBuf, REDUCE_BYTES);  // expected-error {{UB buffers need at least 212992 bytes; the 910B2 UB holds 196608}} [ASC301]
}
