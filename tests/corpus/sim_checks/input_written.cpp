// sim-check ASC963: the result is stored into the input x as well as y (x is not declared in place)
// sim-launch: block_dim=2 tiling=blockLength:512,tileLength:256 inputs=x:1024:float32 outputs=y:1024:float32
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void input_written(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + td.blockLength * GetBlockIdx(), td.blockLength);
    yGm.SetGlobalBuffer((__gm__ float *)y + td.blockLength * GetBlockIdx(), td.blockLength);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, td.tileLength * sizeof(float));
    pipe.InitBuffer(outQ, 1, td.tileLength * sizeof(float));
    for (uint32_t t = 0; t < td.blockLength / td.tileLength; ++t) {
        LocalTensor<float> xLocal = inQ.AllocTensor<float>();
        DataCopy(xLocal, xGm[t * td.tileLength], td.tileLength);
        inQ.EnQue(xLocal);
        xLocal = inQ.DeQue<float>();
        LocalTensor<float> yLocal = outQ.AllocTensor<float>();
        Muls(yLocal, xLocal, 2.0f, td.tileLength);
        inQ.FreeTensor(xLocal);
        outQ.EnQue(yLocal);
        yLocal = outQ.DeQue<float>();
        DataCopy(yGm[t * td.tileLength], yLocal, td.tileLength);
#ifdef SIM_BUG
        DataCopy(xGm[t * td.tileLength], yLocal, td.tileLength); // expected-finding ASC963
#endif
        outQ.FreeTensor(yLocal);
    }
}
