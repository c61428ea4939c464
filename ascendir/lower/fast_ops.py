"""Building ops, attributes and locations for the function lowering without xDSL's per-call verification:
the hot path of every kernel (arithmetic, loads, locations), 3-4x faster than the IRDL constructors; the
module is verified once afterwards.

A module of its own because it trades xDSL's checks for speed and must stay small enough to audit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    UNKNOWN_LOC,
    DenseArrayBase,
    FileLineColLoc,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue


NO_SIZES = DenseArrayBase.from_list(i32, [0, 0])  # memref.alloca: no dynamic sizes, no symbols
_LOC_STRINGS: dict[str, StringAttr] = {}
_LOC_INTS: dict[int, IntAttr] = {}


def file_line_col(file: str, line: int, col: int) -> FileLineColLoc:
    """FileLineColLoc(StringAttr(file), IntAttr(line), IntAttr(col)), without re-verifying its three parameters
    each time (~10 us per location; a kernel has hundreds); the parameters are shared, as attributes may be."""
    f = _LOC_STRINGS.get(file)
    if f is None:
        if len(_LOC_STRINGS) > 1024:
            _LOC_STRINGS.clear()
        f = _LOC_STRINGS[file] = StringAttr(file)
    ln = _LOC_INTS.get(line)
    if ln is None:
        if len(_LOC_INTS) > 65536:
            _LOC_INTS.clear()
        ln = _LOC_INTS[line] = IntAttr(line)
    c = _LOC_INTS.get(col)
    if c is None:
        c = _LOC_INTS[col] = IntAttr(col)
    loc = FileLineColLoc.__new__(FileLineColLoc)
    object.__setattr__(loc, "filename", f)
    object.__setattr__(loc, "line", ln)
    object.__setattr__(loc, "column", c)
    return loc


@lru_cache(maxsize=4096)
def int_attr(value: int, t: Attribute) -> IntegerAttr:
    return IntegerAttr(value, t)  # type: ignore[arg-type]


@lru_cache(maxsize=1024)
def float_attr(value: float, t: Attribute) -> FloatAttr:
    return FloatAttr(value, t)  # type: ignore[arg-type]


_FAST_PROPS: dict[type, dict[str, Attribute]] = {}
I1 = IntegerType(1)
CMPI = {name: IntegerAttr(i, 64) for i, name in enumerate(arith.CMPI_COMPARISON_OPERATIONS)}
CMPF = {name: IntegerAttr(i, 64) for i, name in enumerate(arith.CMPF_COMPARISON_OPERATIONS)}


def fast_op(cls: type[Operation], operands: list[SSAValue], result_type: Attribute, build: Callable[[], Operation],
            **props: Attribute) -> Operation:
    """`cls.create` with the default properties the IRDL constructor gave its first instance: the same
    op, built 3-4x faster (the hot arithmetic of every kernel goes through here)."""
    defaults = _FAST_PROPS.get(cls)
    if defaults is None:
        op = build()
        _FAST_PROPS[cls] = {k: v for k, v in op.properties.items() if k not in props}
        return op
    return cls.create(operands=operands, result_types=[result_type], properties={**defaults, **props},
                      location=UNKNOWN_LOC)


def load_op(ref: SSAValue, indices: Sequence[SSAValue]) -> Operation:
    # Op.create skips the IRDL constructor's checks (3-4x faster); the module is verified afterwards.
    element_type = ref.type.element_type  # type: ignore[attr-defined]
    return memref.LoadOp.create(operands=[ref, *indices], result_types=[element_type], location=UNKNOWN_LOC)


def erase_ops(block: Block) -> None:
    for op in reversed(list(block.ops)):
        op.detach()
        op.erase(safe_erase=False)


def name_hint(name: str) -> str | None:
    cleaned = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in name)
    return cleaned if cleaned and not cleaned[0].isdigit() else None
