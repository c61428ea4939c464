/**
 * @file scatter_update_custom.cpp
 * @brief Host side of ScatterUpdateCustom: var[indices] = updates in place (var is input and result).
 */
#include "scatter_update_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t MAX_CHUNK_BYTES = 32 * 1024;   // two of them in UB; a row longer than this goes in pieces
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &varShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape &indicesShape = context->GetInputShape(1)->GetOriginShape();
    if (varShape.GetDimNum() < 1 || varShape.GetDim(0) <= 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t varRows = static_cast<uint32_t>(varShape.GetDim(0));
    const uint32_t numCols = static_cast<uint32_t>(varShape.GetShapeSize() / varShape.GetDim(0));
    const uint32_t updateRows = static_cast<uint32_t>(indicesShape.GetShapeSize());
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    if (numCols == 0 || updateRows == 0) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = platform.GetCoreNumAiv();
    const uint32_t usedCores = updateRows < coreNum ? updateRows : coreNum;
    const uint32_t rowsPerCore = updateRows / usedCores;
    const uint32_t formerNum = updateRows % usedCores;

    const uint32_t elemsPerBlock = BLOCK_BYTES / typeSize;
    const uint32_t rowAligned = (numCols + elemsPerBlock - 1) / elemsPerBlock * elemsPerBlock;
    const uint32_t maxChunk = MAX_CHUNK_BYTES / typeSize;
    const uint32_t colTile = rowAligned < maxChunk ? rowAligned : maxChunk;

    ScatterUpdateCustomTilingData tiling;
    tiling.set_varRows(varRows);
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

namespace ops {
class ScatterUpdateCustom : public OpDef {
public:
    explicit ScatterUpdateCustom(const char *name) : OpDef(name)
    {
        this->Input("var")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("updates")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(ScatterUpdateCustom);
} // namespace ops
