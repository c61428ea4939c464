/**
 * @file adamw_custom.cpp
 * @brief Host side of AdamwCustom: tiling over the AIV cores and the step's scalars; param, exp_avg, exp_avg_sq
 *        are updated in place (inputs only in the OpDef).
 */
#include "adamw_custom_tiling.h"
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
    const float lr = lrPtr == nullptr ? 0.001f : *lrPtr;
    const float *beta1Ptr = attrs->GetAttrPointer<float>(1);
    const float beta1 = beta1Ptr == nullptr ? 0.9f : *beta1Ptr;
    const float *beta2Ptr = attrs->GetAttrPointer<float>(2);
    const float beta2 = beta2Ptr == nullptr ? 0.999f : *beta2Ptr;
    const float *epsPtr = attrs->GetAttrPointer<float>(3);
    const float eps = epsPtr == nullptr ? 1e-08f : *epsPtr;
    const float *weightDecayPtr = attrs->GetAttrPointer<float>(4);
    const float weightDecay = weightDecayPtr == nullptr ? 0.01f : *weightDecayPtr;
    const int64_t *stepPtr = attrs->GetAttrPointer<int64_t>(5);
    const int64_t step = stepPtr == nullptr ? 1 : *stepPtr;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const uint32_t totalBlocks = (totalLength + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK;
    const uint32_t usedCores = totalBlocks < coreNum ? totalBlocks : coreNum;
    const uint32_t blocksPerCore = totalBlocks / usedCores;
    const uint32_t formerNum = totalBlocks % usedCores;

    // UB per element: 4 tensors in and 3 out, double-buffered, 1 scratch row(s)
    const uint64_t bytesPerElem = 15ULL * sizeof(float);
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > MAX_TILE ? MAX_TILE : tileLength;
    const uint32_t formerLength = (blocksPerCore + (formerNum > 0 ? 1 : 0)) * FLOATS_PER_BLOCK;
    const uint32_t widest = (formerLength + TILE_ALIGN - 1) / TILE_ALIGN * TILE_ALIGN;
    tileLength = tileLength > widest ? widest : tileLength;

    AdamwCustomTilingData tiling;
    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength(formerLength);
    tiling.set_tailLength(blocksPerCore * FLOATS_PER_BLOCK);
    tiling.set_tileLength(tileLength);
    // the bias corrections 1 - beta^step, by repeated products (step is a small integer)
    float beta1Pow = 1.0f;
    float beta2Pow = 1.0f;
    for (int64_t i = 0; i < step; ++i) {
        beta1Pow *= beta1;
        beta2Pow *= beta2;
    }
    tiling.set_decay(1.0f - lr * weightDecay);
    tiling.set_beta1(beta1);
    tiling.set_oneMinusBeta1(1.0f - beta1);
    tiling.set_beta2(beta2);
    tiling.set_oneMinusBeta2(1.0f - beta2);
    tiling.set_eps(eps);
    tiling.set_stepSize(lr / (1.0f - beta1Pow));
    tiling.set_invBiasCorrection2(1.0f / (1.0f - beta2Pow));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    context->SetBlockDim(usedCores);
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class AdamwCustom : public OpDef {
public:
    explicit AdamwCustom(const char *name) : OpDef(name)
    {
        this->Input("param").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("exp_avg").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("exp_avg_sq").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("grad").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("lr").AttrType(OPTIONAL).Float(0.001f);
        this->Attr("beta1").AttrType(OPTIONAL).Float(0.9f);
        this->Attr("beta2").AttrType(OPTIONAL).Float(0.999f);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-08f);
        this->Attr("weight_decay").AttrType(OPTIONAL).Float(0.01f);
        this->Attr("step").AttrType(OPTIONAL).Int(1);

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(AdamwCustom);
} // namespace ops
