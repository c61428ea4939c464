/**
 * @file fill_custom.cpp
 * @brief Host side of FillCustom: the output shape comes from the `dims` attribute.
 */
#include "fill_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t SPLIT_UNIT = 32;     // elements: 32-byte aligned core starts for 16- and 32-bit outputs
constexpr uint32_t TILE_ALIGN = 64;
constexpr uint32_t MAX_TILE = 16384;    // one tile, written again and again
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::TypedContinuousVector<int64_t> *dims = context->GetAttrs()->GetListInt(0);
    if (dims == nullptr || dims->GetSize() == 0) {
        return ge::GRAPH_FAILED;
    }
    uint64_t total = 1;
    for (size_t i = 0; i < dims->GetSize(); ++i) {
        if (dims->GetData()[i] <= 0) {
            return ge::GRAPH_FAILED;
        }
        total *= static_cast<uint64_t>(dims->GetData()[i]);
    }
    if (total > 0x7fffffffULL) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t totalLength = static_cast<uint32_t>(total);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = platform.GetCoreNumAiv();

    const uint32_t units = (totalLength + SPLIT_UNIT - 1) / SPLIT_UNIT;
    const uint32_t usedCores = units < coreNum ? units : coreNum;
    const uint32_t unitsPerCore = units / usedCores;
    const uint32_t formerNum = units % usedCores;
    const uint32_t formerLength = (unitsPerCore + (formerNum > 0 ? 1 : 0)) * SPLIT_UNIT;
    const uint32_t tailLength = unitsPerCore * SPLIT_UNIT;
    const uint32_t widest = (formerLength + TILE_ALIGN - 1) / TILE_ALIGN * TILE_ALIGN;
    const uint32_t tileLength = widest < MAX_TILE ? widest : MAX_TILE;

    FillCustomTilingData tiling;
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
    const gert::TypedContinuousVector<int64_t> *dims = context->GetAttrs()->GetListInt(0);
    gert::Shape *yShape = context->GetOutputShape(0);
    if (dims == nullptr) {
        return GRAPH_FAILED;
    }
    yShape->SetDimNum(dims->GetSize());
    for (size_t i = 0; i < dims->GetSize(); ++i) {
        yShape->SetDim(i, dims->GetData()[i]);
    }
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class FillCustom : public OpDef {
public:
    explicit FillCustom(const char *name) : OpDef(name)
    {
        this->Input("value")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dims").AttrType(REQUIRED).ListInt();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(FillCustom);
} // namespace ops
