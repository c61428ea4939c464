"""`ascendc.reg_call` (arch35's register API) -> `call Reg::<Api>.plain<T=..,vl=..,mode=..> dst=v2 ... addr=r5:i64`
(`.pair<..,pairs=dst+src0>` when operands are two-register RegTraitNumTwo tensors, named by their first register).

The registers keep the names the lowering gave them (`vN`, `pN`, rust_sim/src/vector/reg/calls.rs); `vl` is the
chip's vector register width (the chip file's `vector_register_bytes`, what GetVRegSize() answers). A call the
lowering could not model carries why in its mode and becomes the `unsupported` instruction naming it (ASC958).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascendir.dialects.ascendc_register import RegCallOp
from passes.sim.registers import scalar_type

if TYPE_CHECKING:
    from passes.sim.builder import ProgramBuilder

# the lowering's element types (builtin element type text) -> the program's
_ELEM = {"si8": "i8", "ui8": "u8", "si16": "i16", "ui16": "u16", "si32": "i32", "ui32": "u32", "si64": "i64",
         "ui64": "u64", "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64", "i1": "bool"}


def emit(b: ProgramBuilder, op: RegCallOp) -> None:
    api, mode, elem = op.api.data, op.mode.data, op.elem.data
    results = [r for r in (b.define(r) for r in op.results) if isinstance(r, str)]
    if mode.startswith("unmodelled"):
        why = mode.partition(": ")[2]
        b.emit("unsupported", ['"' + f"AscendC::Reg::{api} ({why}): the register API beyond what the simulator "
                               "models".replace('"', "'") + '"'], results, op)
        return
    targs = ([f"T={_ELEM.get(elem, elem)}"] if elem else []) + [f"vl={b.chip.vector_register_bytes}"]
    # a source or index element type (`U=si32` of Cast / Reduce, `I=ui32` of Gather) in the program's spelling
    targs += [f"{m[:2]}{_ELEM.get(m[2:], m[2:])}" if m[:2] in ("U=", "I=") else m for m in mode.split(",") if m]
    names = [n for n in op.names.data.split(",") if n]
    # a call on two-register tensors (`pairs=dst+src0`, RegTraitNumTwo) is the `pair` form (vector/reg/pair.rs)
    overload = "pair" if any(m.startswith("pairs=") for m in mode.split(",")) else "plain"
    operands = [f"Reg::{api}.{overload}<{','.join(targs)}>", *op.regs.data.split(),
                *(f"{n}={b.typed(v)}" for n, v in zip(names, op.args))]
    typed = [f"{r}:{scalar_type(op.results[0].type)}" for r in results]
    b.emit("call", operands, typed, op)
