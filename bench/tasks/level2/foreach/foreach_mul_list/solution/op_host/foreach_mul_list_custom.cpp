/**
 * @file foreach_mul_list_custom.cpp
 * @brief Host side of ForeachMulListCustom: per-tensor core split, one UB tile size for all, the OpDef.
 */
#include "foreach_mul_list_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t TENSORS = 3;
constexpr uint32_t TILE_ALIGN = 64;
constexpr uint32_t MAX_TILE = 8192;
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    ForeachMulListCustomTilingData tiling;
    const uint32_t elemsPerBlock = BLOCK_BYTES / typeSize;
    // tensor i of the list is input i (and output i)
    uint32_t totalLength[TENSORS] = {
        static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize()),
        static_cast<uint32_t>(context->GetInputShape(1)->GetOriginShape().GetShapeSize()),
        static_cast<uint32_t>(context->GetInputShape(2)->GetOriginShape().GetShapeSize())};
    uint32_t formerNum[TENSORS] = {0};
    uint32_t formerLength[TENSORS] = {0};
    uint32_t tailLength[TENSORS] = {0};
    uint32_t widest = TILE_ALIGN;
    uint32_t usedCores = 1;
    for (uint32_t i = 0; i < TENSORS; ++i) {
        const uint32_t blocks = (totalLength[i] + elemsPerBlock - 1) / elemsPerBlock;
        const uint32_t cores = blocks == 0 ? 1 : (blocks < coreNum ? blocks : coreNum);
        formerNum[i] = blocks % cores;
        formerLength[i] = (blocks / cores + (formerNum[i] > 0 ? 1 : 0)) * elemsPerBlock;
        tailLength[i] = blocks / cores * elemsPerBlock;
        widest = formerLength[i] > widest ? formerLength[i] : widest;
        usedCores = cores > usedCores ? cores : usedCores;
    }

    // UB per element: 2 input(s) and the output double-buffered, fp32 copies for fp16
    const uint64_t bytesPerElem = 6ULL * typeSize + (typeSize == 2 ? 3ULL * sizeof(float) : 0);
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > MAX_TILE ? MAX_TILE : tileLength;
    widest = (widest + TILE_ALIGN - 1) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > widest ? widest : tileLength;

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
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    *context->GetOutputShape(1) = *context->GetInputShape(1);
    *context->GetOutputShape(2) = *context->GetInputShape(2);
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    context->SetOutputDataType(1, context->GetInputDataType(0));
    context->SetOutputDataType(2, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ForeachMulListCustom : public OpDef {
public:
    explicit ForeachMulListCustom(const char *name) : OpDef(name)
    {
        this->Input("a0")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("a1")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("a2")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b0")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b1")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b2")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y0")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y1")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y2")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(ForeachMulListCustom);
} // namespace ops
