"""AscendC::AscendQuant on the simulator: half or float data to int8_t as round(src * scale + offset), in the
library's order on 220x: a float source, scale and offset cast to half first, one half multiply and one half add
(each rounded to half), then round half to even and saturation to [-128, 127]. numpy's float16 arithmetic rounds
each step the same way, so the results must match bit for bit. Per channel: calCount / scaleCount rows of
scaleCount columns; a float scale tensor is overwritten by its halves (the library reuses its memory). Before
AscendQuant was simulated every call stopped the run (ASC958: not in the catalog)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void quant_k(GM_ADDR x, GM_ADDR s, GM_ADDR o, GM_ADDR y, GM_ADDR sOut,
                                              GM_ADDR workspace, GM_ADDR tiling)
{{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<{t}> xGm, sGm, oGm, sOutGm;
    GlobalTensor<int8_t> yGm;
    xGm.SetGlobalBuffer((__gm__ {t} *)x, td.n);
    sGm.SetGlobalBuffer((__gm__ {t} *)s, td.k);
    oGm.SetGlobalBuffer((__gm__ {t} *)o, td.k);
    yGm.SetGlobalBuffer((__gm__ int8_t *)y, td.n);
    sOutGm.SetGlobalBuffer((__gm__ {t} *)sOut, td.k);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ, sQ, oQ;
    TQue<TPosition::VECOUT, 1> outQ, sOutQ;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inQ, 1, td.n * sizeof({t}));
    pipe.InitBuffer(sQ, 1, td.k * sizeof({t}));
    pipe.InitBuffer(oQ, 1, td.k * sizeof({t}));
    pipe.InitBuffer(outQ, 1, td.n);
    pipe.InitBuffer(sOutQ, 1, td.k * sizeof({t}));
    pipe.InitBuffer(tmpBuf, td.tmpBytes);
    LocalTensor<{t}> xLocal = inQ.AllocTensor<{t}>();
    LocalTensor<{t}> sLocal = sQ.AllocTensor<{t}>();
    LocalTensor<{t}> oLocal = oQ.AllocTensor<{t}>();
    DataCopy(xLocal, xGm, td.n);
    DataCopy(sLocal, sGm, td.k);
    DataCopy(oLocal, oGm, td.k);
    inQ.EnQue(xLocal);
    sQ.EnQue(sLocal);
    oQ.EnQue(oLocal);
    xLocal = inQ.DeQue<{t}>();
    sLocal = sQ.DeQue<{t}>();
    oLocal = oQ.DeQue<{t}>();
    LocalTensor<int8_t> yLocal = outQ.AllocTensor<int8_t>();
    LocalTensor<{t}> sOutLocal = sOutQ.AllocTensor<{t}>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    {call};
    PipeBarrier<PIPE_V>();
    Adds(sOutLocal.ReinterpretCast<int16_t>(), sLocal.ReinterpretCast<int16_t>(), (int16_t)0,
         (int32_t)(td.k * sizeof({t}) / 2));
    outQ.EnQue(yLocal);
    sOutQ.EnQue(sOutLocal);
    inQ.FreeTensor(xLocal);
    sQ.FreeTensor(sLocal);
    oQ.FreeTensor(oLocal);
    yLocal = outQ.DeQue<int8_t>();
    DataCopy(yGm, yLocal, td.n);
    outQ.FreeTensor(yLocal);
    sOutLocal = sOutQ.DeQue<{t}>();
    DataCopy(sOutGm, sOutLocal, td.k);
    sOutQ.FreeTensor(sOutLocal);
}}
"""

NP = {"float": np.float32, "half": np.float16}


def simulate(tmp_path: Path, t: str, call: str, x: np.ndarray, s: np.ndarray, o: np.ndarray, tmp_bytes: int = 1024):
    src = tmp_path / "quant_k.cpp"
    src.write_text(KERNEL.format(t=t, call=call), encoding="utf-8")
    n, k = len(x), len(s)
    return run(str(src), {"x": x, "s": s, "o": o}, block_dim=1,
               tiling={"n": n, "k": k, "tmpBytes": tmp_bytes},
               outputs={"y": ((n,), "int8"), "sOut": ((k,), NP[t].__name__)})


def expected(x: np.ndarray, scale: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """Each step rounded to half: the product, then the sum."""
    h = x.astype(np.float16).astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        # float64 holds a half product and a half sum exactly: one rounding to half each
        v = (h * scale.astype(np.float16).astype(np.float64)).astype(np.float16).astype(np.float64)
        v = (v + offset.astype(np.float16).astype(np.float64)).astype(np.float16).astype(np.float64)
    return np.clip(np.nan_to_num(np.rint(v)), -128, 127).astype(np.int8)


def edge_values(t: type, n: int) -> np.ndarray:
    x = np.random.default_rng(4).uniform(-200, 200, n).astype(t)
    x[:10] = [0.5, 1.5, 2.5, -2.5, -0.5, 127.5, -128.5, 300, -300, 126.49]
    return x


@pytest.mark.parametrize("t", ["half", "float"])
def test_per_tensor_rounds_half_to_even_and_saturates(tmp_path: Path, t: str) -> None:
    x = edge_values(NP[t], 96)
    dummy = np.ones(16, NP[t])
    result = simulate(tmp_path, t, "AscendQuant(yLocal, xLocal, tmp, (float)1.0f, (float)0.0f, 96)", x, dummy, dummy)
    assert result.ok, [str(d) for d in result.findings]
    got = result.outputs["y"]
    assert list(got[:9]) == [0, 2, 2, -2, 0, 127, -128, 127, -128]
    np.testing.assert_array_equal(got, expected(x, np.float32(1.0), np.float32(0.0)))


def test_per_tensor_scale_and_offset_each_rounded_to_half(tmp_path: Path) -> None:
    x = np.random.default_rng(5).uniform(-40, 40, 64).astype(np.float32)
    dummy = np.ones(16, np.float32)
    result = simulate(tmp_path, "float", "AscendQuant(yLocal, xLocal, tmp, (float)3.1f, (float)0.7f, 64)",
                      x, dummy, dummy)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], expected(x, np.float32(3.1), np.float32(0.7)))


@pytest.mark.parametrize("t", ["half", "float"])
def test_per_channel_scale_tensor_with_a_scalar_offset(tmp_path: Path, t: str) -> None:
    # 3 rows of 32 channels; a float scale tensor comes back as halves in its first 64 bytes
    k, rows = 32, 3
    rng = np.random.default_rng(6)
    x = edge_values(NP[t], k * rows)
    s = rng.uniform(-4, 4, k).astype(NP[t])
    o = np.zeros(k, NP[t])
    call = f"AscendQuant(yLocal, xLocal, tmp, sLocal, ({t})1.5, {k}, {k * rows})"
    result = simulate(tmp_path, t, call, x, s, o)
    assert result.ok, [str(d) for d in result.findings]
    want = expected(x.reshape(rows, k), s, np.full(k, 1.5, np.float32)).reshape(-1)
    np.testing.assert_array_equal(result.outputs["y"], want)
    s_out = result.outputs["sOut"]
    if t == "float":
        halves = s_out.view(np.float16)[:k]
        np.testing.assert_array_equal(halves, s.astype(np.float16))
    else:
        np.testing.assert_array_equal(s_out, s)


def test_per_channel_offset_tensor_whole_form(tmp_path: Path) -> None:
    k = 16
    rng = np.random.default_rng(7)
    x = rng.uniform(-100, 100, 4 * k).astype(np.float16)
    s = rng.uniform(0.5, 2, k).astype(np.float16)
    o = rng.uniform(-10, 10, k).astype(np.float16)
    result = simulate(tmp_path, "half", "AscendQuant(yLocal, xLocal, sLocal, oLocal)", x, s, o)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], expected(x.reshape(4, k), s, o).reshape(-1))


def test_calcount_not_a_multiple_of_scalecount_is_reported(tmp_path: Path) -> None:
    x = np.zeros(64, np.float16)
    s = np.ones(16, np.float16)
    result = simulate(tmp_path, "half", "AscendQuant(yLocal, xLocal, tmp, sLocal, (half)0, 16, 40)", x, s, s)
    hits = [d for d in result.findings if d.code == "ASC959" and "AscendQuant" in d.message]
    assert hits and "multiple of scaleCount 16" in hits[0].message, [str(d) for d in result.findings]
