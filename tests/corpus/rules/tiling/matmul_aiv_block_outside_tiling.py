# ascendc-check-args: --shape 128,1024:float32 --shape 1024,512:float32 --shape 512:float32
# A MIX Matmul kernel tiled for one AIV (SetDim(1): one 128 x 512 block, all of C) and launched on
# usedCoreNum = 1 AI Core, which runs two AIVs: GetBlockIdx() is 0 and 1. The kernel offsets its tensors by
# the block index without returning early on AIV 1, so AIV 1 runs IterateAll with B and C moved by
# singleCoreN = N: it writes its own product one row down, over AIV 0's rows (and one row past C).
project_json_src = """
[{"op": "LinearOneBlockCustom", "language": "cpp",
  "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
                 {"name": "w", "param_type": "required", "format": ["ND"], "type": ["float"]},
                 {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}],
  "output_desc": [{"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}]}]
"""

host_tiling_src = """
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearOneBlockCustomTilingData)
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LinearOneBlockCustom, LinearOneBlockCustomTilingData)
}
"""

host_operator_src = """
#include "linear_one_block_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& xShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& wShape = context->GetInputShape(1)->GetOriginShape();
    const int32_t rows = static_cast<int32_t>(xShape.GetDim(0));
    const int32_t inner = static_cast<int32_t>(xShape.GetDim(1));
    const int32_t cols = static_cast<int32_t>(wShape.GetDim(1));

    matmul_tiling::MultiCoreMatmulTiling mmTiling(platform);
    mmTiling.SetDim(1);
    mmTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(rows, cols, inner);
    mmTiling.SetOrgShape(rows, cols, inner);
    mmTiling.SetFixSplit(128, 128, -1);
    mmTiling.SetBias(true);
    mmTiling.SetBufferSpace(-1, -1, -1);

    LinearOneBlockCustomTilingData tiling;
    if (mmTiling.GetTiling(tiling.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(tiling.mm.get_usedCoreNum());
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class LinearOneBlockCustom : public OpDef {
public:
    explicit LinearOneBlockCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("w").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LinearOneBlockCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using AMat = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BMat = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using CMat = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BiasMat = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void linear_one_block_custom(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    AscendC::TPipe pipe;
    matmul::Matmul<AMat, BMat, CMat, BiasMat> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.mm);
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> wGm;
    AscendC::GlobalTensor<float> biasGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), td.mm.M * td.mm.Ka);
    wGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(w), td.mm.Kb * td.mm.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), td.mm.N);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), td.mm.M * td.mm.N);
    const int32_t mBlocks = (td.mm.M + td.mm.singleCoreM - 1) / td.mm.singleCoreM;
    const int32_t mIdx = AscendC::GetBlockIdx() % mBlocks;
    const int32_t nIdx = AscendC::GetBlockIdx() / mBlocks;
    mm.SetTensorA(xGm[mIdx * td.mm.singleCoreM * td.mm.Ka]);
    mm.SetTensorB(wGm[nIdx * td.mm.singleCoreN]);
    mm.SetBias(biasGm[nIdx * td.mm.singleCoreN]);
    // expected-error@+1 {{AIV 1 of the MIX launch has no block in the Matmul tiling (1 block for 2 AIVs), yet its IterateAll writes a 128 x 512 block from element 512 of C, over the block AIV 0 writes from element 0: two cores write different products to the same elements}} [ASC609]
    mm.IterateAll(yGm[mIdx * td.mm.singleCoreM * td.mm.N + nIdx * td.mm.singleCoreN]);
    mm.End();
}
"""

python_bind_src = """
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor linear_one_block_custom_impl_npu(const at::Tensor& x, const at::Tensor& w, const at::Tensor& bias)
{
    at::Tensor result = at::empty({x.size(0), w.size(1)}, x.options());
    EXEC_NPU_CMD(aclnnLinearOneBlockCustom, x, w, bias, result);
    return result;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("linear_one_block_custom", &linear_one_block_custom_impl_npu, "y = x @ w + bias");
}
"""
