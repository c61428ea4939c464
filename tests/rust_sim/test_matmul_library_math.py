"""The Matmul library's integer helpers (asc-devkit impl/adv_api/detail/matmul/utils): CeilDiv and CeilAlign's
uint16_t overloads (batch_matmul_utils.h:86 / :93, "invoked by the matmulV3 operator"), the CeilAlign<T>, Ceil<T>,
CeilT<T> and CeilAlignT<T> templates (matmul_utils.h), called unqualified by a kernel that includes
lib/matmul_intf.h (ops-nn batch_mat_mul_v3_com_base_block.h:288, `CeilDiv(params_.mCnt, params_.mTileCnt)` of
two uint64_t). Before, each was an opaque call and the core stopped there (ASC958 'the simulator does not model the
call of CeilDiv'). The values are the headers' formulas worked by hand: CeilDiv narrows its operands to uint16_t
(70000 is 4464) and returns a uint16_t (65535 over 1 is 65535; 65535 + 2 - 1 is 65536 in int, over 2 is 32768);
CeilAlign of two uint64_t is the template (no narrowing), of a uint64_t and an int the uint16_t overload. A program's
own CeilDiv is called instead."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
OWN
extern "C" __global__ __aicore__ void mm_math(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int64_t> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ int64_t *)x, 8);
    zGm.SetGlobalBuffer((__gm__ int64_t *)z, 8);
    uint64_t a = static_cast<uint64_t>(xGm.GetValue(0));
    uint64_t b = static_cast<uint64_t>(xGm.GetValue(1));
    uint64_t big = static_cast<uint64_t>(xGm.GetValue(2));
    uint32_t c = static_cast<uint32_t>(xGm.GetValue(3));
    zGm.SetValue(0, CeilDiv(a, b));
    zGm.SetValue(1, CeilDiv(big, b));
    zGm.SetValue(2, CeilDiv(static_cast<uint64_t>(65535), static_cast<uint64_t>(2)));
    zGm.SetValue(3, CeilAlign(big, b));
    zGm.SetValue(4, CeilAlign(big, 7));
    zGm.SetValue(5, Ceil(c, 16U));
    zGm.SetValue(6, CeilAlignT(c, 16U));
    zGm.SetValue(7, CeilT(a, b));
}
"""


def _run(tmp_path: Path, own: str) -> np.ndarray:
    src = tmp_path / "mm_math.cpp"
    src.write_text(KERNEL.replace("OWN", own), encoding="utf-8")
    x = np.array([100, 7, 70000, 33, 0, 0, 0, 0], np.int64)
    result = run(str(src), {"x": x}, block_dim=1, outputs={"z": ((8,), "int64")})
    assert result.ok, [str(d) for d in result.findings]
    return result.outputs["z"]


def test_the_matmul_librarys_helpers_compute_as_their_headers(tmp_path: Path) -> None:
    # 100 / 7 up: 15; 70000 narrowed to 4464, / 7 up: 638; (65535 + 1) / 2; 70000 aligned up to 7 as uint64_t:
    # 70000; with an int 7 (the uint16_t overload): 4466 (4464 rounded up to a multiple of 7); 33 / 16 up: 3, times
    # 16: 48; CeilT<uint64_t>(100, 7): 15
    np.testing.assert_array_equal(_run(tmp_path, ""), [15, 638, 32768, 70000, 4466, 3, 48, 15])


def test_a_programs_own_ceil_div_is_called(tmp_path: Path) -> None:
    own = "__aicore__ inline uint64_t CeilDiv(uint64_t a, uint64_t b) { return a / b + 1000; }"
    assert list(_run(tmp_path, own)[:2]) == [1014, 11000]  # 100 / 7 + 1000, 70000 / 7 + 1000: no narrowing


def test_ceil_of_two_types_is_the_basic_apis_uint32_overload(tmp_path: Path) -> None:
    # Ceil(uint32_t, int): the library's Ceil<T> deduces T two ways and is not viable; the basic API's
    # `uint32_t Ceil(uint32_t, uint32_t)` (kernel_utils_ceil_oom_que.h:45) is called: 33 / 16 up is 3, and with
    # -1 as uint32_t (2^32 - 1), (33 + 2^32 - 2) mod 2^32 = 31 over 2^32 - 1 is 0. Before: 'Ceil<T>(uint32_t,
    # int32_t): T is deduced as two types', the core stopped there (ops-transformer ffn).
    own = "constexpr int32_t MINUS_ONE = -1;"
    source = KERNEL.replace("Ceil(c, 16U)", "Ceil(c, 16)").replace("CeilT(a, b)", "Ceil(c, MINUS_ONE)")
    src = tmp_path / "mm_ceil.cpp"
    src.write_text(source.replace("OWN", own), encoding="utf-8")
    x = np.array([100, 7, 70000, 33, 0, 0, 0, 0], np.int64)
    result = run(str(src), {"x": x}, block_dim=1, outputs={"z": ((8,), "int64")})
    assert result.ok, [str(d) for d in result.findings]
    assert [result.outputs["z"][5], result.outputs["z"][7]] == [3, 0]
