"""A pointer set to a member of a kernel struct (`DataCopyParams *p = &inner.a;`, ops-nn bidirection_lstm's
`repeatParamsTransND = &innerParams.repeatParamsTransNDTail;`) points at that member: `*p` is the member's
struct (a DataCopyParams for DataCopy's overloads), not the whole object that holds it."""

from __future__ import annotations

from ascendir.lower import LoweringResult, lower_program
from frontend.pipeline import load_text

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;
struct Inner {
    DataCopyParams head;
    DataCopyParams tail;
};
class K {
public:
    __aicore__ inline void Init(GM_ADDR x) {
        g.SetGlobalBuffer((__gm__ half *)x);
        pipe.InitBuffer(buf, 4096);
    }
    __aicore__ inline void Run(int n) {
        LocalTensor<half> ub = buf.Get<half>();
        DataCopyParams *p, *q;
        if (n > 0) {
            p = &inner.head;
            q = &inner.tail;
        } else {
            p = &inner.tail;
            q = &inner.head;
        }
        DataCopy<half>(ub[0], g[0], *p);
        DataCopy<half>(ub[64], g[64], *q);
    }
    Inner inner;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<half> g;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    K op;
    op.Init(x);
    op.Run(1);
}
"""


def _lower(source: str) -> LoweringResult:
    result = lower_program(load_text(source, "k.cpp"))
    result.module.verify()
    return result


def test_dereferenced_member_pointer_is_the_member_struct() -> None:
    r = _lower(SOURCE)
    assert [(d.code, d.message) for d in r.diagnostics if d.severity == "error"] == []


def test_a_pointer_to_the_whole_struct_still_reads_the_struct() -> None:
    # `Inner *w = &inner; w->head` keeps reading the object the pointer holds
    source = SOURCE.replace("DataCopy<half>(ub[64], g[64], *q);",
                            "Inner *w = &inner;\n        DataCopy<half>(ub[64], g[64], w->tail);")
    r = _lower(source)
    assert [(d.code, d.message) for d in r.diagnostics if d.severity == "error"] == []
