// Clean: early-return guards. Init returns before InitBuffer when the core has no work, the kernel returns
// for idle cores, and the loop body leaves early on the tail with its buffer freed first.
#include "kernel_operator.h"
using namespace AscendC;

class KernelRelu {
public:
    __aicore__ inline KernelRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols)
    {
        this->rows = rows;
        this->cols = cols;
        if (rows == 0 || cols == 0) {
            return;
        }
        xGm.SetGlobalBuffer((__gm__ float *)x, rows * cols);
        yGm.SetGlobalBuffer((__gm__ float *)y, rows * cols);
        pipe.InitBuffer(inQueue, 1, 1024 * sizeof(float));
        pipe.InitBuffer(outQueue, 1, 1024 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rows; r++) {
            LocalTensor<float> x = inQueue.AllocTensor<float>();
            if (cols > 1024) {
                inQueue.FreeTensor(x);
                return;
            }
            DataCopy(x, xGm[r * cols], 1024);
            inQueue.EnQue(x);
            x = inQueue.DeQue<float>();
            LocalTensor<float> y = outQueue.AllocTensor<float>();
            Relu(y, x, 1024);
            inQueue.FreeTensor(x);
            outQueue.EnQue(y);
            y = outQueue.DeQue<float>();
            DataCopy(yGm[r * cols], y, 1024);
            outQueue.FreeTensor(y);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    uint32_t rows, cols;
};

extern "C" __global__ __aicore__ void relu_rows(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (GetBlockIdx() >= td.usedCores) {
        return;
    }
    KernelRelu op;
    op.Init(x, y, td.rows, td.cols);
    op.Process();
}
