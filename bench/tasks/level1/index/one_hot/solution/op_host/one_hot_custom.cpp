/**
 * @file one_hot_custom.cpp
 * @brief Host side of OneHotCustom: y [N, depth] int32 from indices [N] int32 and the `depth` attribute.
 */
#include "one_hot_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t INT32_PER_BLOCK = 8;
constexpr uint32_t MAX_TILE_BYTES = 32 * 1024;
constexpr uint32_t MAX_DEPTH = MAX_TILE_BYTES / sizeof(int32_t);   // one padded row must fit a tile
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const int64_t *depthPtr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (depthPtr == nullptr || *depthPtr <= 0 || *depthPtr > MAX_DEPTH) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t depth = static_cast<uint32_t>(*depthPtr);
    const uint32_t numRows = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    if (numRows == 0) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = platform.GetCoreNumAiv();
    const uint32_t usedCores = numRows < coreNum ? numRows : coreNum;
    const uint32_t rowsPerCore = numRows / usedCores;
    const uint32_t formerNum = numRows % usedCores;
    const uint32_t formerRows = rowsPerCore + (formerNum > 0 ? 1 : 0);

    const uint32_t depthAligned = (depth + INT32_PER_BLOCK - 1) / INT32_PER_BLOCK * INT32_PER_BLOCK;
    uint32_t rowsPerTile = MAX_TILE_BYTES / (depthAligned * sizeof(int32_t));
    rowsPerTile = rowsPerTile > formerRows ? formerRows : rowsPerTile;
    rowsPerTile = rowsPerTile > 4095 ? 4095 : rowsPerTile;   // DataCopyPad blockCount limit

    OneHotCustomTilingData tiling;
    tiling.set_depth(depth);
    tiling.set_depthAligned(depthAligned);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(rowsPerCore);
    tiling.set_rowsPerTile(rowsPerTile);
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
    const gert::Shape *indicesShape = context->GetInputShape(0);
    const int64_t *depthPtr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    gert::Shape *yShape = context->GetOutputShape(0);
    *yShape = *indicesShape;
    yShape->AppendDim(depthPtr == nullptr ? 0 : *depthPtr);
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, ge::DT_INT32);
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class OneHotCustom : public OpDef {
public:
    explicit OneHotCustom(const char *name) : OpDef(name)
    {
        this->Input("indices").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Attr("depth").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(OneHotCustom);
} // namespace ops
