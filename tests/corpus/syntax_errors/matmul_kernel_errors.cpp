// Matmul (high-level API) kernel: an 'else if' without its condition, and a member template
// argument list whose '>' went missing.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename AT, typename BT, typename CT>
class MatmulKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, AT>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, BT>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, CT>;

    __aicore__ inline MatmulKernel() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &tiling)
    {
        this->tiling = tiling;
        aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ AT *>(a), static_cast<uint64_t>(tiling.M) * tiling.Ka);
        bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ BT *>(b), static_cast<uint64_t>(tiling.Kb) * tiling.N);
        cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ CT *>(c), static_cast<uint64_t>(tiling.M) * tiling.N);
    }
    __aicore__ inline void Process()
    {
        if (GetBlockIdx() >= static_cast<uint32_t>(tiling.usedCoreNum)) {
            return;
        }
        matmulObj.SetTensorA(aGlobal);
        matmulObj.SetTensorB(bGlobal);
        matmulObj.IterateAll(cGlobal);
        matmulObj.End();
    }

    Matmul<AType, BType, CType matmulObj; // expected-error {{expected '>'}} [ASC001]

private:
    GlobalTensor<AT> aGlobal;
    GlobalTensor<BT> bGlobal;
    GlobalTensor<CT> cGlobal;
    TCubeTiling tiling;
};

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                    GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(tilingData, tiling);
    TPipe pipe;
    if (TILING_KEY_IS(1)) {
        MatmulKernel<half, half, float> kernel;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), kernel.matmulObj, &tilingData.cubeTilingData);
        kernel.Init(a, b, c, tilingData.cubeTilingData);
        kernel.Process();
    } else if { // expected-error {{expected '('}} [ASC001]
        MatmulKernel<bfloat16_t, bfloat16_t, float> kernel;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), kernel.matmulObj, &tilingData.cubeTilingData);
        kernel.Init(a, b, c, tilingData.cubeTilingData);
        kernel.Process();
    }
}
