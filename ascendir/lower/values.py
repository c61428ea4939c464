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
    bases: list[Instance] = field(default_factory=list)  # base-class parts, sharing `members`

    def find_method(self, name: str) -> tuple[Instance, list[object]] | None:
        """The methods called `name`, from this class or the nearest base that declares them, with the
        instance part (and template bindings) they run on."""
        methods = self.info.methods.get(name)
        if methods:
            return self, list(methods)
        for base in self.bases:
            found = base.find_method(name)
            if found is not None:
                return found
        return None

    def static_constant(self, name: str) -> object | None:
        """The declarator of the static / constexpr member `name` of this class or its nearest base."""
        decl = self.info.static_constants.get(name)
        if decl is not None:
            return decl
        for base in self.bases:
            decl = base.static_constant(name)
            if decl is not None:
                return decl
        return None

    def part_named(self, class_name: str) -> Instance | None:
        """This object's part of class `class_name` (itself or a base part), as `Base<T>::Method()` needs."""
        if self.info.name == class_name:
            return self
        for base in self.bases:
            found = base.part_named(class_name)
            if found is not None:
                return found
        return None


Binding = Val | Cell | Instance


class ExitKind:
    RETURN = "return"
    BREAK = "break"
    CONTINUE = "continue"
