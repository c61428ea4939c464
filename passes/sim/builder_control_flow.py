"""Structured control flow in the simulator program: scf.if, scf.for and scf.while become labels and
branches, their results and loop-carried values registers moved into at each yield.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.ir import Block, Operation

from ascendir.dialects.ascendc_simt import SIMT_LAUNCH_ATTR
from passes.sim.registers import Location, NotModelled, scalar_type


class ControlFlowEmission:
    """Structured control flow: methods of ProgramBuilder (builder.py), which inherits them."""

    def scf_if(self, op: scf.IfOp) -> None:
        results = [self.define(r) for r in op.results]
        cond = self.reg(op.cond)
        else_label, end_label = self.label("else"), self.label("endif")
        has_else = bool(op.false_region.blocks) and bool(list(op.false_region.blocks[0].ops))
        self.emit("brz", [cond, else_label if has_else else end_label], op=op)
        self.region_into(op.true_region.blocks[0], results, op)
        if has_else:
            self.emit("br", [end_label], op=op)
            self.place(else_label)
            self.region_into(op.false_region.blocks[0], results, op)
        self.place(end_label)

    def region_into(self, block: Block, results: list[Location], owner: Operation) -> None:
        """Runs a region's block and moves what its scf.yield yields into `results`."""
        ops = list(block.ops)
        body = ops[:-1] if ops and isinstance(ops[-1], scf.YieldOp) else ops
        for inner in body:
            self.op(inner)
        if ops and isinstance(ops[-1], scf.YieldOp):
            self.parallel_move(results, [self.loc(v) for v in ops[-1].operands], ops[-1])

    def scf_for(self, op: scf.ForOp) -> None:
        body = op.body.blocks[0]
        iv, *iter_args = body.args
        ty = scalar_type(iv.type) or "i64"
        iv_reg = self.define(iv)
        assert isinstance(iv_reg, str)
        if SIMT_LAUNCH_ATTR in op.attributes:
            # a SIMT launch (ascendir/lower/simt_launch.py): the body once per thread, the threads meeting at
            # asc_syncthreads and the warp functions (rust_sim/src/simt.rs); from 0 by 1, no results
            if iter_args or op.results:
                raise NotModelled("a SIMT launch's loop that carries values")
            end = self.label("simt_end")
            self.emit("simt.begin", [self.reg(op.ub), end], [iv_reg], op)
            self.region_into(body, [], op)
            self.place(end)
            self.emit("simt.end", op=op)
            return
        carried = [self.define(a) for a in iter_args]
        for res, reg in zip(op.results, carried):
            self.values[res] = reg
        self.emit("mov", [self.reg(op.lb)], [iv_reg], op)
        self.parallel_move(carried, [self.loc(v) for v in op.iter_args], op)
        ub, step = self.reg(op.ub), self.reg(op.step)
        head, end = self.label("for"), self.label("endfor")
        self.place(head)
        more = self.regs.scalar()
        self.emit(f"cmpi.slt.{ty}", [iv_reg, ub], [more], op)
        self.emit("brz", [more, end], op=op)
        self.region_into(body, carried, op)
        self.emit(f"addi.{ty}", [iv_reg, step], [iv_reg], op)
        self.emit("br", [head], op=op)
        self.place(end)

    def scf_while(self, op: scf.WhileOp) -> None:
        before, after = op.before_region.blocks[0], op.after_region.blocks[0]
        before_regs = [self.define(a) for a in before.args]
        after_regs = [self.define(a) for a in after.args]
        for res, reg in zip(op.results, after_regs):
            self.values[res] = reg
        self.parallel_move(before_regs, [self.loc(v) for v in op.arguments], op)
        head, end = self.label("while"), self.label("endwhile")
        self.place(head)
        ops = list(before.ops)
        cond_op = ops[-1]
        if not isinstance(cond_op, scf.ConditionOp):
            raise NotModelled("scf.while whose first region does not end in scf.condition")
        for inner in ops[:-1]:
            self.op(inner)
        self.parallel_move(after_regs, [self.loc(v) for v in cond_op.args], cond_op)
        self.emit("brz", [self.reg(cond_op.condition), end], op=cond_op)
        self.region_into(after, before_regs, op)
        self.emit("br", [head], op=op)
        self.place(end)
