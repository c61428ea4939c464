// Clean: the same load-compute-store loop through queues. A VECIN buffer is only reused after
// FreeTensor/AllocTensor hand it back to MTE2, a VECOUT buffer after the write-back freed it: the queue
// operations order the pipes, no flag is needed.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t DEPTH = 2;

struct SquareTiling {
    uint32_t tiles;
    uint32_t tileLen;
};

class SquareTiles {
public:
    __aicore__ inline SquareTiles() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t tiles, uint32_t tileLen)
    {
        tileCount = tiles;
        len = tileLen;
        xGm.SetGlobalBuffer((__gm__ float *)x, tiles * tileLen);
        yGm.SetGlobalBuffer((__gm__ float *)y, tiles * tileLen);
        pipe.InitBuffer(inQ, DEPTH, tileLen * sizeof(float));
        pipe.InitBuffer(outQ, DEPTH, tileLen * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileCount; ++i) {
            LocalTensor<float> a = inQ.AllocTensor<float>();
            DataCopy(a, xGm[i * len], len);
            inQ.EnQue(a);
            LocalTensor<float> b = inQ.DeQue<float>();
            LocalTensor<float> c = outQ.AllocTensor<float>();
            Mul(c, b, b, len);
            outQ.EnQue(c);
            inQ.FreeTensor(b);
            LocalTensor<float> d = outQ.DeQue<float>();
            DataCopy(yGm[i * len], d, len);
            outQ.FreeTensor(d);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, DEPTH> inQ;
    TQue<TPosition::VECOUT, DEPTH> outQ;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t tileCount = 0;
    uint32_t len = 0;
};

extern "C" __global__ __aicore__ void square_tiles(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    SquareTiles op;
    op.Init(x, y, td.tiles, td.tileLen);
    op.Process();
}
