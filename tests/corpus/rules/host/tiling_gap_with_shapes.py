# ascendc-check-args: --shape 16,64:float32 --shape 8,128:float32
# The tiling function computes each tensor's length with std::accumulate over a std::vector, which the host
# lowering does not model: the statements are left out, so blockLength would be 0 and every output "unwritten".
# The checker says which statements it left out and runs none of the checks that need the tiling values
# (no ASC607 here), instead of checking the kernel for a tiling the device never computes.
project_json_src = """
[{"op": "PairScaleCustom", "language": "cpp",
  "input_desc": [{"name": "x0", "param_type": "required", "format": ["ND"], "type": ["float"]},
                 {"name": "x1", "param_type": "required", "format": ["ND"], "type": ["float"]}],
  "output_desc": [{"name": "y0", "param_type": "required", "format": ["ND"], "type": ["float"]},
                  {"name": "y1", "param_type": "required", "format": ["ND"], "type": ["float"]}]}]
"""

host_tiling_src = """
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PairScaleCustomTilingData)
    TILING_DATA_FIELD_DEF_ARR(uint32_t, 2, blockLength);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PairScaleCustom, PairScaleCustomTilingData)
}
"""

host_operator_src = """
#include "pair_scale_custom_tiling.h"
#include <numeric>
#include <vector>
#include "register/op_def_registry.h"

namespace optiling {
constexpr uint32_t TENSORS = 2;
constexpr uint32_t CORES = 8;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    PairScaleCustomTilingData tiling;
    uint32_t blockLength[TENSORS] = {0};
    for (uint32_t i = 0; i < TENSORS; ++i) {
        const gert::Shape& shape = context->GetInputShape(i)->GetOriginShape();
        std::vector<int64_t> dims = {shape.GetDim(0), shape.GetDim(1)};
        // expected-warning@+1 {{'std::accumulate' is not modelled by the host lowering}} [ASC103]
        uint32_t total = std::accumulate(dims.begin(), dims.end(), 1, std::multiplies<int64_t>());
        if (total % (CORES * 64) != 0) {  // expected-warning {{'total' comes from a statement the host lowering left out}} [ASC103]
            return ge::GRAPH_FAILED;
        }
        blockLength[i] = total / CORES;  // expected-warning {{'total' comes from a statement the host lowering left out}} [ASC103]
    }
    tiling.set_blockLength(blockLength);
    tiling.set_tileLength(64);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(CORES);
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    for (size_t i = 0; i < 2; ++i) {
        *context->GetOutputShape(i) = *context->GetInputShape(i);
    }
    return GRAPH_SUCCESS;
}
}

namespace ops {
class PairScaleCustom : public OpDef {
public:
    explicit PairScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x0").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("x1").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y0").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y1").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PairScaleCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"

class KernelPairScale {
public:
    __aicore__ inline KernelPairScale() {}
    __aicore__ inline void Run(GM_ADDR x, GM_ADDR y, uint32_t blockLength, uint32_t tileLength)
    {
        xGm.SetGlobalBuffer((__gm__ float*)x + blockLength * AscendC::GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ float*)y + blockLength * AscendC::GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueue, 2, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, 2, tileLength * sizeof(float));
        for (uint32_t off = 0; off < blockLength; off += tileLength) {
            AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            AscendC::DataCopy(xLocal, xGm[off], tileLength);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<float>();
            AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
            AscendC::Muls(yLocal, xLocal, 2.0f, tileLength);
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);
            yLocal = outQueue.DeQue<float>();
            AscendC::DataCopy(yGm[off], yLocal, tileLength);
            outQueue.FreeTensor(yLocal);
        }
        pipe.Destroy();
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQueue;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void pair_scale_custom(GM_ADDR x0, GM_ADDR x1, GM_ADDR y0, GM_ADDR y1,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelPairScale first;
    first.Run(x0, y0, td.blockLength[0], td.tileLength);
    KernelPairScale second;
    second.Run(x1, y1, td.blockLength[1], td.tileLength);
}
"""
