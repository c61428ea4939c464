"""The library tiling structs (RmsNormTiling, LayerNormTiling, TopkTiling, TCubeTiling, ...) with their typed
fields, read from the catalog (catalog/data/structs.toml): the one table both the host lowering (the tiling
functions that fill them, host_tiling_struct) and the kernel lowering (a kernel that fills one itself, through
catalog_view.struct_field_type) use, so a float field such as RmsNormTiling.reciprocalOfHLength is a float on
both sides. And the check of a braced list or constructor call of a catalogued parameter struct against the
constructors the vendor declares (list_or_copy).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from ascendir.catalog import load_catalog
from ascendir.lower import ctypes as C
from ascendir.lower.errors import NoMatchingConstructor
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer
    from ascendir.lower.values import Val

# the library structs a host tiling struct may hold (TILING_DATA_FIELD_DEF_STRUCT) and the host fills
LIBRARY_TILING_STRUCTS = ("TCubeTiling", "RmsNormTiling", "LayerNormTiling", "LayerNormSeparateTiling", "TopkTiling")


@cache
def library_struct_fields(name: str) -> tuple[tuple[str, C.Scalar], ...]:
    """The catalogued fields of the library struct `name`, with their C types, in the catalog's order."""
    struct = load_catalog().struct(name)
    if struct is None or not struct.fields:
        raise LookupError(f"the catalog gives no fields for the library struct {name}")
    fields = []
    for f in struct.fields:
        t = C.scalar_named(f.c_type)
        if t is None:
            raise LookupError(f"{name}.{f.name}: the catalog's type {f.c_type!r} is not a scalar")
        fields.append((f.name, t))
    return tuple(fields)


def library_field_type(struct: str, name: str) -> C.Scalar:
    """The C type of the library struct's field `name` (KeyError for a field it does not have)."""
    return dict(library_struct_fields(struct))[name]


def list_or_copy(lw: FunctionLowerer, t: C.StructT, items: Sequence[A.Node], node: A.Node) -> Val | None:
    """Checks a braced list (or constructor call) of catalogued struct `t` against its constructors: raises the
    compiler's error where none takes it (`DataCopyParams p{1, 32};`); gives the value itself where the one item
    is such a struct already (its copy constructor); else None: the list sets the fields that the constructor of
    its length names, or the members in order for an aggregate."""
    designated = any(isinstance(i, A.DesignatedInit) for i in items)
    mismatch = lw.catalog.struct_list_mismatch(t.name, len(items), designated)  # type: ignore[attr-defined]
    if mismatch is None or lw.report.api_uncatalogued:
        # (on a chip the catalogue does not describe, the 950, the vendor's structs differ: its LoadDataRepeatParam
        # takes a fourth argument; the list sets the fields by position, as before)
        return None
    if len(items) == 1 and not isinstance(items[0], A.InitList | A.DesignatedInit):
        v = lw.expr(items[0])
        same = lw.catalog.struct_name  # type: ignore[attr-defined]
        if isinstance(v.ctype, C.StructT) and same(v.ctype.name) == same(t.name):
            return v
    raise NoMatchingConstructor(t.name, *mismatch, node)
