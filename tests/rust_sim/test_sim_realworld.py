"""bench/perf/sim_realworld.py: how it reads what ModelNew hands the op (no data needed), and a few KernelHive
records run through the harness on the simulator (skipped without the records, a MultiKernelBench checkout or
torch)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bench.harness import model_forward as mf
from bench.harness import model_inputs as mi

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "perf" / "sim_realworld.py"
RECORDS = ROOT.parent / "shared" / "data" / "kernelhive-failures" / "records.jsonl"
MULTIKERNELBENCH = Path(os.environ.get("MULTIKERNELBENCH", "/work/ext/MultiKernelBench"))


def _script():
    spec = importlib.util.spec_from_file_location("sim_realworld", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _model(forward: str, init: str = "        super().__init__()\n") -> str:
    return ("import torch\nimport custom_ops_lib\n\nclass ModelNew(torch.nn.Module):\n"
            f"    def __init__(self, k, eps=1e-5):\n{init}\n    def forward{forward}\n")


def test_plan_of_a_pass_through_forward() -> None:
    plan = mf.forward_plan(_model("(self, x, y):\n        return custom_ops_lib.op(x, y.contiguous())"))
    assert plan is not None and mf.is_passthrough(plan)
    # guards that only raise do not change the inputs
    plan = mf.forward_plan(_model("(self, x):\n        if x.dim() != 2:\n            raise ValueError('2-D')\n"
                                 "        return custom_ops_lib.op(x)"))
    assert plan is not None and mf.is_passthrough(plan)
    # swapped arguments are not the harness's own case
    plan = mf.forward_plan(_model("(self, x, y):\n        return custom_ops_lib.op(y, x)"))
    assert plan == [("param", 1), ("param", 0)] and not mf.is_passthrough(plan)


def test_plan_of_weights_settings_and_locals() -> None:
    src = _model("(self, x):\n        w = self.gemm.weight.transpose(0, 1).contiguous()\n"
                 "        return custom_ops_lib.op(x, w, self.layers[1].bias, self.k, self.eps, idx.to(torch.int32))",
                 init="        super().__init__()\n        self.k = int(k)\n        self.eps = eps\n")
    assert mf.forward_plan(src) is None  # idx is not forward's
    src = src.replace(", idx.to(torch.int32)", ", x.to(torch.int32)")
    plan = mf.forward_plan(src)
    assert plan is not None
    assert plan[1] == ("method", ("method", ("self", (("attr", "gemm"), ("attr", "weight")), None), "transpose",
                                  (0, 1)), "contiguous", ())
    assert plan[2] == ("self", (("attr", "layers"), ("item", 1), ("attr", "bias")), None)
    assert plan[3] == ("self", (("attr", "k"),), ("param", "k"))
    assert plan[5] == ("method", ("param", 0), "to", (("dtype", "int32"),))
    assert mi.init_bindings(src, [7]) == {"k": 7, "eps": 1e-5}


def test_plan_and_methods_on_the_ops_result() -> None:
    # forward finishes the op's result with tensor methods: the plan is the op's arguments, the methods apply after
    src = _model("(self, x):\n        return custom_ops_lib.op(x, 3).unsqueeze(1).contiguous()")
    assert mf.forward_plan(src) == [("param", 0), ("const", 3)]
    assert mf.result_methods(src) == [("unsqueeze", (1,)), ("contiguous", ())]
    out = mf.apply_result_methods(np.arange(6, dtype=np.float32).reshape(2, 3), mf.result_methods(src))
    assert out.shape == (2, 1, 3)
    # a method on something else than the op's call is not the op
    assert mf.forward_plan(_model("(self, x):\n        return x.unsqueeze(1)")) is None
    assert mf.result_methods(_model("(self, x):\n        return custom_ops_lib.op(x)")) == []


def test_plan_of_a_scalar_made_a_tensor() -> None:
    # matrix_scalar_multiplication: a Python scalar becomes a 1-element tensor of the matrix's dtype
    src = _model("(self, a, s):\n        if not isinstance(s, torch.Tensor):\n"
                 "            s = torch.tensor([float(s)], dtype=a.dtype, device=a.device)\n        else:\n"
                 "            s = s.to(dtype=a.dtype, device=a.device).reshape(1)\n"
                 "        return custom_ops_lib.op(a, s)")
    plan = mf.forward_plan(src)
    assert plan is not None and plan[0] == ("param", 0)
    kind, subject, is_tensor, not_tensor = plan[1]
    assert (kind, subject) == ("if_tensor", ("param", 1))
    assert not_tensor == ("tensor", (("param", 1),), ("dtype_of", ("param", 0)))
    assert is_tensor == ("method", ("method", ("param", 1), "to", (("dtype_of", ("param", 0)),)), "reshape", (1,))
    # other keywords, or branches assigning different names, are answer code not followed
    assert mf.forward_plan(src.replace("device=a.device).reshape", "non_blocking=True).reshape")) is None


def test_plan_refuses_computation() -> None:
    assert mf.forward_plan(_model("(self, x):\n        y = torch.relu(x)\n        return custom_ops_lib.op(y)")) is None
    assert mf.forward_plan(_model("(self, x):\n        x = self.fc(x)\n        return x")) is None


def test_plan_of_local_settings_del_and_assigned_result() -> None:
    # stride = self.conv.stride; ... stride[0]
    plan = mf.forward_plan(_model("(self, x):\n        stride = self.conv.stride\n"
                                 "        return custom_ops_lib.op(x, stride[0], stride[1])"))
    assert plan is not None and plan[1] == ("self", (("attr", "conv"), ("attr", "stride"), ("item", 0)), None)
    # del of an unused argument; the result assigned to the module and returned
    plan = mf.forward_plan(_model("(self, x, mask=None):\n        del mask\n"
                                 "        self.h = self.h.to(x.device)\n"
                                 "        self.h = custom_ops_lib.op(x, self.h)\n        return self.h"))
    assert plan is not None and plan[1] == ("self", (("attr", "h"),), None)


def test_raw_tensors_match_by_name_then_shape() -> None:
    torch = pytest.importorskip("torch")
    src = _model("(self, x):\n        return custom_ops_lib.op(x, self.w, self.add_bias, self.scale)",
                 init="        super().__init__()\n        self.w = torch.nn.Parameter(torch.randn(k, 2 * k))\n"
                      "        self.add_bias = torch.nn.Parameter(torch.randn(k))\n"
                      "        self.scale = torch.nn.Parameter(torch.randn(k, dtype=torch.float16))\n")
    plan = mf.forward_plan(src)
    assert plan is not None
    assert mi.shape_of(("k", "2 * k"), {"k": 3}) == (3, 6)

    class Reference(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.gemm = torch.nn.Linear(3, 6)  # weight 6 x 3: ModelNew keeps it 3 x 6
            self.scale = torch.nn.Parameter(torch.ones(3))
            self.bias = torch.nn.Parameter(torch.zeros(3))

    ref = Reference()
    found = mi.raw_tensors(torch, ref, plan, {"k": 3})
    assert torch.equal(found["w"], ref.gemm.weight.t())
    assert torch.equal(found["scale"], ref.scale.half()) and found["scale"].dtype == torch.float16
    assert torch.equal(found["add_bias"], ref.bias)  # its shape, the first one not taken: the gemm bias is 6


def test_bypassed_kernel() -> None:
    m = _script()
    assert not mf.bypasses_kernel(_model("(self, x):\n        return custom_ops_lib.op(x)"))
    # the op only under `if False`, or only through a helper on self: the result is torch's
    assert mf.bypasses_kernel(_model("(self, x):\n        if False:\n            custom_ops_lib.op(x)\n"
                                    "        return torch.relu(x)"))
    assert mf.bypasses_kernel(_model("(self, x):\n        _ = self._touch(x)\n        return self.net(x.to('cpu'))"))
    # an extension module bound by importlib counts as the op's
    src = _model("(self, x):\n        return ops_lib.op(x)").replace(
        "import custom_ops_lib", "import importlib\nops_lib = importlib.import_module('custom' + '_ops_lib')")
    assert not mf.bypasses_kernel(src)
    row = {"failure": "not-evaluated", "cause": "ModelNew computes the op's arguments", "bypass": True}
    assert m.miss_kind(row) == "final bypasses its kernel (torch computes)"


def test_binding_that_bypasses_its_kernel() -> None:
    m = _script()
    row = {"failure": "wrong", "cause": "x", "binding_bypass": "the binding never calls aclnnF"}
    assert m.miss_kind(row) == "binding bypasses its kernel (ATen computes)"
    row = {"failure": "not-evaluated", "cause": "case 0: not evaluated: the binding's result does not come from its "
                                              "kernel's output (it launches aclnnF ...)"}
    assert m.miss_kind(row) == "binding bypasses its kernel (ATen computes)"


def test_miss_kinds() -> None:
    m = _script()
    row = {"failure": "not-evaluated", "cause": "case 0: not evaluated: the case draws 9 input elements, over the "
                                              "harness's limit of 3 (--max-elements)"}
    assert m.miss_kind(row) == "inputs too large to run here"
    row = {"failure": "runtime", "cause": "case 0: draw 0: k.py:3:1: error: InitBuffer places ... [ASC951]"}
    assert m.miss_kind(row) == "simulator finding"
    # a run the harness's wall-time limit ended (this shared machine's load), not a wrong output
    row = {"failure": "timeout", "cause": "the answer's time budget (900 s) ran out and its worker did not stop "
                                          "within 30 s more; it was ended after 931 s"}
    assert m.miss_kind(row) == "wall-time budget: too slow at this machine's load"


needs_data = pytest.mark.skipif(not RECORDS.is_file() or not (MULTIKERNELBENCH / ".git").exists()
                                or importlib.util.find_spec("torch") is None,
                                reason="needs the kernelhive-failures records, a MultiKernelBench git checkout "
                                       "and torch")


@needs_data
def test_a_few_records_on_the_simulator(tmp_path: Path) -> None:
    """Passing finals are correct: one taking its module's weights, one with the old reference sizes built in, and
    two only since the binding replay (elmentwise_mul_broadcast's binding broadcasts its inputs; deep_narrow_mlp's
    op json is computed by a loop, so it runs as a project with ModelNew's 19 tensors)."""
    out = tmp_path / "report.json"
    ops = "conv3d_group_norm_mean,max_pooling1d,take_along_dim,elmentwise_mul_broadcast,deep_narrow_mlp"
    proc = subprocess.run([sys.executable, str(SCRIPT), "--root", str(MULTIKERNELBENCH), "--ops", ops,
                           "--workers", "2", "--json", str(out), "--only", "after"],
                          capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    report = json.loads(out.read_text())
    rows = {r["op"]: r for r in report["rows"]}
    assert all(rows[op]["correct"] for op in ops.split(",")), proc.stdout[-3000:]
    assert rows["conv3d_group_norm_mean"].get("weights")


def test_plan_reads_a_module_level_helper_of_one_return() -> None:
    # ModelNew.forward hands the op a module-level helper's result (matmul_with_transposed_a's final):
    # the helper's one return expression over the call's arguments
    helper = "def swap(t, a):\n    \"\"\"rows to columns\"\"\"\n    return t.transpose(0, 1).contiguous()\n\n"
    src = _model("(self, a, b):\n        prepared = swap(b, a)\n        return custom_ops_lib.op(a, prepared)")
    plan = mf.forward_plan(src.replace("class ModelNew", helper + "class ModelNew"))
    assert plan == [("param", 0), ("method", ("method", ("param", 1), "transpose", (0, 1)), "contiguous", ())]
    # a helper doing more than return an expression over its own parameters stays unread
    for body in ("    y = t.t()\n    return y", "    return b.t()"):
        other = f"def swap(t, a):\n{body}\n\n"
        assert mf.forward_plan(src.replace("class ModelNew", other + "class ModelNew")) is None


def test_cube_tables() -> None:
    """--cube (issue 29): the cube finals' count with each miss's kind, and the cube attempts, caught only where
    their op's final (cube or not) runs correct here."""
    m = _script()

    def row(op: str, side: str, cube: bool, correct: bool | None, cause: str = "", failure: str = "",
            **extra: object) -> dict[str, object]:
        return {"op": op, "id": f"{op}#0", "side": side, "cube": cube, "correct": correct,
                "judged": correct is not None, "failure": failure, "stage": "correctness", "cause": cause,
                "bug_kind": "hl_api_contract", "wall_s": 1.0, **extra}

    wrong = "case 0: draw 0: output 'y': 3 of 8 elements differ"
    big = "case 0: not evaluated: the case draws 9 input elements, over the harness's limit of 3 (--max-elements)"
    rows = [row("mm", "after", True, True), row("big", "after", True, None, big, "not-evaluated"),
            row("plain", "after", False, True), row("vec", "after", False, True),
            row("mm", "before", True, False, wrong, "wrong"), row("big", "before", True, False, wrong, "wrong"),
            row("plain", "before", True, False, wrong, "wrong")]
    cube = m.summarise(rows)["cube_path"]
    assert (cube["finals"]["operators"], cube["finals"]["correct"]) == (2, 1)
    assert [r["kind"] for r in cube["finals"]["rows"]] == ["", "inputs too large to run here"]
    # the non-cube finals stay out of the cube count, but a cube attempt of their op is caught when they run correct
    assert [(r["id"], r["caught"]) for r in cube["attempts"]["rows"]] == [("mm#0", True), ("big#0", False),
                                                                          ("plain#0", True)]
    assert cube["attempts"]["caught"] == 2
    assert m.summarise(rows)["finals"]["non_cube"] == 2  # issue 28's table as before


def test_modelnew_that_python_cannot_build_from_the_init_inputs() -> None:
    """float(eps) of a shape get_init_inputs() puts where ModelNew takes eps is Python's TypeError: the answer cannot
    be built as the benchmark builds it (matmul_swish_sum_group_norm's final); a number there binds as before."""
    src = _model("(self, x):\n        return custom_ops_lib.op(x, self.eps)",
                 init="        super().__init__()\n        self.k = k\n        self.eps = float(eps)\n")
    assert mi.init_bindings(src, [7, 0.5]) == {"k": 7, "eps": 0.5}
    with pytest.raises(RuntimeError, match=r"cannot be built: its __init__ takes float\(eps\) .* eps = \(1024,\)"):
        mi.init_bindings(src, [7, (1024,)])
    m = _script()
    row = {"failure": "not-evaluated", "cause": "case 0: not evaluated: the task's reference failed: RuntimeError: "
                                              "ModelNew(*get_init_inputs()) cannot be built: its __init__ takes ..."}
    assert m.miss_kind(row) == "ModelNew cannot be built from get_init_inputs"


def test_modelnew_whose_init_takes_other_parameters_than_the_init_inputs() -> None:
    """ModelNew(*get_init_inputs()) with a parameter left without a value, or one value too many, is Python's
    TypeError (conv_transpose2d_add_min_gelu_multiply's final takes padding, output_padding and groups the reference
    does not give; gru's takes two of three): the answer cannot be built as the benchmark builds it, not an op whose
    inputs differ (its settings read from the reference's modules handed the binding a stride tuple)."""
    src = _model("(self, x):\n        return custom_ops_lib.op(x, self.k)",
                 init="        super().__init__()\n        self.k = k\n")
    assert mi.init_bindings(src, [7]) == {"k": 7, "eps": 1e-5}
    with pytest.raises(RuntimeError, match=r"cannot be built: its __init__ \(line 5 of model_src\) takes 2 "
                                           r"parameters \(k without a default\) and get_init_inputs\(\) gives 0"):
        mi.init_bindings(src, [])
    with pytest.raises(RuntimeError, match=r"takes 2 parameters \(only 2\) and get_init_inputs\(\) gives 3"):
        mi.init_bindings(src, [7, 0.5, 3])
    row = {"failure": "not-evaluated", "cause": "case 0: not evaluated: the task's reference failed: RuntimeError: "
                                              + str(pytest.raises(RuntimeError, mi.init_bindings, src, []).value)}
    assert _script().miss_kind(row) == "ModelNew cannot be built from get_init_inputs"


def test_a_multikernelbench_copy_without_the_records_revision(tmp_path: Path) -> None:
    """A MultiKernelBench copy without git history (a later revision's tarball) cannot give the records' reference
    programs: the script says so and what to pass, with exit code 2, not git's traceback."""
    copy = tmp_path / "MultiKernelBench"
    (copy / "reference").mkdir(parents=True)
    m = _script()
    with pytest.raises(m.RevisionMissing, match=r"holds no git revision 7134d16\^.* --revision worktree"):
        m.reference_root(copy, "7134d16^")
    assert m.reference_root(copy, "worktree") == copy
    records = tmp_path / "records.jsonl"
    records.write_text("", encoding="utf-8")
    proc = subprocess.run([sys.executable, str(SCRIPT), str(records), "--root", str(copy), "--json",
                           str(tmp_path / "out.json")], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert "sim_realworld: " in proc.stderr and "Traceback" not in proc.stderr
