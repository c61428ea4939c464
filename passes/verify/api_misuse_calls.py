"""The IR side the API-misuse rules (ASC5xx) share: each API-call op with its catalog entry, the overload it
resolved to and the operand of each parameter (CatalogCall, collected once per run by catalog_calls), the
element types its template type variables bind to, catalog names of IR element types, an op's source location
and the kernel it sits in.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Attribute, Operation, SSAValue

from ascendir.catalog import Api, Catalog, Overload
from ascendir.dialects import ascendc as asc
from ascendir.lower.ctypes import scalar_from_element
from passes.verify.ir import api_calls_of
from passes.verify.rules import CheckContext


@dataclass(frozen=True)
class CatalogCall:
    """An API-call op with its catalog entry, overload and the operand of each parameter."""

    op: asc.ApiCallOp
    api: Api
    overload: Overload
    offset: int  # 1 when args[0] is the receiver

    def operand(self, index: int) -> SSAValue | None:
        i = index + self.offset
        return self.op.args[i] if i < len(self.op.args) else None

    def params(self) -> Iterator[tuple[int, SSAValue]]:
        for i in range(len(self.overload.params)):
            value = self.operand(i)
            if value is not None:
                yield i, value


@lru_cache(maxsize=4096)
def _entry(catalog: Catalog, name: str, overload: str, family: str) -> tuple[Api, Overload, int] | None:
    for api in catalog.apis:
        if api.name == name and api.family == family:
            found = api.overload(overload)
            if found is not None:
                return api, found, int(api.receiver is not None)
    return None


def catalog_calls(ctx: CheckContext, *families: str) -> Iterator[CatalogCall]:
    store: dict[object, object] = ctx.__dict__.setdefault("_project_cache", {})
    found = store.get("api_misuse.calls")
    if found is None:  # once per run, kept with the run (not in a module-level cache that outlives it)
        found = store["api_misuse.calls"] = []
        for op in api_calls_of(ctx):
            entry = _entry(ctx.catalog, op.api.data, op.overload.data, op.FAMILY) if op.overload.data else None
            if entry is not None:
                found.append(CatalogCall(op, *entry))  # type: ignore[attr-defined]
    wanted = set(families)
    return (call for call in found if not wanted or call.op.FAMILY in wanted)  # type: ignore[union-attr]


def elem_name(attr: Attribute) -> str | None:
    """Catalog name of an IR element type (f16 -> half, si32 -> int32_t)."""
    scalar = scalar_from_element(attr)
    return scalar.name if scalar is not None else None


def tensor_elem(value: SSAValue) -> str | None:
    t = value.type
    if isinstance(t, asc.LocalTensorType | asc.GlobalTensorType):
        return elem_name(t.element_type)
    return None


def type_var_names(overload: Overload) -> list[str]:
    return [tp.name for tp in overload.type_params if tp.is_type]


def type_bindings(call: CatalogCall) -> dict[str, str]:
    """Type variable -> element type, from tensor operands (explicit template arguments fill the rest)."""
    out: dict[str, str] = {}
    type_vars = set(type_var_names(call.overload))
    for i, value in call.params():
        param = call.overload.params[i]
        if param.kind in ("local_tensor", "global_tensor") and param.elem in type_vars and param.elem not in out:
            elem = tensor_elem(value)
            if elem is not None:
                out[param.elem] = elem
    return out


def chip_arch(ctx: CheckContext) -> int:
    return ctx.chip.npu_arch


def location_of(op: Operation) -> tuple[str, int, int] | None:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return loc.filename.data, loc.line.data, loc.column.data
    return None


def kernel_of(op: Operation) -> Operation | None:
    while op is not None and not isinstance(op, asc.KernelOp):
        op = op.parent_op()  # type: ignore[assignment]
    return op
