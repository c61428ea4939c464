/**
 * @file elementwise_tiling.cpp
 * @brief Generic host tiling for binary element-wise ops with broadcast-free inputs.
 *
 * Tiling data is declared in the same file (small ops often skip the separate header). The function
 * sizes tiles from the live UB size, splits the work over the AIV cores in 32-byte units, and
 * selects a tiling key per dtype: 0 = fp16, 1 = fp32, 2 = bf16 (computed in fp32 in the kernel).
 */
#include <cstdint>

#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ElementwiseTilingData)
    TILING_DATA_FIELD_DEF(uint64_t, totalLength);
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);
    TILING_DATA_FIELD_DEF(uint32_t, formerLength);
    TILING_DATA_FIELD_DEF(uint32_t, tailLength);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
    TILING_DATA_FIELD_DEF_ARR(uint32_t, 4, reserved);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ElementwiseCustom, ElementwiseTilingData)

namespace {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t IO_QUEUES = 3;         // two inputs, one output
constexpr uint32_t FP32_SCRATCH_ROWS = 2; // only used by the bf16 path

struct DtypeInfo {
    uint32_t bytes;
    uint32_t key;
    bool needsFp32Scratch;
};

bool LookupDtype(ge::DataType dtype, DtypeInfo &info)
{
    switch (dtype) {
        case ge::DT_FLOAT16:
            info = {2, 0, false};
            return true;
        case ge::DT_FLOAT:
            info = {4, 1, false};
            return true;
        case ge::DT_BF16:
            info = {2, 2, true};
            return true;
        default:
            return false;
    }
}
} // namespace

static ge::graphStatus ElementwiseTilingFunc(gert::TilingContext *context)
{
    DtypeInfo info{};
    if (!LookupDtype(context->GetInputDesc(0)->GetDataType(), info)) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t totalLength = static_cast<uint64_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t aivNum = ascendcPlatform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const uint32_t alignElems = BLOCK_SIZE / info.bytes;
    const uint64_t blocks = (totalLength + alignElems - 1) / alignElems;
    uint32_t usedCores = static_cast<uint32_t>(blocks < aivNum ? blocks : aivNum);
    usedCores = usedCores == 0 ? 1 : usedCores;
    const uint64_t blocksPerCore = blocks / usedCores;
    const uint32_t formerNum = static_cast<uint32_t>(blocks % usedCores);

    // bytes needed per element resident in UB
    uint32_t bytesPerElem = IO_QUEUES * BUFFER_NUM * info.bytes;
    bytesPerElem += info.needsFp32Scratch ? FP32_SCRATCH_ROWS * sizeof(float) : 0;
    uint32_t tileLength = static_cast<uint32_t>((ubSize / 2) / bytesPerElem); // half of UB, rest is headroom
    tileLength &= ~(alignElems - 1); // alignElems is a power of two
    const uint32_t formerLength = static_cast<uint32_t>((blocksPerCore + 1) * alignElems);
    tileLength = tileLength > formerLength ? formerLength : tileLength;

    ElementwiseTilingData tiling;
    uint32_t reserved[4] = {0, 0, 0, 0};
    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength(formerLength);
    tiling.set_tailLength(static_cast<uint32_t>(blocksPerCore * alignElems));
    tiling.set_tileLength(tileLength);
    tiling.set_reserved(reserved);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    context->SetBlockDim(usedCores);
    context->SetTilingKey(info.key);
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = static_cast<size_t>(ascendcPlatform.GetLibApiWorkSpaceSize());
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
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ElementwiseCustom : public OpDef {
public:
    explicit ElementwiseCustom(const char *name) : OpDef(name)
    {
        this->Input("x1")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("x2")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::ElementwiseTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ElementwiseCustom);
} // namespace ops
