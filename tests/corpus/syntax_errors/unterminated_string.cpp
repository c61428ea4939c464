// Host side of a Softmax operator: two string literals lose their closing quote.
#include "softmax_custom_tiling.h" // expected-warning {{cannot find include file}} [ASC002]
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    SoftmaxCustomTilingData tiling;
    const gert::StorageShape *xShape = context->GetInputShape(0);
    const uint32_t rows = xShape->GetStorageShape().GetDim(0);
    const uint32_t cols = xShape->GetStorageShape().GetDim(1);
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    const uint32_t rowsPerCore = (rows + coreNum - 1) / coreNum;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_rowsPerCore(rowsPerCore);
    context->SetBlockDim((rows + rowsPerCore - 1) / rowsPerCore);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class SoftmaxCustom : public OpDef {
public:
    explicit SoftmaxCustom(const char *name) : OpDef(name)
    {
        // expected-error@+1 {{missing terminating " character}} [ASC009]
        this->Input("x)
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});

        this->AICore().SetTiling(optiling::TilingFunc);
        // expected-error@+1 {{missing terminating " character}} [ASC009]
        this->AICore().AddConfig("ascend910b);
    }
};

OP_ADD(SoftmaxCustom);
} // namespace ops
