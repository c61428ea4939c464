/**
 * @file leaky_relu_custom.cpp
 * @brief Host side of LeakyReluCustom: reads the negative_slope attribute, splits the flattened
 *        input over the AIV cores in 32-byte units and sizes the UB tile.
 */
#include <algorithm>

#include "leaky_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ALIGN_BYTES = 32;
constexpr uint32_t MAX_TILE_BYTES = 16 * 1024;
constexpr float DEFAULT_SLOPE = 0.01f;

inline uint32_t CeilDiv(uint32_t a, uint32_t b)
{
    return b == 0 ? 0 : (a + b - 1) / b;
}
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    LeakyReluCustomTilingData tiling;
    const uint32_t totalLength = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    const uint32_t alignElems = ALIGN_BYTES / typeSize;

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const float *slopePtr = attrs->GetAttrPointer<float>(0);
    const float negativeSlope = slopePtr == nullptr ? DEFAULT_SLOPE : *slopePtr;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    // per-core length rounded up to 32 bytes; fewer cores for tiny inputs
    uint32_t blockLength = CeilDiv(CeilDiv(totalLength, coreNum), alignElems) * alignElems;
    blockLength = blockLength == 0 ? alignElems : blockLength;
    const uint32_t blockDim = CeilDiv(totalLength, blockLength);
    const uint32_t tileLength = std::min(blockLength, MAX_TILE_BYTES / typeSize);

    tiling.set_totalLength(totalLength);
    tiling.set_blockLength(blockLength);
    tiling.set_tileLength(tileLength);
    tiling.set_negativeSlope(negativeSlope);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    context->SetBlockDim(blockDim == 0 ? 1 : blockDim);
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class LeakyReluCustom : public OpDef {
public:
    explicit LeakyReluCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(LeakyReluCustom);
} // namespace ops
