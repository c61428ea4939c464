"""A pointer to an object the lowering holds, as an integer (ascendir/lower/object_address.py). ops-nn's
batch_mat_mul_v3 gives its Matmul object `reinterpret_cast<uint64_t>(tilingData)` (SetUserDefInfo), a pointer to
the tiling struct GET_TILING_DATA copied, which its copy callbacks cast back to `BatchMatmulTilingData *`. Before,
the cast was 'cannot convert TilingData* to uint64_t' (or 'Holder*'), a left-out statement (ASC958). Now the
integer is a number standing for the object that casts back to the same pointer; arithmetic on it is not
followed (reported where the pointer made of it is used)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
class Holder {
public:
    __aicore__ inline Holder() {}
    int32_t v = 0;
};
__aicore__ inline uint32_t ReadBack(uint64_t addr) {
    const TilingData* p = reinterpret_cast<const TilingData*>(addr);
    return p->m;
}
__aicore__ inline uint64_t Keep(const void* tilingData) { return reinterpret_cast<uint64_t>(tilingData); }
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(td, tiling);
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 16);
    Holder h;
    h.v = 7;
    uint64_t a = Keep(&td);
    uint64_t n = reinterpret_cast<uint64_t>(&h);
    Holder* q = reinterpret_cast<Holder*>(n OFFSET);
    uint64_t g = reinterpret_cast<uint64_t>(x);
    __gm__ int32_t* xp = reinterpret_cast<__gm__ int32_t*>(g + 8);
    yGm.SetValue(0, (int32_t)ReadBack(a));
    yGm.SetValue(1, xp[0]);
    yGm.SetValue(2, q->v);
    yGm.SetValue(3, a != 0 && a == reinterpret_cast<uint64_t>(&td) && a != n ? 1 : 0);
    for (int32_t i = 4; i < 16; i++) {
        yGm.SetValue(i, 0);
    }
}
"""


def _run(tmp_path: Path, offset: str):
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL.replace("OFFSET", offset), encoding="utf-8")
    x = np.arange(8, dtype=np.int32)
    return run(str(src), {"x": x}, block_dim=1, tiling={"n": 3, "m": 5}, outputs={"y": ((16,), "int32")})


def test_a_pointer_cast_to_an_integer_and_back_is_the_same_pointer(tmp_path: Path) -> None:
    # y[0]: td.m read back through the integer; y[1]: a GM pointer's round trip (x[2], as before); y[2]: the
    # object's member through the pointer cast back; y[3]: the number is not null, the same for the same object
    # and another for another
    result = _run(tmp_path, "")
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"][:4], [5, 2, 7, 1])


def test_arithmetic_on_the_number_is_reported_not_followed(tmp_path: Path) -> None:
    result = _run(tmp_path, "+ 4")
    line = KERNEL.splitlines().index("    yGm.SetValue(2, q->v);") + 1  # through a pointer made of n + 4
    assert any(d.code == "ASC958" and d.span is not None and d.span.line == line for d in result.findings), \
        [str(d) for d in result.findings]


NARROW = """#include "kernel_operator.h"
using namespace AscendC;
class Holder {
public:
    __aicore__ inline Holder() {}
    int32_t v = 0;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(td, tiling);
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 4);
    Holder h;
    uint64_t a = reinterpret_cast<uint64_t>(&td);
    uint64_t b = reinterpret_cast<uint64_t>(&h);
    uint32_t la = (uint32_t)a;
    uint32_t lb = static_cast<uint32_t>(b);
    yGm.SetValue(0, la != 0 ? 1 : 0);
    yGm.SetValue(1, la != lb ? 1 : 0);
    yGm.SetValue(2, (a & 0xFFFFFFFFULL) == la ? 1 : 0);
    yGm.SetValue(3, DIRECT);
}
"""


def _run_narrow(tmp_path: Path, direct: str):
    src = tmp_path / "k.cpp"
    src.write_text(NARROW.replace("DIRECT", direct), encoding="utf-8")
    return run(str(src), {"x": np.zeros(4, dtype=np.int32)}, block_dim=1, tiling={"n": 3, "m": 5},
               outputs={"y": ((4,), "int32")})


def test_the_low_half_of_an_object_number_is_no_null(tmp_path: Path) -> None:
    # a uint64_t number narrowed afterwards keeps its low 32 bits (integral conversion, [conv.integral]/3): like a
    # real address's they are not 0, and differ for two objects. Before, every number's low half was 0.
    result = _run_narrow(tmp_path, "0")
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], [1, 1, 1, 0])


def test_a_pointer_cast_to_a_narrower_integer_is_reported(tmp_path: Path) -> None:
    # `(uint32_t)&td`: an integer too small for the pointer ([expr.reinterpret.cast]/4; the compiler rejects it).
    # Before, the lowering took the number's low 32 bits (0) with no finding.
    result = _run_narrow(tmp_path, "(int32_t)(uint32_t)&td")
    line = NARROW.splitlines().index("    yGm.SetValue(3, DIRECT);") + 1
    assert any(d.code in ("ASC958", "ASC103") and d.span is not None and d.span.line == line
               and "uint32_t" in d.message for d in result.findings), [str(d) for d in result.findings]
