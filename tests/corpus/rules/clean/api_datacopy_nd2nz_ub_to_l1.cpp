// UB -> L1 in ND2NZ layout: DataCopy and DataCopyPad take two LocalTensors and Nd2NzParams (every architecture).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void nd2nz_ub_to_l1(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    TBuf<TPosition::A1> l1;
    GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 4096);
    pipe.InitBuffer(ub, 8192);
    pipe.InitBuffer(l1, 16384);
    LocalTensor<half> u = ub.Get<half>();
    LocalTensor<half> a = l1.Get<half>();
    DataCopy(u, xGm, 4096);
    PipeBarrier<PIPE_ALL>();
    Nd2NzParams nd2nz{1, 64, 64, 0, 64, 64, 1, 0};
    DataCopy(a, u, nd2nz);
    DataCopyPad(a[4096], u, DataCopyParams{64, 128, 0, 0}, nd2nz);
    DataCopyPad(a[4096], u, DataCopyExtParams{64, 128, 0, 0, 0}, nd2nz);
}
