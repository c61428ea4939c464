# Built-in aclnn calls checked against their vendor signatures: the dtype of aclnnCumsum may be an at::ScalarType
# or an aclDataType, aclnnCumsumV2 takes the exclusive/reverse flags, an at::Scalar goes where an aclScalar* is
# expected, an argument of unknown type is not judged. A double where aclnnMuls expects an aclScalar*, and a
# tensor and a dtype swapped, are read as the wrong values at run time.
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

at::Tensor scaled_exclusive_cumsum_impl_npu(const at::Tensor& x, int64_t dim, double scale)
{
    at::Tensor inclusive = at::empty_like(x);
    auto shifted = at::empty_like(x);
    at::Tensor result = at::empty_like(x);
    at::ScalarType dtype = x.scalar_type();
    aclDataType outType = ACL_FLOAT;
    EXEC_NPU_CMD(aclnnCumsum, x, dim, dtype, inclusive);
    EXEC_NPU_CMD(aclnnCumsum, x, dim, outType, inclusive);
    // expected-error@+2 {{aclnnCumsum takes (self: tensor, dim: int, dtype: dtype, out: tensor); argument 3 'inclusive' is an at::Tensor where 'dtype' is a dtype}} [ASC813]
    // expected-error@+1 {{aclnnCumsum takes (self: tensor, dim: int, dtype: dtype, out: tensor); argument 4 'dtype' is an at::ScalarType where 'out' is a tensor}} [ASC813]
    EXEC_NPU_CMD(aclnnCumsum, x, dim, inclusive, dtype);
    bool exclusive = true;
    bool reverse = false;
    EXEC_NPU_CMD(aclnnCumsumV2, x, dim, exclusive, reverse, shifted);
    at::Tensor contiguous = shifted.contiguous();
    auto mystery = contiguous.view(-1);
    EXEC_NPU_CMD(aclnnSubCustom, inclusive, mystery, result);
    at::Scalar factor(scale);
    EXEC_NPU_CMD(aclnnMuls, shifted, factor, result);
    EXEC_NPU_CMD(aclnnMuls, shifted, scale, result);  // expected-error {{aclnnMuls takes (self: tensor, other: scalar, out: tensor); argument 2 'scale' is a double where 'other' is a scalar}} [ASC813]
    return result;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("scaled_exclusive_cumsum", &scaled_exclusive_cumsum_impl_npu, "scale * (cumsum(x, dim) - x)");
}
"""
