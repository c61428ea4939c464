/**
 * @file cross_entropy_loss_custom.cpp
 * @brief Host side of CrossEntropyLossCustom: row tiling over the AIV cores, shape and dtype inference, the OpDef.
 */
#include "cross_entropy_loss_custom_tiling.h"
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
        // UB per row of a tile: 1 row tensor in and out, bufferNum times, their fp32 copies for fp16, 1
        // fp32 scratch row, the per-row results bufferNum times and once for the scalar unit
        perRow = bufferNum * 1ULL * pitch * typeSize
               + (typeSize == 2 ? 1ULL * pitch * sizeof(float) : 0)
               + 1ULL * pitch * sizeof(float)
               + (bufferNum + 1) * 1ULL * sizeof(float);
        // UB independent of the tile height: the reduction workspace row and a 32-byte statistics slot,
        // rounding of the per-row result buffers
        fixedBytes = pitch * sizeof(float) + STAT_BYTES + (bufferNum + 1) * 1ULL * 32;
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

    CrossEntropyLossCustomTilingData tiling;
    tiling.set_numRows(numRows);
    tiling.set_numCols(numCols);
    tiling.set_pitch(pitch);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(rowsPerCore);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_bufferNum(bufferNum);
    tiling.set_invCols(1.0f / static_cast<float>(numCols));
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
    gert::Shape *lossShape = context->GetOutputShape(0);
    *lossShape = *xShape;
    lossShape->SetDimNum(xShape->GetDimNum() - 1);   // the reduced last axis goes away
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class CrossEntropyLossCustom : public OpDef {
public:
    explicit CrossEntropyLossCustom(const char *name) : OpDef(name)
    {
        this->Input("logits")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("target")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("loss")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(CrossEntropyLossCustom);
} // namespace ops
