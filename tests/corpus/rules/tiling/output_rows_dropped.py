# ascendc-check-args: --shape 20,64:float32
# Rows split over 8 cores as rows / 8 each: with 20 rows, cores take 2 rows apiece and rows 16..19 are
# never written. The output's shape comes from the op's InferShape (y has x's shape).
project_json_src = """
[{"op": "RowScaleCustom", "language": "cpp",
  "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}],
  "output_desc": [{"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}]}]
"""

host_tiling_src = """
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowScaleCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
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
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t rows = shape.GetDim(0);
    tiling.set_rowsPerCore(rows / 8);
    tiling.set_cols(shape.GetDim(1));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(8);
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    return GRAPH_SUCCESS;
}
}

namespace ops {
class RowScaleCustom : public OpDef {
public:
    explicit RowScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RowScaleCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void row_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t first = AscendC::GetBlockIdx() * td.rowsPerCore;
    xGm.SetGlobalBuffer((__gm__ float*)x + first * td.cols, td.rowsPerCore * td.cols);
    yGm.SetGlobalBuffer((__gm__ float*)y + first * td.cols, td.rowsPerCore * td.cols);
    pipe.InitBuffer(inQueue, 1, td.cols * sizeof(float));
    pipe.InitBuffer(outQueue, 1, td.cols * sizeof(float));
    for (uint32_t row = 0; row < td.rowsPerCore; row++) {
        AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm[row * td.cols], td.cols);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        AscendC::Muls(yLocal, xLocal, 0.5f, td.cols);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
        yLocal = outQueue.DeQue<float>();
        AscendC::DataCopy(yGm[row * td.cols], yLocal, td.cols);  // expected-error {{the last 256 elements (1024 bytes) of output 'y' are written by no core}} [ASC607]
        outQueue.FreeTensor(yLocal);
    }
}
"""
