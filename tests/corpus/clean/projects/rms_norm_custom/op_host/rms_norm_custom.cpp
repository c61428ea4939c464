/**
 * @file rms_norm_custom.cpp
 * @brief Host side of RmsNormCustom, written against the POD tiling struct in op_kernel/.
 */
#include <cstring>

#include "../op_kernel/rms_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t MAX_COLS_FP32 = 4096; // in / out / four fp32 scratch rows must fit in UB
constexpr float DEFAULT_EPS = 1e-6f;
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    RmsNormCustomTilingData *tiling = context->GetTilingData<RmsNormCustomTilingData>();
    if (tiling == nullptr) {
        return ge::GRAPH_FAILED;
    }
    std::memset(tiling, 0, sizeof(RmsNormCustomTilingData));

    const gert::Shape &xShape = context->GetInputShape(0)->GetOriginShape();
    const size_t rank = xShape.GetDimNum();
    if (rank == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t numCols = static_cast<uint32_t>(xShape.GetDim(rank - 1));
    const uint32_t numRows = static_cast<uint32_t>(xShape.GetShapeSize() / numCols);
    if (numCols == 0 || numCols > MAX_COLS_FP32) {
        return ge::GRAPH_FAILED;
    }

    const auto *attrs = context->GetAttrs();
    const float *epsPtr = attrs->GetAttrPointer<float>(0);
    const float epsilon = (epsPtr != nullptr) ? *epsPtr : DEFAULT_EPS;

    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    const uint32_t typeSize = (dtype == ge::DT_FLOAT16) ? 2 : 4;
    const uint32_t alignElems = BLOCK_BYTES / typeSize;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t aivNum = ascendcPlatform.GetCoreNumAiv();
    const uint32_t rowsPerCore = (numRows + aivNum - 1) / aivNum;
    const uint32_t blockDim = (numRows + rowsPerCore - 1) / rowsPerCore;

    tiling->numRows = numRows;
    tiling->numCols = numCols;
    tiling->rowsPerCore = rowsPerCore;
    tiling->colsAligned = (numCols + alignElems - 1) / alignElems * alignElems;
    tiling->epsilon = epsilon;
    tiling->avgFactor = 1.0f / static_cast<float>(numCols);

    context->SetBlockDim(blockDim);
    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 0 : 1);
    size_t *workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xShape = context->GetInputShape(0);
    gert::Shape *yShape = context->GetOutputShape(0);
    gert::Shape *rstdShape = context->GetOutputShape(1);
    *yShape = *xShape;
    // rstd keeps the leading dims and a trailing 1
    *rstdShape = *xShape;
    rstdShape->SetDim(xShape->GetDimNum() - 1, 1);
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    context->SetOutputDataType(1, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class RmsNormCustom : public OpDef {
public:
    explicit RmsNormCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("rstd")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-6);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(RmsNormCustom);
} // namespace ops
