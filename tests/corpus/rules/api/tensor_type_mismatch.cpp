// A tensor declared with one element type and given a tensor of another: LocalTensor<float> and
// LocalTensor<half> are different classes, so each of these lines fails to compile. ReinterpretCast views
// the same bytes as another type and compiles.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void mixed_types(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> calcBuf;
    GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half *)x + GetBlockIdx() * 256, 256);
    pipe.InitBuffer(inQueue, 1, 256 * sizeof(half));
    pipe.InitBuffer(outQueue, 1, 256 * sizeof(float));
    pipe.InitBuffer(calcBuf, 256 * sizeof(float));

    LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
    DataCopy(xLocal, xGm, 256);
    inQueue.EnQue(xLocal);
    LocalTensor<float> xFloat = inQueue.DeQue<half>();  // expected-error {{no viable conversion from 'LocalTensor<half>' to 'LocalTensor<float>' in the initialisation of 'xFloat'}} [ASC106]
    LocalTensor<float> work = calcBuf.Get<float>();
    LocalTensor<int32_t> bits = work.ReinterpretCast<int32_t>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    yLocal = xLocal;  // expected-error {{no viable conversion from 'LocalTensor<half>' to 'LocalTensor<float>' in assignment}} [ASC106]
    LocalTensor<half> fromGm = xGm;  // expected-error {{no viable conversion from 'GlobalTensor<half>' to 'LocalTensor<half>' in the initialisation of 'fromGm'}} [ASC106]
    ShiftLeft(bits, bits, static_cast<int32_t>(1), 256);
    outQueue.FreeTensor(yLocal);
    inQueue.FreeTensor(xFloat);
}

__aicore__ inline void Halve(const LocalTensor<float> &t)
{
    Muls(t, t, 0.5f, 256);
}

extern "C" __global__ __aicore__ void wrong_argument(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(half));
    LocalTensor<half> t = buf.Get<half>();
    Halve(t);  // expected-error {{no viable conversion from 'LocalTensor<half>' to 'LocalTensor<float>' in argument 1 ('t') of 'Halve'}} [ASC106]
}

__aicore__ inline void CopyBytes(const GlobalTensor<int8_t> &dst, const LocalTensor<int8_t> &src)
{
    DataCopy(dst, src, 256);
}

extern "C" __global__ __aicore__ void explicit_casts(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    // an explicit cast views a tensor as another type (as ReinterpretCast does): no conversion error
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<half> yGm;
    yGm.SetGlobalBuffer((__gm__ half *)y + GetBlockIdx() * 128, 128);
    pipe.InitBuffer(outQueue, 1, 256);
    LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
    Duplicate(yLocal, static_cast<half>(0), 128);
    outQueue.EnQue(yLocal);
    yLocal = outQueue.DeQue<half>();
    CopyBytes((GlobalTensor<int8_t> &)yGm, (LocalTensor<int8_t> &)yLocal);
    outQueue.FreeTensor(yLocal);
}

// The queue methods take `const LocalTensor<T>&`: with T named, a tensor of another element type does not
// convert. Where T is deduced, any tensor does.
extern "C" __global__ __aicore__ void queue_template_argument(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * 256, 256);
    pipe.InitBuffer(outQueue, 1, 256 * sizeof(float));
    LocalTensor<int8_t> bytes = outQueue.AllocTensor<int8_t>();
    Duplicate(bytes.ReinterpretCast<float>(), 1.0f, 256);
    outQueue.EnQue<float>(bytes);  // expected-error {{no matching function for call to 'EnQue<float>': it takes a LocalTensor<float>, the argument is a LocalTensor<int8_t>}} [ASC101]
    LocalTensor<float> yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, 256);
    outQueue.FreeTensor<half>(yLocal);  // expected-error {{no matching function for call to 'FreeTensor<half>': it takes a LocalTensor<half>, the argument is a LocalTensor<float>}} [ASC101]
}
