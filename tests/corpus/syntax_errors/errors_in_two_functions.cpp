// Softmax-per-row kernel with one mistake inside a class method and an independent one in the
// kernel entry function: recovery after the first must still find the second.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 1;

class KernelRowSoftmax {
public:
    __aicore__ inline KernelRowSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols)
    {
        this->rows = rows;
        this->cols = cols;
        xGm.SetGlobalBuffer((__gm__ float *)x, rows * cols);
        yGm.SetGlobalBuffer((__gm__ float *)y, rows * cols);
        pipe.InitBuffer(inQueue, BUFFER_NUM, cols * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, cols * sizeof(float));
        pipe.InitBuffer(workBuf, cols * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t r = GetBlockIdx(); r < rows; r += GetBlockNum()) {
            LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            DataCopy(xLocal, xGm[r * cols], cols);
            inQueue.EnQue(xLocal);
            Compute(r);
        }
    }

private:
    __aicore__ inline void Compute(uint32_t r)
    {
        LocalTensor<float> row = inQueue.DeQue<float>();
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        ReduceMax<float>(work, row, out, cols);
        float maxVal = work.GetValue(0);
        Adds(out, row, -maxVal, cols);
        Exp(out, out, cols);
        ReduceSum<float>(work, out, row, cols);
        float sum = work.GetValue(0) // expected-error {{expected ';' after expression}} [ASC001]
        Muls(out, out, 1.0f / sum, cols);
        outQueue.EnQue(out);
        inQueue.FreeTensor(row);
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopy(yGm[r * cols], yLocal, cols);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<TPosition::VECCALC> workBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t rows;
    uint32_t cols;
};

extern "C" __global__ __aicore__ void row_softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRowSoftmax op;
    op.Init(x, y, tilingData.rows, tilingData.cols;  // expected-error {{expected ')'}} [ASC001]
    op.Process();
}
