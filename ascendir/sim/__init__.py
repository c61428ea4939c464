"""Run AscendC kernels on the Rust NPU simulator.

    from ascendir.sim import run
    result = run("examples/add_custom.cpp", {"x": x, "y": y}, block_dim=8,
                 tiling={"totalLength": x.size, "tileNum": 8}, outputs={"z": (x.shape, "float16")})
    result.outputs["z"], result.findings, result.ok

`source` is what `ascendc-check` accepts: a kernel file, an op project folder, a benchmark answer (path or
text), or a frontend Bundle. `inputs` are numpy arrays in the op's input order, or by input name. The host tiling
function runs on their shapes (with `attrs`); a kernel without host code takes `block_dim`, `tiling` (field
values) and `tiling_key` from the caller, and a kernel-only NPUKernelBench answer launches on every vector core.
Outputs are allocated with the shapes the binding or InferShape gives, or as `outputs` says. An input the op
updates in place is named in `inplace` (or listed as an output too by its op description); a write into any other
input is a warning, ASC963. Findings are Diagnostics (ASC950-ASC963 for what the run found, plus lowering
errors). The launch is timed (timing=False turns it
off): `cycles`, `microseconds`, `pipes` (busy cycles per pipe), `bound` (the pipe that bounds it), `timing` (the
whole report); trace=True adds a Chrome trace (`trace`, `trace_json`; passes.sim.timing.write_trace writes it). Nothing here raises for a bad kernel: a kernel that cannot run says why in its
findings (SimError only for calls that give no inputs the kernel could take).

The implementation lives in passes/sim/launch.py (it builds the program with the passes; this package keeps the
public name stable).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from passes.sim.launch import SimResult

__all__ = ["run", "SimResult", "SimError", "DEFAULT_BUDGET"]

DEFAULT_BUDGET = 4_000_000_000


def run(source: Any, inputs: Any, attrs: Any = (), chip: str | None = None, **options: Any) -> SimResult:
    """Simulates one launch of `source` on `inputs`; see the module docstring and passes.sim.launch.run."""
    from passes.sim.launch import run as _run

    return _run(source, inputs, attrs, chip, **options)


def __getattr__(name: str) -> Any:
    if name in ("SimResult", "SimError"):
        from passes.sim import launch

        return getattr(launch, name)
    raise AttributeError(name)
