"""What an expression lowers to, and where names live while a function is lowered."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import SSAValue

from ascendir.lower.ctypes import ClassT, CType
from ascendir.lower.scope import ClassInfo


@dataclass
class Val:
    """A C++ rvalue: an SSA value, a compile-time constant, or both.

    `const` holds folded values (ints, floats, and enumerator names for EnumT); the SSA value for a
    constant is made only when an op needs it, so `constexpr` arithmetic leaves no trace in the IR.
    `obj` carries what is not a value at all: a class instance, a pointer to one, a type.
    """

    ctype: CType
    ssa: SSAValue | None = None
    const: int | float | str | None = None
    obj: object = None


@dataclass
class Cell:
    """A mutable variable: a rank-0 memref (or an array memref) holding values of `ctype`."""

    ctype: CType
    ref: SSAValue
    name: str = ""


@dataclass
class Instance:
    """A user class object: its members are bindings, its methods are inlined with `this` = self."""

    info: ClassInfo
    ctype: ClassT
    types: dict[str, object]  # template bindings: type parameters -> CType, value parameters -> int
    members: dict[str, Binding] = field(default_factory=dict)
    name: str = ""


Binding = Val | Cell | Instance


class ExitKind:
    RETURN = "return"
    BREAK = "break"
    CONTINUE = "continue"
