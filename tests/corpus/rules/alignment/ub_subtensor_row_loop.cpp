// Rows of 30 floats laid end to end in UB and processed one row at a time: row r starts at t[r * 30], 120
// bytes into the tensor for r = 1, off the 32-byte grid every vector operand needs. The same loop over rows
// padded to 32 floats is fine, as is a call only the first iteration makes and a loop of one trip.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t ROWS = 8;
constexpr uint32_t COLS = 30;
constexpr uint32_t COLS_PADDED = 32;

extern "C" __global__ __aicore__ void row_loop(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, ROWS * COLS_PADDED * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * ROWS * COLS, ROWS * COLS);
    DataCopy(t, xGm, ROWS * COLS);
    for (uint32_t r = 0; r < ROWS; r++) {
        // expected-error@+2 {{Adds dst starts 30 elements = 120 bytes into its tensor when r is 1; UB operands must be 32-byte aligned}} [ASC404]
        // expected-error@+1 {{Adds src starts 30 elements = 120 bytes into its tensor when r is 1}} [ASC404]
        Adds(t[r * COLS], t[r * COLS], 1.0f, COLS);
        Muls(t[r * COLS_PADDED], t[r * COLS_PADDED], 2.0f, COLS);
        if (r == 0) {
            Exp(t[r * COLS], t[r * COLS], COLS);
        }
    }
    for (uint32_t r = 0; r < 1; r++) {
        Abs(t[r * COLS], t[r * COLS], COLS);
    }
}
