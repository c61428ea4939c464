"""Words for what stopped the tiling evaluator when an op implementation raised something unforeseen.

The evaluator runs xdsl's interpreter; an op it cannot run (an array whose element type has no Python form, a
call into an unmodelled library) surfaces as whatever exception that implementation raises. The user reads a
diagnostic about their C++, so it names the construct (from the op and its result's variable name), never the
Python exception class or the interpreter's own message.
"""

from __future__ import annotations

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import MemRefType, NoneType
from xdsl.ir import Attribute, Operation

from ascendir.dialects import ascendc as asc


def _element_words(t: Attribute) -> str:
    if isinstance(t, NoneType):
        return "an element type the host lowering does not model"
    if isinstance(t, asc.GmPtrType):
        return "pointer elements, which the evaluator does not model"
    return f"elements of type {t}, which the evaluator does not model"


def _variable(op: Operation) -> str:
    hint = op.results[0].name_hint if op.results else None
    return f" '{hint}'" if hint else ""


def describe(func_name: str, op: Operation | None) -> str:
    """Why `func_name` could not be evaluated, stopped at `op` by an error the evaluator did not foresee."""
    head = f"cannot evaluate {func_name}:"
    if isinstance(op, memref.AllocaOp | memref.AllocOp) and isinstance(op.memref.type, MemRefType):
        elems = _element_words(op.memref.type.element_type)
        return f"{head} the local array{_variable(op)} has {elems}"
    if isinstance(op, memref.LoadOp | memref.StoreOp):
        ref = op.memref.type
        elems = (_element_words(ref.element_type) if isinstance(ref, MemRefType)
                 else "elements it does not model")
        return f"{head} an element of an array is read or written, and the array has {elems}"
    if isinstance(op, func.CallOp):
        return f"{head} the call to '{op.callee.string_value()}' is not modelled by the evaluator"
    if op is None:
        return f"{head} the evaluator stopped before running any operation"
    return f"{head} the evaluator does not model this operation"
