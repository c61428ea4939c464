"""AscendC's own type picker `AscendC::Conditional<b, T, U>::type` [kernel_utils.h] lowers as std::conditional.

NPUKernelBench's large-head-dim flash attention declares its second Matmul member through it; the member was read as
a type, so every Matmul method on it was ASC103 'called on a value of type type'."""

from __future__ import annotations

from ascendir.dialects import ascendc as asc
from ascendir.lower import LoweringOptions, LoweringResult, lower_program
from frontend.pipeline import load_text

HEADER = '#include "kernel_operator.h"\nusing namespace AscendC;\n'


def lower(text: str) -> LoweringResult:
    result = lower_program(load_text(text, "k.cpp"), LoweringOptions())
    result.module.verify()
    return result


def test_ascendc_conditional_picks_its_type_by_the_condition() -> None:
    for wide, size in (("true", 256), ("false", 128)):
        r = lower(HEADER + """
class K {
public:
    using Acc = typename AscendC::Conditional<%s, float, half>::type;
    __aicore__ inline void Init() { pipe.InitBuffer(buf, 64 * sizeof(Acc)); }
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    K op;
    op.Init();
}
""" % wide)
        assert [(d.code, d.message) for d in r.diagnostics] == []
        (init,) = [op for op in r.module.walk() if isinstance(op, asc.InitBufferOp)]
        assert init.length.owner.value.value.data == size


def test_a_member_object_of_a_conditional_type_takes_method_calls() -> None:
    r = lower(HEADER + """
class Acc {
public:
    __aicore__ inline void Add(int32_t v) { total += v; }
    int32_t total = 0;
};
class K {
public:
    using Picked = typename AscendC::Conditional<false, int32_t, Acc>::type;
    __aicore__ inline void Init() {
        acc.Add(3);
        pipe.InitBuffer(buf, 32 * (acc.total + 1));
    }
    Picked acc;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    K op;
    op.Init();
}
""")
    assert [(d.code, d.message) for d in r.diagnostics] == []
    assert len([op for op in r.module.walk() if isinstance(op, asc.InitBufferOp)]) == 1
