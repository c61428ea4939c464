// sim-check ASC958: a call the simulator does not model (an MrgSort whose arguments fit none of its catalogued overloads: false where sortedNum, a uint32_t[4], goes)
// sim-launch: block_dim=1 tiling=n:256 inputs=x:256:float32 outputs=y:256:float32
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void not_modelled(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.n);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * td.n * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, td.n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
#ifdef SIM_BUG
    LocalTensor<float> out = t[2 * td.n];
    MrgSortSrcList<float> list(t, t[td.n / 2], t[td.n], t[td.n + td.n / 2]);
    uint16_t counts[4] = {32, 32, 32, 32};
    MrgSort<float>(out, list, counts, false, 15, 1); // expected-finding ASC958
#endif
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, t, td.n);
}
