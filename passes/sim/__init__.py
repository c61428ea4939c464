"""IR -> simulator program (see rust_sim/PROGRAM.md for the program and the execution model).

    program = build_program(module, chip="910B2")   # passes.sim.program.Program
    text = program.text()                            # what rust_sim parses and runs

`to-sim` in an `ascendir-opt --passes` pipeline builds the program of the module's kernel and keeps its text
in the module's `ascendc.sim_program` attribute, which ascendir-opt prints instead of the IR.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.passes import ModulePass

from passes.sim.program import Program
from passes.sim.registers import NotModelled

__all__ = ["NotModelled", "Program", "ToSimPass", "build_program", "PROGRAM_ATTR"]

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
