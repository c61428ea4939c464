# ascendc-check-args: --shape 4,20:float32
# One row per core, written element by element with SetValue. A row of 20 floats is 80 bytes, so row 1
# starts in the middle of the cache line row 0 ends in: the two cores' write-backs overwrite each other.
# (rules/clean/gm_scalar_rows_aligned.py is the same answer with 32-float rows.)
project_json_src = """
[{"op": "RowScaleCustom", "language": "cpp",
  "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}],
  "output_desc": [{"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}]}]
"""

host_tiling_src = """
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowScaleCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, cols);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RowScaleCustom, RowScaleCustomTilingData)
}
"""

host_operator_src = """
#include "row_scale_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    RowScaleCustomTilingData tiling;
    const gert::StorageShape* xShape = context->GetInputShape(0);
    const gert::Shape& shape = xShape->GetOriginShape();
    if (shape.GetDimNum() != 2 || shape.GetDim(0) > 40) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_cols(shape.GetDim(1));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(shape.GetDim(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class RowScaleCustom : public OpDef {
public:
    explicit RowScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RowScaleCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"

class KernelRowScale {
public:
    __aicore__ inline KernelRowScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols)
    {
        this->cols = cols;
        xGm.SetGlobalBuffer((__gm__ float*)x + AscendC::GetBlockIdx() * cols, cols);
        yGm.SetGlobalBuffer((__gm__ float*)y + AscendC::GetBlockIdx() * cols, cols);
    }
    __aicore__ inline void Process()
    {
        for (uint32_t c = 0; c < cols; c++) {
            yGm.SetValue(c, xGm.GetValue(c) * 2.0f);  // expected-error {{cores 0 and 1 both write 'yGm' within the 64-byte cache line at byte 64}} [ASC604]
        }
    }

private:
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t cols;
};

extern "C" __global__ __aicore__ void row_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelRowScale op;
    op.Init(x, y, td.cols);
    op.Process();
}
"""

python_bind_src = """
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor row_scale_custom_impl_npu(const at::Tensor& x)
{
    at::Tensor result = at::empty_like(x);
    EXEC_NPU_CMD(aclnnRowScaleCustom, x, result);
    return result;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("row_scale_custom", &row_scale_custom_impl_npu, "y = 2 * x");
}
"""
