// Init and Process both return early on the same isValid flag; the analysis knows that the loop only runs
// where InitBuffer ran. The loop keeps the output tile of every row (no FreeTensor after the copy-out).
#include "kernel_operator.h"
using namespace AscendC;

class KernelRowMin {
public:
    __aicore__ inline KernelRowMin() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols)
    {
        this->rows = rows;
        this->cols = cols;
        isValid = GetBlockIdx() < rows;
        if (!isValid) {
            return;
        }
        xGm.SetGlobalBuffer((__gm__ float *)x, rows * cols);
        yGm.SetGlobalBuffer((__gm__ float *)y, rows * 8);
        pipe.InitBuffer(inQueue, 1, cols * sizeof(float));
        pipe.InitBuffer(outQueue, 1, 8 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        if (!isValid) {
            return;
        }
        for (uint32_t r = 0; r < rows; r++) {
            LocalTensor<float> x = inQueue.AllocTensor<float>();
            DataCopy(x, xGm[r * cols], cols);
            inQueue.EnQue(x);
            x = inQueue.DeQue<float>();
            // expected-error@+1 {{each loop iteration takes a buffer of outQueue and does not free it; with 1 buffer, AllocTensor blocks forever on iteration 2}} [ASC207]
            LocalTensor<float> y = outQueue.AllocTensor<float>();
            Duplicate(y, 0.0f, 8);
            inQueue.FreeTensor(x);
            outQueue.EnQue(y);
            y = outQueue.DeQue<float>();
            DataCopy(yGm[r * 8], y, 8);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    uint32_t rows, cols;
    bool isValid;
};

extern "C" __global__ __aicore__ void row_min(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelRowMin op;
    op.Init(x, y, td.rows, td.cols);
    op.Process();
}
