// Lengths kept in class members: Init stores constants (and a product of them) into members that the
// InitBuffer calls read later; the path-sensitive analysis follows the stored values. 2 x 64 KB in,
// 2 x 64 KB out = 256 KB of UB. The second kernel's rows of 4096 fit.
#include "kernel_operator.h"
using namespace AscendC;

class KernelRows {
public:
    __aicore__ inline KernelRows() {}
    __aicore__ inline void Init(uint32_t cols, uint32_t bufferNum)
    {
        this->cols = cols;
        this->rowBytes = cols * sizeof(float);
        pipe.InitBuffer(inQueue, bufferNum, rowBytes);
        pipe.InitBuffer(outQueue, bufferNum, this->cols * sizeof(float));  // expected-error {{UB buffers need 262144 bytes; the 910B2 UB holds 196608}} [ASC301]
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    uint32_t cols;
    uint32_t rowBytes;
};

extern "C" __global__ __aicore__ void wide_rows(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelRows op;
    op.Init(16384, 2);
}

extern "C" __global__ __aicore__ void narrow_rows(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelRows op;
    op.Init(4096, 2);
}
