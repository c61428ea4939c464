// Per-core results written to GM with SetValue. Cores whose elements lie closer than a 64-byte cache
// line overwrite each other when their data caches write the line back; 64 bytes apart is safe, and so
// is a write only block 0 makes.
#include "kernel_operator.h"

class KernelRowSums {
public:
    __aicore__ inline KernelRowSums() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR sums, GM_ADDR flags, GM_ADDR padded, uint32_t rows,
                                uint32_t cols)
    {
        this->rows = rows;
        this->cols = cols;
        xGm.SetGlobalBuffer((__gm__ float *)x, rows * cols);
        sumGm.SetGlobalBuffer((__gm__ float *)sums, rows);
        flagGm.SetGlobalBuffer((__gm__ int32_t *)flags + AscendC::GetBlockIdx() * 2, 2);
        paddedGm.SetGlobalBuffer((__gm__ float *)padded + AscendC::GetBlockIdx() * 16, 16);
    }
    __aicore__ inline void Process()
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint32_t blockNum = AscendC::GetBlockNum();
        for (uint32_t row = blockIdx; row < rows; row += blockNum) {
            float sum = 0.0f;
            for (uint32_t c = 0; c < cols; c++) {
                sum += xGm.GetValue(row * cols + c);
            }
            sumGm.SetValue(row, sum);  // expected-error {{neighbouring cores write elements of 'sumGm' 4 bytes apart: up to 16 cores share each 64-byte cache line}} [ASC604]
        }
        flagGm.SetValue(1, 1);  // expected-error {{neighbouring cores write elements of 'flagGm' 8 bytes apart: up to 8 cores share each 64-byte cache line}} [ASC604]
        paddedGm.SetValue(0, 1.0f);
        if (blockIdx == 0) {
            sumGm.SetValue(rows - 1, 0.0f);
        }
        AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE>(sumGm);
    }

private:
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> sumGm;
    AscendC::GlobalTensor<int32_t> flagGm;
    AscendC::GlobalTensor<float> paddedGm;
    uint32_t rows;
    uint32_t cols;
};

extern "C" __global__ __aicore__ void row_sums(GM_ADDR x, GM_ADDR sums, GM_ADDR flags, GM_ADDR padded,
                                               GM_ADDR workspace, GM_ADDR tiling)
{
    KernelRowSums op;
    op.Init(x, sums, flags, padded, 96, 40);
    op.Process();
}
