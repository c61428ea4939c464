"""Each operator of passes/mutate changes exactly what its name says, at the sites it finds, and nowhere else."""

from __future__ import annotations

import pytest

from passes.mutate import BUG_KINDS, OPERATORS, PROJECT_OPERATORS, Operator, mutants_of, operator

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
class K {
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
        xGm.SetGlobalBuffer((__gm__ float *)x + blockLength * AscendC::GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + blockLength * AscendC::GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQ, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(work, tileLength * sizeof(float));
        tileNum = (blockLength + tileLength - 1) / tileLength;
    }
    __aicore__ inline void Process() {
        for (int32_t i = 0; i < tileNum; i++) {
            Compute(i);
        }
        if (tailLength > 0) {
            Compute(tileNum);
        }
    }
    __aicore__ inline void Compute(int32_t i) {
        LocalTensor<float> x = inQ.DeQue<float>();
        ReduceSum<float>(x, x, work.Get<float>(), tileLength);
        Muls(x, x, scale, tileLength);
        float inv = 1.0f / static_cast<float>(count);
        DataCopyExtParams params{1, static_cast<uint32_t>(tileLength * sizeof(float)), 0, 0, 0};
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        PipeBarrier<PIPE_V>();
        inQ.FreeTensor(x);
    }
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> work;
};
"""


def edits(name: str, text: str = KERNEL) -> list[tuple[int, list[str]]]:
    """(line, the lines the mutant has that the original lacks) for each mutant of operator `name`."""
    op = operator(name)
    assert isinstance(op, Operator)
    before = text.split("\n")
    return [(m.line, [line.strip() for line in m.text.split("\n") if line not in before])
            for m in mutants_of(text, [op], 0)]


def removed(name: str, text: str = KERNEL) -> list[tuple[int, list[str]]]:
    op = operator(name)
    assert isinstance(op, Operator)
    return [(m.line, [line.strip() for line in text.split("\n") if line not in m.text.split("\n")])
            for m in mutants_of(text, [op], 0)]


def test_memory_operators() -> None:
    assert edits("sizeof-mismatch") == [(7, ["pipe.InitBuffer(inQ, BUFFER_NUM, tileLength * sizeof(half));"]),
                                        (8, ["pipe.InitBuffer(work, tileLength * sizeof(half));"])]
    assert edits("core-offset-plus-one")[0] == (5, [
        "xGm.SetGlobalBuffer((__gm__ float *)x + blockLength * (AscendC::GetBlockIdx() + 1), blockLength);"])
    assert edits("copy-elements-as-bytes") == [(24, ["DataCopyExtParams params{1, tileLength, 0, 0, 0};"])]
    assert edits("queue-without-count") == [(7, ["pipe.InitBuffer(inQ, tileLength * sizeof(float));"])]


def test_api_operators() -> None:
    assert edits("scalar-as-tensor") == [(22, ["Mul(x, x, scale, tileLength);"])]
    assert edits("reduce-without-work") == [(21, ["ReduceSum<float>(x, x, tileLength);"])]
    assert edits("libm-call") == [(23, ["float inv = powf(static_cast<float>(count), -1.0f);"])]
    assert edits("unsigned-cast") == [(23, ["float inv = 1.0f / static_cast<float>(static_cast<uint32_t>(count));"])]


def test_sync_and_tiling_operators() -> None:
    assert edits("reverse-set-event") == [(25, ["SetFlag<HardEvent::V_MTE2>(EVENT_ID0);"])]
    assert removed("drop-barrier") == [(27, ["PipeBarrier<PIPE_V>();"])]
    assert edits("loop-off-by-one") == [(12, ["for (int32_t i = 0; i <= tileNum; i++) {"])]
    assert edits("floor-division") == [(9, ["tileNum = blockLength / tileLength;"])]
    (line, gone), = removed("drop-tail")
    assert line == 15 and gone == ["if (tailLength > 0) {", "Compute(tileNum);"]


def test_an_if_with_an_else_is_not_a_tail_site() -> None:
    text = KERNEL.replace("            Compute(tileNum);\n        }\n",
                          "            Compute(tileNum);\n        } else {\n            Compute(0);\n        }\n")
    assert removed("drop-tail", text) == []


def test_constants_are_not_cast_through_unsigned() -> None:
    assert edits("unsigned-cast", "        Duplicate(y, static_cast<float>(NAN), n);\n") == []


def test_operators_are_described() -> None:
    assert len(OPERATORS) >= 15
    for op in [*OPERATORS, *PROJECT_OPERATORS]:
        assert op.bug_kind in BUG_KINDS and op.fix and op.what and op.family, op.name
    with pytest.raises(KeyError, match="unknown mutation operator 'nope'"):
        operator("nope")
