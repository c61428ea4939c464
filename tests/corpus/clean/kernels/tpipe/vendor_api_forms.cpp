// Vendor API forms the catalog once missed, in a correct kernel: the BroadCast spelling of Broadcast,
// GlobalTensor::ReinterpretCast, SwiGLU on whole tensors, the advanced Axpy with a scratch buffer; user overloads
// told apart by tensor kind and element type, IsSameType on a tensor type, and a block-scope alias naming a
// template argument.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t LEN = 256;

template <typename U>
__aicore__ inline void Zero(const U& dst)
{
    if constexpr (IsSameType<U, LocalTensor<float>>::value) {
        Duplicate(dst, 0.0f, LEN);
    } else {
        Duplicate(dst, (half)0, LEN);
    }
}

struct TwiceStrategy {
    __aicore__ inline float Factor() { return 2.0f; }
};

template <typename T, typename Strategy>
class KernelVendorForms {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float*)x, LEN);
        yGm.SetGlobalBuffer((__gm__ float*)y, LEN);
        pipe.InitBuffer(inQueue, 1, LEN * sizeof(float));
        pipe.InitBuffer(outQueue, 1, LEN * sizeof(float));
        pipe.InitBuffer(tmpBuf, 4 * LEN * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        Copy(xLocal, xGm);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        Zero(yLocal);
        Scale(yLocal, xLocal);
        LocalTensor<half> halfView = tmpBuf.Get<half>();
        Scale(halfView, halfView);
        LocalTensor<uint8_t> scratch = tmpBuf.Get<uint8_t>()[LEN * sizeof(float)];
        Axpy(yLocal, xLocal, (float)1.5, scratch, LEN);
        SwiGLU(yLocal, yLocal, xLocal, 1.0f);
        uint32_t dstShape[2] = {16, 16};
        uint32_t srcShape[2] = {16, 1};
        BroadCast<float, 2, 1>(yLocal, xLocal, dstShape, srcShape);
        inQueue.FreeTensor(xLocal);
        outQueue.EnQue(yLocal);
        yLocal = outQueue.DeQue<float>();
        Copy(yGm, yLocal);
        outQueue.FreeTensor(yLocal);
    }

private:
    // user overloads: the copy direction and the compute dtype pick the body
    __aicore__ inline void Copy(const LocalTensor<float>& dst, const GlobalTensor<float>& src)
    {
        DataCopyExtParams params{1, LEN * sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(dst, src, params, pad);
    }
    __aicore__ inline void Copy(const GlobalTensor<float>& dst, const LocalTensor<float>& src)
    {
        GlobalTensor<int32_t> words = dst.template ReinterpretCast<int32_t>();
        DataCopy(words, src.template ReinterpretCast<int32_t>(), LEN);
    }
    __aicore__ inline void Scale(const LocalTensor<float>& dst, const LocalTensor<float>& src)
    {
        Muls(dst, src, strategy.Factor(), LEN);
    }
    __aicore__ inline void Scale(const LocalTensor<half>& dst, const LocalTensor<half>& src)
    {
        Adds(dst, src, (half)1.0, LEN);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    Strategy strategy;
};

extern "C" __global__ __aicore__ void vendor_api_forms(GM_ADDR x, GM_ADDR y)
{
    using Strategy = TwiceStrategy;
    KernelVendorForms<float, Strategy> op;
    op.Init(x, y);
    op.Process();
}
