/**
 * @file mse_loss_custom.cpp
 * @brief Host side of MseLossCustom: mean squared error over all elements, one partial sum per core.
 */
#include "mse_loss_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_ALIGN = 64;
constexpr uint32_t MAX_TILE = 8192;
constexpr uint32_t SLOT_BYTES = 32;        // one partial sum per core, in its own 32-byte slot
constexpr uint64_t RESERVED_UB = 2048;     // the slots of every core and the result
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const uint32_t totalLength = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    if (totalLength == 0) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const uint32_t elemsPerBlock = BLOCK_BYTES / typeSize;
    const uint32_t totalBlocks = (totalLength + elemsPerBlock - 1) / elemsPerBlock;
    const uint32_t usedCores = totalBlocks < coreNum ? totalBlocks : coreNum;
    const uint32_t blocksPerCore = totalBlocks / usedCores;
    const uint32_t formerNum = totalBlocks % usedCores;
    const uint32_t formerLength = (blocksPerCore + (formerNum > 0 ? 1 : 0)) * elemsPerBlock;
    const uint32_t tailLength = blocksPerCore * elemsPerBlock;

    // UB per element: predict and target double-buffered, the fp32 difference, accumulator and reduction
    // workspace, and an fp32 copy of target for fp16
    const uint64_t bytesPerElem = 2ULL * BUFFER_NUM * typeSize + 3ULL * sizeof(float) + (typeSize == 2 ? 4 : 0);
    uint32_t tileLength = static_cast<uint32_t>((ubSize - RESERVED_UB) / bytesPerElem) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > MAX_TILE ? MAX_TILE : tileLength;
    const uint32_t widest = (formerLength + TILE_ALIGN - 1) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > widest ? widest : tileLength;
    // core 0 reduces all slots with the same workspace row
    const uint32_t slotFloats = usedCores * SLOT_BYTES / sizeof(float);
    tileLength = tileLength < slotFloats ? (slotFloats + TILE_ALIGN - 1) / TILE_ALIGN * TILE_ALIGN : tileLength;

    MseLossCustomTilingData tiling;
    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength(formerLength);
    tiling.set_tailLength(tailLength);
    tiling.set_tileLength(tileLength);
    tiling.set_usedCores(usedCores);
    tiling.set_invTotal(1.0f / static_cast<float>(totalLength));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    context->SetBlockDim(usedCores);
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = static_cast<size_t>(platform.GetLibApiWorkSpaceSize()) + usedCores * SLOT_BYTES;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    context->GetOutputShape(0)->SetDimNum(0);   // a scalar
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
        this->Input("predict")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("target")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
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

OP_ADD(MseLossCustom);
} // namespace ops
