"""A kernel class template named like a plain struct of the op's host headers: ops-nn transpose_batch_mat_mul's
kernel reads its L1/L0 block sizes from `PpMatMulNS::HardwareInfo<ArchTag>` (static constants, utils/hardware.h)
while its host's op_host/op_tiling/pp_matmul_info.h defines `struct HardwareInfo` (core count, memory sizes).
Before, a header under op_host was lowered with the kernel sources and the host's plain structs were given to the
kernel as tiling layouts, so `HardwareInfo<ArchTag>::l1l0BlockSize` named the host's struct: no such constant,
the value unknown, and the kernel's L1 -> L0A load loop never ran (the product came from L0A bytes nothing wrote,
ASC952). The project is written for the test in that layout."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

HOST_HEADER = """\
#ifndef HW_INFO_H
#define HW_INFO_H
#include <cstdint>
namespace optiling {
struct HardwareInfo {
    uint64_t coreNum{0};
    uint64_t l1Size{0};
};
}
#endif
"""

HOST = """\
#include "register/op_def_registry.h"
#include "hw_info.h"
namespace optiling {
struct HwScaleTilingData { uint32_t length; uint32_t cores; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    HardwareInfo info;
    info.coreNum = 1;
    HwScaleTilingData *t = context->GetTilingData<HwScaleTilingData>();
    t->length = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    t->cores = info.coreNum;
    context->SetBlockDim(info.coreNum);
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class HwScale : public OpDef {
public:
    explicit HwScale(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(HwScale);
}
"""

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;
struct HwScaleTilingData { uint32_t length; uint32_t cores; };
enum class ArchType : uint32_t { ASCEND_V220, ASCEND_V200 };
template <ArchType ArchTag>
struct HardwareInfo {
    static uint32_t const l1l0BlockSize = 32;
};
template <ArchType ArchTag, typename T>
struct Blocks {
    using HardwareParams = HardwareInfo<ArchTag>;
    static constexpr uint32_t BLOCK_SIZE = HardwareParams::l1l0BlockSize / sizeof(T);
};

extern "C" __global__ __aicore__ void hw_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(HwScaleTilingData, td, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    TQue<TPosition::VECOUT, 1> out;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.length);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.length);
    pipe.InitBuffer(q, 1, td.length * sizeof(float));
    pipe.InitBuffer(out, 1, td.length * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xGm, td.length);
    q.EnQue(t);
    LocalTensor<float> u = q.DeQue<float>();
    LocalTensor<float> v = out.AllocTensor<float>();
    Muls(v, u, static_cast<float>(Blocks<ArchType::ASCEND_V220, float>::BLOCK_SIZE), td.length);
    out.EnQue(v);
    q.FreeTensor(u);
    LocalTensor<float> w = out.DeQue<float>();
    DataCopy(yGm, w, td.length);
    out.FreeTensor(w);
}
"""


def test_the_kernels_class_template_is_not_the_hosts_struct_of_that_name(tmp_path: Path) -> None:
    root = tmp_path / "hw_scale"
    (root / "op_host").mkdir(parents=True)
    (root / "op_kernel").mkdir(parents=True)
    (root / "op_host" / "hw_info.h").write_text(HOST_HEADER)
    (root / "op_host" / "hw_scale.cpp").write_text(HOST)
    (root / "op_kernel" / "hw_scale.cpp").write_text(KERNEL)
    x = np.arange(64, dtype=np.float32)
    result = run(str(root), {"x": x.copy()}, outputs={"y": ((64,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], x * 8)  # 32-byte blocks of float
