/**
 * @file gelu_custom.cpp
 * @brief GELU (tanh approximation) for fp16 / fp32 / bf16; math always in fp32.
 *
 *   y = x * sigmoid(2 * c * (x + 0.044715 * x^3)),  c = sqrt(2 / pi)
 */
#include "kernel_operator.h"
#include "gelu_custom_tiling.h"

namespace gelu {
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float COEF_CUBE = 0.044715f;
constexpr float NEG_2C = -1.5957691216057308f; // -2 * sqrt(2 / pi)

template <typename T>
class GeluKernel {
    static constexpr bool kNeedCast = !std::is_same<T, float>::value;

public:
    __aicore__ inline GeluKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const GeluCustomTilingData *td)
    {
        const uint32_t idx = GetBlockIdx();
        uint64_t start = 0;
        if (idx < td->bigCoreNum) {
            length_ = td->bigCoreLength;
            start = static_cast<uint64_t>(idx) * td->bigCoreLength;
        } else {
            length_ = td->smallCoreLength;
            start = static_cast<uint64_t>(td->bigCoreNum) * td->bigCoreLength +
                    static_cast<uint64_t>(idx - td->bigCoreNum) * td->smallCoreLength;
        }
        if (start >= td->totalLength) {
            length_ = 0;
        } else if (start + length_ > td->totalLength) {
            length_ = static_cast<uint32_t>(td->totalLength - start);
        }
        tileLength_ = td->tileLength;

        xGm_.SetGlobalBuffer((__gm__ T *)x + start, length_);
        yGm_.SetGlobalBuffer((__gm__ T *)y + start, length_);
        pipe_.InitBuffer(inQueue_, BUFFER_NUM, tileLength_ * sizeof(T));
        pipe_.InitBuffer(outQueue_, BUFFER_NUM, tileLength_ * sizeof(T));
        pipe_.InitBuffer(xFloatBuf_, tileLength_ * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, tileLength_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t pos = 0; pos < length_; pos += tileLength_) {
            const uint32_t n = (length_ - pos) < tileLength_ ? (length_ - pos) : tileLength_;
            CopyIn(pos, n);
            Compute(n);
            CopyOut(pos, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t pos, uint32_t n)
    {
        LocalTensor<T> in = inQueue_.template AllocTensor<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(in, xGm_[pos], params, pad);
        inQueue_.EnQue(in);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> in = inQueue_.template DeQue<T>();
        LocalTensor<T> out = outQueue_.template AllocTensor<T>();
        LocalTensor<float> xf = xFloatBuf_.Get<float>();
        LocalTensor<float> t = tmpBuf_.Get<float>();

        if constexpr (kNeedCast) {
            Cast(xf, in, RoundMode::CAST_NONE, n);
        } else {
            DataCopy(xf, in, (n + 7) / 8 * 8);
        }
        Mul(t, xf, xf, n);           // x^2
        Muls(t, t, COEF_CUBE, n);    // a x^2
        Adds(t, t, 1.0f, n);         // 1 + a x^2
        Mul(t, t, xf, n);            // x + a x^3
        Muls(t, t, NEG_2C, n);
        Exp(t, t, n);
        Adds(t, t, 1.0f, n);
        Div(xf, xf, t, n);           // x / (1 + exp(-2c(x + a x^3)))

        if constexpr (kNeedCast) {
            Cast(out, xf, RoundMode::CAST_RINT, n);
        } else {
            DataCopy(out, xf, (n + 7) / 8 * 8);
        }
        outQueue_.EnQue(out);
        inQueue_.FreeTensor(in);
    }

    __aicore__ inline void CopyOut(uint32_t pos, uint32_t n)
    {
        LocalTensor<T> out = outQueue_.template DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[pos], out, params);
        outQueue_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueue_;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueue_;
    TBuf<TPosition::VECCALC> xFloatBuf_;
    TBuf<TPosition::VECCALC> tmpBuf_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> yGm_;
    uint32_t length_ = 0;
    uint32_t tileLength_ = 0;
};
} // namespace gelu

extern "C" __global__ __aicore__ void gelu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(GeluCustomTilingData);
    GET_TILING_DATA_WITH_STRUCT(GeluCustomTilingData, tilingData, tiling);
    gelu::GeluKernel<DTYPE_X> op;
    op.Init(x, y, &tilingData);
    op.Process();
}
