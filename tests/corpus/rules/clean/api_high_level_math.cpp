// Element-wise library math on an 8 x 32 float tile: sin(x) rounded up, sign(x), then the row sums of
// sign(x) with the high-level Sum and the pair sums of x with PairReduceSum (one repeat of 64 lanes).
#include "kernel_operator.h"

constexpr uint32_t ROWS = 8;
constexpr uint32_t COLS = 32;
constexpr uint32_t TILE = ROWS * COLS;

extern "C" __global__ __aicore__ void sin_sign_sums(GM_ADDR x, GM_ADDR y, GM_ADDR rowSums, GM_ADDR workspace,
                                                    GM_ADDR tiling)
{
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    AscendC::GlobalTensor<float> sumGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, TILE);
    yGm.SetGlobalBuffer((__gm__ float *)y, TILE);
    sumGm.SetGlobalBuffer((__gm__ float *)rowSums, ROWS);

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> xBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> yBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> signBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sumBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> pairBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(xBuf, TILE * sizeof(float));
    pipe.InitBuffer(yBuf, TILE * sizeof(float));
    pipe.InitBuffer(signBuf, TILE * sizeof(float));
    pipe.InitBuffer(sumBuf, ROWS * sizeof(float));
    pipe.InitBuffer(pairBuf, 32 * sizeof(float));
    pipe.InitBuffer(tmpBuf, 8192);
    AscendC::LocalTensor<float> xLocal = xBuf.Get<float>();
    AscendC::LocalTensor<float> yLocal = yBuf.Get<float>();
    AscendC::LocalTensor<float> signLocal = signBuf.Get<float>();
    AscendC::LocalTensor<float> sumLocal = sumBuf.Get<float>();
    AscendC::LocalTensor<float> pairLocal = pairBuf.Get<float>();
    AscendC::LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();

    AscendC::DataCopy(xLocal, xGm, TILE);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);

    AscendC::Sin(yLocal, xLocal, tmp, TILE);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Ceil(yLocal, yLocal, tmp, TILE);
    AscendC::Sign(signLocal, xLocal, tmp, TILE);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::SumParams shape;
    shape.outter = ROWS;
    shape.inner = COLS;
    shape.n = COLS;
    AscendC::Sum(sumLocal, signLocal, tmp, shape);
    AscendC::PairReduceSum(pairLocal, xLocal, 1, 64, 1, 1, 8);

    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yGm, yLocal, TILE);
    AscendC::DataCopy(sumGm, sumLocal, ROWS);
}
