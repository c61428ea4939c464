/**
 * @file sgd_momentum_custom.cpp
 * @brief Host side of SgdMomentumCustom: tiling over the AIV cores and the step's scalars; param, momentum_buffer
 *        are updated in place (inputs only in the OpDef).
 */
#include "sgd_momentum_custom_tiling.h"
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
    const float *momentumPtr = attrs->GetAttrPointer<float>(1);
    const float momentum = momentumPtr == nullptr ? 0.9f : *momentumPtr;
    const float *weightDecayPtr = attrs->GetAttrPointer<float>(2);
    const float weightDecay = weightDecayPtr == nullptr ? 0.0001f : *weightDecayPtr;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const uint32_t totalBlocks = (totalLength + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK;
    const uint32_t usedCores = totalBlocks < coreNum ? totalBlocks : coreNum;
    const uint32_t blocksPerCore = totalBlocks / usedCores;
    const uint32_t formerNum = totalBlocks % usedCores;

    // UB per element: 3 tensors in and 2 out, double-buffered
    const uint64_t bytesPerElem = 10ULL * sizeof(float);
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > MAX_TILE ? MAX_TILE : tileLength;
    const uint32_t formerLength = (blocksPerCore + (formerNum > 0 ? 1 : 0)) * FLOATS_PER_BLOCK;
    const uint32_t widest = (formerLength + TILE_ALIGN - 1) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > widest ? widest : tileLength;

    SgdMomentumCustomTilingData tiling;
    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength(formerLength);
    tiling.set_tailLength(blocksPerCore * FLOATS_PER_BLOCK);
    tiling.set_tileLength(tileLength);
    tiling.set_lr(lr);
    tiling.set_momentum(momentum);
    tiling.set_weightDecay(weightDecay);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    context->SetBlockDim(usedCores);
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class SgdMomentumCustom : public OpDef {
public:
    explicit SgdMomentumCustom(const char *name) : OpDef(name)
    {
        this->Input("param").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("grad").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("momentum_buffer").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("lr").AttrType(OPTIONAL).Float(0.01f);
        this->Attr("momentum").AttrType(OPTIONAL).Float(0.9f);
        this->Attr("weight_decay").AttrType(OPTIONAL).Float(0.0001f);

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(SgdMomentumCustom);
} // namespace ops
