// Clean: a class-style kernel whose tiles are 32-byte multiples, with the unaligned tail moved by
// DataCopyPad (byte-granular), never by DataCopy.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = 256;   // halves: 512 bytes

class KernelScaleTail {
public:
    __aicore__ inline KernelScaleTail() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t total)
    {
        this->total = total;
        xGm.SetGlobalBuffer((__gm__ half *)x, total);
        yGm.SetGlobalBuffer((__gm__ half *)y, total);
        pipe.InitBuffer(inQ, BUFFER_NUM, TILE * sizeof(half));
        pipe.InitBuffer(outQ, BUFFER_NUM, TILE * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        uint32_t tiles = total / TILE;
        for (uint32_t i = 0; i < tiles; ++i) {
            LocalTensor<half> xLocal = inQ.AllocTensor<half>();
            DataCopy(xLocal, xGm[i * TILE], TILE);
            inQ.EnQue(xLocal);
            LocalTensor<half> xIn = inQ.DeQue<half>();
            LocalTensor<half> yLocal = outQ.AllocTensor<half>();
            Muls(yLocal, xIn, (half)2.0, TILE);
            outQ.EnQue(yLocal);
            inQ.FreeTensor(xIn);
            LocalTensor<half> yOut = outQ.DeQue<half>();
            DataCopy(yGm[i * TILE], yOut, TILE);
            outQ.FreeTensor(yOut);
        }
        uint32_t tail = total - tiles * TILE;
        if (tail > 0) {
            LocalTensor<half> xLocal = inQ.AllocTensor<half>();
            DataCopyExtParams copy{1, static_cast<uint32_t>(tail * sizeof(half)), 0, 0, 0};
            DataCopyPadExtParams<half> pad{false, 0, 0, 0};
            DataCopyPad(xLocal, xGm[tiles * TILE], copy, pad);
            inQ.EnQue(xLocal);
            LocalTensor<half> xIn = inQ.DeQue<half>();
            LocalTensor<half> yLocal = outQ.AllocTensor<half>();
            Muls(yLocal, xIn, (half)2.0, TILE);
            outQ.EnQue(yLocal);
            inQ.FreeTensor(xIn);
            LocalTensor<half> yOut = outQ.DeQue<half>();
            DataCopyPad(yGm[tiles * TILE], yOut, copy);
            outQ.FreeTensor(yOut);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    uint32_t total;
};

extern "C" __global__ __aicore__ void scale_tail(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelScaleTail op;
    op.Init(x, y, td.totalLength);
    op.Process();
}
