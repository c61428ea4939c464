project_json_src = '''
[
    {
        "op": "HardsigmoidCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ]
    }
]
'''

host_tiling_src = """
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HardsigmoidCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);
    TILING_DATA_FIELD_DEF(uint32_t, blockLength);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(HardsigmoidCustom, HardsigmoidCustomTilingData)
}
"""

host_operator_src = """
#include "hardsigmoid_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    HardsigmoidCustomTilingData tiling;
    uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    uint32_t blockLength = ((totalLength + coreNum - 1) / coreNum + 7) / 8 * 8;
    uint32_t blockDim = (totalLength + blockLength - 1) / blockLength;
    // in and out queues, double-buffered, use at most half of UB
    uint32_t tileLength = static_cast<uint32_t>(ubSize / 2 / 4 / sizeof(float)) / 8 * 8;
    tileLength = tileLength < blockLength ? tileLength : blockLength;

    tiling.set_totalLength(totalLength);
    tiling.set_blockLength(blockLength);
    tiling.set_tileLength(tileLength);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(blockDim);
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x1_shape = context->GetInputShape(0);
    gert::Shape* y_shape = context->GetOutputShape(0);
    *y_shape = *x1_shape;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class HardsigmoidCustom : public OpDef {
public:
    explicit HardsigmoidCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(HardsigmoidCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr float ONE_SIXTH = 1.0f / 6.0f;

class KernelHardsigmoid {
public:
    __aicore__ inline KernelHardsigmoid() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t blockLength, uint32_t tileLength)
    {
        uint32_t start = blockLength * AscendC::GetBlockIdx();
        length = start + blockLength <= totalLength ? blockLength : totalLength - start;
        this->tileLength = tileLength;
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + start, length);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + start, length);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(DTYPE_X));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(DTYPE_Y));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t off = 0; off < length; off += tileLength) {
            uint32_t n = length - off < tileLength ? length - off : tileLength;
            AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(DTYPE_X)), 0, 0, 0};

            AscendC::LocalTensor<DTYPE_X> xLocal = inQueueX.AllocTensor<DTYPE_X>();
            AscendC::DataCopyPad(xLocal, xGm[off], params, AscendC::DataCopyPadExtParams<DTYPE_X>{false, 0, 0, 0});
            inQueueX.EnQue(xLocal);

            xLocal = inQueueX.DeQue<DTYPE_X>();
            AscendC::LocalTensor<DTYPE_Y> yLocal = outQueueY.AllocTensor<DTYPE_Y>();
            // hardsigmoid(x) = clamp(x / 6 + 1 / 2, 0, 1)
            AscendC::Muls(yLocal, xLocal, ONE_SIXTH, n);
            AscendC::Adds(yLocal, yLocal, 0.5f, n);
            AscendC::Maxs(yLocal, yLocal, 0.0f, n);
            AscendC::Mins(yLocal, yLocal, 1.0f, n);
            outQueueY.EnQue(yLocal);
            inQueueX.FreeTensor(xLocal);

            yLocal = outQueueY.DeQue<DTYPE_Y>();
            AscendC::DataCopyPad(yGm[off], yLocal, params);
            outQueueY.FreeTensor(yLocal);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::GlobalTensor<DTYPE_X> xGm;
    AscendC::GlobalTensor<DTYPE_Y> yGm;
    uint32_t length;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void hardsigmoid_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelHardsigmoid op;
    op.Init(x, y, tiling_data.totalLength, tiling_data.blockLength, tiling_data.tileLength);
    op.Process();
}
"""

python_bind_src = """
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor hardsigmoid_custom_impl_npu(const at::Tensor& x)
{
    at::Tensor result = at::empty_like(x);
    EXEC_NPU_CMD(aclnnHardsigmoidCustom, x, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("hardsigmoid_custom", &hardsigmoid_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("hardsigmoid_custom", &hardsigmoid_custom_impl_npu, "hardsigmoid(x)");
}
"""

model_src = '''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.hardsigmoid_custom(x)
'''
