"""Kernels on the Rust NPU simulator: the IR -> simulator program step, and the public entry that runs a kernel.

    from passes.sim import run
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
errors). The launch is timed (timing=False turns it off): `cycles`, `microseconds`, `pipes` (busy cycles per
pipe), `bound` (the pipe that bounds it), `timing` (the whole report); trace=True adds a Chrome trace (`trace`,
`trace_json`; passes.sim.timing.write_trace writes it). Nothing here raises for a bad kernel: a kernel that cannot
run says why in its findings (SimError only for calls that give no inputs the kernel could take). `run` lives in
passes/sim/launch.py, imported when first used (it brings numpy and the lowering).

The program step alone (see rust_sim/PROGRAM.md for the program and the execution model):

    program = build_program(module, chip="910B2")   # passes.sim.program.Program
    text = program.text()                            # what rust_sim parses and runs

`to-sim` in an `ascendir-opt --passes` pipeline builds the program of the module's kernel and keeps its text
in the module's `ascendc.sim_program` attribute, which ascendir-opt prints instead of the IR.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.passes import ModulePass

from passes.sim.program import Program
from passes.sim.registers import NotModelled

if TYPE_CHECKING:
    from passes.sim.launch import SimResult

__all__ = ["NotModelled", "Program", "ToSimPass", "build_program", "PROGRAM_ATTR", "run", "SimResult", "SimError",
           "DEFAULT_BUDGET"]

PROGRAM_ATTR = "ascendc.sim_program"


def build_program(module: ModuleOp, chip: str = "910B2", kernel: str | None = None) -> Program:
    """The simulator program of `module`'s kernel (the one named `kernel`, else the first). A construct one op
    needs and the program cannot express is that op's `unsupported` instruction; NotModelled (a
    ProgramNotModelled) names what leaves no program at all."""
    from ascendir.chips import load_chip
    from passes.sim.builder import ProgramBuilder

    return ProgramBuilder(module, load_chip(chip), kernel).build()


@dataclass(frozen=True)
class ToSimPass(ModulePass):
    name = "to-sim"

    chip: str = "910B2"
    kernel: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        op.attributes[PROGRAM_ATTR] = StringAttr(build_program(op, self.chip, self.kernel).text())


def run(source: Any, inputs: Any, attrs: Any = (), chip: str | None = None, **options: Any) -> SimResult:
    """Simulates one launch of `source` on `inputs`; see the module docstring and passes.sim.launch.run."""
    from passes.sim.launch import run as _run

    return _run(source, inputs, attrs, chip, **options)


def __getattr__(name: str) -> Any:
    # launch's names without importing it with the package (ascendc-check imports passes.sim for its rule pages)
    if name in ("SimResult", "SimError", "DEFAULT_BUDGET"):
        from passes.sim import launch

        return getattr(launch, name)
    raise AttributeError(name)
