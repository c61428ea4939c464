"""Of several non-member `operator+` functions that take two class objects, the lowering calls the best
([over.match.best]/2, ascendir/lower/free_operators.py): a plain function before a template's specialisation,
the more specialised template by partial ordering ([temp.func.order]); a parameter that names another class than
its operand (`C<0>` for a C<2>) drops its candidate ([temp.deduct.call]/4); where none is best the call is ambiguous
and a reported gap (ASC958 at the line when the run reaches it). Before (issue 28, review of session 16), two viable
candidates made the lowering give up on them silently and add the converted numbers: C<4>{} + C<0>{} read 4 where
C++ calls `operator+(C<t>, C<0>)` and gets 104."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;
template <int v> struct C {
    static constexpr int value = v;
    __aicore__ inline operator int() const { return v; }
};
template <int t, int u> __aicore__ inline C<t + u> operator+(C<t>, C<u>) { return {}; }
SECOND
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 2);
    int32_t r = C<1>{} + C<2>{};
    int32_t s = C<4>{} + C<0>{};
    yGm.SetValue(0, r);
    yGm.SetValue(1, s);
}
"""


def _run(tmp_path: Path, second: str):  # type: ignore[no-untyped-def]
    src = tmp_path / "k.cpp"
    src.write_text(SOURCE.replace("SECOND", second), encoding="utf-8")
    return run(str(src), {}, block_dim=1, outputs={"y": ((2,), "int32")})


@pytest.mark.parametrize("second, want", [
    ("", [3, 4]),  # one candidate (as before)
    # more specialised for a C<0> right operand; not viable for the C<2> one
    ("template <int t> __aicore__ inline C<t + 100> operator+(C<t>, C<0>) { return {}; }", [3, 104]),
    # a plain function for exactly C<1>, C<2>: better than the template there; no candidate for C<4>, C<0>
    ("__aicore__ inline C<1000> operator+(C<1>, C<2>) { return {}; }", [1000, 4]),
])
def test_the_best_operator_function_is_called(second: str, want: list[int], tmp_path: Path) -> None:
    result = _run(tmp_path, second)
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], want)


def test_two_equally_good_operator_functions_are_a_reported_gap(tmp_path: Path) -> None:
    # neither template is more specialised: C++ rejects the call as ambiguous; never the built-in 3 and 4
    result = _run(tmp_path, "template <int t, int u> __aicore__ inline C<t * u + 50> operator+(C<t>, C<u>) "
                            "{ return {}; }")
    gaps = [d for d in result.findings if d.code == "ASC958" and "ambiguous" in d.message]
    assert not result.ok and gaps, [str(d) for d in result.findings]
    assert gaps[0].span is not None and gaps[0].span.line == 12  # `int32_t r = C<1>{} + C<2>{};`
