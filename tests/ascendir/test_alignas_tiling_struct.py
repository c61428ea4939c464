"""`struct alignas(8) S {...}` sizes and places tiling data as C++ does: S's alignment is at least 8 and its size a
multiple of it. ops-nn mat_mul_v3's tiling structs are all alignas(8) (op_kernel/mat_mul_v3_tiling_data.h), and its
PostTiling fails when sizeof(MatmulTilingData) is not a multiple of 8; the parser dropped alignas, so with
TCubeTiling's whole declaration (50 int32) the struct came out 268 bytes where C++ has 280, and the tiling failed
(ASC602, bench/README.md session 14, engineer mmv3c). The structs below are the team's."""

from __future__ import annotations

from ascendir.lower import LoweringOptions
from ascendir.lower.catalog_view import CatalogView
from ascendir.lower.diagnostics import Reporter
from ascendir.lower.function import FunctionLowerer
from ascendir.lower.scope import collect
from ascendir.lower.tiling_layout import tiling_slots
from frontend.pipeline import load_text

SOURCE = """
#include <cstdint>
struct alignas(8) Counts {
    uint32_t rows;
    uint32_t cols;
    uint32_t tail;
};
struct Plain {
    uint32_t a;
};
struct alignas(8) Outer {
    uint32_t head;
    Counts counts;
    Plain plain;
    uint32_t last;
};
"""


def test_alignas_rounds_the_size_and_places_the_member() -> None:
    program = load_text(SOURCE, "tiling_data.h")
    slots, size = tiling_slots(program, "Outer")
    offsets = {s.path: s.offset for s in slots}
    # Counts: 12 bytes of fields, alignas(8) -> 16, placed at 8; Plain (4-aligned) right after it
    assert (offsets["counts.rows"], offsets["counts.tail"], offsets["plain.a"], offsets["last"]) == (8, 16, 24, 28)
    assert size == 32
    assert tiling_slots(program, "Counts")[1] == 16
    assert tiling_slots(program, "Plain")[1] == 4


def test_sizeof_of_an_alignas_struct_is_rounded() -> None:
    program = load_text(SOURCE, "tiling_data.h")
    lowerer = FunctionLowerer(collect([u.ast for u in program.units]), Reporter(), CatalogView.get(),
                              LoweringOptions())
    assert (lowerer.tiling_size("Counts"), lowerer.tiling_size("Outer"), lowerer.tiling_size("Plain")) == (16, 32, 4)
