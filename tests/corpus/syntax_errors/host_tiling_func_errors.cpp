// Host tiling of an element-wise op (TilingFunc + InferShape): a condition missing its ')' and a
// switch label written with ';' instead of ':'.
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SqrtCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);
    TILING_DATA_FIELD_DEF(uint32_t, blockLength);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SqrtCustom, SqrtCustomTilingData)

constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t MAX_TILE = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    SqrtCustomTilingData tiling;
    const uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    uint32_t typeSize = 4;
    switch (context->GetInputDesc(0)->GetDataType()) {
        case ge::DT_FLOAT16; // expected-error {{expected ':'}} [ASC001]
            typeSize = 2;
            break;
        default:
            typeSize = 4;
            break;
    }
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    const uint32_t align = BLOCK_BYTES / typeSize;
    uint32_t blockLength = (totalLength + coreNum - 1) / coreNum;
    blockLength = (blockLength + align - 1) / align * align;
    if ((blockLength == 0) { // expected-error {{expected ')'}} [ASC001]
        return ge::GRAPH_FAILED;
    }
    tiling.set_totalLength(totalLength);
    tiling.set_blockLength(blockLength);
    tiling.set_tileLength(blockLength < MAX_TILE ? blockLength : MAX_TILE);
    context->SetBlockDim((totalLength + blockLength - 1) / blockLength);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
} // namespace ge
