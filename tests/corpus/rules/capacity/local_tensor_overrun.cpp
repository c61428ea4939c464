// Calls that run past the end of their local tensors: a copy of two tiles into a one-tile queue buffer, a
// vector op on the upper half of a TBuf that counts the whole buffer, a DataCopyPad of two rows of one.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE = 512;

class KernelScaleRows {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x, 8 * TILE);
        yGm.SetGlobalBuffer((__gm__ half *)y, 8 * TILE);
        pipe.InitBuffer(inQueue, 2, TILE * sizeof(half));
        pipe.InitBuffer(outQueue, 2, TILE * sizeof(half));
        pipe.InitBuffer(calcBuf, 2 * TILE * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < 4; i++) {
            LocalTensor<half> x = inQueue.AllocTensor<half>();
            DataCopy(x, xGm[i * 2 * TILE], 2 * TILE);  // expected-error {{DataCopy goes through 1024 x half = 2048 bytes of dst, but inQueue's buffer has 1024 bytes from that tensor's start}} [ASC304]
            inQueue.EnQue(x);
            x = inQueue.DeQue<half>();
            LocalTensor<float> wide = calcBuf.Get<float>();
            Cast(wide, x, RoundMode::CAST_NONE, TILE);
            Muls(wide[TILE], wide, 2.0f, TILE);
            Adds(wide[TILE], wide[TILE], 1.0f, 2 * TILE);  // expected-error {{Adds goes through 1024 x float = 4096 bytes of dst, but calcBuf's buffer has 2048 bytes}} [ASC304]
            LocalTensor<half> y = outQueue.AllocTensor<half>();
            Cast(y, wide[TILE], RoundMode::CAST_RINT, TILE);
            inQueue.FreeTensor(x);
            outQueue.EnQue(y);
            y = outQueue.DeQue<half>();
            DataCopy(yGm[i * TILE], y, TILE);
            DataCopyExtParams rows{2, TILE * sizeof(half), 0, 0, 0};
            DataCopyPad(yGm[i * TILE], y, rows);  // expected-error {{DataCopyPad goes through 2048 bytes (blockCount 2 x blockLen 1024 bytes) of src, but outQueue's buffer has 1024 bytes}} [ASC304]
            outQueue.FreeTensor(y);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    TBuf<TPosition::VECCALC> calcBuf;
    GlobalTensor<half> xGm, yGm;
};

extern "C" __global__ __aicore__ void scale_rows(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelScaleRows op;
    op.Init(x, y);
    op.Process();
}
