// The tiling key picks the pipeline: key 1 copies through one bound queue, key 2 computes through an input
// and an output queue, and Init gives buffers only to the queues of the chosen pipeline. The copy pipeline
// takes its tensor back from inQueue (a copy-paste slip), which no InitBuffer set up on that path, and the
// compute pipeline allocates from copyQueue. Neither queue has a buffer there: the DeQue and AllocTensor wait
// forever. A queue whose InitBuffer sits behind a tiling flag the analysis cannot follow is left alone.
#include "kernel_operator.h"
using namespace AscendC;

class KernelTwoPipelines {
public:
    __aicore__ inline KernelTwoPipelines() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t key, uint32_t length, uint32_t hasBias)
    {
        this->key = key;
        this->length = length;
        this->hasBias = hasBias;
        xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * length, length);
        yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * length, length);
        if (key == 1) {
            pipe.InitBuffer(copyQueue, 1, length * sizeof(float));
        } else {
            pipe.InitBuffer(inQueue, 1, length * sizeof(float));
            pipe.InitBuffer(outQueue, 1, length * sizeof(float));
        }
        if (hasBias != 0) {
            pipe.InitBuffer(biasQueue, 1, length * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        if (key == 1) {
            LocalTensor<float> t = copyQueue.AllocTensor<float>();
            DataCopy(t, xGm, length);
            copyQueue.EnQue(t);
            t = inQueue.DeQue<float>();  // expected-error {{DeQue on inQueue finds no tensor: nothing was enqueued on this path, and no InitBuffer gave the queue buffers}} [ASC204]
            DataCopy(yGm, t, length);
            copyQueue.FreeTensor(t);
        } else {
            LocalTensor<float> x = inQueue.AllocTensor<float>();
            DataCopy(x, xGm, length);
            inQueue.EnQue(x);
            x = inQueue.DeQue<float>();
            LocalTensor<float> y = copyQueue.AllocTensor<float>();  // expected-error {{AllocTensor on copyQueue blocks forever: no InitBuffer gave the queue any buffers on this path}} [ASC206]
            Abs(y, x, length);
            if (hasBias != 0) {
                LocalTensor<float> b = biasQueue.AllocTensor<float>();
                DataCopy(b, xGm, length);
                biasQueue.EnQue(b);
                b = biasQueue.DeQue<float>();
                Add(y, y, b, length);
                biasQueue.FreeTensor(b);
            }
            outQueue.EnQue(y);
            inQueue.FreeTensor(x);
            y = outQueue.DeQue<float>();
            DataCopy(yGm, y, length);
            outQueue.FreeTensor(y);
        }
    }

private:
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> copyQueue;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECIN, 1> biasQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t key = 0;
    uint32_t length = 0;
    uint32_t hasBias = 0;
};

extern "C" __global__ __aicore__ void two_pipelines(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelTwoPipelines op;
    if (TILING_KEY_IS(1)) {
        op.Init(x, y, 1, tilingData.length, tilingData.hasBias);
    } else {
        op.Init(x, y, 2, tilingData.length, tilingData.hasBias);
    }
    op.Process();
}
