/**
 * @file geglu_custom.cpp
 * @brief Host side of GegluCustom: y[..., H] from x[..., 2H], rows over the AIV cores.
 */
#include "geglu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t MAX_ROWS_PER_TILE = 255;
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xShape = context->GetInputShape(0)->GetOriginShape();
    const size_t rank = xShape.GetDimNum();
    if (rank == 0 || xShape.GetDim(rank - 1) <= 0 || xShape.GetDim(rank - 1) % 2 != 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t halfCols = static_cast<uint32_t>(xShape.GetDim(rank - 1) / 2);
    const uint32_t numRows = static_cast<uint32_t>(xShape.GetShapeSize() / xShape.GetDim(rank - 1));
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    if (numRows == 0) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const uint32_t usedCores = numRows < coreNum ? numRows : coreNum;
    const uint32_t rowsPerCore = numRows / usedCores;
    const uint32_t formerNum = numRows % usedCores;
    const uint32_t formerRows = rowsPerCore + (formerNum > 0 ? 1 : 0);

    const uint32_t elemsPerBlock = BLOCK_BYTES / typeSize;
    const uint32_t pitch = (halfCols + elemsPerBlock - 1) / elemsPerBlock * elemsPerBlock;
    // UB per tile row: a, b and y bufferNum times, fp32 copies of a, b and y for fp16
    uint32_t bufferNum = 2;
    uint64_t perRow = 0;
    for (; bufferNum >= 1; --bufferNum) {
        perRow = bufferNum * 3ULL * pitch * typeSize + (typeSize == 2 ? 3ULL * pitch * sizeof(float) : 0);
        if (ubSize >= perRow) {
            break;
        }
    }
    if (bufferNum == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rowsPerTile = static_cast<uint32_t>(ubSize / perRow);
    rowsPerTile = rowsPerTile > MAX_ROWS_PER_TILE ? MAX_ROWS_PER_TILE : rowsPerTile;
    rowsPerTile = rowsPerTile > formerRows ? formerRows : rowsPerTile;

    GegluCustomTilingData tiling;
    tiling.set_halfCols(halfCols);
    tiling.set_pitch(pitch);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(rowsPerCore);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_bufferNum(bufferNum);
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
    const gert::Shape *xShape = context->GetInputShape(0);
    gert::Shape *yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    yShape->SetDim(xShape->GetDimNum() - 1, xShape->GetDim(xShape->GetDimNum() - 1) / 2);
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class GegluCustom : public OpDef {
public:
    explicit GegluCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
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

OP_ADD(GegluCustom);
} // namespace ops
