// Relu kernel: the class definition is closed with '}' but not '};' (a classic C++ slip).
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelRelu {
public:
    __aicore__ inline KernelRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t tileLength)
    {
        this->blockLength = totalLength / GetBlockNum();
        this->tileLength = tileLength;
        xGm.SetGlobalBuffer((__gm__ float *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        uint32_t loops = blockLength / tileLength;
        for (uint32_t i = 0; i < loops; i++) {
            LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            DataCopy(xLocal, xGm[i * tileLength], tileLength);
            inQueue.EnQue(xLocal);

            LocalTensor<float> in = inQueue.DeQue<float>();
            LocalTensor<float> out = outQueue.AllocTensor<float>();
            Relu(out, in, tileLength);
            outQueue.EnQue(out);
            inQueue.FreeTensor(in);

            LocalTensor<float> yLocal = outQueue.DeQue<float>();
            DataCopy(yGm[i * tileLength], yLocal, tileLength);
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t blockLength;
    uint32_t tileLength;
    // expected-error@+1 {{expected ';' after}} [ASC001]
}

extern "C" __global__ __aicore__ void relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRelu op;
    op.Init(x, y, tilingData.totalLength, tilingData.tileLength);
    op.Process();
}
