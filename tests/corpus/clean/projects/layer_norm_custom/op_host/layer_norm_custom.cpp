/**
 * @file layer_norm_custom.cpp
 * @brief Host side of LayerNormCustom: normalisation over the last axis, fp32.
 */
#include "layer_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t FLOAT_ALIGN = 8;
constexpr uint32_t STAT_BYTES_PER_ROW = 2 * sizeof(float); // mean + rstd
constexpr uint64_t UB_HEADROOM = 16 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *xStorage = context->GetInputShape(0);
    const gert::Shape &xShape = xStorage->GetOriginShape();
    const size_t rank = xShape.GetDimNum();
    const uint32_t numCols = static_cast<uint32_t>(xShape.GetDim(rank - 1));
    const uint32_t numRows = static_cast<uint32_t>(xShape.GetShapeSize() / (numCols == 0 ? 1 : numCols));
    const uint32_t colsAligned = (numCols + FLOAT_ALIGN - 1) / FLOAT_ALIGN * FLOAT_ALIGN;

    const float *eps = context->GetAttrs()->GetAttrPointer<float>(0);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint32_t coreNum = platform.GetCoreNumAiv();

    const uint32_t rowsPerCore = (numRows + coreNum - 1) / coreNum;
    const uint32_t blockDim = rowsPerCore == 0 ? 1 : (numRows + rowsPerCore - 1) / rowsPerCore;

    // UB users per row: x and y double-buffered, one fp32 scratch row, stats
    // gamma, beta and the reduction workspace are one row each, independent of rowsPerTile
    const uint64_t fixedBytes = 3ULL * colsAligned * sizeof(float) + UB_HEADROOM;
    const uint64_t perRowBytes = 5ULL * colsAligned * sizeof(float) + STAT_BYTES_PER_ROW * 2;
    if (ubSize <= fixedBytes + perRowBytes) {
        return ge::GRAPH_FAILED; // row too long for this simple single-pass kernel
    }
    uint32_t rowsPerTile = static_cast<uint32_t>((ubSize - fixedBytes) / perRowBytes);
    rowsPerTile = rowsPerTile > rowsPerCore ? rowsPerCore : rowsPerTile;
    rowsPerTile = rowsPerTile > 64 ? 64 : rowsPerTile;
    rowsPerTile = rowsPerTile == 0 ? 1 : rowsPerTile;

    LayerNormCustomTilingData tiling;
    tiling.set_numRows(numRows);
    tiling.set_numCols(numCols);
    tiling.set_colsAligned(colsAligned);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_epsilon(eps == nullptr ? 1e-5f : *eps);
    tiling.set_invCols(1.0f / static_cast<float>(numCols == 0 ? 1 : numCols));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    context->SetBlockDim(blockDim);
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xShape = context->GetInputShape(0);
    *context->GetOutputShape(0) = *xShape;
    for (size_t out = 1; out <= 2; ++out) {
        gert::Shape *statShape = context->GetOutputShape(out);
        *statShape = *xShape;
        statShape->SetDim(xShape->GetDimNum() - 1, 1);
    }
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    for (size_t out = 0; out < 3; ++out) {
        context->SetOutputDataType(out, ge::DT_FLOAT);
    }
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class LayerNormCustom : public OpDef {
public:
    explicit LayerNormCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("mean").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("rstd").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(LayerNormCustom);
} // namespace ops
