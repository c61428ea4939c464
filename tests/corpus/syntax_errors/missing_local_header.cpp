// Kernel of a Div op in a project: it includes a helper header that is not in the project, and
// its tiling-key dispatch has an 'if' condition without parentheses. (`if TILING_KEY_IS(1)` alone compiles:
// the vendor's macro brings its own.)
#include "kernel_operator.h"
#include "div_custom_common.h" // expected-warning {{cannot find include file 'div_custom_common.h'}} [ASC002]

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelDiv {
public:
    __aicore__ inline KernelDiv() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t blockLength, uint32_t tileLength)
    {
        this->blockLength = blockLength;
        this->tileLength = tileLength;
        xGm.SetGlobalBuffer((__gm__ T *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + blockLength * GetBlockIdx(), blockLength);
        zGm.SetGlobalBuffer((__gm__ T *)z + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < blockLength / tileLength; i++) {
            LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
            LocalTensor<T> yLocal = inQueueY.AllocTensor<T>();
            DataCopy(xLocal, xGm[i * tileLength], tileLength);
            DataCopy(yLocal, yGm[i * tileLength], tileLength);
            inQueueX.EnQue(xLocal);
            inQueueY.EnQue(yLocal);
            LocalTensor<T> a = inQueueX.DeQue<T>();
            LocalTensor<T> b = inQueueY.DeQue<T>();
            LocalTensor<T> c = outQueueZ.AllocTensor<T>();
            Div(c, a, b, tileLength);
            outQueueZ.EnQue(c);
            inQueueX.FreeTensor(a);
            inQueueY.FreeTensor(b);
            LocalTensor<T> zLocal = outQueueZ.DeQue<T>();
            DataCopy(zGm[i * tileLength], zLocal, tileLength);
            outQueueZ.FreeTensor(zLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    GlobalTensor<T> xGm, yGm, zGm;
    uint32_t blockLength;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void div_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if tilingData.mode == 1 { // expected-error {{expected '('}} [ASC001]
        KernelDiv<half> op;
        op.Init(x, y, z, tilingData.blockLength, tilingData.tileLength);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        KernelDiv<float> op;
        op.Init(x, y, z, tilingData.blockLength, tilingData.tileLength);
        op.Process();
    }
}
