/**
 * @file matmul_leakyrelu_custom.cpp
 * @brief Host side of MatmulLeakyreluCustom: c = leaky_relu(a @ b + bias, alpha), a [M, K] fp16, b [K, N] fp16,
 *        bias [N] fp32, c [M, N] fp32. A MIX kernel: the vector cores drive the Matmul object (the cube cores
 *        serve it) and apply LeakyReLU to their part of C. The tiling splits C over the vector cores.
 */
#include "matmul_leakyrelu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
constexpr uint32_t ROW_BYTES = 16384; // the epilogue moves rows of C through UB in pieces of at most this much

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &aShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape &bShape = context->GetInputShape(1)->GetOriginShape();
    const int32_t M = static_cast<int32_t>(aShape.GetDim(0));
    const int32_t K = static_cast<int32_t>(aShape.GetDim(1));
    const int32_t N = static_cast<int32_t>(bShape.GetDim(1));
    if (bShape.GetDim(0) != K) {
        return ge::GRAPH_FAILED;
    }
    const float *alpha = context->GetAttrs()->GetAttrPointer<float>(0);

    // one part of C per vector core: two per cube core in a MIX launch
    const uint32_t aivNum = ascendcPlatform.GetCoreNumAiv();
    MultiCoreMatmulTiling cubeTiling(ascendcPlatform);
    cubeTiling.SetDim(static_cast<int32_t>(aivNum));
    cubeTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    cubeTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    cubeTiling.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetShape(M, N, K);
    cubeTiling.SetOrgShape(M, N, K);
    cubeTiling.SetBias(true);
    cubeTiling.SetBufferSpace(-1, -1, -1);

    MatmulLeakyreluCustomTilingData tiling;
    if (cubeTiling.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_alpha(alpha == nullptr ? 0.1f : *alpha);
    tiling.set_rowTile(ROW_BYTES / sizeof(float));

    const int32_t usedCoreNum = tiling.cubeTilingData.get_usedCoreNum();
    context->SetBlockDim(static_cast<uint32_t>((usedCoreNum + 1) / 2));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // the Matmul object keeps its messages in the system workspace
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = static_cast<size_t>(ascendcPlatform.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *aShape = context->GetInputShape(0);
    const gert::Shape *bShape = context->GetInputShape(1);
    gert::Shape *cShape = context->GetOutputShape(0);
    cShape->SetDimNum(2);
    cShape->SetDim(0, aShape->GetDim(0));
    cShape->SetDim(1, bShape->GetDim(1));
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class MatmulLeakyreluCustom : public OpDef {
public:
    explicit MatmulLeakyreluCustom(const char *name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(0.1f);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MatmulLeakyreluCustom);
} // namespace ops
