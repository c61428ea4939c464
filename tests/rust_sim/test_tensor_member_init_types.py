"""A tensor member's mem-initializer gives it a tensor of its own class and element type (ascendir/lower/
lower_objects._tensor_member_init). GlobalTensor<half> has no constructor taking a GlobalTensor<int32_t> and no
conversion makes one ([dcl.init]/17.6.2; a view of the same bytes is ReinterpretCast<T>()), so C++ rejects
`gg_(g)` there. The lowering bound the member to the other tensor (its element type silently changed: the read
below gave the int32 41) or, for a LocalTensor given to a GlobalTensor member, kept the member's unset handle with no
finding at the line (issue 28, review of session 16). Now it is ASC106 at the initialiser; the same class and
element type (and a ReinterpretCast to it) bind as before."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;
class Holder {
public:
    __aicore__ inline Holder(GlobalTensor<int32_t> g, LocalTensor<int32_t> l) : INIT {}
    __aicore__ inline void Run(GlobalTensor<int32_t> out) {
        out.SetValue(0, (int32_t)gg_.GetValue(1));
    }
    GlobalTensor<MT> gg_;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm, xGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 1);
    xGm.SetGlobalBuffer((__gm__ int32_t *)x, 16);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 64);
    LocalTensor<int32_t> l = b.Get<int32_t>();
    Holder h(xGm, l);
    h.Run(yGm);
}
"""


def _run(tmp_path: Path, init: str, member: str):  # type: ignore[no-untyped-def]
    src = tmp_path / "k.cpp"
    src.write_text(SOURCE.replace("INIT", init).replace("MT", member), encoding="utf-8")
    return run(str(src), {"x": np.arange(16, dtype=np.int32) + 40}, block_dim=1, outputs={"y": ((1,), "int32")})


@pytest.mark.parametrize("init, member, given", [("gg_(g)", "half", "GlobalTensor<int32_t>"),
                                                 ("gg_{g}", "uint32_t", "GlobalTensor<int32_t>"),
                                                 ("gg_(l)", "int32_t", "LocalTensor<int32_t>")])
def test_a_tensor_member_from_another_tensor_type_is_an_error(init: str, member: str, given: str,
                                                              tmp_path: Path) -> None:
    result = _run(tmp_path, init, member)
    hits = [d for d in result.findings if d.code == "ASC106" and "member 'gg_'" in d.message]
    assert hits and given in hits[0].message, [str(d) for d in result.findings]
    assert hits[0].span is not None and hits[0].span.line == 5 and not result.ok


@pytest.mark.parametrize("init", ["gg_(g)", "gg_{g}"])
def test_a_tensor_member_from_its_own_type_is_that_tensor(init: str, tmp_path: Path) -> None:
    result = _run(tmp_path, init, "int32_t")
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], [41])


def test_a_value_initialised_tensor_member_is_the_default_tensor(tmp_path: Path) -> None:
    # `gg_{}` (tla's EBO() : t_{}): GlobalTensor's default constructor, a tensor with no memory yet; no gap there
    # (145c784 made it an ASC958 'left out' in catlass 13_basic_matmul_tla); the read through it is ASC950
    result = _run(tmp_path, "gg_{}", "int32_t")
    assert [d.code for d in result.findings] == ["ASC950"], [str(d) for d in result.findings]
