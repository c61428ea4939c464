/**
 * @file where_custom.cpp
 * @brief Host side of WhereCustom: tiling over the AIV cores, shape and dtype inference, the OpDef.
 */
#include "where_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t SPLIT_UNIT = 32;     // elements: one 32-byte block of the bool condition per unit
constexpr uint32_t TILE_ALIGN = 256;    // elements: whole Compare repeats for fp16 and fp32
constexpr uint32_t MAX_TILE = 8192;
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const uint32_t totalLength = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    const ge::DataType dtype = context->GetInputDesc(1)->GetDataType();
    uint32_t typeSize = 0;
    if (dtype == ge::DT_FLOAT16) {
        typeSize = 2;
    } else if (dtype == ge::DT_FLOAT) {
        typeSize = 4;
    } else {
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

    // UB per element: the bool condition, x1, x2 and y double-buffered, the condition as halves, a row of
    // zeros, the mask bit
    const uint64_t bytesPerElem = 3ULL * BUFFER_NUM * typeSize + BUFFER_NUM * 1ULL + 2ULL * sizeof(uint16_t) + 1ULL;
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > MAX_TILE ? MAX_TILE : tileLength;
    const uint32_t widest = (formerLength + TILE_ALIGN - 1) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > widest ? widest : tileLength;

    WhereCustomTilingData tiling;
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
    *context->GetOutputShape(0) = *context->GetInputShape(1);
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(1));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class WhereCustom : public OpDef {
public:
    explicit WhereCustom(const char *name) : OpDef(name)
    {
        this->Input("condition")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL, ge::DT_BOOL})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("x1")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("x2")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(WhereCustom);
} // namespace ops
