// No `using namespace AscendC`: every AscendC type written bare is an unknown type name. Each type is reported
// at its first use; qualified uses, a type the file declares itself and a using-declaration are fine.
#include "kernel_operator.h"
using AscendC::GlobalTensor;

struct TBuf {  // the project's own type of that name
    uint32_t bytes;
};

class Scale {
public:
    __aicore__ inline void Init(GM_ADDR x)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, 256);
        pipe.InitBuffer(que, 1, 256 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> t = que.AllocTensor<float>();  // expected-error {{unknown type name 'LocalTensor': AscendC types need 'AscendC::' or 'using namespace AscendC'}} [ASC509]
        AscendC::DataCopy(t, xGm, 256);
        que.EnQue(t);
        LocalTensor<float> u = que.DeQue<float>();
        AscendC::Muls(u, u, 2.0f, 256);
        AscendC::DataCopy(xGm, u, 256);
        que.FreeTensor(u);
    }

private:
    TPipe pipe;  // expected-error {{unknown type name 'TPipe'}} [ASC509]
    AscendC::TQue<AscendC::TPosition::VECIN, 1> que;
    GlobalTensor<float> xGm;
};

extern "C" __global__ __aicore__ void scale(GM_ADDR x)
{
    Scale op;
    op.Init(x);
    op.Process();
}
