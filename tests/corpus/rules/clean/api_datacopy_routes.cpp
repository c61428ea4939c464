// DataCopy routes real kernels use: GM -> VECIN/VECCALC, UB -> UB, VECOUT/VECIN -> GM, GM -> A1.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void copy_routes(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmp;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 1024);
    yGm.SetGlobalBuffer((__gm__ float *)y, 1024);
    pipe.InitBuffer(inQ, 1, 4096);
    pipe.InitBuffer(outQ, 1, 4096);
    pipe.InitBuffer(tmp, 4096);
    LocalTensor<float> t = tmp.Get<float>();
    DataCopy(t, xGm, 1024);
    LocalTensor<float> a = inQ.AllocTensor<float>();
    DataCopy(a, xGm, 1024);
    inQ.EnQue(a);
    LocalTensor<float> b = inQ.DeQue<float>();
    LocalTensor<float> c = outQ.AllocTensor<float>();
    Add(t, t, b, 1024);
    DataCopy(c, t, 1024);
    outQ.EnQue(c);
    LocalTensor<float> o = outQ.DeQue<float>();
    DataCopy(yGm, o, 1024);
    outQ.FreeTensor(o);
    inQ.FreeTensor(b);
}
