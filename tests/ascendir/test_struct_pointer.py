"""Parameter structs of the kernel's own (not tiling data): nested fields written through a reference
(`p.inParam.blockLen = n`) and a pointer set to one of several such structs at run time, read with `*ptr` and
`ptr->field` (NPUKernelBench's SwiGlu and SwiGluGrad). Before, the nested write set a field named without its
path and the pointer read was taken for tiling data from GM: "tiling field 'inParam.blockCount' not set"."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ascendir.lower import lower_program
from passes.sim import run
from frontend.pipeline import load

KERNEL = Path(__file__).resolve().parents[1] / "corpus" / "struct_pointer" / "pick_params.cpp"


def test_lowers_without_diagnostics() -> None:
    result = lower_program(load(str(KERNEL)))
    assert [f"{d.code} {d.span.line if d.span else ''}: {d.message}" for d in result.diagnostics] == []


def test_each_core_reads_the_struct_it_points_at() -> None:
    x = np.arange(512, dtype=np.float32)
    result = run(str(KERNEL), {"x": x.copy()}, block_dim=2, outputs={"y": ((512,), "float32")},
                 outputs_initialised=True)
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    y = result.outputs["y"]
    assert np.array_equal(y[:256], x[:256] * 2)  # core 0: `whole`, 256 elements
    assert np.array_equal(y[256:384], x[256:384] * 3)  # core 1: `part`, its scale as set after the pointer
    assert not y[384:].any()  # ... and 128 elements only
