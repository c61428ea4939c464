/**
 * @file gather_rows_custom.cpp
 * @brief Host side of GatherRowsCustom: y = x[index] along dim 0.
 */
#include "gather_rows_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t MAX_CHUNK_BYTES = 32 * 1024;   // two of them in UB; a row longer than this goes in pieces
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape &indexShape = context->GetInputShape(1)->GetOriginShape();
    if (xShape.GetDimNum() < 1 || xShape.GetDim(0) <= 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t numRows = static_cast<uint32_t>(xShape.GetDim(0));
    const uint32_t numCols = static_cast<uint32_t>(xShape.GetShapeSize() / xShape.GetDim(0));
    const uint32_t outRows = static_cast<uint32_t>(indexShape.GetShapeSize());
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    if (numCols == 0 || outRows == 0) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = platform.GetCoreNumAiv();
    const uint32_t usedCores = outRows < coreNum ? outRows : coreNum;
    const uint32_t rowsPerCore = outRows / usedCores;
    const uint32_t formerNum = outRows % usedCores;

    const uint32_t elemsPerBlock = BLOCK_BYTES / typeSize;
    const uint32_t rowAligned = (numCols + elemsPerBlock - 1) / elemsPerBlock * elemsPerBlock;
    const uint32_t maxChunk = MAX_CHUNK_BYTES / typeSize;
    const uint32_t colTile = rowAligned < maxChunk ? rowAligned : maxChunk;

    GatherRowsCustomTilingData tiling;
    tiling.set_numRows(numRows);
    tiling.set_numCols(numCols);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(rowsPerCore + (formerNum > 0 ? 1 : 0));
    tiling.set_tailRows(rowsPerCore);
    tiling.set_colTile(colTile);
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
    const gert::Shape *indexShape = context->GetInputShape(1);
    gert::Shape *yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    yShape->SetDim(0, indexShape->GetShapeSize());
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class GatherRowsCustom : public OpDef {
public:
    explicit GatherRowsCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("index")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(GatherRowsCustom);
} // namespace ops
