"""An op that declares no outputs and updates inputs in place (ops-nn apply_adam_w_v2: var, m and v; its OpDef
has no Output) returns each in-place input's final contents as an output named after it, from passes.sim.run
and from `ascendir run --inplace` (printed, and written by --output-dir). Before, the run finished clean and
printed "outputs: none". The kernel here is a small optimiser step of our own: var += grad, m = m / 2."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from click.testing import CliRunner

from cli.run import main
from passes.sim import run

HOST = """
#include "register/op_def_registry.h"
namespace optiling {
struct StepTilingData { uint32_t n; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    StepTilingData *t = context->GetTilingData<StepTilingData>();
    t->n = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    context->SetBlockDim(1);
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class Step : public OpDef {
public:
    explicit Step(const char *name) : OpDef(name)
    {
        this->Input("var").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("m").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("grad").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Step);
}
"""

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
struct StepTilingData { uint32_t n; };
extern "C" __global__ __aicore__ void step(GM_ADDR var, GM_ADDR m, GM_ADDR grad, GM_ADDR workspace,
                                           GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(StepTilingData, td, tiling);
    GlobalTensor<float> vars;
    GlobalTensor<float> ms;
    GlobalTensor<float> grads;
    vars.SetGlobalBuffer((__gm__ float *)var);
    ms.SetGlobalBuffer((__gm__ float *)m);
    grads.SetGlobalBuffer((__gm__ float *)grad);
    for (uint32_t i = 0; i < td.n; i++) {
        vars.SetValue(i, vars.GetValue(i) + grads.GetValue(i));
        ms.SetValue(i, ms.GetValue(i) * 0.5f);
    }
}
"""


def _op(tmp_path: Path) -> Path:
    (tmp_path / "op_host").mkdir(parents=True)
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "step.cpp").write_text(HOST)
    (tmp_path / "op_kernel" / "step.cpp").write_text(KERNEL)
    return tmp_path


def _given() -> dict[str, np.ndarray]:
    return {"var": np.arange(8, dtype=np.float32).reshape(2, 4), "m": np.full((2, 4), 6.0, np.float32),
            "grad": np.full((2, 4), 0.25, np.float32)}


def test_in_place_inputs_of_an_op_with_no_outputs_come_back_named_after_them(tmp_path: Path) -> None:
    given = _given()
    var, m = given["var"].copy(), given["m"].copy()
    result = run(_op(tmp_path), given, inplace=["var", "m"])
    assert result.ok, [str(d) for d in result.findings]
    assert list(result.outputs) == ["var", "m"]  # grad is read only: not an output
    assert np.array_equal(result.outputs["var"], var + 0.25)
    assert np.array_equal(result.outputs["m"], m / 2)
    assert result.outputs["var"].shape == (2, 4) and result.outputs["var"].dtype == np.float32


def test_an_input_not_named_in_place_is_still_asc963_and_not_returned(tmp_path: Path) -> None:
    result = run(_op(tmp_path), _given(), inplace=["var"])
    assert "ASC963" in {d.code for d in result.findings}
    assert "'m'" in next(str(d) for d in result.findings if d.code == "ASC963")
    assert list(result.outputs) == ["var"]


def test_ascendir_run_prints_and_writes_the_in_place_results(tmp_path: Path) -> None:
    folder = _op(tmp_path / "op")
    args = [str(folder)]
    for name, arr in _given().items():
        np.save(tmp_path / f"{name}.npy", arr)
        args += ["--input", f"{name}={tmp_path / f'{name}.npy'}"]
    args += ["--inplace", "var", "--inplace", "m", "--output-dir", str(tmp_path / "out")]
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0, text.output
    assert "outputs: var (2, 4) float32 (in place) ->" in text.output and "outputs: none" not in text.output
    assert np.array_equal(np.load(tmp_path / "out" / "var.npy"), _given()["var"] + 0.25)
    assert np.array_equal(np.load(tmp_path / "out" / "m.npy"), np.full((2, 4), 3.0, np.float32))
    assert not (tmp_path / "out" / "grad.npy").exists()
    report = json.loads(CliRunner().invoke(main, args + ["--format", "json"]).stdout)
    assert sorted(report["outputs"]) == ["m", "var"] and report["outputs"]["var"]["shape"] == [2, 4]
