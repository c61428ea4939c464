/**
 * @file attention_custom.cpp
 * @brief Host side of AttentionCustom: out = softmax(scale * q @ k^T) @ v, q / k / v [B, S, D] fp16.
 */
#include "attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_ROWS_PER_UNIT = 64;
constexpr uint32_t MAX_SEQ = 4096;
constexpr uint32_t HALF_PER_BLOCK = 16;
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t AIV_PER_AIC = 2;
constexpr uint64_t UB_RESERVED = 8 * 1024;   // the statistics slot and the Matmul client's bookkeeping

uint32_t RoundUp(uint64_t bytes)
{
    return static_cast<uint32_t>((bytes + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES);
}
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &qShape = context->GetInputShape(0)->GetOriginShape();
    if (qShape.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t batches = static_cast<uint32_t>(qShape.GetDim(0));
    const uint32_t seq = static_cast<uint32_t>(qShape.GetDim(1));
    const uint32_t headDim = static_cast<uint32_t>(qShape.GetDim(2));
    const float *scalePtr = context->GetAttrs()->GetAttrPointer<float>(0);
    if (batches == 0 || seq == 0 || seq > MAX_SEQ || headDim == 0 || scalePtr == nullptr || *scalePtr <= 0.0f) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint32_t rowsPerUnit = seq < MAX_ROWS_PER_UNIT ? seq : MAX_ROWS_PER_UNIT;
    const uint32_t units = batches * ((seq + rowsPerUnit - 1) / rowsPerUnit);
    const uint32_t aivNum = platform.GetCoreNumAiv();
    const uint32_t usedCores = units < aivNum ? units : aivNum;

    AttentionCustomTilingData tiling;
    matmul_tiling::MatmulApiTiling scoreTiling(platform);
    scoreTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                         matmul_tiling::DataType::DT_FLOAT16);
    scoreTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                         matmul_tiling::DataType::DT_FLOAT16, true);
    scoreTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                         matmul_tiling::DataType::DT_FLOAT);
    scoreTiling.SetShape(rowsPerUnit, seq, headDim);
    scoreTiling.SetOrgShape(rowsPerUnit, seq, headDim);
    scoreTiling.SetBias(false);
    scoreTiling.SetBufferSpace(-1, -1, -1);
    if (scoreTiling.GetTiling(tiling.scoreTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    matmul_tiling::MatmulApiTiling outTiling(platform);
    outTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                       matmul_tiling::DataType::DT_FLOAT16);
    outTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                       matmul_tiling::DataType::DT_FLOAT16);
    outTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    outTiling.SetShape(rowsPerUnit, headDim, seq);
    outTiling.SetOrgShape(rowsPerUnit, headDim, seq);
    outTiling.SetBias(false);
    outTiling.SetBufferSpace(-1, -1, -1);
    if (outTiling.GetTiling(tiling.outTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    // softmax tiles: fp32 score rows and fp16 probability rows double-buffered; one fp32 reduction row
    const uint32_t pitch = (seq + HALF_PER_BLOCK - 1) / HALF_PER_BLOCK * HALF_PER_BLOCK;
    const uint64_t perRow = 2ULL * pitch * (sizeof(float) + sizeof(uint16_t));
    const uint64_t fixedBytes = static_cast<uint64_t>(pitch) * sizeof(float) + UB_RESERVED;
    uint32_t rowsPerTile = static_cast<uint32_t>((ubSize - fixedBytes) / perRow);
    rowsPerTile = rowsPerTile > rowsPerUnit ? rowsPerUnit : rowsPerTile;

    const uint64_t unitElems = static_cast<uint64_t>(rowsPerUnit) * seq;
    tiling.set_batches(batches);
    tiling.set_seq(seq);
    tiling.set_headDim(headDim);
    tiling.set_rowsPerUnit(rowsPerUnit);
    tiling.set_usedCores(usedCores);
    tiling.set_pitch(pitch);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_scoreBytes(RoundUp(unitElems * sizeof(float)));
    tiling.set_probBytes(RoundUp(unitElems * sizeof(uint16_t)));
    tiling.set_scale(*scalePtr);

    // blockDim counts cube + vector groups, two vector cores each
    context->SetBlockDim((usedCores + AIV_PER_AIC - 1) / AIV_PER_AIC);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = static_cast<size_t>(platform.GetLibApiWorkSpaceSize()) +
                   static_cast<size_t>(usedCores) * (tiling.get_scoreBytes() + tiling.get_probBytes());
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
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class AttentionCustom : public OpDef {
public:
    explicit AttentionCustom(const char *name) : OpDef(name)
    {
        this->Input("q").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("k").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("v").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(0.125f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(AttentionCustom);
} // namespace ops
