// A local may not reuse a name of its own scope: a parameter in the function's outermost block, a variable of a
// for header in the body's outermost block, or another local of the same block (clang: "redefinition of 'x'").
#include "kernel_operator.h"
using namespace AscendC;

class KernelLerp {
public:
    __aicore__ inline void Init(GM_ADDR start, GM_ADDR end, GM_ADDR y, uint32_t length)
    {
        uint64_t start = 0;  // expected-error {{redefinition of 'start'}} [ASC515]
        startGm.SetGlobalBuffer((__gm__ float *)end + start, length);
        endGm.SetGlobalBuffer((__gm__ float *)end, length);
        yGm.SetGlobalBuffer((__gm__ float *)y, length);
        pipe.InitBuffer(buf, length * sizeof(float));
        for (uint32_t i = 0; i < 2; i++) {
            uint32_t i = 1;  // expected-error {{redefinition of 'i'}} [ASC515]
            tail = i;
        }
        uint32_t tiles = length / 64;
        uint32_t tiles = 1;  // expected-error {{redefinition of 'tiles'}} [ASC515]
        count = tiles * 64;
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> t = buf.Get<float>();
        DataCopy(t, startGm, count);
        DataCopy(yGm, t, count);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<float> startGm, endGm, yGm;
    uint32_t count = 0;
    uint32_t tail = 0;
};

extern "C" __global__ __aicore__ void lerp_custom(GM_ADDR start, GM_ADDR end, GM_ADDR y, GM_ADDR workspace,
                                                  GM_ADDR tiling)
{
    KernelLerp op;
    op.Init(start, end, y, 1024);
    op.Process();
}
