/**
 * @file mse_loss_custom.cpp
 * @brief Host side of MseLossCustom(predict, label, reduction = "none" | "mean" | "sum").
 *
 * TilingKey 0: reduction "none" (element-wise output)
 * TilingKey 1: reduction "mean" / "sum" (per-core partials in the user workspace, then a
 *              cross-core SyncAll and a final sum on core 0)
 */
#include <cstring>
#include <string>

#include "mse_loss_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ALIGN_ELEMS = 8;      // fp32 elements per 32-byte block
constexpr uint32_t TILE_ELEMS = 4096;    // 5 fp32 rows of this size stay well inside UB
constexpr uint32_t PARTIAL_SLOT_BYTES = 32;

enum ReductionMode : uint32_t { REDUCTION_NONE = 0, REDUCTION_MEAN = 1, REDUCTION_SUM = 2 };

ReductionMode ParseReduction(const char *value)
{
    if (value == nullptr || std::strcmp(value, "mean") == 0) {
        return REDUCTION_MEAN;
    }
    if (std::strcmp(value, "sum") == 0) {
        return REDUCTION_SUM;
    }
    return REDUCTION_NONE;
}
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const ReductionMode mode = ParseReduction(attrs->GetAttrPointer<char>(0));
    const uint32_t totalLength = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t aivNum = ascendcPlatform.GetCoreNumAiv();

    uint32_t blockLength = (totalLength + aivNum - 1) / aivNum;
    blockLength = (blockLength + ALIGN_ELEMS - 1) / ALIGN_ELEMS * ALIGN_ELEMS;
    blockLength = blockLength == 0 ? ALIGN_ELEMS : blockLength;
    const uint32_t usedCoreNum = (totalLength + blockLength - 1) / blockLength;

    MseLossCustomTilingData tiling;
    tiling.set_totalLength(totalLength);
    tiling.set_blockLength(blockLength);
    tiling.set_tileLength(blockLength < TILE_ELEMS ? (blockLength + 63) / 64 * 64 : TILE_ELEMS);
    tiling.set_usedCoreNum(usedCoreNum == 0 ? 1 : usedCoreNum);
    tiling.set_scale(mode == REDUCTION_MEAN && totalLength > 0 ? 1.0f / static_cast<float>(totalLength) : 1.0f);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    context->SetBlockDim(usedCoreNum == 0 ? 1 : usedCoreNum);
    context->SetTilingKey(mode == REDUCTION_NONE ? 0 : 1);

    size_t *workspaces = context->GetWorkspaceSizes(1);
    const size_t sysWorkspace = ascendcPlatform.GetLibApiWorkSpaceSize();
    const size_t userWorkspace = mode == REDUCTION_NONE ? 0 : static_cast<size_t>(aivNum) * PARTIAL_SLOT_BYTES;
    workspaces[0] = sysWorkspace + userWorkspace;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    const char *reduction = context->GetAttrs()->GetAttrPointer<char>(0);
    gert::Shape *yShape = context->GetOutputShape(0);
    if (reduction != nullptr && std::string(reduction) == "none") {
        *yShape = *context->GetInputShape(0);
    } else {
        yShape->SetDimNum(0); // scalar
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
class MseLossCustom : public OpDef {
public:
    explicit MseLossCustom(const char *name) : OpDef(name)
    {
        this->Input("predict").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("label").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("reduction").AttrType(OPTIONAL).String("mean");

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MseLossCustom);
} // namespace ops
