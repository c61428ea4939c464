/**
 * @file scale_bias_relu.cpp
 * @brief y = relu(x * scale + bias) for fp16, TPipe-free, with coarse PIPE_ALL barriers.
 *
 * A deliberately simple single-buffer variant: every stage is fenced with PipeBarrier<PIPE_ALL>,
 * which is easy to reason about and good enough for small inputs. Tiling arrives as a plain
 * struct in GM.
 */
#include "kernel_operator.h"

struct ScaleBiasReluTiling {
    uint32_t totalLength;
    uint32_t blockLength;
    uint32_t tileLength;
    float scale;
    float bias;
};

class KernelScaleBiasRelu {
public:
    __aicore__ inline KernelScaleBiasRelu() = default;

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ScaleBiasReluTiling &tiling)
    {
        const uint32_t blockIdx = AscendC::GetBlockIdx();
        const uint32_t start = tiling.blockLength * blockIdx;
        // the last core may own fewer elements than blockLength
        length_ = start >= tiling.totalLength ? 0
                  : (tiling.totalLength - start < tiling.blockLength ? tiling.totalLength - start : tiling.blockLength);
        tileLength_ = tiling.tileLength;
        scale_ = static_cast<half>(tiling.scale);
        bias_ = static_cast<half>(tiling.bias);

        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(x) + start, length_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(y) + start, length_);
    }

    __aicore__ inline void Process()
    {
        AscendC::LocalMemAllocator<AscendC::Hardware::UB> allocator;
        AscendC::LocalTensor<half> xLocal = allocator.Alloc<AscendC::TPosition::VECIN, half>(tileLength_);
        AscendC::LocalTensor<half> yLocal = allocator.Alloc<AscendC::TPosition::VECOUT, half>(tileLength_);

        for (uint32_t offset = 0; offset < length_; offset += tileLength_) {
            const uint32_t count = (length_ - offset) < tileLength_ ? (length_ - offset) : tileLength_;
            AscendC::DataCopyExtParams copyParams{1, count * static_cast<uint32_t>(sizeof(half)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<half> padParams{false, 0, 0, 0};

            AscendC::DataCopyPad(xLocal, xGm_[offset], copyParams, padParams);
            AscendC::PipeBarrier<PIPE_ALL>();

            AscendC::Muls(yLocal, xLocal, scale_, count);
            AscendC::Adds(yLocal, yLocal, bias_, count);
            AscendC::Relu(yLocal, yLocal, count);
            AscendC::PipeBarrier<PIPE_ALL>();

            AscendC::DataCopyPad(yGm_[offset], yLocal, copyParams);
            AscendC::PipeBarrier<PIPE_ALL>();
        }
    }

private:
    AscendC::GlobalTensor<half> xGm_;
    AscendC::GlobalTensor<half> yGm_;
    uint32_t length_ = 0;
    uint32_t tileLength_ = 0;
    half scale_;
    half bias_;
};

extern "C" __global__ __aicore__ void scale_bias_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    AscendC::InitSocState();
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    const __gm__ ScaleBiasReluTiling *gmTiling = reinterpret_cast<const __gm__ ScaleBiasReluTiling *>(tiling);
    ScaleBiasReluTiling localTiling;
    localTiling.totalLength = gmTiling->totalLength;
    localTiling.blockLength = gmTiling->blockLength;
    localTiling.tileLength = gmTiling->tileLength;
    localTiling.scale = gmTiling->scale;
    localTiling.bias = gmTiling->bias;

    KernelScaleBiasRelu op;
    op.Init(x, y, localTiling);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void scale_bias_relu_custom_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *tiling)
{
    scale_bias_relu_custom<<<blockDim, nullptr, stream>>>(x, y, tiling);
}
#endif
