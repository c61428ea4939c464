# ascendc-check-args: --shape 128,512:float32 --shape 512,256:float32 --shape 256:float32
# A fixed 128 x 128 base that fits the whole 128 x 256 output but not one core's block: SetDim(2) makes the
# library split M into two blocks of 64 rows, the L0 search finds no baseM of 8 blocks in 4, and GetTiling
# returns -1 (the asc-devkit tiling gives 'ml0/nl0/kl0 is zero'; with SetDim(1) it returns 0).
project_json_src = """
[{"op": "LinearSplitCustom", "language": "cpp",
  "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
                 {"name": "w", "param_type": "required", "format": ["ND"], "type": ["float"]},
                 {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}],
  "output_desc": [{"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}]}]
"""

host_tiling_src = """
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearSplitCustomTilingData)
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LinearSplitCustom, LinearSplitCustomTilingData)
}
"""

host_operator_src = """
#include "linear_split_custom_tiling.h"
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
    mmTiling.SetDim(2);
    mmTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(rows, cols, inner);
    mmTiling.SetOrgShape(rows, cols, inner);
    mmTiling.SetFixSplit(128, 128, -1);
    mmTiling.SetBias(true);
    mmTiling.SetBufferSpace(-1, -1, -1);

    LinearSplitCustomTilingData tiling;
    // expected-error@+1 {{for the given shapes, GetTiling returns -1: the fixed baseM 128 spans 8 blocks of 16 rows, more than the 4 of the 64 rows each core gets when the library splits M = 128 over the cores}} [ASC602]
    if (mmTiling.GetTiling(tiling.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class LinearSplitCustom : public OpDef {
public:
    explicit LinearSplitCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("w").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LinearSplitCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using AMat = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BMat = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using CMat = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BiasMat = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void linear_split_custom(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
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
    mm.SetTensorA(xGm);
    mm.SetTensorB(wGm);
    mm.SetBias(biasGm);
    mm.IterateAll(yGm);
    mm.End();
}
"""

python_bind_src = """
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor linear_split_custom_impl_npu(const at::Tensor& x, const at::Tensor& w, const at::Tensor& bias)
{
    at::Tensor result = at::empty({x.size(0), w.size(1)}, x.options());
    EXEC_NPU_CMD(aclnnLinearSplitCustom, x, w, bias, result);
    return result;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("linear_split_custom", &linear_split_custom_impl_npu, "y = x @ w + bias");
}
"""
