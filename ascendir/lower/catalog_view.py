"""The questions the lowering asks the API catalog, answered in the lowering's own terms (C types)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ascendir.catalog import load_catalog
from ascendir.catalog.loader import compiler_intrinsics, vendor_functions, vendor_types
from ascendir.catalog.resolve import NoMatch, Resolution, resolve
from ascendir.lower import ctypes as C
from ascendir.lower.ctypes import CType, Scalar

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer
    from ascendir.lower.values import Val


@dataclass
class ResolvedCall:
    api: Any  # catalog Api, or None when the name is unknown
    overload: Any  # catalog Overload, or None when no overload matched
    bindings: dict[str, str]
    error: str | None = None
    candidates: list[str] | None = None

    @property
    def overload_id(self) -> str | None:
        return self.overload.id if self.overload is not None else None

    def _param(self, i: int) -> Any:
        if self.overload is None or i >= len(self.overload.params):
            return None
        return self.overload.params[i]

    def param_type(self, i: int) -> str | None:
        """The struct/class name of parameter i (for brace-initialised arguments)."""
        p = self._param(i)
        return p.type_name if p is not None else None

    def is_output(self, i: int) -> bool:
        """Whether the call stores into argument i (a scalar reference parameter, `rsvdCnt: uint64_t&`)."""
        p = self._param(i)
        return p is not None and p.output

    def scalar_param_type(self, i: int) -> Scalar | None:
        """The C type a scalar argument converts to (the element type for `T` parameters)."""
        p = self._param(i)
        if p is None or p.kind != "scalar" or p.elem is None:
            return None
        return C.scalar_named(self.bindings.get(p.elem, p.elem))

    def result_type(self, lw: FunctionLowerer, recv: Val | None, template_values: Sequence[object],
                    expected: CType | None) -> CType | None:
        if self.overload is None:
            return expected if isinstance(expected, Scalar) else None
        ret = self.overload.returns
        if ret is None:
            return C.VoidT()
        elem_name = self.bindings.get(ret.elem, ret.elem) if ret.elem else None
        elem = C.scalar_named(elem_name) if elem_name else None
        if ret.kind == "local_tensor":
            if elem is None and isinstance(expected, C.LocalTensorT):
                elem = expected.elem
            position = "?"
            if ret.receiver_position and recv is not None:
                position = getattr(recv.ctype, "position", "?")
            elif ret.positions is not None and len(ret.positions) == 1:
                position = next(iter(ret.positions))
            return C.LocalTensorT(elem, position)
        if ret.kind == "global_tensor":
            return C.GlobalTensorT(elem)
        if ret.kind == "scalar":
            if elem is None:
                return expected if isinstance(expected, Scalar) else C.I64
            return elem
        if ret.kind == "pointer":
            return C.Pointer(elem or C.U8, gm=True)
        if ret.kind == "enum" and ret.type_name:
            return C.EnumT(ret.type_name)
        if ret.kind in ("struct", "object") and ret.type_name:
            return lw.named_type(ret.type_name, None)
        return C.VoidT()


_RESOLVED_LIMIT = 4096  # distinct calls remembered (a corpus of hundreds of kernels makes about 300)


class CatalogView:
    def __init__(self) -> None:
        self.catalog = load_catalog()
        self._resolved: dict[tuple[object, ...], tuple[Any, Resolution | NoMatch]] = {}

    @staticmethod
    @lru_cache(maxsize=1)
    def get() -> CatalogView:
        return CatalogView()

    def first_overload(self, name: str, receiver: str | None = None) -> str:
        api = self.catalog.api(name, receiver)
        return api.overloads[0].id if api is not None and api.overloads else ""

    def operator_api(self, op: str) -> str:
        """The vector API an operator on tensors stands for (`+` is Add)."""
        for api in self.catalog.apis_in_family("vec_binary"):
            if api.operator == op:
                return str(api.name)
        raise KeyError(op)

    def has_api(self, name: str, receiver: str | None = None) -> bool:
        return self.catalog.api(name, receiver) is not None

    def vendor_declared(self, name: str) -> bool:
        """A free function of the vendor's headers that the catalog does not model (Where, Rint, ...)."""
        return name in vendor_functions()

    def compiler_intrinsic(self, name: str) -> bool:
        """An intrinsic of the device compiler that the AscendC implementation calls (trap, set_atomic_none,
        copy_gm_to_ubuf ...)."""
        return name in compiler_intrinsics()

    def vendor_type(self, name: str) -> bool:
        """A type the vendor's headers declare that the catalog does not model (LoadData2dTransposeParams, ...)."""
        return name in vendor_types()

    def closest(self, name: str, receiver: str | None = None) -> list[str]:
        return list(self.catalog.closest(name, 3, receiver=receiver))

    def resolve(self, name: str, args: Sequence[Any], template_args: Sequence[str], receiver: str | None) -> ResolvedCall:
        # Overload resolution depends on nothing but these (frozen, hashable) arguments and the catalog, and
        # kernels make the same few calls over and over (DataCopy, Add, AllocTensor, ...): each is resolved
        # once per process (resolving tries every overload, ~50 us a call).
        key = (name, tuple(args), tuple(template_args), receiver)
        hit = self._resolved.get(key)
        if hit is None:
            if len(self._resolved) >= _RESOLVED_LIMIT:
                self._resolved.clear()
            hit = self._resolved[key] = (self.catalog.api(name, receiver),
                                         resolve(self.catalog, name, args, template_args, receiver=receiver))
        api, result = hit
        if isinstance(result, NoMatch):
            return ResolvedCall(api, None, {}, result.message, list(result.candidates))
        return ResolvedCall(result.api, result.overload, dict(result.bindings))

    def type_kind(self, name: str) -> str | None:
        if self.catalog.struct(name) is not None:
            return "struct"
        if self.catalog.enum(name) is not None:
            return "enum"
        return None

    def enumerator(self, name: str, qualifier: str | None) -> tuple[str, int, str] | None:
        """(enum, numeric value, canonical enumerator name) of `name` or `qualifier::name`."""
        hit = self.catalog.enum_value(f"{qualifier}::{name}" if qualifier else name)
        if hit is None:
            return None
        enum, value = hit
        number = value.value if value.value is not None else enum.values.index(value)
        return (enum.name, number, value.name)

    def enum_with_more_values(self, name: str) -> str | None:
        """The catalogued enum `name` when the catalog lists only some of its values (`complete = false`:
        TransposeType's Ascend 950 layouts), else None."""
        enum = self.catalog.enum(name)
        return enum.name if enum is not None and not enum.complete else None

    def enum_of_value(self, name: str) -> str | None:
        """The enum an unqualified enumerator name belongs to (a template argument keeps only the name):
        TPosition where it is a position, else the one scoped or unscoped enum that has it."""
        owners = [e.name for e in self.catalog.enums.values() if e.value(name) is not None]
        if "TPosition" in owners:
            return "TPosition"
        return owners[0] if len(owners) == 1 else None

    def struct_name(self, name: str) -> str:
        """The catalogued name of a struct spelt `name` (an alias such as LoadData2dParams gives its struct)."""
        s = self.catalog.struct(name)
        return s.name if s is not None else name

    def struct_fields(self, name: str) -> list[str]:
        s = self.catalog.struct(name)
        return [f.name for f in s.fields] if s is not None else []

    def struct_constructor_fields(self, name: str, nargs: int) -> list[str] | None:
        """The fields a positional constructor of `nargs` arguments sets, in its order (None: brace order)."""
        s = self.catalog.struct(name)
        found = s.constructor_fields(nargs) if s is not None else None
        return list(found) if found is not None else None

    def struct_list_mismatch(self, name: str, count: int, designated: bool) -> tuple[str, list[str]] | None:
        """Why a braced list or constructor call of `count` items does not initialise the catalogued struct `name`,
        as the compiler rejects it, with the constructors as candidates; None when it does (or the catalogue
        cannot tell). A struct with constructors is no aggregate: a list goes to a constructor of its length
        ([dcl.init.list]/3.7, [over.match.list]) and may not name members ([dcl.init.list]/3.1)."""
        s = self.catalog.struct(name)
        if s is None or s.aggregate:
            return None
        ctors = (((),) if s.default_constructor else ()) + s.constructors
        candidates = [f"{s.name}({', '.join(c)})" for c in ctors]
        if designated:
            return f"initialization of non-aggregate type '{s.name}' with a designated initializer list", candidates
        if s.takes_list_of(count):
            return None
        takes = sorted({len(c) for c in s.constructors} | ({0} if s.default_constructor else set()))
        listed = " or ".join(str(n) for n in takes)
        return (f"no matching constructor for initialization of '{s.name}' from {count} value"
                f"{'s' if count != 1 else ''}: its constructors take {listed}"), candidates

    def struct_field_type(self, struct: str, field_name: str) -> str | None:
        s = self.catalog.struct(struct)
        if s is None:
            return None
        f = s.field(field_name)
        return f.c_type if f is not None else None
