// Queue and buffer calls that name no element type. C++ does not deduce a template argument from the return
// type, so AllocTensor() and GetWithOffset() have no overload to call, and TBuf's Get() without one is private
// (it returns a TBufHandle). DeQue() without one is TQueBind's public TBufHandle overload: the same dequeue,
// handing back the raw buffer, which a kernel may drop and keep the tensor it enqueued (NPUKernelBench RmsNorm).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void untyped_calls(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> calcBuf;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 256);
    pipe.InitBuffer(inQueue, 1, 256 * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 256 * sizeof(float));
    pipe.InitBuffer(calcBuf, 256 * sizeof(float));

    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, 256);
    inQueue.EnQue(xLocal);
    inQueue.DeQue();
    auto yLocal = outQueue.AllocTensor();  // expected-error {{no matching member function for call to 'AllocTensor': the element type T cannot be deduced from the call and AllocTensor has no overload without one (TQueBind's is AllocBuffer); name it, as in AllocTensor<half>(...)}} [ASC101]
    outQueue.FreeTensor(yLocal);
    auto work = calcBuf.Get();  // expected-error {{no matching member function for call to 'Get': the element type T cannot be deduced from the call and TBuf's overloads without one are private and return a TBufHandle; name it, as in Get<half>(...)}} [ASC101]
    auto part = calcBuf.GetWithOffset(64, 0);  // expected-error {{no matching member function for call to 'GetWithOffset': the element type T cannot be deduced from the call and GetWithOffset has no overload without one; name it, as in GetWithOffset<half>(...)}} [ASC101]
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    Muls(out, xLocal, 2.0f, 256);
    inQueue.FreeTensor(xLocal);
    outQueue.EnQue(out);
    out = outQueue.DeQue<float>();
    DataCopy(yGm, out, 256);
    outQueue.FreeTensor(out);
}
