// A 16 x 16 half block is transposed with TransDataTo5HD (16 source and 16 destination rows of one
// 32-byte block each), duplicated with the masked vector Copy, and every row is averaged with Mean.
// The scratch tensors come from TBuf::AllocTensor and are given back with TBuf::FreeTensor.
#include "kernel_operator.h"

constexpr uint32_t ROWS = 16;
constexpr uint32_t COLS = 16;
constexpr uint32_t TILE = ROWS * COLS;

extern "C" __global__ __aicore__ void transpose_mean(GM_ADDR x, GM_ADDR y, GM_ADDR rowMean, GM_ADDR workspace,
                                                     GM_ADDR tiling)
{
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<half> yGm;
    AscendC::GlobalTensor<half> meanGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, TILE);
    yGm.SetGlobalBuffer((__gm__ half *)y, TILE);
    meanGm.SetGlobalBuffer((__gm__ half *)rowMean, ROWS);

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> srcBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> dstBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> copyBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> meanBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(srcBuf, TILE * sizeof(half));
    pipe.InitBuffer(dstBuf, TILE * sizeof(half));
    pipe.InitBuffer(copyBuf, TILE * sizeof(half));
    pipe.InitBuffer(meanBuf, 32);
    pipe.InitBuffer(tmpBuf, 1024);
    AscendC::LocalTensor<half> src = srcBuf.AllocTensor<half>();
    AscendC::LocalTensor<half> dst = dstBuf.AllocTensor<half>();
    AscendC::LocalTensor<half> copy = copyBuf.Get<half>();
    AscendC::LocalTensor<half> mean = meanBuf.Get<half>();
    AscendC::LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    mean.SetSize(ROWS);

    AscendC::DataCopy(src, xGm, TILE);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);

    AscendC::LocalTensor<half> srcRows[16];
    AscendC::LocalTensor<half> dstRows[16];
    for (int32_t i = 0; i < 16; i++) {
        srcRows[i] = src[i * COLS];
        dstRows[i] = dst[i * COLS];
    }
    AscendC::TransDataTo5HDParams params(false, false, 1, 0, 0);
    AscendC::TransDataTo5HD<half>(dstRows, srcRows, params);
    AscendC::PipeBarrier<PIPE_V>();

    uint32_t repeats = AscendC::DivCeil(TILE * sizeof(half), 256);
    AscendC::Copy(copy, dst, 128, repeats, {1, 1, 8, 8});
    AscendC::PipeBarrier<PIPE_V>();

    AscendC::MeanParams shape;
    shape.outter = ROWS;
    shape.inner = COLS;
    shape.n = COLS;
    AscendC::Mean<half, float>(mean, copy, tmp, shape);

    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yGm, copy, TILE);
    AscendC::DataCopy(meanGm, mean, ROWS);
    srcBuf.FreeTensor(src);
    dstBuf.FreeTensor(dst);
}
