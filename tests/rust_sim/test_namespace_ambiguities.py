"""A name two nominated namespaces both declare is ambiguous ([namespace.udir]/6: the program is ill-formed): a
reported gap at the statement that names it, never one of them picked, never an internal error (issue 28,
review of a4fa364 / 25ffa19; ascendir/lower/namespace_lookup.py).

- A type alias: `using namespace A; using namespace B;` with A::Elem int32_t and B::Elem uint8_t, `Elem v = 255;
  v = v + 1;` read the last declared (uint8_t: 0) silently.
- A __BLOCK_LOCAL__ variable: block_local.binding raised its ambiguity with no node, and the report of it failed
  ('internal error while lowering: AttributeError: NoneType has no attribute span'), the kernel not lowered."""

from __future__ import annotations

from pathlib import Path

from passes.sim import run

HEAD = """#include "kernel_operator.h"
using namespace AscendC;
"""

ALIAS = HEAD + """namespace A { using Elem = int32_t; }
namespace B { using Elem = uint8_t; }
using namespace A;
using namespace B;
__aicore__ inline int32_t Wrap() { Elem v = 255; v = v + 1; return v; }
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 2);
    yGm.SetValue(0, sizeof(A::Elem) + sizeof(B::Elem));
    yGm.SetValue(1, Wrap());
}
"""

BLOCK_LOCAL = HEAD + """namespace A { __BLOCK_LOCAL__ int32_t b; }
namespace B { __BLOCK_LOCAL__ int32_t b; }
using namespace A;
using namespace B;
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 2);
    A::b = 3;
    yGm.SetValue(0, A::b);
    yGm.SetValue(1, b);
}
"""


def _gaps(tmp_path: Path, text: str) -> tuple[list[int], list[tuple[int | None, str]]]:
    src = tmp_path / "k.cpp"
    src.write_text(text)
    result = run(str(src), {}, block_dim=1, outputs={"y": ((2,), "int32")})
    assert not any("internal error" in f.message for f in result.findings), [str(f) for f in result.findings]
    found = [(f.span.line if f.span else None, f.message) for f in result.findings if f.code == "ASC958"]
    return result.outputs["y"].tolist() if "y" in result.outputs else [], found


def test_an_ambiguous_alias_is_a_gap_not_the_last_declared(tmp_path: Path) -> None:
    y, gaps = _gaps(tmp_path, ALIAS)
    assert y[0] == 5  # (qualified, each its own)
    assert any(line == 7 and "type 'Elem' could be any of the aliases A::Elem, B::Elem" in m for line, m in gaps), gaps


def test_an_ambiguous_block_local_variable_is_a_gap_at_its_statement(tmp_path: Path) -> None:
    y, gaps = _gaps(tmp_path, BLOCK_LOCAL)
    assert y[0] == 3
    assert any(line == 12 and "'b' could be any of the namespace-scope variables A::b, B::b" in m
               for line, m in gaps), gaps


PARAMETER = HEAD + """namespace A { using Elem = int32_t; }
namespace B { using Elem = uint8_t; }
using namespace A;
using namespace B;
extern "C" __global__ __aicore__ void k(GM_ADDR y, Elem n) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 2);
    yGm.SetValue(0, n);
}
"""


def test_an_ambiguous_alias_outside_any_statement_is_reported_at_a_place(tmp_path: Path) -> None:
    # a kernel parameter's type: no statement holds it; the ambiguity names the declarations, at the first
    src = tmp_path / "k.cpp"
    src.write_text(PARAMETER)
    result = run(str(src), {"n": 3}, block_dim=1, outputs={"y": ((2,), "int32")})
    assert not result.ok
    assert any("type 'Elem' could be any of the aliases A::Elem, B::Elem" in f.message for f in result.findings), \
        [str(f) for f in result.findings]
