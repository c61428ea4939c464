// Clean: rows of 13 floats (52 bytes) brought in with DataCopyPad, each row padded by 3 floats
// (12 bytes) to 64 bytes in UB, and written back with the exact byte count.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t ROWS = 16;
constexpr uint32_t COLS = 13;
constexpr uint32_t COLS_PAD = 16;

extern "C" __global__ __aicore__ void pad_rows(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, ROWS * COLS);
    yGm.SetGlobalBuffer((__gm__ float *)y, ROWS * COLS);
    pipe.InitBuffer(buf, ROWS * COLS_PAD * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopyExtParams rows{ROWS, COLS * sizeof(float), 0, 0, 0};
    DataCopyPadExtParams<float> pad{true, 0, COLS_PAD - COLS, 0.0f};
    DataCopyPad(t, xGm, rows, pad);
    PipeBarrier<PIPE_ALL>();
    Abs(t, t, ROWS * COLS_PAD);
    PipeBarrier<PIPE_ALL>();
    DataCopyPad(yGm, t, rows);
}
