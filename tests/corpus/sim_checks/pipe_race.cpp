// sim-check ASC965: the scalar unit reads a tile MTE2 copied in, ordered only for the vector pipe
// sim-launch: block_dim=1 tiling=n:256 inputs=x:256:float32,g:8:float32 outputs=y:256:float32
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void scale_by_first(GM_ADDR x, GM_ADDR g, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, gGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.n);
    gGm.SetGlobalBuffer((__gm__ float *)g, 8);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.n);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ, gQ;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, td.n * sizeof(float));
    pipe.InitBuffer(gQ, 1, 8 * sizeof(float));
    pipe.InitBuffer(outQ, 1, td.n * sizeof(float));
    LocalTensor<float> xLocal = inQ.AllocTensor<float>();
    LocalTensor<float> gLocal = gQ.AllocTensor<float>();
    DataCopy(xLocal, xGm, td.n);
    DataCopy(gLocal, gGm, 8);
    inQ.EnQue(xLocal);
    gQ.EnQue(gLocal);
    xLocal = inQ.DeQue<float>();
    gLocal = gQ.DeQue<float>();
#ifndef SIM_BUG
    // DeQue orders MTE2 before the vector pipe only; the scalar read needs its own flag
    event_t mte2ToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
    SetFlag<HardEvent::MTE2_S>(mte2ToS);
    WaitFlag<HardEvent::MTE2_S>(mte2ToS);
#endif
    float scale = gLocal.GetValue(0); // expected-finding ASC965
    LocalTensor<float> yLocal = outQ.AllocTensor<float>();
    Muls(yLocal, xLocal, scale, td.n);
    outQ.EnQue(yLocal);
    yLocal = outQ.DeQue<float>();
    DataCopy(yGm, yLocal, td.n);
    outQ.FreeTensor(yLocal);
    inQ.FreeTensor(xLocal);
    gQ.FreeTensor(gLocal);
}
