// A derived class template reads a static constexpr member of its base class template through `this->`
// (NPUKernelBench GroupNormSwish: `this->scalarOne`, `constexpr static float scalarOne = 1.0;` in the base):
// the constant, which no object stores.
#include "kernel_operator.h"

template <typename T>
class AddOneBase {
public:
    constexpr static float scalarOne = 1.0;
    constexpr static uint32_t tileLength = 256;

protected:
    AscendC::TPipe *pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> queue_;
    AscendC::GlobalTensor<T> xGm_;
};

template <typename T>
class AddOne : public AddOneBase<T> {
public:
    __aicore__ inline void Process(GM_ADDR x, AscendC::TPipe *pipe)
    {
        this->pipe_ = pipe;
        this->xGm_.SetGlobalBuffer((__gm__ T *)x, this->tileLength);
        this->pipe_->InitBuffer(this->queue_, 1, this->tileLength * sizeof(T));
        AscendC::LocalTensor<T> t = this->queue_.template AllocTensor<T>();
        AscendC::DataCopy(t, this->xGm_, this->tileLength);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Adds(t, t, static_cast<T>(this->scalarOne), this->tileLength);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(this->xGm_, t, this->tileLength);
        this->queue_.FreeTensor(t);
    }
};

extern "C" __global__ __aicore__ void add_one(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    AddOne<float> op;
    op.Process(x, &pipe);
}
