// Abs kernel whose kernel entry function never gets its closing '}' (answer truncated at the end).
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelAbs {
public:
    __aicore__ inline KernelAbs() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t blockLength, uint32_t tileLength)
    {
        this->blockLength = blockLength;
        this->tileLength = tileLength;
        xGm.SetGlobalBuffer((__gm__ half *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < blockLength / tileLength; i++) {
            LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
            DataCopy(xLocal, xGm[i * tileLength], tileLength);
            inQueue.EnQue(xLocal);
            LocalTensor<half> src = inQueue.DeQue<half>();
            LocalTensor<half> dst = outQueue.AllocTensor<half>();
            Abs(dst, src, tileLength);
            outQueue.EnQue(dst);
            inQueue.FreeTensor(src);
            LocalTensor<half> yLocal = outQueue.DeQue<half>();
            DataCopy(yGm[i * tileLength], yLocal, tileLength);
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    uint32_t blockLength;
    uint32_t tileLength;
};

// expected-note@+1 {{to match this '{'}}
extern "C" __global__ __aicore__ void abs_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(tilingData, tiling);
    KernelAbs op;
    op.Init(x, y, tilingData.blockLength, tilingData.tileLength);
    op.Process(); // expected-error {{expected '}' at end of input}} [ASC001]
