// A derived kernel class whose base constructor (named in the init list) sets the copy length:
// the rules must see the value the base constructor stores, not the member's default of 0.
#include "kernel_operator.h"

constexpr uint32_t BLOCK_BYTES = 32;

template <typename T>
class CopyBase {
public:
    __aicore__ inline CopyBase(uint32_t rows, AscendC::TPipe *pipe) : pipe_(pipe)
    {
        rowBytes_ = rows * sizeof(T);
        pipe_->InitBuffer(inQueue_, 1, rowBytes_);
    }

protected:
    AscendC::TPipe *pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue_;
    AscendC::GlobalTensor<T> xGm_;
    uint32_t rowBytes_{0};
};

template <typename T>
class CopyRows : public CopyBase<T> {
public:
    __aicore__ inline CopyRows(uint32_t rows, AscendC::TPipe *pipe) : CopyBase<T>(rows, pipe) {}

    __aicore__ inline void Process(GM_ADDR x)
    {
        this->xGm_.SetGlobalBuffer((__gm__ T *)x);
        AscendC::LocalTensor<T> t = this->inQueue_.template AllocTensor<T>();
        AscendC::DataCopy(t, this->xGm_, {1, static_cast<uint16_t>(this->rowBytes_ / BLOCK_BYTES), 0, 0});
        this->inQueue_.FreeTensor(t);
    }
};

extern "C" __global__ __aicore__ void copy_rows(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    CopyRows<half> op(256, &pipe);
    op.Process(x);
}
