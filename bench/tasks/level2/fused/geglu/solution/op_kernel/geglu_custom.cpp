/**
 * @file geglu_custom.cpp
 * @brief GegluCustom kernel: y = gelu_tanh(a) * b with [a, b] the two halves of x's last axis, fp16 / fp32.
 *
 * Rows are split over the cores and moved rowsPerTile at a time: two strided DataCopyPads pick the a-halves and
 * the b-halves of a tile's rows (each lands at a pitch of whole 32-byte blocks, zero padded), the math runs in
 * fp32 over the whole tile, and one DataCopyPad stores the output rows.
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class KernelGeglu {
    static constexpr bool IS_FLOAT = std::is_same<T, float>::value;

public:
    __aicore__ inline KernelGeglu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const GegluCustomTilingData &td)
    {
        const uint32_t blockIdx = GetBlockIdx();
        uint32_t firstRow = 0;
        if (blockIdx < td.formerNum) {
            myRows = td.formerRows;
            firstRow = td.formerRows * blockIdx;
        } else {
            myRows = td.tailRows;
            firstRow = td.formerRows * td.formerNum + td.tailRows * (blockIdx - td.formerNum);
        }
        half_ = td.halfCols;
        pitch = td.pitch;
        rowsPerTile = td.rowsPerTile;

        xGm.SetGlobalBuffer((__gm__ T *)x + static_cast<uint64_t>(firstRow) * 2 * half_,
                            static_cast<uint64_t>(myRows) * 2 * half_);
        yGm.SetGlobalBuffer((__gm__ T *)y + static_cast<uint64_t>(firstRow) * half_,
                            static_cast<uint64_t>(myRows) * half_);
        const uint32_t tileBytes = rowsPerTile * pitch * sizeof(T);
        pipe.InitBuffer(aQueue, td.bufferNum, tileBytes);
        pipe.InitBuffer(bQueue, td.bufferNum, tileBytes);
        pipe.InitBuffer(yQueue, td.bufferNum, tileBytes);
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(aFloatBuf, rowsPerTile * pitch * sizeof(float));
            pipe.InitBuffer(bFloatBuf, rowsPerTile * pitch * sizeof(float));
            pipe.InitBuffer(yFloatBuf, rowsPerTile * pitch * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t row = 0; row < myRows; row += rowsPerTile) {
            const uint32_t nRows = (myRows - row) < rowsPerTile ? (myRows - row) : rowsPerTile;
            CopyIn(row, nRows);
            Compute(nRows);
            CopyOut(row, nRows);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t nRows)
    {
        // one block per row; the other half of the row is skipped by the GM stride
        const uint32_t halfBytes = half_ * sizeof(T);
        DataCopyExtParams params{static_cast<uint16_t>(nRows), halfBytes, halfBytes, 0, 0};
        DataCopyPadExtParams<T> pad{true, 0, static_cast<uint8_t>(pitch - half_), 0};
        const uint64_t gmOff = static_cast<uint64_t>(row) * 2 * half_;
        LocalTensor<T> aLocal = aQueue.template AllocTensor<T>();
        LocalTensor<T> bLocal = bQueue.template AllocTensor<T>();
        DataCopyPad(aLocal, xGm[gmOff], params, pad);
        DataCopyPad(bLocal, xGm[gmOff + half_], params, pad);
        aQueue.EnQue(aLocal);
        bQueue.EnQue(bLocal);
    }

    __aicore__ inline void Compute(uint32_t nRows)
    {
        LocalTensor<T> aLocal = aQueue.template DeQue<T>();
        LocalTensor<T> bLocal = bQueue.template DeQue<T>();
        LocalTensor<T> yLocal = yQueue.template AllocTensor<T>();
        const uint32_t count = nRows * pitch;   // the zero padding keeps every element defined
        if constexpr (IS_FLOAT) {
            Calc(yLocal, aLocal, bLocal, count);
        } else {
            LocalTensor<float> aF = aFloatBuf.Get<float>();
            LocalTensor<float> bF = bFloatBuf.Get<float>();
            Cast(aF, aLocal, RoundMode::CAST_NONE, count);
            Cast(bF, bLocal, RoundMode::CAST_NONE, count);
            LocalTensor<float> yF = yFloatBuf.Get<float>();
            Calc(yF, aF, bF, count);
            Cast(yLocal, yF, RoundMode::CAST_RINT, count);
        }
        yQueue.EnQue(yLocal);
        aQueue.FreeTensor(aLocal);
        bQueue.FreeTensor(bLocal);
    }

    // y = gelu_tanh(a) * b = a / (1 + exp(-2u)) * b with u = sqrt(2 / pi) (a + 0.044715 a^3); y is its own buffer
    __aicore__ inline void Calc(const LocalTensor<float> &y, const LocalTensor<float> &a, const LocalTensor<float> &b,
                                uint32_t n)
    {
        Mul(y, a, a, n);
        Muls(y, y, 0.044715f, n);
        Adds(y, y, 1.0f, n);
        Mul(y, y, a, n);
        Muls(y, y, -1.595769122f, n);   // -2 sqrt(2 / pi)
        Exp(y, y, n);
        Adds(y, y, 1.0f, n);
        Div(y, a, y, n);
        Mul(y, y, b, n);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t nRows)
    {
        LocalTensor<T> yLocal = yQueue.template DeQue<T>();
        DataCopyExtParams params{static_cast<uint16_t>(nRows), static_cast<uint32_t>(half_ * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(row) * half_], yLocal, params);
        yQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> aQueue;
    TQue<TPosition::VECIN, 1> bQueue;
    TQue<TPosition::VECOUT, 1> yQueue;
    TBuf<TPosition::VECCALC> aFloatBuf;
    TBuf<TPosition::VECCALC> bFloatBuf;
    TBuf<TPosition::VECCALC> yFloatBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    uint32_t myRows = 0;
    uint32_t half_ = 0;
    uint32_t pitch = 0;
    uint32_t rowsPerTile = 0;
};

extern "C" __global__ __aicore__ void geglu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelGeglu<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
