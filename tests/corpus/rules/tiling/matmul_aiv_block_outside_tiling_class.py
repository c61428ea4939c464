# ascendc-check-args: --shape 128,256:float32 --shape 256,384:float32
# As matmul_aiv_block_outside_tiling.py, written as the samples' kernel class: the GlobalTensor members are
# moved to the block by `aGlobal = aGlobal[offsetA]` after CalcOffset(GetBlockIdx(), ...) fills the offsets
# through references. SetDim(1) tiles one 128 x 384 block; the one AI Core runs AIVs 0 and 1, and AIV 1's
# IterateAll writes its product from element 384 (one row down), over AIV 0's block.
project_json_src = """
[{"op": "MatmulClassCustom", "language": "cpp",
  "input_desc": [{"name": "a", "param_type": "required", "format": ["ND"], "type": ["float"]},
                 {"name": "b", "param_type": "required", "format": ["ND"], "type": ["float"]}],
  "output_desc": [{"name": "c", "param_type": "required", "format": ["ND"], "type": ["float"]}]}]
"""

host_tiling_src = """
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulClassCustomTilingData)
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulClassCustom, MatmulClassCustomTilingData)
}
"""

host_operator_src = """
#include "matmul_class_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& aShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& bShape = context->GetInputShape(1)->GetOriginShape();
    const int32_t rows = static_cast<int32_t>(aShape.GetDim(0));
    const int32_t inner = static_cast<int32_t>(aShape.GetDim(1));
    const int32_t cols = static_cast<int32_t>(bShape.GetDim(1));

    matmul_tiling::MultiCoreMatmulTiling mmTiling(platform);
    mmTiling.SetDim(1);
    mmTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(rows, cols, inner);
    mmTiling.SetOrgShape(rows, cols, inner);
    mmTiling.SetFixSplit(128, 128, -1);
    mmTiling.SetBias(false);
    mmTiling.SetBufferSpace(-1, -1, -1);

    MatmulClassCustomTilingData tiling;
    if (mmTiling.GetTiling(tiling.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(tiling.mm.get_usedCoreNum());
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MatmulClassCustom : public OpDef {
public:
    explicit MatmulClassCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("w").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulClassCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using AMat = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BMat = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using CMat = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

class MatmulClassKernel {
public:
    __aicore__ inline MatmulClassKernel() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &tiling)
    {
        this->tiling = tiling;
        aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(a), tiling.M * tiling.Ka);
        bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(b), tiling.Kb * tiling.N);
        cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), tiling.M * tiling.N);
        int32_t offsetA = 0;
        int32_t offsetB = 0;
        int32_t offsetC = 0;
        CalcOffset(AscendC::GetBlockIdx(), tiling, offsetA, offsetB, offsetC);
        aGlobal = aGlobal[offsetA];
        bGlobal = bGlobal[offsetB];
        cGlobal = cGlobal[offsetC];
    }
    __aicore__ inline void Process()
    {
        mm.SetTensorA(aGlobal);
        mm.SetTensorB(bGlobal);
        // expected-error@+1 {{AIV 1 of the MIX launch has no block in the Matmul tiling (1 block for 2 AIVs), yet its IterateAll writes a 128 x 384 block from element 384 of C, over the block AIV 0 writes from element 0: two cores write different products to the same elements}} [ASC609]
        mm.IterateAll(cGlobal);
        mm.End();
    }
    __aicore__ inline void CalcOffset(int32_t blockIdx, const TCubeTiling &tiling, int32_t &offsetA,
                                      int32_t &offsetB, int32_t &offsetC)
    {
        int32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
        int32_t mIdx = blockIdx % mBlocks;
        int32_t nIdx = blockIdx / mBlocks;
        offsetA = mIdx * tiling.Ka * tiling.singleCoreM;
        offsetB = nIdx * tiling.singleCoreN;
        offsetC = mIdx * tiling.N * tiling.singleCoreM + nIdx * tiling.singleCoreN;
    }

    matmul::Matmul<AMat, BMat, CMat> mm;

private:
    AscendC::GlobalTensor<float> aGlobal;
    AscendC::GlobalTensor<float> bGlobal;
    AscendC::GlobalTensor<float> cGlobal;
    TCubeTiling tiling;
};

extern "C" __global__ __aicore__ void matmul_class_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                          GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    MatmulClassKernel op;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
    op.Init(a, b, c, td.mm);
    op.Process();
}
"""

python_bind_src = """
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_class_custom_impl_npu(const at::Tensor& a, const at::Tensor& b)
{
    at::Tensor result = at::empty({a.size(0), b.size(1)}, a.options());
    EXEC_NPU_CMD(aclnnMatmulClassCustom, a, b, result);
    return result;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_class_custom", &matmul_class_custom_impl_npu, "c = a @ b");
}
"""
