"""A kernel that fills a library tiling struct itself (`RmsNormTiling t; t.reciprocalOfHLength = 0.015625f;`):
the field is the float the header declares, as on the host side. Both sides read one table, the catalog's
typed fields (ascendir/lower/library_structs.py). Before, the catalog gave RmsNormTiling no fields, the kernel
lowering took the float field for an integer, 0.015625f became 0 and RmsNorm scaled by rsqrt(epsilon)."""

from __future__ import annotations

import numpy as np
import pytest

from ascendir.lower import ctypes as C
from ascendir.lower.host_tiling_struct import _LIBRARY_STRUCTS
from ascendir.lower.library_structs import LIBRARY_TILING_STRUCTS, library_struct_fields
from passes.sim import run

ROWS, COLS = 4, 64

# one pass over 4 rows of 64: the fields GetRmsNormTilingInfo would fill for [1, 4, 64] (host_norm_tiling.py)
KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void rms_hand(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    constexpr uint32_t ROWS = 4;
    constexpr uint32_t COLS = 64;
    RmsNormTiling t;
    t.bLength = 1;
    t.sLength = ROWS;
    t.hLength = COLS;
    t.originalHLength = COLS;
    t.reciprocalOfHLength = 0.015625f;
    t.mainBshLength = ROWS * COLS;
    t.mainBsLength = ROWS;
    t.mainBsLengthAlign = 8;
    t.loopRound = 1;
    t.inputTailPos = 0;
    t.tailBshLength = 0;
    t.tailBsLength = 0;
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, gammaBuf, yBuf, tmpBuf;
    pipe.InitBuffer(xBuf, ROWS * COLS * sizeof(float));
    pipe.InitBuffer(gammaBuf, COLS * sizeof(float));
    pipe.InitBuffer(yBuf, ROWS * COLS * sizeof(float));
    pipe.InitBuffer(tmpBuf, 4096);
    GlobalTensor<float> xGm, gammaGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, ROWS * COLS);
    gammaGm.SetGlobalBuffer((__gm__ float *)gamma, COLS);
    yGm.SetGlobalBuffer((__gm__ float *)y, ROWS * COLS);
    LocalTensor<float> xLocal = xBuf.Get<float>();
    LocalTensor<float> gammaLocal = gammaBuf.Get<float>();
    LocalTensor<float> yLocal = yBuf.Get<float>();
    LocalTensor<uint8_t> tmpLocal = tmpBuf.Get<uint8_t>();
    DataCopy(xLocal, xGm, ROWS * COLS);
    DataCopy(gammaLocal, gammaGm, COLS);
    PipeBarrier<PIPE_ALL>();
    RmsNorm<float, false>(yLocal, xLocal, gammaLocal, tmpLocal, 0.0001f, t);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yLocal, ROWS * COLS);
}
"""


def test_kernel_filled_rms_norm_tiling_keeps_its_float_field() -> None:
    rng = np.random.default_rng(7)
    x = rng.uniform(-3, 3, (ROWS, COLS)).astype(np.float32)
    gamma = rng.uniform(0.5, 1.5, COLS).astype(np.float32)
    result = run(KERNEL, {"x": x.ravel(), "gamma": gamma}, block_dim=1, outputs={"y": ((ROWS * COLS,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    rstd = 1.0 / np.sqrt((x * x).mean(axis=-1, keepdims=True) + np.float32(1e-4))
    np.testing.assert_allclose(result.outputs["y"].reshape(ROWS, COLS), x * rstd * gamma, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(("struct", "field", "ctype"), [
    ("RmsNormTiling", "reciprocalOfHLength", C.F32), ("RmsNormTiling", "mainBshLength", C.U32),
    ("LayerNormTiling", "lastDimValueBack", C.F32), ("LayerNormSeparateTiling", "rValueBack", C.F32),
    ("TopkTiling", "vreducehalfValMask7", C.Scalar("uint16_t")), ("TCubeTiling", "dbL0C", C.I32)])
def test_host_and_kernel_read_one_table(struct: str, field: str, ctype: C.Scalar) -> None:
    from ascendir.lower.catalog_view import CatalogView

    assert dict(_LIBRARY_STRUCTS[struct])[field] == ctype
    assert _LIBRARY_STRUCTS[struct] == library_struct_fields(struct)
    assert C.scalar_named(CatalogView().struct_field_type(struct, field) or "") == ctype


def test_every_library_struct_is_catalogued_with_fields() -> None:
    assert set(_LIBRARY_STRUCTS) == set(LIBRARY_TILING_STRUCTS)
    assert all(library_struct_fields(name) for name in LIBRARY_TILING_STRUCTS)
