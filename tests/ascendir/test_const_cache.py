"""One `arith.constant` per value and type in a block (ascendir/lower/const_cache.py): unrolled code, such as a
copy loop over a coordinate's elements in a class's constructor, used to emit the same constants at every use,
and they counted against MAX_KERNEL_OPS (NPUKernelBench OptimizedMatmul: 50,361 ops, 15,190 of them
constants). Each constant still dominates its uses (module.verify), also where a branch's body holds its own."""

from __future__ import annotations

from collections import Counter

from xdsl.dialects import arith
from xdsl.ir import Block

from ascendir.lower import LoweringResult, lower_program
from frontend.pipeline import load_text

HEADER = '#include "kernel_operator.h"\nusing namespace AscendC;\n'

COORD = """
template <uint32_t N>
struct Coord {
    uint32_t idx[N];
    __aicore__ inline Coord(uint32_t const (&v)[N]) { for (int i = 0; i < N; ++i) { idx[i] = v[i]; } }
    __aicore__ inline Coord(Coord const &o) { for (int i = 0; i < N; ++i) { idx[i] = o.idx[i]; } }
    __aicore__ inline uint32_t operator[](int i) const { return idx[i]; }
};
"""


def _lower(body: str) -> LoweringResult:
    source = (HEADER + COORD + 'extern "C" __global__ __aicore__ void k(GM_ADDR x, uint32_t n) {\n'
              + "GlobalTensor<uint32_t> g;\ng.SetGlobalBuffer((__gm__ uint32_t *)x);\n" + body + "\n}\n")
    result = lower_program(load_text(source, "k.cpp"))
    assert [(d.code, d.message) for d in result.diagnostics] == []
    result.module.verify()
    return result


def _constants_per_block(result: LoweringResult) -> list[Counter[tuple[str, str]]]:
    blocks: dict[int, Counter[tuple[str, str]]] = {}
    for op in result.module.walk():
        if isinstance(op, arith.ConstantOp):
            block = op.parent
            assert isinstance(block, Block)
            blocks.setdefault(id(block), Counter())[(str(op.value), str(op.result.type))] += 1
    return list(blocks.values())


UNROLLED = """
uint32_t v[4] = {n, n + 1, n + 2, n + 3};
Coord<4> a(v);
Coord<4> b(a);
Coord<4> c(b);
g.SetValue(0, c[0] + c[1] + c[2] + c[3]);
"""


def test_unrolled_copies_share_their_constants() -> None:
    counts = _constants_per_block(_lower(UNROLLED))
    assert counts
    for per_block in counts:
        assert all(n == 1 for n in per_block.values()), per_block


def test_a_branch_body_gets_its_own_copy() -> None:
    # the constants of the two branches are in their own blocks, and the ones after the if in the entry
    # block: each dominates its uses (verify), none is repeated within a block
    r = _lower("if (n > 1) {\n" + UNROLLED + "} else {\n" + UNROLLED + "}\n" + UNROLLED)
    counts = _constants_per_block(r)
    assert len(counts) >= 3
    for per_block in counts:
        assert all(n == 1 for n in per_block.values()), per_block
