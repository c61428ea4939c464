// A class keeps its input tile in a member LocalTensor; Compute frees it through a helper method and then
// reads a sub-tensor and a scalar of it. The helpers are inlined, so the member's buffer is tracked: the vector
// read is an error (a VECIN buffer's next copy-in may overtake it), the GetValue a warning.
#include "kernel_operator.h"
using namespace AscendC;

class KernelScale {
public:
    __aicore__ inline KernelScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t tiles)
    {
        this->tiles = tiles;
        xGm.SetGlobalBuffer((__gm__ float *)x, 8192);
        yGm.SetGlobalBuffer((__gm__ float *)y, 8192);
        pipe.InitBuffer(inQueue, 2, 1024 * sizeof(float));
        pipe.InitBuffer(outQueue, 2, 1024 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tiles; i++) {
            xLocal = inQueue.AllocTensor<float>();
            DataCopy(xLocal, xGm[i * 1024], 1024);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<float>();
            LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
            Release();
            Muls(yLocal, xLocal[0], 2.0f, 1024);  // expected-error {{Muls uses a tensor of inQueue after FreeTensor}} [ASC201]
            // a GetValue is done before the next AllocTensor (and its copy-in) is issued, and none since the free
            // can take the buffer: the rotation keeps its bytes (use_after_free_write.cpp)
            float first = xLocal.GetValue(0);  // expected-warning {{GetValue uses a tensor of inQueue after FreeTensor}} [ASC201]
            Adds(yLocal, yLocal, first, 1024);
            outQueue.EnQue(yLocal);
            yLocal = outQueue.DeQue<float>();
            DataCopy(yGm[i * 1024], yLocal, 1024);
            outQueue.FreeTensor(yLocal);
        }
    }
    __aicore__ inline void Release() { inQueue.FreeTensor(xLocal); }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    GlobalTensor<float> xGm, yGm;
    LocalTensor<float> xLocal;
    uint32_t tiles;
};

extern "C" __global__ __aicore__ void scale_member(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelScale op;
    op.Init(x, y, td.tiles);
    op.Process();
}
