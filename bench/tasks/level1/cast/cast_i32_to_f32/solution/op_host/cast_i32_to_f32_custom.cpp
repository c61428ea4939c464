/**
 * @file cast_i32_to_f32_custom.cpp
 * @brief Host side of CastI32ToF32Custom: tiling over the AIV cores, shape and dtype inference, the OpDef.
 */
#include "cast_i32_to_f32_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t SPLIT_UNIT = 32;     // elements: 32-byte aligned core starts for every element size
constexpr uint32_t TILE_ALIGN = 64;     // elements: a whole vector repeat of 32-bit values
constexpr uint32_t MAX_TILE = 8192;
constexpr uint32_t IN_BYTES = 4;   // int32
constexpr uint32_t OUT_BYTES = 4;  // float32
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const uint32_t totalLength = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    if (context->GetInputDesc(0)->GetDataType() != ge::DT_INT32) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const uint32_t units = (totalLength + SPLIT_UNIT - 1) / SPLIT_UNIT;
    uint32_t usedCores = units < coreNum ? units : coreNum;
    usedCores = usedCores == 0 ? 1 : usedCores;
    const uint32_t unitsPerCore = units / usedCores;
    const uint32_t formerNum = units % usedCores;
    const uint32_t formerLength = (unitsPerCore + (formerNum > 0 ? 1 : 0)) * SPLIT_UNIT;
    const uint32_t tailLength = unitsPerCore * SPLIT_UNIT;

    // UB per element: x and y double-buffered
    const uint64_t bytesPerElem = BUFFER_NUM * (IN_BYTES + OUT_BYTES);
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > MAX_TILE ? MAX_TILE : tileLength;
    const uint32_t widest = (formerLength + TILE_ALIGN - 1) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > widest ? widest : tileLength;

    CastI32ToF32CustomTilingData tiling;
    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength(formerLength);
    tiling.set_tailLength(tailLength);
    tiling.set_tileLength(tileLength);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    context->SetBlockDim(usedCores);
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
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
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class CastI32ToF32Custom : public OpDef {
public:
    explicit CastI32ToF32Custom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(CastI32ToF32Custom);
} // namespace ops
