// Clean: the loop's FreeTensor calls live in helper methods (passed the tensor by reference, and a member
// tensor freed by a no-argument helper); after inlining every iteration gives back what it takes.
#include "kernel_operator.h"
using namespace AscendC;

class KernelExp {
public:
    __aicore__ inline KernelExp() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t tiles)
    {
        this->tiles = tiles;
        xGm.SetGlobalBuffer((__gm__ float *)x, tiles * 512);
        yGm.SetGlobalBuffer((__gm__ float *)y, tiles * 512);
        pipe.InitBuffer(inQueue, 2, 512 * sizeof(float));
        pipe.InitBuffer(outQueue, 2, 512 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tiles; i++) {
            LocalTensor<float> x = inQueue.AllocTensor<float>();
            DataCopy(x, xGm[i * 512], 512);
            inQueue.EnQue(x);
            cur = inQueue.DeQue<float>();
            LocalTensor<float> y = outQueue.AllocTensor<float>();
            Exp(y, cur, 512);
            ReleaseInput();
            outQueue.EnQue(y);
            LocalTensor<float> out = outQueue.DeQue<float>();
            DataCopy(yGm[i * 512], out, 512);
            ReleaseOutput(out);
        }
    }

private:
    __aicore__ inline void ReleaseInput() { inQueue.FreeTensor(cur); }
    __aicore__ inline void ReleaseOutput(LocalTensor<float> &t) { outQueue.FreeTensor(t); }

    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    GlobalTensor<float> xGm, yGm;
    LocalTensor<float> cur;
    uint32_t tiles;
};

extern "C" __global__ __aicore__ void exp_helpers(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelExp op;
    op.Init(x, y, td.tiles);
    op.Process();
}
