"""A struct constant passed as a template argument (`CumSum<float, kConfig>` with
`static constexpr CumSumConfig kConfig {true, false, false};`): the call's template argument then carries the
struct's constant fields as text, `CumSumConfig:isLastAxis=1:isReuseSource=0:outputLastRow=0`, which the simulator
reads (rust_sim/src/vector/cumsum.rs); an enumerator field gives its name (`NormalizeConfig:reducePattern=AR:...`). A struct with any field that is not a compile-time constant keeps its type
name, as before."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C
from ascendir.lower.values import Val


def constant_struct_text(value: Val) -> str | None:
    if not isinstance(value.ctype, C.StructT) or value.ssa is None:
        return None
    init = value.ssa.owner
    if not isinstance(init, asc.StructInitOp):
        return None
    parts = [value.ctype.name]
    for name, operand in zip((a.data for a in init.fields.data), init.values):
        const = operand.owner
        if isinstance(const, asc.EnumConstantOp):  # an enumerator field, by its name (`reducePattern=AR`)
            parts.append(f"{name}={const.value.data}")
            continue
        if not isinstance(const, arith.ConstantOp):
            return None
        attr = const.value
        if isinstance(attr, IntegerAttr):
            number = attr.value.data
            if attr.type == C.ir_type(C.BOOL) or getattr(attr.type, "width", None) == 1:
                number = int(number != 0)  # an i1 true may read back as -1
        elif isinstance(attr, FloatAttr):
            number = attr.value.data
        else:
            return None
        parts.append(f"{name}={number}")
    return ":".join(parts)
