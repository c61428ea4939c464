# Tiling fields reached through a class member on the host (the vendor's tiling classes keep the struct as
# a member) and through a config struct holding a pointer to the tiling data in the kernel: misspelt on both.
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
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
class ScaleTiling {
public:
    explicit ScaleTiling(gert::TilingContext* context) : context_(context) {}
    ge::graphStatus Run();

private:
    void Fill(uint32_t blockLength)
    {
        tilingData.set_blockLength(blockLength);
        tilingData.set_tileLenght(blockLength < 4096 ? blockLength : 4096);  // expected-error {{'ScaleCustomTilingData' has no field 'tileLenght' (set_tileLenght is not generated)}} [ASC803]
    }
    gert::TilingContext* context_ = nullptr;
    ScaleCustomTilingData tilingData;
};

ge::graphStatus ScaleTiling::Run()
{
    uint32_t total = context_->GetInputShape(0)->GetOriginShape().GetShapeSize();
    uint32_t coreNum = platform_ascendc::PlatformAscendC(context_->GetPlatformInfo()).GetCoreNumAiv();
    uint32_t blockLength = ((total + coreNum - 1) / coreNum + 7) / 8 * 8;
    Fill(blockLength);
    tilingData.set_tileLength(blockLength < 4096 ? blockLength : 4096);
    tilingData.set_blockLen(blockLength);  // expected-error {{has no field 'blockLen'}} [ASC803]
    tilingData.SaveToBuffer(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity());
    context_->GetRawTilingData()->SetDataSize(tilingData.GetDataSize());
    context_->SetBlockDim(coreNum);
    size_t* workspace = context_->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScaleTiling tiling(context);
    return tiling.Run();
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

struct ScaleInitConfig {
    GM_ADDR x;
    GM_ADDR y;
    const ScaleCustomTilingData* tilingData;
};

class KernelScale {
public:
    __aicore__ inline KernelScale() {}
    __aicore__ inline void Init(const ScaleInitConfig& config)
    {
        const ScaleCustomTilingData* td = config.tilingData;
        length = td->blockLength;
        tileLength = td->tileLen;  // expected-error {{tiling field 'tileLen' is not declared in 'ScaleCustomTilingData'}} [ASC803]
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)config.x + length * AscendC::GetBlockIdx(), length);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)config.y + length * AscendC::GetBlockIdx(), length);
        pipe.InitBuffer(inQueue, 2, 4096 * sizeof(DTYPE_X));
        pipe.InitBuffer(outQueue, 2, 4096 * sizeof(DTYPE_Y));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t off = 0; off < length; off += tileLength) {
            AscendC::LocalTensor<DTYPE_X> xLocal = inQueue.AllocTensor<DTYPE_X>();
            AscendC::DataCopy(xLocal, xGm[off], tileLength);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<DTYPE_X>();
            AscendC::LocalTensor<DTYPE_Y> yLocal = outQueue.AllocTensor<DTYPE_Y>();
            AscendC::Muls(yLocal, xLocal, 2.0f, tileLength);
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);
            yLocal = outQueue.DeQue<DTYPE_Y>();
            AscendC::DataCopy(yGm[off], yLocal, tileLength);
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQueue;
    AscendC::GlobalTensor<DTYPE_X> xGm;
    AscendC::GlobalTensor<DTYPE_Y> yGm;
    uint32_t length;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ScaleInitConfig config = {x, y, &td};
    KernelScale op;
    op.Init(config);
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
