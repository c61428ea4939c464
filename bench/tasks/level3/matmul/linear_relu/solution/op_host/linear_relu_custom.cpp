/**
 * @file linear_relu_custom.cpp
 * @brief Host side of LinearReluCustom: y = relu(x @ w^T), x [M, K] fp16, w [N, K] fp16, y [M, N] fp32.
 */
#include "linear_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BASE_M = 64;   // must match the kernel's tile
constexpr uint32_t BASE_N = 64;
constexpr uint32_t MAX_DIM = 65535;   // ND2NZ takes 16-bit sizes and strides
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape &wShape = context->GetInputShape(1)->GetOriginShape();
    if (xShape.GetDimNum() != 2 || wShape.GetDimNum() != 2 || xShape.GetDim(1) != wShape.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t m = static_cast<uint32_t>(xShape.GetDim(0));
    const uint32_t k = static_cast<uint32_t>(xShape.GetDim(1));
    const uint32_t n = static_cast<uint32_t>(wShape.GetDim(0));
    if (m == 0 || n == 0 || k == 0 || k > MAX_DIM) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t tilesM = (m + BASE_M - 1) / BASE_M;
    const uint32_t tilesN = (n + BASE_N - 1) / BASE_N;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t aicNum = platform.GetCoreNumAic();
    const uint32_t tiles = tilesM * tilesN;

    LinearReluCustomTilingData tiling;
    tiling.set_m(m);
    tiling.set_n(n);
    tiling.set_k(k);
    tiling.set_tilesM(tilesM);
    tiling.set_tilesN(tilesN);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    context->SetBlockDim(tiles < aicNum ? tiles : aicNum);
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xShape = context->GetInputShape(0);
    const gert::Shape *wShape = context->GetInputShape(1);
    gert::Shape *yShape = context->GetOutputShape(0);
    yShape->SetDimNum(2);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, wShape->GetDim(0));
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class LinearReluCustom : public OpDef {
public:
    explicit LinearReluCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("w").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(LinearReluCustom);
} // namespace ops
