"""A kernel that reads its tiling data from GM itself (a raw pointer, or a GlobalTensor and GetValue) finds there
the bytes the host saved, laid out as the device's struct (ascendir/lower/tiling_layout.py); NPUKernelBench's
Sasum, Snrm2, Sscal and the I?amax family read their tiling that way. The host keeps its tiling struct as a
member of a helper class here, which the host lowering models as a local struct (IsFinite, IsInf).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from ascendir.lower.tiling_layout import tiling_bytes, tiling_slots
from passes.sim import run
from frontend.pipeline import load

TILING_H = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PeekTilingData)
    TILING_DATA_FIELD_DEF(uint16_t, small);
    TILING_DATA_FIELD_DEF(uint32_t, n);
    TILING_DATA_FIELD_DEF_ARR(uint32_t, 4, offsets);
    TILING_DATA_FIELD_DEF(uint64_t, big);
    TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Peek, PeekTilingData)
}
"""

HOST = """
#include "peek_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
class PeekTiling {
public:
    explicit PeekTiling(gert::TilingContext *ctx) : context(ctx) {}
    ge::graphStatus Run() {
        uint32_t n = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
        uint32_t offsets[4] = {0, 1, 2, 3};
        for (uint32_t i = 0; i < 4; i++) {
            offsets[i] = i * n;
        }
        uint32_t reserved = static_cast<uint32_t>(tilingData.GetDataSize());  // before any field is set
        tilingData.set_small(7);
        tilingData.set_n(n);
        tilingData.set_offsets(offsets);
        tilingData.set_big(reserved);
        tilingData.set_scale(0.5f);
        tilingData.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
        context->GetRawTilingData()->SetDataSize(tilingData.GetDataSize());
        context->SetBlockDim(1);
        size_t *ws = context->GetWorkspaceSizes(1);
        ws[0] = 0;
        return ge::GRAPH_SUCCESS;
    }
private:
    gert::TilingContext *context = nullptr;
    PeekTilingData tilingData;
};
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    PeekTiling tiling(context);
    return tiling.Run();
}
}
namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
}
namespace ops {
class Peek : public OpDef {
public:
    explicit Peek(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_UINT32}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_UINT32}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Peek);
}
"""

# y[0..7] = the tiling words as the kernel sees them: small (low half of word 0), n, offsets[0..3], big (low
# word), then the float scale's bits; nothing here uses GET_TILING_DATA, so only GM holds the values
KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void peek(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tilingGm)
{
    GlobalTensor<uint32_t> words;
    words.SetGlobalBuffer((__gm__ uint32_t *)tilingGm);
    GlobalTensor<uint32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ uint32_t *)y);
    uint16_t small = *((__gm__ uint16_t *)tilingGm);
    yGm.SetValue(0, small);
    for (int32_t i = 1; i < 8; i++) {
        yGm.SetValue(i, words.GetValue(i));
    }
    yGm.SetValue(8, words.GetValue(8));
}
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("peek")
    (root / "op_host").mkdir()
    (root / "op_kernel").mkdir()
    (root / "op_host" / "peek_tiling.h").write_text(TILING_H)
    (root / "op_host" / "peek.cpp").write_text(HOST)
    (root / "op_kernel" / "peek.cpp").write_text(KERNEL)
    return root


def test_the_layout_is_the_c_structs(project: Path) -> None:
    found = tiling_slots(load(str(project)), "PeekTilingData")
    assert found is not None
    slots, size = found
    assert [(s.path, s.offset, s.count) for s in slots] == [
        ("small", 0, None), ("n", 4, None), ("offsets", 8, 4), ("big", 24, None), ("scale", 32, None)]
    assert size == 40  # rounded up to the uint64_t's alignment


def test_a_tiling_struct_member_of_a_helper_class(project: Path) -> None:
    result = evaluate_program_tiling(load(str(project)), TilingInputs([TensorSpec((16,), "uint32")]))
    assert result.succeeded, result.diagnostics
    assert result.fields["offsets"] == [0, 16, 32, 48]
    assert result.fields["big"] == 40  # GetDataSize() of the member
    data = tiling_bytes(load(str(project)), result.struct_name, result.fields)
    assert data is not None and len(data) == 40
    assert np.frombuffer(data[8:24], dtype=np.uint32).tolist() == [0, 16, 32, 48]


def test_the_kernel_reads_the_saved_bytes_from_gm(project: Path) -> None:
    x = np.zeros(9, dtype=np.uint32)
    result = run(project, [x])
    assert result.ok, [str(d) for d in result.findings]
    y = result.outputs["y"]
    scale_bits = int(np.array([0.5], dtype=np.float32).view(np.uint32)[0])
    assert y.tolist() == [7, 9, 0, 9, 18, 27, 40, 0, scale_bits]


UNSET_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void peek(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<uint32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ uint32_t *)y);
    for (uint32_t i = 0; i < td.n; i++) {
        yGm.SetValue(i, td.unset + td.n);
    }
}
"""


def test_a_field_the_host_never_sets_reads_zero(project: Path, tmp_path: Path) -> None:
    # the device's tiling data starts zeroed: a field no set_ call writes is 0, not an unknown value
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    header = TILING_H.replace("TILING_DATA_FIELD_DEF(float, scale);",
                              "TILING_DATA_FIELD_DEF(float, scale);\n    TILING_DATA_FIELD_DEF(uint32_t, unset);")
    (tmp_path / "op_host" / "peek_tiling.h").write_text(header)
    (tmp_path / "op_host" / "peek.cpp").write_text(HOST)
    (tmp_path / "op_kernel" / "peek.cpp").write_text(UNSET_KERNEL)
    result = run(tmp_path, [np.zeros(5, dtype=np.uint32)])
    assert result.ok, [str(d) for d in result.findings]
    assert result.outputs["y"].tolist() == [5] * 5
