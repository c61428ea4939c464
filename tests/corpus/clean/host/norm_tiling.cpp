/**
 * @file norm_tiling.cpp
 * @brief Host tiling for the NormCustom operator, written as a small tiling class the way larger
 *        ops structure it: parse inputs, query the platform, split rows, size UB, write the POD block.
 */
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "norm_tiling_data.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {

constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t DOUBLE_BUFFER = 2;
constexpr uint64_t UB_RESERVED_BYTES = 16 * 1024;
constexpr uint32_t MAX_ROWS_PER_LOOP = 255;

template <typename T>
constexpr T CeilDiv(T a, T b)
{
    return b == 0 ? 0 : (a + b - 1) / b;
}

template <typename T>
constexpr T AlignUp(T a, T b)
{
    return CeilDiv(a, b) * b;
}

uint32_t DtypeBytes(ge::DataType dtype)
{
    switch (dtype) {
        case ge::DT_FLOAT16:
        case ge::DT_BF16:
            return 2;
        case ge::DT_FLOAT:
            return 4;
        default:
            return 0;
    }
}

} // namespace

class NormTiling {
public:
    explicit NormTiling(gert::TilingContext *context) : context_(context) {}

    ge::graphStatus DoTiling()
    {
        if (ParseInputs() != ge::GRAPH_SUCCESS || QueryPlatform() != ge::GRAPH_SUCCESS) {
            return ge::GRAPH_FAILED;
        }
        SplitRows();
        if (!FitRowsInUb()) {
            return ge::GRAPH_FAILED;
        }
        return WriteBack();
    }

private:
    ge::graphStatus ParseInputs()
    {
        const gert::StorageShape *xShape = context_->GetInputShape(0);
        if (xShape == nullptr) {
            return ge::GRAPH_FAILED;
        }
        const gert::Shape &shape = xShape->GetOriginShape();
        const auto *attrs = context_->GetAttrs();
        const int64_t *beginAxis = attrs->GetAttrPointer<int64_t>(0);
        const float *eps = attrs->GetAttrPointer<float>(1);
        const char *kind = attrs->GetAttrPointer<char>(2);

        const int64_t rank = static_cast<int64_t>(shape.GetDimNum());
        int64_t axis = beginAxis == nullptr ? rank - 1 : *beginAxis;
        axis = axis < 0 ? axis + rank : axis;
        if (axis < 0 || axis >= rank) {
            return ge::GRAPH_FAILED;
        }

        numRows_ = 1;
        numCols_ = 1;
        reduceAxes_.clear();
        for (int64_t i = 0; i < rank; ++i) {
            const int64_t dim = shape.GetDim(i);
            if (i < axis) {
                numRows_ *= static_cast<uint64_t>(dim);
            } else {
                numCols_ *= static_cast<uint32_t>(dim);
                reduceAxes_.push_back(static_cast<uint32_t>(i));
            }
        }
        epsilon_ = eps == nullptr ? 1e-5f : *eps;
        kind_ = (kind != nullptr && std::string(kind) == "rms") ? norm::NormKind::RMS_NORM : norm::NormKind::LAYER_NORM;
        hasBeta_ = context_->GetOptionalInputShape(2) != nullptr;

        dtypeBytes_ = DtypeBytes(context_->GetInputDesc(0)->GetDataType());
        return dtypeBytes_ == 0 ? ge::GRAPH_FAILED : ge::GRAPH_SUCCESS;
    }

    ge::graphStatus QueryPlatform()
    {
        auto ascendcPlatform = platform_ascendc::PlatformAscendC(context_->GetPlatformInfo());
        coreNum_ = ascendcPlatform.GetCoreNumAiv();
        ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize_);
        return (coreNum_ == 0 || ubSize_ <= UB_RESERVED_BYTES) ? ge::GRAPH_FAILED : ge::GRAPH_SUCCESS;
    }

    void SplitRows()
    {
        const uint64_t used = std::max<uint64_t>(1, std::min<uint64_t>(coreNum_, numRows_));
        usedCoreNum_ = static_cast<uint32_t>(used);
        tailRows_ = static_cast<uint32_t>(numRows_ / used);
        formerCoreNum_ = static_cast<uint32_t>(numRows_ % used);
        formerRows_ = tailRows_ + (formerCoreNum_ > 0 ? 1 : 0);
    }

    bool FitRowsInUb()
    {
        colsAligned_ = AlignUp<uint32_t>(numCols_, BLOCK_BYTES / dtypeBytes_);
        // x in + y out (double-buffered, input dtype) and two fp32 scratch rows per resident row;
        // gamma / beta in fp32 plus one reduction workspace row are paid once
        const uint64_t perRow = static_cast<uint64_t>(colsAligned_) *
                                (2ULL * DOUBLE_BUFFER * dtypeBytes_ + 2ULL * sizeof(float));
        const uint64_t fixed = static_cast<uint64_t>(colsAligned_) * sizeof(float) * (hasBeta_ ? 3 : 2);
        if (ubSize_ < UB_RESERVED_BYTES + fixed + perRow) {
            return false;
        }
        const uint64_t fit = (ubSize_ - UB_RESERVED_BYTES - fixed) / perRow;
        rowsPerLoop_ = static_cast<uint32_t>(std::min<uint64_t>({fit, formerRows_, MAX_ROWS_PER_LOOP}));
        rowsPerLoop_ = std::max<uint32_t>(rowsPerLoop_, 1);
        return true;
    }

    ge::graphStatus WriteBack()
    {
        auto *td = context_->GetTilingData<norm::NormTilingData>();
        if (td == nullptr) {
            return ge::GRAPH_FAILED;
        }
        *td = norm::NormTilingData{};
        td->numRows = numRows_;
        td->numCols = numCols_;
        td->colsAligned = colsAligned_;
        td->formerCoreNum = formerCoreNum_;
        td->formerRows = formerRows_;
        td->tailRows = tailRows_;
        td->rowsPerLoop = rowsPerLoop_;
        td->kind = static_cast<uint32_t>(kind_);
        td->hasBeta = hasBeta_ ? 1U : 0U;
        td->epsilon = epsilon_;
        td->avgFactor = 1.0f / static_cast<float>(numCols_);
        const size_t n = std::min<decltype(reduceAxes_)::size_type>(reduceAxes_.size(), norm::MAX_REDUCE_AXES);
        std::copy_n(reduceAxes_.begin(), n, td->reduceAxes);

        // key = dtype class in the low bit, optional features above it
        uint64_t tilingKey = dtypeBytes_ == 2 ? 1 : 0;
        if (hasBeta_) {
            tilingKey |= 1ULL << 1;
        }
        if (kind_ == norm::NormKind::RMS_NORM) {
            tilingKey |= 1ULL << 2;
        }
        context_->SetBlockDim(usedCoreNum_);
        context_->SetTilingKey(tilingKey);
        size_t *workspace = context_->GetWorkspaceSizes(1);
        workspace[0] = 0;
        return ge::GRAPH_SUCCESS;
    }

    gert::TilingContext *context_ = nullptr;
    uint64_t numRows_ = 0;
    uint32_t numCols_ = 0;
    uint32_t colsAligned_ = 0;
    uint32_t dtypeBytes_ = 0;
    uint32_t coreNum_ = 0;
    uint64_t ubSize_ = 0;
    uint32_t usedCoreNum_ = 1;
    uint32_t formerCoreNum_ = 0;
    uint32_t formerRows_ = 0;
    uint32_t tailRows_ = 0;
    uint32_t rowsPerLoop_ = 1;
    float epsilon_ = 1e-5f;
    bool hasBeta_ = false;
    norm::NormKind kind_ = norm::NormKind::LAYER_NORM;
    std::vector<uint32_t> reduceAxes_;
};

static ge::graphStatus NormTilingFunc(gert::TilingContext *context)
{
    NormTiling tiling(context);
    return tiling.DoTiling();
}

} // namespace optiling

namespace ge {
static graphStatus NormInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class NormCustom : public OpDef {
public:
    explicit NormCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("begin_norm_axis").AttrType(OPTIONAL).Int(-1);
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5);
        this->Attr("kind").AttrType(OPTIONAL).String("layer");

        this->SetInferShape(ge::NormInferShape);
        this->AICore().SetTiling(optiling::NormTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(NormCustom);
} // namespace ops
