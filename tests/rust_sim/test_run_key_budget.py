"""A run lowers for the one tiling key its host chose, and that key's kernel is the only one that executes: a kernel
too large for MAX_KERNEL_OPS (ascendc-check's bound per kernel) gets MAX_RUN_KEY_OPS of its own there, and a kernel
still left out is said, naming the key and why, rather than another entry of the op (another chip's) running in its
place (ops-nn mat_mul_v3, 50x100 @ 100x70 half: the 910B's MatmulBaseUnAlignedKernel instance past 40,000 ops was
dropped and the arch35 entry ran, writing nothing). The limits are lowered here so that small kernels are large."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ascendir import lower
from ascendir.lower import function, tiling_key_split
from frontend.pipeline import load
from passes.sim import run

HOST = """
#include "register/op_def_registry.h"
namespace optiling {
struct KeyTilingData { uint32_t n; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    KeyTilingData *t = context->GetTilingData<KeyTilingData>();
    t->n = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    context->SetTilingKey(t->n > 4 ? 2 : 1);
    context->SetBlockDim(1);
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class KeyOp : public OpDef {
public:
    explicit KeyOp(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        OpAICoreConfig config950;
        config950.ExtendCfgInfo("opFile.value", "key_op_apt");
        this->AICore().AddConfig("ascend950", config950);
    }
};
OP_ADD(KeyOp);
}
"""

# y = 3x in four loops of a quarter each: about 50 operations
_LOOPS = "\n".join(f"""
    for (uint32_t i = {q} * td.n / 4; i < {q + 1} * td.n / 4; i++) {{
        yGm.SetValue(i, xGm.GetValue(i) * 3.0f);
    }}""" for q in range(4))

_HEAD = """
#include "kernel_operator.h"
using namespace AscendC;
struct KeyTilingData { uint32_t n; };
extern "C" __global__ __aicore__ void key_op(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(KeyTilingData, td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    yGm.SetGlobalBuffer((__gm__ float *)y);
"""

# the 910B's entry: one body for every key (as a template instance for the key is), too large for the check
WHOLE = _HEAD + _LOOPS + "\n}\n"
# the 950's entry (op_kernel/key_op_apt.cpp): small, and not the one a 910B run may run
OTHER_CHIP = _HEAD + """
    for (uint32_t i = 0; i < td.n; i++) {
        yGm.SetValue(i, xGm.GetValue(i) - 1.0f);
    }
}
"""
# one TILING_KEY_IS branch per key, key 2's the large one
KEYED = _HEAD + """
    if (TILING_KEY_IS(1)) {
        for (uint32_t i = 0; i < td.n; i++) {
            yGm.SetValue(i, xGm.GetValue(i) + 1.0f);
        }
    } else if (TILING_KEY_IS(2)) {""" + _LOOPS + """
    }
}
"""


def _project(root: Path, kernel: str, monkeypatch: pytest.MonkeyPatch, run_budget: int) -> Path:
    (root / "op_host").mkdir()
    (root / "op_kernel").mkdir()
    (root / "op_host" / "key_op.cpp").write_text(HOST)
    (root / "op_kernel" / "key_op.cpp").write_text(kernel)
    (root / "op_kernel" / "key_op_apt.cpp").write_text(OTHER_CHIP)
    monkeypatch.setattr(function, "MAX_KERNEL_OPS", 30)  # the four loops are past it, one loop is not
    monkeypatch.setattr(tiling_key_split, "MAX_SPLIT_OPS", 30)
    monkeypatch.setattr(tiling_key_split, "MAX_RUN_KEY_OPS", run_budget)
    return root


def _run(project: Path, n: int):  # type: ignore[no-untyped-def]
    x = np.arange(n, dtype=np.float32)
    return x, run(project, [x], chip="910B2", outputs={"y": np.zeros(n, dtype=np.float32)})


@pytest.mark.parametrize("kernel", [WHOLE, KEYED], ids=["whole", "per-key"])
def test_the_run_s_key_is_lowered_with_a_budget_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           kernel: str) -> None:
    # before: WHOLE was dropped and the 950's entry ran (y = x - 1); KEYED's key 2 did not fit (ASC958)
    project = _project(tmp_path, kernel, monkeypatch, run_budget=1000)
    x, result = _run(project, 8)  # key 2
    assert result.ok, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], 3 * x)


@pytest.mark.parametrize("kernel", [WHOLE, KEYED], ids=["whole", "per-key"])
def test_a_run_s_key_not_lowered_is_said_at_the_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       kernel: str) -> None:
    project = _project(tmp_path, kernel, monkeypatch, run_budget=30)
    _, result = _run(project, 8)
    assert not result.ok
    at_kernel = [(d.code, d.span.line, d.message) for d in result.findings if d.is_error and d.span is not None
                 and d.span.file.endswith("op_kernel/key_op.cpp")]
    entry_line = kernel[:kernel.index("void key_op")].count("\n") + 1
    assert at_kernel == [("ASC958", entry_line, "the simulator cannot run this kernel: it does not model kernel "
                          "'key_op' for tiling key 2: it was not lowered (more than 30 operations after inlining)")]
    assert result.outputs == {}  # not the 950 entry's y = x - 1


def test_the_check_keeps_its_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # ascendc-check lowers with no tiling key: the whole kernel past MAX_KERNEL_OPS stays unchecked (a warning)
    project = _project(tmp_path, WHOLE, monkeypatch, run_budget=1000)
    lowered = lower.lower_program(load(str(project)))
    assert [k.sym_name.data for k in lowered.kernels] == ["key_op"]  # the 950's entry alone
    assert [d.message for d in lowered.diagnostics if d.code == "ASC103"] == [
        "kernel 'key_op' is too large to check: more than 30 operations after inlining"]
