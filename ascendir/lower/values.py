"""What an expression lowers to, and where names live while a function is lowered."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from xdsl.ir import SSAValue

from ascendir.lower.ctypes import ClassT, CType, scalar_named
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
    # a pointer variable set to an array field of the tiling data (`counts = tiling->countList;`): that field,
    # which `counts[i]` reads; "many" once it was set to different things
    points_to: Any = None
    # a field of one element of an array of objects held as a structure of arrays (object_arrays.py): `ref` holds
    # the field of every element, and `at` is the element's position, the leading indices of every access
    at: tuple[SSAValue, ...] = ()


@dataclass
class Instance:
    """A user class object: its members are bindings, its methods are inlined with `this` = self."""

    info: ClassInfo
    ctype: ClassT
    types: dict[str, object]  # template bindings: type parameters -> CType, value parameters -> int
    members: dict[str, Binding] = field(default_factory=dict)
    name: str = ""
    bases: list[Instance] = field(default_factory=list)  # base-class parts, sharing `members`
    whole: Instance | None = None  # for a base-class part: the object it is part of
    # this part's own members that a derived class hides with a member of the same name (ops-nn's
    # MatmulV3BaseTiling::tilingEnable_ under BatchMatmulV3BaseTiling::tilingEnable_, another struct): `members`
    # holds the derived one, which the whole object's code sees; this part's methods see their own (member())
    hidden: dict[str, Binding] = field(default_factory=dict)

    def member(self, name: str) -> Binding | None:
        """The member `name` as this part's code names it: its own where a derived class hides it."""
        hidden = self.hidden.get(name)
        return hidden if hidden is not None else self.members.get(name)

    def outermost(self) -> Instance:
        """The complete object this (base-class) part belongs to."""
        inst = self
        while inst.whole is not None:
            inst = inst.whole
        return inst

    def _nearest(self, pick: Callable[[Instance], Any]) -> Any:
        """What `pick` finds on this class's part, else on the nearest base part that has it (depth first,
        in declaration order of the bases)."""
        found = pick(self)
        if found is not None:
            return found
        for base in self.bases:
            found = base._nearest(pick)
            if found is not None:
                return found
        return None

    def find_method(self, name: str) -> tuple[Instance, list[object]] | None:
        """The methods called `name`, from this class or the nearest base that declares them, with the
        instance part (and template bindings) they run on."""
        def pick(part: Instance) -> tuple[Instance, list[object]] | None:
            methods = part.info.methods.get(name) or part.info.operators.get(name)
            if not methods:
                return None
            special = next((d for args, d in part.info.member_specializations.get(name, ())
                            if part._instantiates(args)), None)
            return (part, [special] if special is not None else list(methods))

        return self._nearest(pick)  # type: ignore[no-any-return]

    def _instantiates(self, args: list[str | None]) -> bool:
        """Whether this part's class template arguments are `args` (as text: `float`, `half`, `8`)."""
        params = self.info.template_params or []
        if len(args) != len(params):
            return False
        for text, param in zip(args, params):
            bound = self.types.get(param.name)
            if text is None or bound is None:
                return False
            if isinstance(bound, bool | int):
                if text != {True: "true", False: "false"}.get(bound, str(bound)) and text != str(int(bound)):
                    return False
            elif str(scalar_named(text) or text) != str(bound):
                return False
        return True

    def static_constant(self, name: str) -> object | None:
        """The declarator of the static / constexpr member `name` of this class or its nearest base."""
        return self._nearest(lambda part: part.info.static_constants.get(name))

    def part_named(self, class_name: str) -> Instance | None:
        """This object's part of class `class_name` (itself or a base part), as `Base<T>::Method()` needs."""
        return self._nearest(lambda part: part if part.info.name == class_name else None)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Pack:
    """A parameter pack's elements: the arguments of `Ts... values` (Vals), of `uint32_t... Dims` (values) or of
    `class... Ts` (types), as a template binding or, for a function parameter pack, as the `obj` of its Val."""

    items: tuple[Any, ...]


@dataclass(frozen=True)
class FunctionRef:
    """A function named as a template argument (`ForeachBinary<half, Adds>` with `template <..., Op *op>`): a call
    of the parameter (`op(dst, src, scalar, n)`) calls that function. Equal by the name as written."""

    text: str
    name: Any = field(compare=False, hash=False)  # the A.Name node naming it


Binding = Val | Cell | Instance


class ExitKind:
    RETURN = "return"
    BREAK = "break"
    CONTINUE = "continue"
