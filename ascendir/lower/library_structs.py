"""The library tiling structs (RmsNormTiling, LayerNormTiling, TopkTiling, TCubeTiling, ...) with their typed
fields, read from the catalog (catalog/data/structs.toml): the one table both the host lowering (the tiling
functions that fill them, host_tiling_struct) and the kernel lowering (a kernel that fills one itself, through
catalog_view.struct_field_type) use, so a float field such as RmsNormTiling.reciprocalOfHLength is a float on
both sides.
"""

from __future__ import annotations

from functools import cache

from ascendir.catalog import load_catalog
from ascendir.lower import ctypes as C

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
