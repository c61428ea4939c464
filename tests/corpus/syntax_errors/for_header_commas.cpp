// ReduceSum-per-row kernel: a 'for' header written with commas instead of semicolons.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 1;

class KernelRowSum {
public:
    __aicore__ inline KernelRowSum() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols)
    {
        this->rows = rows;
        this->cols = cols;
        xGm.SetGlobalBuffer((__gm__ float *)x, rows * cols);
        yGm.SetGlobalBuffer((__gm__ float *)y, rows);
        pipe.InitBuffer(inQueue, BUFFER_NUM, cols * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, 8 * sizeof(float));
        pipe.InitBuffer(workBuf, cols * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        uint32_t coreNum = GetBlockNum();
        for (uint32_t r = GetBlockIdx(), r < rows, r += coreNum) { // expected-error {{expected ';'}} [ASC001]
            LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            DataCopy(xLocal, xGm[r * cols], cols);
            inQueue.EnQue(xLocal);

            LocalTensor<float> row = inQueue.DeQue<float>();
            LocalTensor<float> sum = outQueue.AllocTensor<float>();
            LocalTensor<float> work = workBuf.Get<float>();
            ReduceSum<float>(sum, row, work, cols);
            outQueue.EnQue(sum);
            inQueue.FreeTensor(row);

            LocalTensor<float> out = outQueue.DeQue<float>();
            yGm.SetValue(r, out.GetValue(0));
            outQueue.FreeTensor(out);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<TPosition::VECCALC> workBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t rows;
    uint32_t cols;
};

extern "C" __global__ __aicore__ void row_sum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRowSum op;
    op.Init(x, y, tilingData.rows, tilingData.cols);
    op.Process();
}
