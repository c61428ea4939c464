// Host tiling function for a Softmax-like op: a function-like macro call never closes its arguments.
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
#define ALIGN_UP(a, b) (CEIL_DIV(a, b) * (b))

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaledSoftmaxTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF(uint32_t, cols);
    TILING_DATA_FIELD_DEF(uint32_t, alignedCols);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
    TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaledSoftmax, ScaledSoftmaxTilingData)

constexpr uint32_t BLOCK_ELEMS = 8; // 32 bytes of float

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    ScaledSoftmaxTilingData tiling;
    const gert::Shape &shape = context->GetInputShape(0)->GetStorageShape();
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1));
    const uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
    const float *scale = context->GetAttrs()->GetAttrPointer<float>(0);

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    // expected-error@+1 {{unterminated argument list invoking macro 'CEIL_DIV'}} [ASC008]
    const uint32_t rowsPerCore = CEIL_DIV(rows, coreNum;
    const uint32_t usedCores = CEIL_DIV(rows, rowsPerCore);

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_alignedCols(ALIGN_UP(cols, BLOCK_ELEMS));
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_scale(scale == nullptr ? 1.0f : *scale);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
