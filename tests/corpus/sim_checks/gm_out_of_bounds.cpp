// sim-check ASC950: the last tile reads and writes past the end of x and y
// sim-launch: block_dim=2 tiling=blockLength:512,tileLength:256 inputs=x:1024:float32 outputs=y:1024:float32
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void gm_oob(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + td.blockLength * GetBlockIdx(), td.blockLength);
    yGm.SetGlobalBuffer((__gm__ float *)y + td.blockLength * GetBlockIdx(), td.blockLength);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    pipe.InitBuffer(inQ, 1, td.tileLength * sizeof(float));
#ifdef SIM_BUG
    const uint32_t tiles = td.blockLength / td.tileLength + 1; // one tile too many
#else
    const uint32_t tiles = td.blockLength / td.tileLength;
#endif
    for (uint32_t t = 0; t < tiles; ++t) {
        LocalTensor<float> buf = inQ.AllocTensor<float>();
        DataCopy(buf, xGm[t * td.tileLength], td.tileLength); // expected-finding ASC950
        inQ.EnQue(buf);
        buf = inQ.DeQue<float>();
        PipeBarrier<PIPE_ALL>(); // copied straight out: the DeQue orders MTE2 before V, not MTE3
        DataCopy(yGm[t * td.tileLength], buf, td.tileLength);
        PipeBarrier<PIPE_ALL>(); // MTE3 done reading before the next tile's MTE2 write
        inQ.FreeTensor(buf);
    }
}
