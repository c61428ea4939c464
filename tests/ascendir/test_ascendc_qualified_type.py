"""A type written `AscendC::X` is the library's X even where the program declares a struct X of its own outside
that namespace (ops-math unfold_grad: `struct TransDataTo5HDParams { AscendC::TransDataTo5HDParams
transDataParams; ... }`). Resolved to the program's struct, the member was the struct itself: the lowering
recursed without end (RecursionError)."""

from __future__ import annotations

from ascendir.lower import LoweringResult, lower_program
from frontend.pipeline import load_text

SOURCE = """#include "kernel_operator.h"
struct TransDataTo5HDParams {
    __aicore__ inline TransDataTo5HDParams() {};
    __aicore__ inline TransDataTo5HDParams(int rows, AscendC::TransDataTo5HDParams copy) : rows(rows), copy(copy) {};
    int rows{0};
    AscendC::TransDataTo5HDParams copy = {false, false, 0, 0, 0};
};
class K {
public:
    __aicore__ inline void Init(GM_ADDR x) {
        g.SetGlobalBuffer((__gm__ float *)x);
        pipe.InitBuffer(buf, 4096);
    }
    __aicore__ inline void Run() {
        AscendC::LocalTensor<float> ub = buf.Get<float>();
        AscendC::TransDataTo5HDParams copy{false, false, 1, 0, 0};
        TransDataTo5HDParams params(1, copy);
        AscendC::DataCopy(ub, g, params.copy.repeatTimes * 64);
    }
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<float> g;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    K op;
    op.Init(x);
    op.Run();
}
"""


def _lower(source: str) -> LoweringResult:
    result = lower_program(load_text(source, "k.cpp"))
    result.module.verify()
    return result


def _problems(r: LoweringResult) -> list[tuple[str, str]]:
    """Errors, and the gaps (ASC103) the lowering left: a recursion that did not end is one of those."""
    return [(d.code, d.message) for d in r.diagnostics if d.is_error or d.code == "ASC103"]


def test_ascendc_qualified_name_is_the_library_type() -> None:
    r = _lower(SOURCE)
    assert _problems(r) == []


def test_a_class_the_program_adds_to_namespace_ascendc_stays_its_own() -> None:
    # a program's own class in namespace AscendC, named AscendC::X, is that class
    source = SOURCE.replace('#include "kernel_operator.h"\n', '#include "kernel_operator.h"\n'
                            'namespace AscendC { struct Extra { int n{0}; }; }\n')
    source = source.replace("        AscendC::DataCopy(ub, g, params.copy.repeatTimes * 64);",
                            "        AscendC::Extra e;\n        e.n = 64;\n"
                            "        AscendC::DataCopy(ub, g, e.n);")
    r = _lower(source)
    assert _problems(r) == []
