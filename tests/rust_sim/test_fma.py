"""AscendC::Fma on the simulator (Ascend 950: the 220x library compiles it to nothing): dst = src0 * src1 + src2
fused, rounded once, as the vector unit's FusedMulDstAdd is. The reference computes each element exactly with
fractions and rounds it once to half or float (to nearest even), so Mul-then-Add would fail it where the two
differ (the first elements are such cases). Before Fma was simulated the call stopped the run (ASC958)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void fma_k(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR y, GM_ADDR workspace,
                                            GM_ADDR tiling)
{{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<{t}> aGm, bGm, cGm, yGm;
    aGm.SetGlobalBuffer((__gm__ {t} *)a, td.n);
    bGm.SetGlobalBuffer((__gm__ {t} *)b, td.n);
    cGm.SetGlobalBuffer((__gm__ {t} *)c, td.n);
    yGm.SetGlobalBuffer((__gm__ {t} *)y, td.n);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> aQ, bQ, cQ;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(aQ, 1, td.n * sizeof({t}));
    pipe.InitBuffer(bQ, 1, td.n * sizeof({t}));
    pipe.InitBuffer(cQ, 1, td.n * sizeof({t}));
    pipe.InitBuffer(outQ, 1, td.n * sizeof({t}));
    LocalTensor<{t}> aL = aQ.AllocTensor<{t}>();
    LocalTensor<{t}> bL = bQ.AllocTensor<{t}>();
    LocalTensor<{t}> cL = cQ.AllocTensor<{t}>();
    DataCopy(aL, aGm, td.n);
    DataCopy(bL, bGm, td.n);
    DataCopy(cL, cGm, td.n);
    aQ.EnQue(aL);
    bQ.EnQue(bL);
    cQ.EnQue(cL);
    aL = aQ.DeQue<{t}>();
    bL = bQ.DeQue<{t}>();
    cL = cQ.DeQue<{t}>();
    LocalTensor<{t}> yL = outQ.AllocTensor<{t}>();
    Fma(yL, aL, bL, cL, td.n);
    outQ.EnQue(yL);
    aQ.FreeTensor(aL);
    bQ.FreeTensor(bL);
    cQ.FreeTensor(cL);
    yL = outQ.DeQue<{t}>();
    DataCopy(yGm, yL, td.n);
    outQ.FreeTensor(yL);
}}
"""


def round_once(v: Fraction, t: type) -> float:
    """The exact value v rounded once to t, to nearest even (f64 first, corrected where f64 lands on a tie of t)."""
    x = float(v)
    r = t(x)
    if Fraction(x) != v:
        below, above = np.nextafter(r, t(-np.inf)), np.nextafter(r, t(np.inf))
        for lo, hi in ((below, r), (r, above)):
            mid = (Fraction(float(lo)) + Fraction(float(hi))) / 2
            if Fraction(x) == mid:  # f64 rounded onto a tie of t: the exact side decides
                return hi if v > mid else lo
    return r


def fused(a: np.ndarray, b: np.ndarray, c: np.ndarray, t: type) -> np.ndarray:
    return np.array([round_once(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)), t)
                     for x, y, z in zip(a, b, c)], dtype=t)


@pytest.mark.parametrize("t", ["half", "float"])
def test_fused_multiply_add_rounds_once(tmp_path: Path, t: str) -> None:
    np_t = {"half": np.float16, "float": np.float32}[t]
    rng = np.random.default_rng(13)
    n = 96
    a = rng.uniform(-4, 4, n).astype(np_t)
    b = rng.uniform(-4, 4, n).astype(np_t)
    c = rng.uniform(-4, 4, n).astype(np_t)
    if t == "half":
        # (1 + 2^-10)(1 - 2^-11) + 2048: fused 2050, Mul then Add 2048
        a[0], b[0], c[0] = np.float16(1 + 2 ** -10), np.float16(1 - 2 ** -11), np.float16(2048)
    else:
        # (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46: fused keeps it, Mul then Add gives 0
        a[0], b[0], c[0] = np.float32(1 + 2 ** -23), np.float32(1 - 2 ** -23), np.float32(-1)
    src = tmp_path / "fma_k.cpp"
    src.write_text(KERNEL.format(t=t), encoding="utf-8")
    result = run(str(src), {"a": a, "b": b, "c": c}, chip="950PR", block_dim=1, tiling={"n": n},
                 outputs={"y": ((n,), np_t.__name__)})
    assert result.ok, [str(d) for d in result.findings]
    want = fused(a, b, c, np_t)
    assert want[0] != np_t(np_t(a[0] * b[0]) + c[0])
    np.testing.assert_array_equal(result.outputs["y"], want)
