/**
 * @file mmad_relu_mix_custom.cpp
 * @brief Host side of MmadReluMixCustom: c = relu(a @ b + bias), a [M, K] fp16, b [K, N] fp16, bias [N] fp32,
 *        c [M, N] fp32. A MIX 1:2 kernel on the basic API: per block the cube core computes 64 x 64 tiles of
 *        a @ b into a double-buffered GM workspace, its two vector cores add the bias and apply ReLU.
 */
#include "mmad_relu_mix_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE = 64;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &aShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape &bShape = context->GetInputShape(1)->GetOriginShape();
    if (aShape.GetDimNum() != 2 || bShape.GetDimNum() != 2 || aShape.GetDim(1) != bShape.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t m = static_cast<uint32_t>(aShape.GetDim(0));
    const uint32_t k = static_cast<uint32_t>(aShape.GetDim(1));
    const uint32_t n = static_cast<uint32_t>(bShape.GetDim(1));
    const uint32_t tilesM = (m + TILE - 1) / TILE;
    const uint32_t tilesN = (n + TILE - 1) / TILE;
    const uint32_t tiles = tilesM * tilesN;
    const uint32_t aicNum = ascendcPlatform.GetCoreNumAic();
    const uint32_t blockDim = tiles < aicNum ? tiles : aicNum;

    MmadReluMixCustomTilingData tiling;
    tiling.set_m(m);
    tiling.set_n(n);
    tiling.set_k(k);
    tiling.set_tilesM(tilesM);
    tiling.set_tilesN(tilesN);
    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    // two float tiles per block between its cube core and its vector cores
    const size_t userWorkspace = static_cast<size_t>(blockDim) * 2 * TILE * TILE * sizeof(float);
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = static_cast<size_t>(ascendcPlatform.GetLibApiWorkSpaceSize()) + userWorkspace;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *aShape = context->GetInputShape(0);
    const gert::Shape *bShape = context->GetInputShape(1);
    gert::Shape *cShape = context->GetOutputShape(0);
    cShape->SetDimNum(2);
    cShape->SetDim(0, aShape->GetDim(0));
    cShape->SetDim(1, bShape->GetDim(1));
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class MmadReluMixCustom : public OpDef {
public:
    explicit MmadReluMixCustom(const char *name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MmadReluMixCustom);
} // namespace ops
