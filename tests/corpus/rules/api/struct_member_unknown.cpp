// Members of the AscendC parameter structs (and a library tiling struct) under names they do not have: each is "no member named ..." in
// the build. Union aliases the vendor declares (DataCopyParams' srcGap) and the mode flags are members too.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void pad_rows(GM_ADDR x, GM_ADDR y, uint32_t rows)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
    LocalTensor<float> rowsLocal = buf.Get<float>();
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 1024);
    yGm.SetGlobalBuffer((__gm__ float *)y, 1024);

    DataCopyExtParams copyIn{1, 100 * sizeof(float), 0, 0, 0};
    copyIn.blockCount = rows;
    DataCopyPadExtParams<float> pad{true, 0, 4, 0};
    pad.padValue = 0.0f;  // expected-error {{'DataCopyPadExtParams' has no member 'padValue'}} [ASC513]
    DataCopyPad(rowsLocal, xGm, copyIn, pad);

    DataCopyParams copyOut;
    copyOut.blockCount = 1;
    copyOut.blockLen = 13;
    copyOut.srcGap = 0;
    copyOut.dstStrides = 0;  // expected-error {{'DataCopyParams' has no member 'dstStrides'}} [ASC513]
    // a struct with constructors is no aggregate: no designated list initialises it ([dcl.init.list]/3.1)
    DataCopyPadExtParams<float> tail{.isPad = false, .leftPad = 0};  // expected-error {{initialization of non-aggregate type 'DataCopyPadExtParams' with a designated initializer list}} [ASC101]
    SumParams sum{.outter = 1, .inners = 8};  // expected-error {{'SumParams' has no member 'inners'}} [ASC513]
    BinaryRepeatParams repeat;
    repeat.repeatStrideMode = false;
    repeat.dstBlkStride = 1;
    Add(rowsLocal, rowsLocal, rowsLocal, 64, 1, repeat);
    DataCopy(yGm, rowsLocal, copyOut);
    (void)tail;
    // a library tiling struct the kernel fills itself: its members are the header's (catalog structs.toml)
    RmsNormTiling norm;
    norm.reciprocalOfHLen = 0.0625f;  // expected-error {{'RmsNormTiling' has no member 'reciprocalOfHLen'}} [ASC513]
    norm.reciprocalOfHLength = 0.0625f;
    (void)norm;
}
