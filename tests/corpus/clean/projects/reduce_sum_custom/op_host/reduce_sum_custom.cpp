/**
 * @file reduce_sum_custom.cpp
 * @brief Host side of ReduceSumCustom: y = x.sum(dim=-1[, keepdim]). Picks one of four tiling keys.
 */
#include "reduce_sum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t SHORT_ROW_MAX_COLS = 64;  // one fp32 repeat
constexpr uint32_t SHORT_ROW_ALIGN = 16;     // 32 bytes of fp16, so rows stay aligned for both dtypes
constexpr uint32_t ROWS_PER_TILE_CAP = 240;  // largest multiple of 16 under the 255-repeat limit
constexpr uint32_t CHUNK_BYTES = 32 * 1024;

uint32_t ToKey(bool isHalf, bool shortRow)
{
    ReduceSumKey key;
    if (isHalf) {
        key = shortRow ? ReduceSumKey::FP16_SHORT_ROW : ReduceSumKey::FP16_LONG_ROW;
    } else {
        key = shortRow ? ReduceSumKey::FP32_SHORT_ROW : ReduceSumKey::FP32_LONG_ROW;
    }
    return static_cast<uint32_t>(key);
}
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &shape = context->GetInputShape(0)->GetOriginShape();
    const size_t rank = shape.GetDimNum();
    if (rank == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(rank - 1));
    const uint32_t rows = cols == 0 ? 0 : static_cast<uint32_t>(shape.GetShapeSize() / cols);
    const bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    const bool shortRow = cols <= SHORT_ROW_MAX_COLS && (cols % SHORT_ROW_ALIGN) == 0;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint32_t rowsPerCore = (rows + coreNum - 1) / coreNum;
    if (shortRow) {
        // keep every core's output slice 32-byte aligned
        rowsPerCore = (rowsPerCore + SHORT_ROW_ALIGN - 1) / SHORT_ROW_ALIGN * SHORT_ROW_ALIGN;
    }
    rowsPerCore = rowsPerCore == 0 ? 1 : rowsPerCore;
    const uint32_t blockDim = (rows + rowsPerCore - 1) / rowsPerCore;

    ReduceSumCustomTilingData tiling;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_rowsPerTile(rowsPerCore < ROWS_PER_TILE_CAP ? rowsPerCore : ROWS_PER_TILE_CAP);
    tiling.set_chunkLength(CHUNK_BYTES / sizeof(float));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    context->SetTilingKey(ToKey(isHalf, shortRow));
    context->SetBlockDim(blockDim == 0 ? 1 : blockDim);
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xShape = context->GetInputShape(0);
    gert::Shape *yShape = context->GetOutputShape(0);
    const bool *keepDims = context->GetAttrs()->GetAttrPointer<bool>(0);
    const size_t rank = xShape->GetDimNum();
    *yShape = *xShape;
    if (keepDims != nullptr && *keepDims) {
        yShape->SetDim(rank - 1, 1);
    } else {
        yShape->SetDimNum(rank - 1);
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
class ReduceSumCustom : public OpDef {
public:
    explicit ReduceSumCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("keep_dims").AttrType(OPTIONAL).Bool(false);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ReduceSumCustom);
} // namespace ops
