# A float field of a nested tiling struct (TILING_DATA_FIELD_DEF_STRUCT) read through a tiling pointer member.
project_json_src = """
[{"op": "ScaleCustom", "language": "cpp",
  "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}],
  "output_desc": [{"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}]}]
"""

host_tiling_src = """
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(InputParams)
    TILING_DATA_FIELD_DEF(int64_t, length);
    TILING_DATA_FIELD_DEF(float, scaleValue);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(InputParamsOp, InputParams)

BEGIN_TILING_DATA_DEF(ScaleCustomTilingData)
    TILING_DATA_FIELD_DEF_STRUCT(InputParams, inputParams);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaleCustom, ScaleCustomTilingData)
}
"""

host_operator_src = """
#include "scale_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScaleCustomTilingData tiling;
    int64_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    tiling.inputParams.set_length(total);
    tiling.inputParams.set_scaleValue(0.5f);
    tiling.set_tileLength(256);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ScaleCustom : public OpDef {
public:
    explicit ScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaleCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
using namespace AscendC;

class KernelScale {
public:
    __aicore__ inline KernelScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ScaleCustomTilingData *__restrict tiling)
    {
        this->tilingData = tiling;
        xGm.SetGlobalBuffer((__gm__ float*)x, 256);
        yGm.SetGlobalBuffer((__gm__ float*)y, 256);
        pipe.InitBuffer(inQueue, 1, 256 * sizeof(float));
        pipe.InitBuffer(outQueue, 1, 256 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm, 256);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        Muls(yLocal, xLocal, static_cast<float>(this->tilingData->inputParams.scaleValue), 256);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
        yLocal = outQueue.DeQue<float>();
        DataCopy(yGm, yLocal, 256);
        outQueue.FreeTensor(yLocal);
    }
private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    const ScaleCustomTilingData *__restrict tilingData;
};

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(ScaleCustomTilingData, tilingDataIn, tiling);
    const ScaleCustomTilingData *__restrict tilingData = &tilingDataIn;
    KernelScale op;
    op.Init(x, y, tilingData);
    op.Process();
}
"""
