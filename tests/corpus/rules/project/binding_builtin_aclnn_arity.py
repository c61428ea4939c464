# An exclusive cumsum: the binding scans with the built-in aclnnCumsum, then subtracts the input with the
# project's own op. aclnnCumsum has no exclusive/reverse flags (those are aclnnCumsumV2's): the five arguments
# shift `out` onto the dtype slot and workspaceSize onto `out`, and the run fails with EZ1001 "found nullptr".
project_json_src = """
[{"op": "SubCustom", "language": "cpp",
  "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
                 {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}],
  "output_desc": [{"name": "z", "param_type": "required", "format": ["ND"], "type": ["float"]}]}]
"""

host_tiling_src = """
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SubCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, blockLength);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SubCustom, SubCustomTilingData)
}
"""

host_operator_src = """
#include "sub_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SubCustomTilingData tiling;
    uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    uint32_t coreNum = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    uint32_t blockLength = ((total + coreNum - 1) / coreNum + 7) / 8 * 8;
    tiling.set_blockLength(blockLength);
    tiling.set_tileLength(blockLength < 4096 ? blockLength : 4096);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(coreNum);
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class SubCustom : public OpDef {
public:
    explicit SubCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SubCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"

class KernelSub {
public:
    __aicore__ inline KernelSub() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t blockLength, uint32_t tileLength)
    {
        length = blockLength;
        this->tileLength = tileLength;
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + blockLength * AscendC::GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + blockLength * AscendC::GetBlockIdx(), blockLength);
        zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + blockLength * AscendC::GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueueX, 2, tileLength * sizeof(DTYPE_X));
        pipe.InitBuffer(inQueueY, 2, tileLength * sizeof(DTYPE_Y));
        pipe.InitBuffer(outQueueZ, 2, tileLength * sizeof(DTYPE_Z));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t off = 0; off < length; off += tileLength) {
            AscendC::LocalTensor<DTYPE_X> xLocal = inQueueX.AllocTensor<DTYPE_X>();
            AscendC::LocalTensor<DTYPE_Y> yLocal = inQueueY.AllocTensor<DTYPE_Y>();
            AscendC::DataCopy(xLocal, xGm[off], tileLength);
            AscendC::DataCopy(yLocal, yGm[off], tileLength);
            inQueueX.EnQue(xLocal);
            inQueueY.EnQue(yLocal);
            xLocal = inQueueX.DeQue<DTYPE_X>();
            yLocal = inQueueY.DeQue<DTYPE_Y>();
            AscendC::LocalTensor<DTYPE_Z> zLocal = outQueueZ.AllocTensor<DTYPE_Z>();
            AscendC::Sub(zLocal, xLocal, yLocal, tileLength);
            outQueueZ.EnQue(zLocal);
            inQueueX.FreeTensor(xLocal);
            inQueueY.FreeTensor(yLocal);
            zLocal = outQueueZ.DeQue<DTYPE_Z>();
            AscendC::DataCopy(zGm[off], zLocal, tileLength);
            outQueueZ.FreeTensor(zLocal);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQueueZ;
    AscendC::GlobalTensor<DTYPE_X> xGm;
    AscendC::GlobalTensor<DTYPE_Y> yGm;
    AscendC::GlobalTensor<DTYPE_Z> zGm;
    uint32_t length;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void sub_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelSub op;
    op.Init(x, y, z, td.blockLength, td.tileLength);
    op.Process();
}
"""

python_bind_src = """
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor exclusive_cumsum_impl_npu(const at::Tensor& x, int64_t dim)
{
    at::Tensor inclusive = at::empty_like(x);
    at::Tensor result = at::empty_like(x);
    bool exclusive = false;
    bool reverse = false;
    // expected-help@+1 {{aclnnCumsumV2 takes (self: tensor, dim: int, exclusive: bool, reverse: bool, out: tensor)}}
    EXEC_NPU_CMD(aclnnCumsum, x, dim, exclusive, reverse, inclusive);  // expected-error {{aclnnCumsum takes (self: tensor, dim: int, dtype: dtype, out: tensor); EXEC_NPU_CMD passes 5 arguments}} [ASC813]
    EXEC_NPU_CMD(aclnnSubCustom, inclusive, x, result);
    return result;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("exclusive_cumsum", &exclusive_cumsum_impl_npu, "cumsum(x, dim) - x");
}
"""
