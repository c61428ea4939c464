// The tiling's mode picks the queues Init sets up and the pipeline Process runs; both test the same member.
// In the element-wise mode, Compute takes its input from the output queue (a copy-paste slip): that FIFO is
// empty on the first iteration, so the DeQue waits forever. The path where Init skipped the queues (mode 1)
// never reaches the loop, because the second test of `mode` on that path is known to be false.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t MODE_SUM = 1;
constexpr uint32_t MODE_NONE = 3;

class KernelSquaredDiff {
public:
    __aicore__ inline KernelSquaredDiff() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t mode, uint32_t tileNum, uint32_t tileLength)
    {
        this->mode = mode;
        this->tileNum = tileNum;
        this->tileLength = tileLength;
        xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * tileNum * tileLength, tileNum * tileLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * tileNum * tileLength, tileNum * tileLength);
        if (this->mode == MODE_NONE) {
            pipe.InitBuffer(inQueue, 1, tileLength * sizeof(float));
            pipe.InitBuffer(outQueue, 1, tileLength * sizeof(float));
        } else {
            pipe.InitBuffer(inQueue, 1, tileLength * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        if (this->mode == MODE_NONE) {
            for (uint32_t i = 0; i < tileNum; i++) {
                CopyIn(i);
                Compute();
                CopyOut(i);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm[i * tileLength], tileLength);
        inQueue.EnQue(xLocal);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = outQueue.DeQue<float>();  // expected-error {{DeQue on outQueue finds no tensor: nothing was enqueued on this path}} [ASC204]
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        Mul(yLocal, xLocal, xLocal, tileLength);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t i)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopy(yGm[i * tileLength], yLocal, tileLength);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t mode = 0;
    uint32_t tileNum = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void squared_diff(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSquaredDiff op;
    op.Init(x, y, tilingData.mode, tilingData.tileNum, tilingData.tileLength);
    op.Process();
}
