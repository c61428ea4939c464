/**
 * @file rmsprop_custom.cpp
 * @brief Host side of RmspropCustom: tiling over the AIV cores and the step's scalars; param, square_avg
 *        are updated in place (inputs only in the OpDef).
 */
#include "rmsprop_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t FLOATS_PER_BLOCK = 8;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_ALIGN = 64;
constexpr uint32_t MAX_TILE = 8192;
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const uint32_t totalLength = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    if (totalLength == 0) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const float *lrPtr = attrs->GetAttrPointer<float>(0);
    const float lr = lrPtr == nullptr ? 0.01f : *lrPtr;
    const float *alphaPtr = attrs->GetAttrPointer<float>(1);
    const float alpha = alphaPtr == nullptr ? 0.99f : *alphaPtr;
    const float *epsPtr = attrs->GetAttrPointer<float>(2);
    const float eps = epsPtr == nullptr ? 1e-08f : *epsPtr;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const uint32_t totalBlocks = (totalLength + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK;
    const uint32_t usedCores = totalBlocks < coreNum ? totalBlocks : coreNum;
    const uint32_t blocksPerCore = totalBlocks / usedCores;
    const uint32_t formerNum = totalBlocks % usedCores;

    // UB per element: 3 tensors in and 2 out, double-buffered, 1 scratch row(s)
    const uint64_t bytesPerElem = 11ULL * sizeof(float);
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > MAX_TILE ? MAX_TILE : tileLength;
    const uint32_t formerLength = (blocksPerCore + (formerNum > 0 ? 1 : 0)) * FLOATS_PER_BLOCK;
    const uint32_t widest = (formerLength + TILE_ALIGN - 1) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > widest ? widest : tileLength;

    RmspropCustomTilingData tiling;
    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength(formerLength);
    tiling.set_tailLength(blocksPerCore * FLOATS_PER_BLOCK);
    tiling.set_tileLength(tileLength);
    tiling.set_lr(lr);
    tiling.set_alpha(alpha);
    tiling.set_oneMinusAlpha(1.0f - alpha);
    tiling.set_eps(eps);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    context->SetBlockDim(usedCores);
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class RmspropCustom : public OpDef {
public:
    explicit RmspropCustom(const char *name) : OpDef(name)
    {
        this->Input("param").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("square_avg").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("grad").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("lr").AttrType(OPTIONAL).Float(0.01f);
        this->Attr("alpha").AttrType(OPTIONAL).Float(0.99f);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-08f);

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(RmspropCustom);
} // namespace ops
