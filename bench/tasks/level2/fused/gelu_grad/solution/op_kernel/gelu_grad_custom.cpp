/**
 * @file gelu_grad_custom.cpp
 * @brief GeluGradCustom kernel: dx = dy * d/dx gelu_tanh(x), with s = sigmoid(2u): gelu' = s * (1 + 2c x (1 - s)(1 +
 *        3a x^2)), in fp32.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
} // namespace

template <typename T>
class KernelGeluGrad {
    static constexpr bool IS_FLOAT = std::is_same<T, float>::value;

public:
    __aicore__ inline KernelGeluGrad() {}

    __aicore__ inline void Init(GM_ADDR dy, GM_ADDR x, GM_ADDR dx, const GeluGradCustomTilingData &td)
    {
        const uint32_t blockIdx = GetBlockIdx();
        uint64_t coreStart = 0;
        uint32_t coreShare = 0;
        if (blockIdx < td.formerNum) {
            coreShare = td.formerLength;
            coreStart = static_cast<uint64_t>(td.formerLength) * blockIdx;
        } else {
            coreShare = td.tailLength;
            coreStart = static_cast<uint64_t>(td.formerLength) * td.formerNum +
                        static_cast<uint64_t>(td.tailLength) * (blockIdx - td.formerNum);
        }
        // shares are whole 32-byte blocks, so the last core stops at the end of the tensor
        if (coreStart >= td.totalLength) {
            coreLength = 0;
        } else {
            const uint64_t rest = td.totalLength - coreStart;
            coreLength = rest < coreShare ? static_cast<uint32_t>(rest) : coreShare;
        }
        tileLength = td.tileLength;

        dyGm.SetGlobalBuffer((__gm__ T *)dy + coreStart, coreLength);
        xGm.SetGlobalBuffer((__gm__ T *)x + coreStart, coreLength);
        dxGm.SetGlobalBuffer((__gm__ T *)dx + coreStart, coreLength);
        pipe.InitBuffer(dyQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(xQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(dxQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(tmpBuf0, tileLength * sizeof(float));
        pipe.InitBuffer(tmpBuf1, tileLength * sizeof(float));
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(dyFloatBuf, tileLength * sizeof(float));
            pipe.InitBuffer(xFloatBuf, tileLength * sizeof(float));
            pipe.InitBuffer(dxFloatBuf, tileLength * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t pos = 0; pos < coreLength; pos += tileLength) {
            const uint32_t n = (coreLength - pos) < tileLength ? (coreLength - pos) : tileLength;
            CopyIn(pos, n);
            Compute(n);
            CopyOut(pos, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t pos, uint32_t n)
    {
        LocalTensor<T> dyLocal = dyQueue.template AllocTensor<T>();
        LocalTensor<T> xLocal = xQueue.template AllocTensor<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(dyLocal, dyGm[pos], params, pad);
        DataCopyPad(xLocal, xGm[pos], params, pad);
        dyQueue.EnQue(dyLocal);
        xQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> dyLocal = dyQueue.template DeQue<T>();
        LocalTensor<T> xLocal = xQueue.template DeQue<T>();
        LocalTensor<T> dxLocal = dxQueue.template AllocTensor<T>();
        if constexpr (IS_FLOAT) {
            Calc(dxLocal, dyLocal, xLocal, n);
        } else {
            LocalTensor<float> dyF = dyFloatBuf.Get<float>();
            LocalTensor<float> xF = xFloatBuf.Get<float>();
            LocalTensor<float> dxF = dxFloatBuf.Get<float>();
            Cast(dyF, dyLocal, RoundMode::CAST_NONE, n);
            Cast(xF, xLocal, RoundMode::CAST_NONE, n);
            Calc(dxF, dyF, xF, n);
            Cast(dxLocal, dxF, RoundMode::CAST_RINT, n);
        }
        dxQueue.EnQue(dxLocal);
        dyQueue.FreeTensor(dyLocal);
        xQueue.FreeTensor(xLocal);
    }

    // dx from the inputs over n elements; the inputs are scratch and may be overwritten
    __aicore__ inline void Calc(const LocalTensor<float> &dx,
                                const LocalTensor<float> &dy,
                                const LocalTensor<float> &x,
                                uint32_t n)
    {
        LocalTensor<float> t0 = tmpBuf0.Get<float>();
        LocalTensor<float> t1 = tmpBuf1.Get<float>();
        Mul(t0, x, x, n);                 // x^2
        Muls(t1, t0, 0.044715f, n);
        Adds(t1, t1, 1.0f, n);
        Mul(t1, t1, x, n);                // u / c = x + a x^3
        Muls(t1, t1, -1.595769122f, n);
        Exp(t1, t1, n);
        Adds(t1, t1, 1.0f, n);
        Duplicate(dx, 1.0f, n);
        Div(t1, dx, t1, n);               // s = sigmoid(2u)
        Muls(dx, t1, -1.0f, n);
        Adds(dx, dx, 1.0f, n);            // 1 - s
        Mul(dx, dx, x, n);
        Muls(t0, t0, 0.134145000f, n);
        Adds(t0, t0, 1.0f, n);            // 1 + 3a x^2
        Mul(dx, dx, t0, n);
        Muls(dx, dx, 1.595769122f, n);
        Adds(dx, dx, 1.0f, n);
        Mul(dx, dx, t1, n);               // gelu'(x)
        Mul(dx, dx, dy, n);
    }

    __aicore__ inline void CopyOut(uint32_t pos, uint32_t n)
    {
        LocalTensor<T> dxLocal = dxQueue.template DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(dxGm[pos], dxLocal, params);
        dxQueue.FreeTensor(dxLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> dyQueue;
    TQue<TPosition::VECIN, 1> xQueue;
    TQue<TPosition::VECOUT, 1> dxQueue;
    TBuf<TPosition::VECCALC> tmpBuf0;
    TBuf<TPosition::VECCALC> tmpBuf1;
    TBuf<TPosition::VECCALC> dyFloatBuf;
    TBuf<TPosition::VECCALC> xFloatBuf;
    TBuf<TPosition::VECCALC> dxFloatBuf;
    GlobalTensor<T> dyGm;
    GlobalTensor<T> xGm;
    GlobalTensor<T> dxGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void gelu_grad_custom(GM_ADDR dy, GM_ADDR x, GM_ADDR dx,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelGeluGrad<DTYPE_DY> op;
    op.Init(dy, x, dx, tilingData);
    op.Process();
}
