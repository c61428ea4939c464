/**
 * @file arange_custom.cpp
 * @brief Host side of ArangeCustom: the output length comes from the `size` attribute.
 */
#include "arange_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t SPLIT_UNIT = 32;     // elements: 32-byte aligned core starts for 16- and 32-bit outputs
constexpr uint32_t TILE_ALIGN = 64;
constexpr uint32_t MAX_TILE = 8192;
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const int64_t *sizePtr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (sizePtr == nullptr || *sizePtr <= 0 || *sizePtr > 0x7fffffff) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t size = static_cast<uint32_t>(*sizePtr);
    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = 0;
    if (dtype == ge::DT_FLOAT16) {
        typeSize = 2;
    } else if (dtype == ge::DT_FLOAT || dtype == ge::DT_INT32) {
        typeSize = 4;
    } else {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const uint32_t units = (size + SPLIT_UNIT - 1) / SPLIT_UNIT;
    const uint32_t usedCores = units < coreNum ? units : coreNum;
    const uint32_t unitsPerCore = units / usedCores;
    const uint32_t formerNum = units % usedCores;
    const uint32_t formerLength = (unitsPerCore + (formerNum > 0 ? 1 : 0)) * SPLIT_UNIT;
    const uint32_t tailLength = unitsPerCore * SPLIT_UNIT;

    // UB per element: y double-buffered, the int32 index, an fp32 row for the fp16 path
    const uint64_t bytesPerElem = BUFFER_NUM * typeSize + sizeof(int32_t) + sizeof(float);
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > MAX_TILE ? MAX_TILE : tileLength;
    const uint32_t widest = (formerLength + TILE_ALIGN - 1) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > widest ? widest : tileLength;

    ArangeCustomTilingData tiling;
    tiling.set_size(size);
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
    const int64_t *sizePtr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    gert::Shape *yShape = context->GetOutputShape(0);
    yShape->SetDimNum(1);
    yShape->SetDim(0, sizePtr == nullptr ? 0 : *sizePtr);
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ArangeCustom : public OpDef {
public:
    explicit ArangeCustom(const char *name) : OpDef(name)
    {
        this->Input("start")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("step")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("size").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(ArangeCustom);
} // namespace ops
