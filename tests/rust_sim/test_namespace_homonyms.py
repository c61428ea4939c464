"""Namespace-scope variables of one name in different namespaces are different variables (issue 28;
ascendir/lower/namespace_lookup.py, namespace_writes.py).

1. Scope.constants (and Scope.aliases) keyed them by the bare name, so `namespace A { int cnt; } namespace B {
   int cnt; }` made one entry, the later: every `cnt`, `A::cnt` included, read the last one declared, silently
   (an alias `Elem` the same). Now each is looked up by the C++ rules: unqualified from the namespace the code is
   in outwards, through using-directives as if declared in the nearest namespace enclosing both; `N::cnt` in N,
   then in what N nominates; a name two nominated namespaces both declare is a reported gap.
2. Which shared mutable variable the program writes follows the same lookup (before, a write of B::cnt made a
   read of A::cnt a gap), and a variable passed to a function's non-const reference parameter is written
   (before, `Set(Ns::count)` with `void Set(int32_t &r) { r = 1; }` was unseen and the read gave the initial
   value)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

HOMONYMS = """#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t cnt = 5;
namespace A {
constexpr int32_t cnt = 1;
constexpr int32_t twice = cnt * 2;
__aicore__ inline int32_t Get() { return cnt + ::cnt; }
namespace Inner {
__aicore__ inline int32_t Get() { return cnt; }
}
}
namespace B {
constexpr int32_t cnt = 2;
__aicore__ inline int32_t Get() { return cnt; }
struct Reader {
    __aicore__ inline int32_t Get() { return cnt * 10; }
};
}
namespace C {
namespace D {
constexpr int32_t cnt = 3;
}
using namespace D;
__aicore__ inline int32_t Get() { return cnt; }
}
namespace E {
using namespace B;
}
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 10);
    B::Reader reader;
    yGm.SetValue(0, A::cnt);
    yGm.SetValue(1, B::cnt);
    yGm.SetValue(2, cnt);
    yGm.SetValue(3, A::Get());
    yGm.SetValue(4, B::Get());
    yGm.SetValue(5, A::Inner::Get());
    yGm.SetValue(6, C::Get());
    yGm.SetValue(7, E::cnt);
    yGm.SetValue(8, A::twice);
    yGm.SetValue(9, reader.Get());
}
"""

ALIASES = """#include "kernel_operator.h"
using namespace AscendC;
namespace A {
using Elem = int32_t;
__aicore__ inline int32_t Wrap() { Elem v = 255; v = v + 1; return v; }
}
namespace B {
using Elem = uint8_t;
__aicore__ inline int32_t Wrap() { Elem v = 255; v = v + 1; return v; }
}
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 4);
    yGm.SetValue(0, A::Wrap());
    yGm.SetValue(1, B::Wrap());
    yGm.SetValue(2, sizeof(A::Elem));
    yGm.SetValue(3, sizeof(B::Elem));
}
"""

AMBIGUOUS = """#include "kernel_operator.h"
using namespace AscendC;
namespace A {
constexpr int32_t n = 1;
}
namespace B {
constexpr int32_t n = 2;
}
using namespace A;
using namespace B;
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 2);
    yGm.SetValue(0, A::n + 10);
    yGm.SetValue(1, n);
}
"""

SHARED = """#include "kernel_operator.h"
using namespace AscendC;
namespace A {
int32_t cnt = 7;
}
namespace B {
int32_t cnt = 8;
}
__aicore__ inline void Set(int32_t &r) { r = 1; }
__aicore__ inline void Look(const int32_t &r) { (void)r; }
struct Writer {
    __aicore__ inline void Put(int32_t &r) { r = 2; }
};
__aicore__ inline void Bump() { %s }
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 2);
    yGm.SetValue(0, A::cnt);
    Bump();
    yGm.SetValue(1, B::cnt);
}
"""

ONE = """#include "kernel_operator.h"
using namespace AscendC;
namespace Ns {
int32_t count = 7;
}
__aicore__ inline void Set(int32_t &r) { r = 1; }
struct Writer {
    __aicore__ inline void Put(int32_t &r) { r = 2; }
};
__aicore__ inline void Bump() { %s }
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 2);
    yGm.SetValue(0, Ns::count);
    Bump();
    yGm.SetValue(1, Ns::count);
}
"""

BLOCK_LOCALS = """#include "kernel_operator.h"
using namespace AscendC;
namespace A {
__BLOCK_LOCAL__ __inline__ int32_t b = 1;
}
namespace B {
__BLOCK_LOCAL__ __inline__ int32_t b = 2;
}
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 3);
    A::b = 5;
    B::b = B::b + 10;
    yGm.SetValue(0, A::b);
    yGm.SetValue(1, B::b);
    yGm.SetValue(2, A::b + B::b);
}
"""


def _run(tmp_path: Path, text: str, n: int) -> object:
    src = tmp_path / "k.cpp"
    src.write_text(text, encoding="utf-8")
    return run(str(src), {}, block_dim=1, outputs={"y": ((n,), "int32")})


def test_each_namespace_has_its_own_variable(tmp_path: Path) -> None:
    result = _run(tmp_path, HOMONYMS, 10)
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], [1, 2, 5, 6, 2, 1, 3, 2, 2, 20])


def test_each_namespace_has_its_own_alias(tmp_path: Path) -> None:
    result = _run(tmp_path, ALIASES, 4)
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], [256, 0, 4, 1])


def test_an_ambiguous_name_is_a_gap_where_read(tmp_path: Path) -> None:
    result = _run(tmp_path, AMBIGUOUS, 2)
    gaps = [d for d in result.findings if d.code in ("ASC958", "ASC103") and d.span is not None and d.span.line == 15]
    assert gaps and "A::n, B::n" in gaps[0].message, [str(d) for d in result.findings]
    assert result.outputs["y"][0] == 11
    assert result.outputs["y"][1] not in (1, 2)  # (neither candidate picked silently)


def test_a_write_of_one_namespace_variable_leaves_the_other_readable(tmp_path: Path) -> None:
    # B::cnt is written (a gap where read); A::cnt, of the same bare name, is not and reads its 7
    for write in ("B::cnt = 3;", "Set(B::cnt);", "Writer w; w.Put(B::cnt);", "int32_t &r = B::cnt; r = 4;"):
        result = _run(tmp_path, SHARED % write, 2)
        lines = {d.span.line for d in result.findings if d.code == "ASC958" and d.span is not None
                 and "'cnt', which the program writes" in d.message}
        # (the read of A::cnt, line 18, is no gap; passing B::cnt on, in Bump at line 14, may be one too)
        assert 20 in lines and 18 not in lines, (write, [str(d) for d in result.findings])
        assert result.outputs["y"][0] == 7, write
        assert result.outputs["y"][1] != 8, write  # (not B's initial value, as if nothing wrote it)


def test_a_const_reference_parameter_is_no_write(tmp_path: Path) -> None:
    result = _run(tmp_path, SHARED % "Look(B::cnt);", 2)
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], [7, 8])


def test_a_variable_passed_to_a_reference_parameter_is_written(tmp_path: Path) -> None:
    for write in ("Set(Ns::count);", "Writer w; w.Put(Ns::count);",
                  "auto put = [](int32_t &r) { r = 3; }; put(Ns::count);"):
        result = _run(tmp_path, ONE % write, 2)
        lines = {d.span.line for d in result.findings if d.code == "ASC958" and d.span is not None
                 and "'count', which the program writes" in d.message}
        assert {14, 16} <= lines, (write, [str(d) for d in result.findings])
        assert 7 not in list(result.outputs["y"]), write  # (no initial value read as if nothing wrote it)


def test_each_namespace_has_its_own_block_local_variable(tmp_path: Path) -> None:
    # `A::b = 5` stores into A's (lower_assign passes the qualifier), not into whichever b was declared last
    result = _run(tmp_path, BLOCK_LOCALS, 3)
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], [5, 12, 17])
