/**
 * @file matmul_gelu_custom.cpp
 * @brief Host side of MatmulGeluCustom: c = gelu_tanh(a @ b + bias), one block of c per vector core.
 */
#include "matmul_gelu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t FLOATS_PER_BLOCK = 8;
constexpr uint32_t EPILOGUE_BUFFERS = 5;       // in and out double-buffered, one scratch
constexpr uint64_t EPILOGUE_UB = 96 * 1024;    // UB kept for the epilogue; the Matmul API gets the rest
constexpr uint32_t AIV_PER_AIC = 2;
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &aShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape &bShape = context->GetInputShape(1)->GetOriginShape();
    if (aShape.GetDimNum() != 2 || bShape.GetDimNum() != 2 || aShape.GetDim(1) != bShape.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const int32_t m = static_cast<int32_t>(aShape.GetDim(0));
    const int32_t k = static_cast<int32_t>(aShape.GetDim(1));
    const int32_t n = static_cast<int32_t>(bShape.GetDim(1));

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    // in a mixed kernel the Matmul API is driven from the vector cores: the tiling splits c over them
    matmul_tiling::MultiCoreMatmulTiling cubeTiling(platform);
    cubeTiling.SetDim(static_cast<int32_t>(platform.GetCoreNumAiv()));
    cubeTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                        matmul_tiling::DataType::DT_FLOAT16);
    cubeTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                        matmul_tiling::DataType::DT_FLOAT16);
    cubeTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                           matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetShape(m, n, k);
    cubeTiling.SetOrgShape(m, n, k);
    cubeTiling.SetBias(true);
    cubeTiling.SetBufferSpace(-1, -1, static_cast<int32_t>(ubSize - EPILOGUE_UB));

    MatmulGeluCustomTilingData tiling;
    if (cubeTiling.GetTiling(tiling.cubeTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t singleN = static_cast<uint32_t>(tiling.cubeTiling.get_singleCoreN());
    const uint32_t singleM = static_cast<uint32_t>(tiling.cubeTiling.get_singleCoreM());
    const uint32_t pitch = (singleN + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK * FLOATS_PER_BLOCK;
    uint32_t rowsPerTile = static_cast<uint32_t>(EPILOGUE_UB / (EPILOGUE_BUFFERS * pitch * sizeof(float)));
    rowsPerTile = rowsPerTile > singleM ? singleM : rowsPerTile;
    if (rowsPerTile == 0) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_pitch(pitch);
    tiling.set_rowsPerTile(rowsPerTile);

    // blockDim counts cube + vector groups: two vector cores (two blocks of c) per group
    const uint32_t usedAiv = static_cast<uint32_t>(tiling.cubeTiling.get_usedCoreNum());
    context->SetBlockDim((usedAiv + AIV_PER_AIC - 1) / AIV_PER_AIC);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = static_cast<size_t>(platform.GetLibApiWorkSpaceSize());
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
class MatmulGeluCustom : public OpDef {
public:
    explicit MatmulGeluCustom(const char *name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(MatmulGeluCustom);
} // namespace ops
