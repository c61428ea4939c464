#include "../op_kernel/gelu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t ALIGN_ELEMS = 64;     // keeps every core start and tile 256-byte aligned for fp32
constexpr uint32_t TILE_CAP = 4096;      // elements; io double buffers + two fp32 scratch rows = 96 KiB
} // namespace

static ge::graphStatus GeluTilingFunc(gert::TilingContext *context)
{
    auto *tiling = context->GetTilingData<GeluCustomTilingData>();
    const uint64_t totalLength = static_cast<uint64_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint64_t coreNum = platform.GetCoreNumAiv();

    const uint64_t units = (totalLength + ALIGN_ELEMS - 1) / ALIGN_ELEMS;
    const uint64_t usedCores = units == 0 ? 1 : (units < coreNum ? units : coreNum);
    const uint64_t unitsPerCore = units / usedCores;
    const uint64_t bigCoreNum = units % usedCores;

    tiling->totalLength = totalLength;
    tiling->bigCoreNum = static_cast<uint32_t>(bigCoreNum);
    tiling->bigCoreLength = static_cast<uint32_t>((unitsPerCore + 1) * ALIGN_ELEMS);
    tiling->smallCoreLength = static_cast<uint32_t>(unitsPerCore * ALIGN_ELEMS);
    const uint32_t widest = bigCoreNum > 0 ? tiling->bigCoreLength : tiling->smallCoreLength;
    tiling->tileLength = widest < TILE_CAP ? (widest == 0 ? static_cast<uint32_t>(ALIGN_ELEMS) : widest) : TILE_CAP;

    context->SetBlockDim(static_cast<uint32_t>(usedCores));
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
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
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class GeluCustom : public OpDef {
public:
    explicit GeluCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::GeluTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(GeluCustom);
} // namespace ops
