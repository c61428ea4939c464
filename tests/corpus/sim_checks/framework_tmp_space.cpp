// sim-check ASC951: CumSum without a sharedTmpBuffer takes its temporary space from the UB the TPipe's buffers
// leave (PopStackBuffer); over rows of 64 floats it needs 2 * 16 * 64 * 4 = 8192 bytes, and the bug leaves 4 KB
// sim-launch: block_dim=1 tiling=rows:4,cols:64 inputs=x:256:float32 outputs=y:256:float32
#include "kernel_operator.h"
using namespace AscendC;

constexpr CumSumConfig kRowSums{true, false, false};

extern "C" __global__ __aicore__ void framework_tmp(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.rows * td.cols);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.rows * td.cols);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> lastRow, other;
    pipe.InitBuffer(inQ, 1, td.rows * td.cols * sizeof(float));
    pipe.InitBuffer(outQ, 1, td.rows * td.cols * sizeof(float));
    pipe.InitBuffer(lastRow, td.cols * sizeof(float));
#ifdef SIM_BUG
    pipe.InitBuffer(other, 192 * 1024 - 3 * 1024 - 4 * 1024); // the UB left after it: 4 KB
#else
    pipe.InitBuffer(other, 160 * 1024); // 32 KB left
#endif
    LocalTensor<float> xLocal = inQ.AllocTensor<float>();
    DataCopy(xLocal, xGm, td.rows * td.cols);
    inQ.EnQue(xLocal);
    xLocal = inQ.DeQue<float>();
    LocalTensor<float> yLocal = outQ.AllocTensor<float>();
    LocalTensor<float> last = lastRow.Get<float>();
    const CumSumInfo info{td.rows, td.cols};
    CumSum<float, kRowSums>(yLocal, last, xLocal, info); // expected-finding ASC951
    outQ.EnQue(yLocal);
    inQ.FreeTensor(xLocal);
    yLocal = outQ.DeQue<float>();
    DataCopy(yGm, yLocal, td.rows * td.cols);
    outQ.FreeTensor(yLocal);
}
