"""Vendor API functions the catalog does not model: calls of them are opaque, not unknown APIs (ASC100)."""

from __future__ import annotations

from ascendir.catalog import vendor_functions
from frontend.pipeline import load_text
from passes.verify import check_program

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void where(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<float> t = buf.Get<float>();
    LocalTensor<bool> mask = buf.Get<bool>();
    AscendC::CALLEE(t, t, t, mask, 256);
}
"""


def test_the_list_holds_vendor_functions_and_no_member_definitions() -> None:
    names = vendor_functions()
    assert {"Where", "Rint", "TransData", "MrgSort4", "DropOut", "Add", "DataCopy"} <= names
    assert not {"Process", "CopyIn", "AllocTensor", "EnQue"} & names  # members, not free functions


def test_a_call_of_a_vendor_function_is_opaque_and_a_misspelt_one_is_unknown() -> None:
    def codes(callee: str) -> list[str]:
        return [d.code for d in check_program(load_text(KERNEL.replace("CALLEE", callee), "where.cpp")) if d.is_error]

    assert codes("Where") == []
    assert codes("Wheer") == ["ASC100"]
