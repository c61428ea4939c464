// The kernel function gives a TPipe to the matmul object while the kernel class fills its own TPipe; a
// helper block that builds a third pipe and gives it buffers is a third. Pipes used one after the other
// (Destroy() in between), or a pipe that is declared and never used, are not flagged (see
// tests/corpus/rules/clean/tpipes_one_at_a_time.cpp).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

class KernelGemmAct {
public:
    __aicore__ inline KernelGemmAct() {}
    __aicore__ inline void Init(GM_ADDR y)
    {
        yGm.SetGlobalBuffer((__gm__ float *)y, 1024);
        pipe.InitBuffer(outQueue, 1, 4096);  // expected-error {{TPipe 'pipe (declared on line 20)' is used while TPipe 'pipe (declared on line 29)' is still in use; a kernel has one TPipe at a time (Destroy() the first before using the next)}} [ASC211]
    }

    matmul::Matmul<matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>, matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void gemm_act(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelGemmAct op;
    TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTilingData);
    op.Init(y);
    {
        TPipe scratchPipe;
        TBuf<TPosition::VECCALC> scratch;
        scratchPipe.InitBuffer(scratch, 1024);  // expected-error {{TPipe 'scratchPipe' is used while TPipe 'pipe' is still in use}} [ASC211]
    }
}
