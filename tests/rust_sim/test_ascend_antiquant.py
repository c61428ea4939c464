"""AscendC::AscendAntiQuant on the simulator: int8_t to half or bfloat16_t as dst = scale * (src + offset), by the
vendor's formulas (not transposed: src k x N, offset/scale G x N, groupSize k / G along the rows; transposed: src
N x k, offset/scale N x G along each row), in the library's order on 220x: half in half steps (the int8 cast
exact, the Add and the Mul each rounded to half), bfloat16_t in float and rounded once to nearest even. numpy
reproduces each step, so the results match bit for bit. Before AscendAntiQuant was simulated the call stopped
the run (ASC958: not in the catalog)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void aq_k(GM_ADDR x, GM_ADDR o, GM_ADDR s, GM_ADDR y, GM_ADDR workspace,
                                           GM_ADDR tiling)
{{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<int8_t> xGm;
    GlobalTensor<{t}> oGm, sGm, yGm;
    xGm.SetGlobalBuffer((__gm__ int8_t *)x, td.total);
    oGm.SetGlobalBuffer((__gm__ {t} *)o, td.params);
    sGm.SetGlobalBuffer((__gm__ {t} *)s, td.params);
    yGm.SetGlobalBuffer((__gm__ {t} *)y, td.total);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ, oQ, sQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inQ, 1, td.total);
    pipe.InitBuffer(oQ, 1, td.params * sizeof({t}));
    pipe.InitBuffer(sQ, 1, td.params * sizeof({t}));
    pipe.InitBuffer(outQ, 1, td.total * sizeof({t}));
    pipe.InitBuffer(tmpBuf, 8192);
    LocalTensor<int8_t> xLocal = inQ.AllocTensor<int8_t>();
    LocalTensor<{t}> oLocal = oQ.AllocTensor<{t}>();
    LocalTensor<{t}> sLocal = sQ.AllocTensor<{t}>();
    DataCopy(xLocal, xGm, td.total);
    DataCopy(oLocal, oGm, td.params);
    DataCopy(sLocal, sGm, td.params);
    inQ.EnQue(xLocal);
    oQ.EnQue(oLocal);
    sQ.EnQue(sLocal);
    xLocal = inQ.DeQue<int8_t>();
    oLocal = oQ.DeQue<{t}>();
    sLocal = sQ.DeQue<{t}>();
    LocalTensor<{t}> yLocal = outQ.AllocTensor<{t}>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    AntiQuantShapeInfo shapeInfo = {{td.oh, td.ow, td.oh, td.ow}};
    {call};
    outQ.EnQue(yLocal);
    inQ.FreeTensor(xLocal);
    oQ.FreeTensor(oLocal);
    sQ.FreeTensor(sLocal);
    yLocal = outQ.DeQue<{t}>();
    DataCopy(yGm, yLocal, td.total);
    outQ.FreeTensor(yLocal);
}}
"""


def bf16_bits(x: np.ndarray) -> np.ndarray:
    b = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_value(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def simulate(tmp_path: Path, t: str, call: str, x: np.ndarray, o: np.ndarray, s: np.ndarray, oh: int, ow: int):
    src = tmp_path / "aq_k.cpp"
    src.write_text(KERNEL.format(t=t, call=call), encoding="utf-8")
    out_t = "float16" if t == "half" else "uint16"
    return run(str(src), {"x": x, "o": o, "s": s}, block_dim=1,
               tiling={"total": x.size, "params": o.size, "oh": oh, "ow": ow},
               outputs={"y": ((x.size,), out_t)})


def expected_half(x: np.ndarray, o: np.ndarray | None, s: np.ndarray) -> np.ndarray:
    v = x.astype(np.float64)
    if o is not None:
        v = (v + o.astype(np.float64)).astype(np.float16).astype(np.float64)
    return (v * s.astype(np.float64)).astype(np.float16)


def expected_bf16(x: np.ndarray, o: np.ndarray | None, s: np.ndarray) -> np.ndarray:
    v = x.astype(np.float32)
    if o is not None:
        v = v + o
    return bf16_bits(v * s)


def inputs(k: int, n: int, g: int, transpose: bool):
    rng = np.random.default_rng(9)
    x = rng.integers(-128, 128, (n, k) if transpose else (k, n), dtype=np.int8)
    x.flat[:2] = [-128, 127]
    pshape = (n, g) if transpose else (g, n)
    o = rng.uniform(-3, 3, pshape)
    s = rng.uniform(-0.2, 0.2, pshape)
    return x, o, s


def broadcast(p: np.ndarray, k: int, transpose: bool) -> np.ndarray:
    """offset / scale per element of src: repeated over each group along k."""
    g = p.shape[1] if transpose else p.shape[0]
    return np.repeat(p, k // g, axis=1 if transpose else 0)


@pytest.mark.parametrize(("transpose", "g"), [(False, 1), (False, 2), (True, 1), (True, 4)])
def test_half_per_channel_and_per_group(tmp_path: Path, transpose: bool, g: int) -> None:
    k, n = 64, 32
    x, o, s = inputs(k, n, g, transpose)
    o16, s16 = o.astype(np.float16), s.astype(np.float16)
    oh, ow = (n, g) if transpose else (g, n)
    flag = "true" if transpose else "false"
    call = f"AscendAntiQuant<int8_t, half, {flag}>(yLocal, xLocal, oLocal, sLocal, tmp, {k}, shapeInfo)"
    result = simulate(tmp_path, "half", call, x, o16, s16, oh, ow)
    assert result.ok, [str(d) for d in result.findings]
    want = expected_half(x, broadcast(o16, k, transpose), broadcast(s16, k, transpose))
    np.testing.assert_array_equal(result.outputs["y"], want.reshape(-1))


@pytest.mark.parametrize("transpose", [False, True])
def test_bfloat16_in_float(tmp_path: Path, transpose: bool) -> None:
    k, n, g = 32, 16, 2
    x, o, s = inputs(k, n, g, transpose)
    ob, sb = bf16_bits(o), bf16_bits(s)
    oh, ow = (n, g) if transpose else (g, n)
    flag = "true" if transpose else "false"
    call = f"AscendAntiQuant<int8_t, bfloat16_t, {flag}>(yLocal, xLocal, oLocal, sLocal, tmp, {k}, shapeInfo)"
    result = simulate(tmp_path, "bfloat16_t", call, x, ob, sb, oh, ow)
    assert result.ok, [str(d) for d in result.findings]
    want = expected_bf16(x, broadcast(bf16_value(ob), k, transpose), broadcast(bf16_value(sb), k, transpose))
    np.testing.assert_array_equal(result.outputs["y"], want.reshape(-1))


def test_per_tensor_values_without_tmp(tmp_path: Path) -> None:
    k, n = 16, 32
    x, o, s = inputs(k, n, 1, False)
    o16 = o.astype(np.float16)
    call = f"AscendAntiQuant<int8_t, half, false>(yLocal, xLocal, (half)1.5, (half)0.25, {k})"
    result = simulate(tmp_path, "half", call, x, o16, o16, 1, n)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], expected_half(x, np.float16(1.5), np.float16(0.25)).reshape(-1))
