"""Small questions rules ask of the IR: which argument is `count`, is this value a constant, where does
this tensor come from. Kept here so rules read like their pages, not like IR plumbing."""

from __future__ import annotations

from functools import lru_cache

from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr
from xdsl.ir import Operation, SSAValue

from ascendir.catalog import Overload, load_catalog
from ascendir.dialects import ascendc as asc


@lru_cache(maxsize=4096)
def overload_of(api: str, overload: str, family: str) -> tuple[Overload, bool] | None:
    """The catalog overload an API-call op resolved to, and whether the op carries a receiver first."""
    for candidate in load_catalog().apis:
        if candidate.name == api and candidate.family == family:
            found = candidate.overload(overload)
            if found is not None:
                return found, candidate.receiver is not None
    return None


def arg(op: asc.ApiCallOp, name: str) -> SSAValue | None:
    """The operand of an API call bound to the catalog parameter `name` (None if absent/defaulted)."""
    found = overload_of(op.api.data, op.overload.data, op.FAMILY)
    if found is None:
        return None
    overload, has_receiver = found
    for i, param in enumerate(overload.params):
        if param.name == name:
            index = i + int(has_receiver)
            return op.args[index] if index < len(op.args) else None
    return None


def constant_of(value: SSAValue | None) -> int | float | None:
    """The compile-time value of `value`, looking through integer and float conversions."""
    seen = 0
    while value is not None and seen < 16:
        seen += 1
        owner = value.owner
        if isinstance(owner, arith.ConstantOp):
            attr = owner.value
            if isinstance(attr, IntegerAttr):
                return attr.value.data
            if isinstance(attr, FloatAttr):
                return attr.value.data
            return None
        if isinstance(owner, arith.ExtSIOp | arith.ExtUIOp | arith.TruncIOp | arith.SIToFPOp | arith.UIToFPOp
                      | arith.ExtFOp | arith.TruncFOp | arith.IndexCastOp):
            value = owner.operands[0]
            continue
        return None
    return None


def api_calls(module: Operation, *families: str) -> list[asc.ApiCallOp]:
    wanted = set(families)
    return [op for op in module.walk() if isinstance(op, asc.ApiCallOp) and (not wanted or op.FAMILY in wanted)]
