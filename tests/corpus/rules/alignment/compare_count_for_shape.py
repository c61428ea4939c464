# ascendc-check-args: --shape 8,125:float32
# 1000 floats on 8 cores: 125 each, one tile of 64 and a tail of 61 per core. Compare in the count form takes
# whole 256-byte repeats: 64 floats pass, the tail's 61 (244 bytes) do not; only the given shapes tell.
project_json_src = """
[{"op": "ScaleCustom", "language": "cpp",
  "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}],
  "output_desc": [{"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}]}]
"""

host_tiling_src = """
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, blockLength);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaleCustom, ScaleCustomTilingData)
}
"""

host_operator_src = """
#include "scale_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScaleCustomTilingData tiling;
    uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    if (total % 8 != 0) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_blockLength(total / 8);
    tiling.set_tileLength(64);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(8);
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ScaleCustom : public OpDef {
public:
    explicit ScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaleCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"
using namespace AscendC;

class KernelScale {
public:
    __aicore__ inline KernelScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t blockLength, uint32_t tileLength)
    {
        length = blockLength;
        this->tileLength = tileLength;
        xGm.SetGlobalBuffer((__gm__ float*)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ float*)y + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueue, 2, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, 2, tileLength * sizeof(float));
        pipe.InitBuffer(maskBuf, 64);
    }
    __aicore__ inline void Process()
    {
        uint32_t off = 0;
        for (; off + tileLength <= length; off += tileLength) {
            Tile(off, tileLength);
        }
        if (off < length) {
            Tile(off, length - off);
        }
    }

private:
    __aicore__ inline void Tile(uint32_t off, uint32_t count)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyPad(xLocal, xGm[off], {1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0});
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        Compare(mask, xLocal, xLocal, CMPMODE::EQ, count);  // expected-error {{Compare over 61 elements = 244 bytes; the count form needs a multiple of 256 bytes (64 elements)}} [ASC407]
        Muls(yLocal, xLocal, 2.0f, count);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
        yLocal = outQueue.DeQue<float>();
        DataCopyPad(yGm[off], yLocal, {1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0});
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    TBuf<TPosition::VECCALC> maskBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t length;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelScale op;
    op.Init(x, y, td.blockLength, td.tileLength);
    op.Process();
}
"""

python_bind_src = """
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor scale_custom_impl_npu(const at::Tensor& x)
{
    at::Tensor result = at::empty_like(x);
    EXEC_NPU_CMD(aclnnScaleCustom, x, result);
    return result;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("scale_custom", &scale_custom_impl_npu, "y = 2 * x");
}
"""
