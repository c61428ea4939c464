// The copy length comes from the base-class constructor the derived constructor names; for 8 half
// rows that is 16 bytes, which rounds down to a blockLen of 0 blocks.
#include "kernel_operator.h"

template <typename T>
class CopyBase {
public:
    __aicore__ inline CopyBase(uint32_t rows, AscendC::TPipe *pipe) : pipe_(pipe)
    {
        rowBytes_ = rows * sizeof(T);
        pipe_->InitBuffer(inQueue_, 1, 1024);
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
        AscendC::DataCopy(t, this->xGm_, {1, static_cast<uint16_t>(this->rowBytes_ / 32), 0, 0});  // expected-error {{DataCopy with blockLen = 0}} [ASC402]
        this->inQueue_.FreeTensor(t);
    }
};

extern "C" __global__ __aicore__ void copy_rows(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    CopyRows<half> op(8, &pipe);
    op.Process(x);
}
