"""What a launch reports is about what runs. Two gaps closed here:
- a run whose tiling key's kernel was left out of the first lowering lowers again for that key
  (test_run_key_budget.py); its findings were the first lowering's, so an error in the code that then ran (the
  key's own branch) was never said;
- a host tiling function with statements the host lowering left out, which the run reached, ran the kernel with the
  values computed without them and said nothing: a wrong output looked like the kernel's fault. The checker shows
  those statements (passes/verify _host_gaps); the launch now does too, as warnings."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ascendir.lower import function, tiling_key_split
from passes.sim import run

HOST = """
#include "register/op_def_registry.h"
namespace optiling {
struct RunTilingData { uint32_t n; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    RunTilingData *t = context->GetTilingData<RunTilingData>();
    t->n = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    EXTRA
    context->SetTilingKey(t->n > 4 ? 2 : 1);
    context->SetBlockDim(1);
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class RunOp : public OpDef {
public:
    explicit RunOp(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RunOp);
}
"""

# key 2's branch: four loops of y = 3x (about 50 operations, past the lowered limits below) and a line of its own
KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
struct RunTilingData { uint32_t n; };
extern "C" __global__ __aicore__ void run_op(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(RunTilingData, td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    if (TILING_KEY_IS(1)) {
        for (uint32_t i = 0; i < td.n; i++) {
            yGm.SetValue(i, xGm.GetValue(i) + 1.0f);
        }
    } else if (TILING_KEY_IS(2)) {""" + "\n".join(f"""
        for (uint32_t i = {q} * td.n / 4; i < {q + 1} * td.n / 4; i++) {{
            yGm.SetValue(i, xGm.GetValue(i) * 3.0f);
        }}""" for q in range(4)) + """
        KEY2_LINE
    }
}
"""


def _run(root: Path, extra_host: str = "", key2_line: str = "", n: int = 8):  # type: ignore[no-untyped-def]
    (root / "op_host").mkdir()
    (root / "op_kernel").mkdir()
    (root / "op_host" / "run_op.cpp").write_text(HOST.replace("EXTRA", extra_host))
    (root / "op_kernel" / "run_op.cpp").write_text(KERNEL.replace("KEY2_LINE", key2_line))
    x = np.arange(n, dtype=np.float32)
    return x, run(root, [x], chip="910B2", outputs={"y": np.zeros(n, dtype=np.float32)})


def test_the_findings_after_a_relower_are_the_running_key_s(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(function, "MAX_KERNEL_OPS", 30)
    monkeypatch.setattr(tiling_key_split, "MAX_SPLIT_OPS", 30)
    monkeypatch.setattr(tiling_key_split, "MAX_RUN_KEY_OPS", 1000)
    _, result = _run(tmp_path, key2_line="yGm.SetValue(0, undeclared_helper(1.0f));")
    line = KERNEL.split("KEY2_LINE")[0].count("\n") + 1
    # the lowering of key 2's branch says the name is undeclared (before: only the run's ASC958 at the call)
    assert ("ASC102", line) in [(d.code, d.span.line) for d in result.findings if d.is_error and d.span]


def test_a_host_statement_left_out_that_the_run_reached_is_a_warning(tmp_path: Path) -> None:
    x, result = _run(tmp_path, extra_host="int64_t fmt = context->GetInputFormat(0)->GetStorageFormat();")
    assert result.ok and np.array_equal(result.outputs["y"], 3 * x)  # the values the rest computed still run
    [gap] = [d for d in result.findings if d.code == "ASC103"]
    assert not gap.is_error and gap.span is not None and gap.span.file.endswith("op_host/run_op.cpp")
    assert gap.span.line == HOST.split("EXTRA")[0].count("\n") + 1
    assert any("the kernel ran with the tiling values computed without it" in n.message for n in gap.notes)


def test_a_host_function_with_nothing_left_out_adds_no_warning(tmp_path: Path) -> None:
    x, result = _run(tmp_path)
    assert result.findings == [] and np.array_equal(result.outputs["y"], 3 * x)
