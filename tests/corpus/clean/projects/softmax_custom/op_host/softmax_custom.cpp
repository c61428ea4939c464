/**
 * @file softmax_custom.cpp
 * @brief Host side of SoftmaxCustom (softmax over the last axis via the SoftMax high-level API).
 */
#include <algorithm>
#include <vector>

#include "softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_ROWS_PER_LOOP = 64;
constexpr uint64_t UB_RESERVED = 8 * 1024; // left for the pipe's own bookkeeping
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    SoftmaxCustomTilingData tiling;
    const gert::Shape &shape = context->GetInputShape(0)->GetOriginShape();
    const size_t dimNum = shape.GetDimNum();
    if (dimNum == 0 || dimNum > MAX_DIM_NUM) {
        return ge::GRAPH_FAILED;
    }

    uint32_t shapeArr[MAX_DIM_NUM] = {0};
    uint32_t rows = 1;
    for (size_t i = 0; i < dimNum; ++i) {
        shapeArr[i] = static_cast<uint32_t>(shape.GetDim(i));
        if (i + 1 < dimNum) {
            rows *= shapeArr[i];
        }
    }
    const uint32_t cols = shapeArr[dimNum - 1];
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2U : 4U;
    if ((cols * typeSize) % BLOCK_BYTES != 0) {
        return ge::GRAPH_FAILED; // the API needs 32-byte aligned rows
    }

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const uint32_t usedCores = std::max<uint32_t>(1, std::min(coreNum, rows));
    const uint32_t rowsPerCore = (rows + usedCores - 1) / usedCores;
    const uint32_t blockDim = (rows + rowsPerCore - 1) / rowsPerCore;

    // in + out double-buffered, plus one 32-byte sum and max slot per row
    const uint64_t bytesPerRow = 2ULL * BUFFER_NUM * cols * typeSize + 2ULL * BLOCK_BYTES;
    uint32_t rowsPerLoop = static_cast<uint32_t>((ubSize - UB_RESERVED) / 2 / bytesPerRow);
    rowsPerLoop = std::min({rowsPerLoop, rowsPerCore, MAX_ROWS_PER_LOOP});
    if (rowsPerLoop == 0) {
        return ge::GRAPH_FAILED;
    }

    std::vector<int64_t> loopShape = {static_cast<int64_t>(rowsPerLoop), static_cast<int64_t>(cols)};
    ge::Shape srcShape(loopShape);
    const uint32_t tmpSize = AscendC::GetSoftMaxMinTmpSize(srcShape, typeSize, false);
    AscendC::SoftMaxTilingFunc(srcShape, typeSize, tmpSize, tiling.softmaxTiling);

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_rowsPerLoop(rowsPerLoop);
    tiling.set_tmpBufferSize(tmpSize);
    tiling.set_dimNum(static_cast<uint32_t>(dimNum));
    tiling.set_shape(shapeArr);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    context->SetBlockDim(blockDim);
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xShape = context->GetInputShape(0);
    gert::Shape *yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class SoftmaxCustom : public OpDef {
public:
    explicit SoftmaxCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SoftmaxCustom);
} // namespace ops
