"""The bytes of a tiling struct as the host saves them (SaveToBuffer) and the kernel finds them in GM.

Most kernels read their tiling through GET_TILING_DATA, which the simulator folds into the program. Some read the
raw tiling buffer themselves (`*(__gm__ uint32_t *)(tiling + 8)`, a GlobalTensor over the tiling address and
GetValue): for them the launch hands the kernel the struct's bytes. The layout is the C one the device side's
generated struct has: fields in declaration order, each at its natural alignment (at most 8), arrays of their
element's alignment, nested structs in place, the whole rounded to its largest alignment.
"""

from __future__ import annotations

import struct as _struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ascendir.lower import ctypes as C
from ascendir.lower.library_structs import LIBRARY_TILING_STRUCTS, library_struct_fields

_FORMATS = {("int", 1): "b", ("int", 2): "h", ("int", 4): "i", ("int", 8): "q",
            ("uint", 1): "B", ("uint", 2): "H", ("uint", 4): "I", ("uint", 8): "Q",
            ("bool", 1): "?", ("float", 2): "e", ("float", 4): "f", ("float", 8): "d"}


@dataclass(frozen=True)
class Slot:
    """One scalar field (or array of scalars) of the flattened struct: its dotted path, byte offset, the
    struct.pack format of one element and the element count (None: a scalar)."""

    path: str
    offset: int
    fmt: str
    size: int
    count: int | None = None


class _Layout:
    def __init__(self, lowerer: Any) -> None:
        self.lw = lowerer
        self.slots: list[Slot] = []

    def place(self, struct: str, base: int, prefix: str, depth: int = 0) -> tuple[int, int] | None:
        """Lay out `struct` at `base`: (its size, its alignment), or None when a field's type is unknown."""
        ts = self.lw.scope.tiling_structs.get(struct)
        if depth > 8:
            return None
        if ts is not None:
            fields = [(name, self.lw.tiling_field_type(struct, name)) for name, *_ in ts.fields]
        elif struct in LIBRARY_TILING_STRUCTS:  # a TCubeTiling member (TILING_DATA_FIELD_DEF_STRUCT, or a plain one)
            fields = list(library_struct_fields(struct))
        else:
            return None
        # `struct alignas(8) MatmulTilingData`: at least that alignment, so a size rounded up to it (mat_mul_v3's
        # PostTiling fails a sizeof that is not a multiple of 8)
        offset, largest = 0, max(getattr(ts, "align", None) or 1, 1)
        for name, t in fields:
            count = None
            while isinstance(t, C.ArrayT):  # (an array of arrays: its elements row by row, [dcl.array]/9)
                t, count = t.elem, t.size * (count or 1)
            path = f"{prefix}{name}"
            if isinstance(t, C.EnumT):
                t = C.I32
            if isinstance(t, C.Scalar):
                fmt = "bf16" if t.name == "bfloat16_t" else _FORMATS.get((t.kind, t.size))
                if fmt is None:
                    return None
                align = min(t.size, 8)
                offset = (offset + align - 1) // align * align
                self.slots.append(Slot(path, base + offset, fmt, t.size, count))
                offset += t.size * (count if count is not None else 1)
            elif isinstance(t, C.TilingT | C.ClassT | C.StructT):
                if count is not None:
                    return None  # arrays of structs: not modelled
                probe = _Layout(self.lw)
                inner = probe.place(t.name, 0, "", depth + 1)
                if inner is None:
                    return None
                size, align = inner
                offset = (offset + align - 1) // align * align
                placed = self.place(t.name, base + offset, f"{path}.", depth + 1)
                if placed is None:
                    return None
                offset += size
            else:
                return None
            largest = max(largest, align)
        return (offset + largest - 1) // largest * largest, largest


def tiling_slots(program: Any, struct_name: str) -> tuple[list[Slot], int] | None:
    """The flattened layout of the tiling struct `struct_name` of `program`'s host code and its size in bytes;
    None when the struct is not one the program defines or a field's type is not known."""
    from ascendir.lower import LoweringOptions
    from ascendir.lower.catalog_view import CatalogView
    from ascendir.lower.diagnostics import Reporter
    from ascendir.lower.function import FunctionLowerer
    from ascendir.lower.scope import collect

    units = [u.ast for u in program.units]
    try:
        scope = collect(units)
        lowerer = FunctionLowerer(scope, Reporter(), CatalogView.get(), LoweringOptions())
        layout = _Layout(lowerer)
        with lowerer._template_frame(struct_name, [], []):  # a frame to evaluate array counts in
            placed = layout.place(struct_name, 0, "")
    except Exception:  # a struct the lowering cannot read: the kernel gets no tiling bytes, as before
        return None
    if placed is None:
        return None
    return layout.slots, placed[0]


def tiling_bytes(program: Any, struct_name: str | None, fields: Mapping[str, Any]) -> bytes | None:
    """The tiling struct filled with the values the host set (`fields`, by dotted path; arrays as lists),
    unset fields zero; None when the layout is not known."""
    if not struct_name:
        return None
    found = tiling_slots(program, struct_name)
    if found is None:
        return None
    slots, size = found
    data = bytearray(size)
    for slot in slots:
        value = fields.get(slot.path)
        if value is None:
            continue
        values = _flat(value) if isinstance(value, (list, tuple)) else [value]
        n = slot.count if slot.count is not None else 1
        for k, v in enumerate(values[:n]):
            at = slot.offset + k * slot.size
            if slot.fmt == "bf16":  # the upper half of the float32 pattern (truncated)
                _struct.pack_into("<H", data, at, _struct.unpack("<I", _struct.pack("<f", float(v)))[0] >> 16)
            else:
                _struct.pack_into("<" + slot.fmt, data, at, _coerce(v, slot.fmt))
    return bytes(data)


def _flat(value: list[Any] | tuple[Any, ...]) -> list[Any]:
    """An array's values in storage order (an array of arrays given as nested lists: row by row)."""
    return [x for v in value for x in (_flat(v) if isinstance(v, (list, tuple)) else [v])]


def _coerce(value: Any, fmt: str) -> Any:
    if fmt in "efd":
        return float(value)
    if fmt == "?":
        return bool(value)
    bits = _struct.calcsize(fmt) * 8
    v = int(value) & ((1 << bits) - 1)  # the C conversion to the field's width
    if fmt.islower() and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def unset_tiling_fields(program: Any, struct_name: str | None, fields: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of the tiling struct the host left unset, at 0 (arrays of zeros): what the device reads for
    them from the zeroed tiling data. Empty when the layout is not known."""
    found = tiling_slots(program, struct_name) if struct_name else None
    if found is None:
        return {}
    return {s.path: ([0] * s.count if s.count is not None else 0) for s in found[0] if s.path not in fields}
