/**
 * @file gelu_grad_custom.cpp
 * @brief Host side of GeluGradCustom: tiling over the AIV cores, shape and dtype inference, the OpDef.
 */
#include "gelu_grad_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_ALIGN = 64;     // elements: 256 bytes of fp32, a whole vector repeat
constexpr uint32_t MAX_TILE = 8192;     // elements; longer tiles buy little once each copy is 16 KiB or more
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const uint32_t totalLength = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = 0;
    if (dtype == ge::DT_FLOAT16) {
        typeSize = 2;
    } else if (dtype == ge::DT_FLOAT) {
        typeSize = 4;
    } else {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    // whole 32-byte blocks per core, so that every core starts on an aligned GM address
    const uint32_t elemsPerBlock = BLOCK_BYTES / typeSize;
    const uint32_t totalBlocks = (totalLength + elemsPerBlock - 1) / elemsPerBlock;
    uint32_t usedCores = totalBlocks < coreNum ? totalBlocks : coreNum;
    usedCores = usedCores == 0 ? 1 : usedCores;
    const uint32_t blocksPerCore = totalBlocks / usedCores;
    const uint32_t formerNum = totalBlocks % usedCores;
    const uint32_t formerLength = (blocksPerCore + (formerNum > 0 ? 1 : 0)) * elemsPerBlock;
    const uint32_t tailLength = blocksPerCore * elemsPerBlock;

    // UB per element: 3 tensors in and out, double-buffered, fp32 copies of them for fp16, 2 fp32 scratch rows
    const uint64_t bytesPerElem = 6ULL * typeSize + (typeSize == 2 ? 3ULL * sizeof(float) : 0) + 2ULL * sizeof(float);
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > MAX_TILE ? MAX_TILE : tileLength;
    const uint32_t widest = (formerLength + TILE_ALIGN - 1) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > widest ? widest : tileLength;

    GeluGradCustomTilingData tiling;
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
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class GeluGradCustom : public OpDef {
public:
    explicit GeluGradCustom(const char *name) : OpDef(name)
    {
        this->Input("dy")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("dx")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(GeluGradCustom);
} // namespace ops
