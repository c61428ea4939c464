"""Pointers in array declarators, lowered as C reads them: `T *p[N]` is an array of N pointers (C binds the `*`
to the element type), `T (*p)[N]` a pointer to an array of N (the parentheses bind it to the array), whatever
the address space. The parser tells the two apart (TypeRef.pointers_to_array)."""

from __future__ import annotations

from ascendir.lower import LoweringOptions, lower_program
from ascendir.text import print_ir
from frontend.pipeline import load_text

_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void forms(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{{
{body}
}}
"""


def _lowered(body: str) -> str:
    result = lower_program(load_text(_KERNEL.format(body=body), "kernel.cpp"), LoweringOptions())
    return print_ir(result.module)


def test_an_array_of_pointers_without_an_address_space_is_one() -> None:
    text = _lowered("    uint64_t *cells[2];\n    __gm__ float *ptrs[3];")
    assert "%cells = memref.alloca() : memref<2x!ascendc.gm_ptr<ui64>>" in text, text
    assert "%ptrs = memref.alloca() : memref<3x!ascendc.gm_ptr<f32>>" in text, text


def test_a_pointer_to_a_gm_array_is_not_an_array_of_pointers() -> None:
    # (read as an array of 4 GM pointers, `row` was a cell memref<4x!ascendc.gm_ptr<f32>>)
    text = _lowered("    __gm__ float (*row)[4] = (__gm__ float (*)[4])x;\n    uint64_t (*local)[16] = nullptr;")
    assert "memref<4x!ascendc.gm_ptr" not in text, text
    assert "memref<16x!ascendc.gm_ptr" not in text, text
