"""`if ASCEND_IS_AIC_CONV {`: a macro, defined in a header the checker cannot find, that expands to a whole
`constexpr (...)` condition. Its value is unknown, so both branches are checked, as for any unknown
condition (ops-nn's conv kernels include their conv_util.h by a path only the build's include flags find)."""

from __future__ import annotations

from frontend import ast as A
from frontend.pipeline import load_text
from passes.verify import check_program

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    if ASCEND_IS_AIC_CONV {
        LocalTensor<float> t = q.AllocTensor<float>();
        q.FreeTensor(t);
        q.FreeTensor(t);
    } else {
        return;
    }
}
"""


def test_a_macro_flag_condition_parses_and_both_branches_are_checked() -> None:
    program = load_text(KERNEL, "k.cpp")
    conditions = [n.cond for n in program.units[0].ast.walk() if isinstance(n, A.If)]
    assert [type(c).__name__ for c in conditions] == ["MacroFlag"]
    assert [(d.code, d.span.line) for d in check_program(program)] == [("ASC205", 11)]
