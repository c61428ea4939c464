/**
 * @file tril_custom.cpp
 * @brief Host side of TrilCustom: row tiling over the AIV cores, shape and dtype inference, the OpDef.
 */
#include "tril_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t STAT_BYTES = 32;
constexpr uint32_t MAX_COLS = 4096;        // longest row this single-pass kernel takes
constexpr uint32_t MAX_ROWS_PER_TILE = 64;
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xShape = context->GetInputShape(0)->GetOriginShape();
    const size_t rank = xShape.GetDimNum();
    if (rank == 0 || xShape.GetDim(rank - 1) <= 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t numCols = static_cast<uint32_t>(xShape.GetDim(rank - 1));
    const uint32_t numRows = static_cast<uint32_t>(xShape.GetShapeSize() / xShape.GetDim(rank - 1));
    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    const uint32_t typeSize = dtype == ge::DT_FLOAT16 ? 2 : 4;
    if (numRows == 0 || numCols > MAX_COLS) {
        return ge::GRAPH_FAILED;
    }
    if (rank < 2) {
        return ge::GRAPH_FAILED;   // a matrix or a batch of matrices
    }

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const int64_t *diagonalPtr = attrs->GetAttrPointer<int64_t>(0);
    const int32_t diagonal = diagonalPtr == nullptr ? 0 : static_cast<int32_t>(*diagonalPtr);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const uint32_t usedCores = numRows < coreNum ? numRows : coreNum;
    const uint32_t rowsPerCore = numRows / usedCores;
    const uint32_t formerNum = numRows % usedCores;
    const uint32_t formerRows = rowsPerCore + (formerNum > 0 ? 1 : 0);

    const uint32_t elemsPerBlock = BLOCK_BYTES / typeSize;
    const uint32_t pitch = (numCols + elemsPerBlock - 1) / elemsPerBlock * elemsPerBlock;
    // double-buffered tiles while one row fits twice, else single buffers (long rows, many tensors)
    uint32_t bufferNum = 2;
    uint64_t perRow = 0;
    uint64_t fixedBytes = 0;
    for (; bufferNum >= 1; --bufferNum) {
        // UB per row of a tile: 2 row tensors in and out, bufferNum times, their fp32 copies for fp16
        perRow = bufferNum * 2ULL * pitch * typeSize + (typeSize == 2 ? 2ULL * pitch * sizeof(float) : 0);
        // UB independent of the tile height: the reduction workspace row and a 32-byte statistics slot
        fixedBytes = pitch * sizeof(float) + STAT_BYTES;
        if (ubSize > fixedBytes + perRow) {
            break;
        }
    }
    if (bufferNum == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rowsPerTile = static_cast<uint32_t>((ubSize - fixedBytes) / perRow);
    rowsPerTile = rowsPerTile > MAX_ROWS_PER_TILE ? MAX_ROWS_PER_TILE : rowsPerTile;
    rowsPerTile = rowsPerTile > formerRows ? formerRows : rowsPerTile;

    TrilCustomTilingData tiling;
    tiling.set_numRows(numRows);
    tiling.set_numCols(numCols);
    tiling.set_pitch(pitch);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(rowsPerCore);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_bufferNum(bufferNum);
    tiling.set_invCols(1.0f / static_cast<float>(numCols));
    tiling.set_diagonal(diagonal);
    tiling.set_matRows(static_cast<uint32_t>(xShape.GetDim(rank - 2)));
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
    *context->GetOutputShape(0) = *xShape;
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class TrilCustom : public OpDef {
public:
    explicit TrilCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("diagonal").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(TrilCustom);
} // namespace ops
