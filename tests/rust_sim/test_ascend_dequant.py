"""AscendC::AscendDequant on the simulator: int32_t times a per-column scale (a float or bfloat16_t tensor, or one
value) into float, half or bfloat16_t in the library's order on 220x: the int cast to float to nearest even, the
first calCount columns of each row multiplied in float, the rest left unscaled, the result rounded once to dstT
(half and bfloat16_t to nearest even); half/bfloat16_t rows padded to 16 elements. numpy reproduces each step, so
the results must match bit for bit. Before AscendDequant was simulated every call stopped the run (ASC958)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void deq_k(GM_ADDR x, GM_ADDR s, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<int32_t> xGm;
    GlobalTensor<{st}> sGm;
    GlobalTensor<{dt}> yGm;
    xGm.SetGlobalBuffer((__gm__ int32_t *)x, td.m * td.n);
    sGm.SetGlobalBuffer((__gm__ {st} *)s, td.sLen);
    yGm.SetGlobalBuffer((__gm__ {dt} *)y, td.m * td.dn);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ, sQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inQ, 1, td.m * td.n * sizeof(int32_t));
    pipe.InitBuffer(sQ, 1, td.sLen * sizeof({st}));
    pipe.InitBuffer(outQ, 1, td.m * td.dn * sizeof({dt}));
    pipe.InitBuffer(tmpBuf, td.tmpBytes);
    LocalTensor<int32_t> xLocal = inQ.AllocTensor<int32_t>();
    LocalTensor<{st}> sLocal = sQ.AllocTensor<{st}>();
    DataCopy(xLocal, xGm, td.m * td.n);
    DataCopy(sLocal, sGm, td.sLen);
    inQ.EnQue(xLocal);
    sQ.EnQue(sLocal);
    xLocal = inQ.DeQue<int32_t>();
    sLocal = sQ.DeQue<{st}>();
    LocalTensor<{dt}> yLocal = outQ.AllocTensor<{dt}>();
    Duplicate(yLocal, ({dt})0, td.m * td.dn);
    PipeBarrier<PIPE_V>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    {call};
    outQ.EnQue(yLocal);
    inQ.FreeTensor(xLocal);
    sQ.FreeTensor(sLocal);
    yLocal = outQ.DeQue<{dt}>();
    DataCopy(yGm, yLocal, td.m * td.dn);
    outQ.FreeTensor(yLocal);
}}
"""

NP = {"float": np.float32, "half": np.float16}


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 bits, to nearest even (the library's CAST_RINT)."""
    b = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def simulate(tmp_path: Path, dt: str, st: str, call: str, x: np.ndarray, s: np.ndarray, m: int, n: int,
             tmp_bytes: int = 4096):
    dn = -(-n // (32 // (4 if dt == "float" else 2))) * (32 // (4 if dt == "float" else 2))
    src = tmp_path / "deq_k.cpp"
    src.write_text(KERNEL.format(dt=dt, st=st, call=call), encoding="utf-8")
    out_t = "uint16" if dt == "bfloat16_t" else NP[dt].__name__
    return run(str(src), {"x": x, "s": s}, block_dim=1,
               tiling={"m": m, "n": n, "dn": dn, "sLen": len(s), "tmpBytes": tmp_bytes},
               outputs={"y": ((m * dn,), out_t)}), dn


def expected_f32(x: np.ndarray, s: np.ndarray, m: int, n: int, cal: int, dn: int) -> np.ndarray:
    v = x.reshape(m, n).astype(np.float32)  # int32 -> float, nearest even
    v[:, :cal] = v[:, :cal] * s[:cal].astype(np.float32)
    out = np.zeros((m, dn), np.float32)
    out[:, :n] = v
    return out


@pytest.mark.parametrize(("dt", "m", "n", "cal"), [("float", 3, 24, 20), ("bfloat16_t", 4, 24, 24)])
def test_params_float_scale_tensor(tmp_path: Path, dt: str, m: int, n: int, cal: int) -> None:
    rng = np.random.default_rng(1)
    x = rng.integers(-(1 << 26), 1 << 26, m * n).astype(np.int32)
    x[0] = 16_777_217  # not a float: rounds to 2^24 before the scale
    s = rng.uniform(-2, 2, n).astype(np.float32)
    result, dn = simulate(tmp_path, dt, "float", f"AscendDequant(yLocal, xLocal, sLocal, tmp, {{{m}, {n}, {cal}}})",
                          x, s, m, n)
    assert result.ok, [str(d) for d in result.findings]
    want = expected_f32(x, s, m, n, cal, dn)
    got = result.outputs["y"].reshape(m, dn)
    if dt == "float":
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_array_equal(got, bf16_bits(want))


def test_scalar_scale_into_bfloat16(tmp_path: Path) -> None:
    m, n, cal = 2, 32, 16
    x = np.arange(m * n, dtype=np.int32) * 1001 - 20_000
    s = np.zeros(8, np.float32)
    result, dn = simulate(tmp_path, "bfloat16_t", "float",
                          f"AscendDequant(yLocal, xLocal, (float)0.3f, tmp, {{{m}, {n}, {cal}}})", x, s, m, n)
    assert result.ok, [str(d) for d in result.findings]
    want = expected_f32(x, np.full(n, 0.3, np.float32), m, n, cal, dn)
    np.testing.assert_array_equal(result.outputs["y"].reshape(m, dn), bf16_bits(want))


def test_calcount_form_with_a_partial_last_row(tmp_path: Path) -> None:
    # no DequantParams: rows as long as the 8-element scale; 20 of the 24 elements dequantised, the last row
    # half done; the rest of dst keeps the zeros Duplicate wrote
    m, n = 3, 8
    x = np.arange(-12, 12, dtype=np.int32) * 7
    s = np.array([0.5, -1, 2, 0.25, 3, -0.5, 1.5, 4], np.float32)
    result, dn = simulate(tmp_path, "float", "float", "AscendDequant(yLocal, xLocal, sLocal, tmp, 20)", x, s, m, n)
    assert result.ok, [str(d) for d in result.findings]
    want = expected_f32(x, s, m, n, n, dn).reshape(-1)
    want[20:] = 0
    np.testing.assert_array_equal(result.outputs["y"], want)


def test_a_small_shared_tmp_buffer_is_reported(tmp_path: Path) -> None:
    m, n = 2, 64
    x = np.zeros(m * n, np.int32)
    s = np.ones(n, np.float32)
    result, _ = simulate(tmp_path, "float", "float", f"AscendDequant(yLocal, xLocal, sLocal, tmp, {{{m}, {n}, {n}}})",
                         x, s, m, n, tmp_bytes=256)
    hits = [d for d in result.findings if d.code == "ASC959" and "AscendDequant" in d.message]
    assert hits and "512" in hits[0].message, [str(d) for d in result.findings]


def test_uint64_scale_tensor_into_half(tmp_path: Path) -> None:
    # the half form takes its scale as uint64_t, the float in the low 32 bits; half rows pad 24 to 32
    m, n, cal = 2, 24, 24
    rng = np.random.default_rng(2)
    x = rng.integers(-4000, 4000, m * n).astype(np.int32)
    x[:4] = [2049, 2051, -2049, 4097]  # between halves: ties to even
    f = np.ones(n, np.float32)
    f[4:] = rng.uniform(-3, 3, n - 4).astype(np.float32)
    s = f.view(np.uint32).astype(np.uint64) | np.uint64(0xABCD << 32)
    result, dn = simulate(tmp_path, "half", "uint64_t", f"AscendDequant(yLocal, xLocal, sLocal, tmp, {{{m}, {n}, {cal}}})",
                          x, s, m, n)
    assert result.ok, [str(d) for d in result.findings]
    want = expected_f32(x, f, m, n, cal, dn).astype(np.float16)
    got = result.outputs["y"].reshape(m, dn)
    assert list(got[0, :4]) == [2048, 2052, -2048, 4096]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("mode", ["DEQUANT_WITH_SINGLE_ROW", "DEQUANT_WITH_MULTI_ROW"])
def test_one_long_row_single_or_multi_row_mode(tmp_path: Path, mode: str) -> None:
    # DequantParams {1, 64, 16} with float out: SINGLE_ROW (the default) reads it as 4 rows of 16, each scaled;
    # MULTI_ROW keeps one row of 64 whose first 16 are scaled and the other 48 only cast
    x = np.arange(64, dtype=np.int32) - 20
    s = np.linspace(0.5, 2, 16).astype(np.float32)
    call = f"AscendDequant<float, float, DeQuantMode::{mode}>(yLocal, xLocal, sLocal, tmp, {{1, 64, 16}})"
    result, dn = simulate(tmp_path, "float", "float", call, x, s, 1, 64)
    assert result.ok, [str(d) for d in result.findings]
    if mode == "DEQUANT_WITH_SINGLE_ROW":
        want = expected_f32(x, s, 4, 16, 16, 16).reshape(-1)
    else:
        want = expected_f32(x, s, 1, 64, 16, 64).reshape(-1)
    np.testing.assert_array_equal(result.outputs["y"], want)
