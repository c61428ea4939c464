"""AscendC::DropOut on the simulator, in the library's order on 220x: byte mode dst = (mask byte * src) * (1 /
keepProb), each multiply rounded to T (the divisor 1.0f / keepProb cast to T); bit mode keeps src where bit e % 8
of byte e / 8 is set, else 0, then the same scaling; dropOutMode 0 picks the mode from info (mask rows as long as
src rows: bytes; an eighth: bits; longer: padded rows, which the library packs in place first). numpy reproduces
each step, so the results match bit for bit. Before DropOut was simulated the call stopped the run (ASC958: not
in the catalog)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void drop_k(GM_ADDR x, GM_ADDR m, GM_ADDR y, GM_ADDR mOut, GM_ADDR workspace,
                                             GM_ADDR tiling)
{{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<{t}> xGm, yGm;
    GlobalTensor<uint8_t> mGm, mOutGm;
    xGm.SetGlobalBuffer((__gm__ {t} *)x, td.n);
    yGm.SetGlobalBuffer((__gm__ {t} *)y, td.n);
    mGm.SetGlobalBuffer((__gm__ uint8_t *)m, td.maskBytes);
    mOutGm.SetGlobalBuffer((__gm__ uint8_t *)mOut, td.maskBytes);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ, mQ;
    TQue<TPosition::VECOUT, 1> outQ, mOutQ;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inQ, 1, td.n * sizeof({t}));
    pipe.InitBuffer(mQ, 1, td.maskBytes);
    pipe.InitBuffer(outQ, 1, td.n * sizeof({t}));
    pipe.InitBuffer(mOutQ, 1, td.maskBytes);
    pipe.InitBuffer(tmpBuf, 1024);
    LocalTensor<{t}> xLocal = inQ.AllocTensor<{t}>();
    LocalTensor<uint8_t> mLocal = mQ.AllocTensor<uint8_t>();
    DataCopy(xLocal, xGm, td.n);
    DataCopy(mLocal, mGm, td.maskBytes);
    inQ.EnQue(xLocal);
    mQ.EnQue(mLocal);
    xLocal = inQ.DeQue<{t}>();
    mLocal = mQ.DeQue<uint8_t>();
    LocalTensor<{t}> yLocal = outQ.AllocTensor<{t}>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    DropOutShapeInfo info;
    info.firstAxis = td.rows;
    info.srcLastAxis = td.srcLast;
    info.maskLastAxis = td.maskLast;
    DropOut(yLocal, xLocal, mLocal, tmp, (float){keep}, info);
    outQ.EnQue(yLocal);
    inQ.FreeTensor(xLocal);
    LocalTensor<uint8_t> mOutLocal = mOutQ.AllocTensor<uint8_t>();
    DataCopy(mOutLocal, mLocal, td.maskBytes);
    mOutQ.EnQue(mOutLocal);
    mQ.FreeTensor(mLocal);
    mOutLocal = mOutQ.DeQue<uint8_t>();
    DataCopy(mOutGm, mOutLocal, td.maskBytes);
    mOutQ.FreeTensor(mOutLocal);
    yLocal = outQ.DeQue<{t}>();
    DataCopy(yGm, yLocal, td.n);
    outQ.FreeTensor(yLocal);
}}
"""

NP = {"half": np.float16, "float": np.float32}


def simulate(tmp_path: Path, t: str, x: np.ndarray, mask: np.ndarray, rows: int, src_last: int, mask_last: int,
             keep: float):
    src = tmp_path / "drop_k.cpp"
    src.write_text(KERNEL.format(t=t, keep=keep), encoding="utf-8")
    return run(str(src), {"x": x, "m": mask}, block_dim=1,
               tiling={"n": x.size, "maskBytes": mask.size, "rows": rows, "srcLast": src_last,
                       "maskLast": mask_last},
               outputs={"y": ((x.size,), NP[t].__name__), "mOut": ((mask.size,), "uint8")})


def scale(v: np.ndarray, t: str, keep: float) -> np.ndarray:
    div = np.float32(1) / np.float32(keep)
    if t == "half":
        return (v.astype(np.float32) * np.float32(np.float16(div))).astype(np.float16)
    return v * div


@pytest.mark.parametrize("t", ["half", "float"])
def test_byte_mode_multiplies_by_the_mask_byte(tmp_path: Path, t: str) -> None:
    rows, cols, keep = 4, 64, 0.3
    rng = np.random.default_rng(10)
    x = rng.uniform(-5, 5, rows * cols).astype(NP[t])
    mask = rng.integers(0, 2, rows * cols).astype(np.uint8)
    mask[:3] = [2, 0, 1]
    result = simulate(tmp_path, t, x, mask, rows, cols, cols, keep)
    assert result.ok, [str(d) for d in result.findings]
    prod = (mask.astype(np.float32) * x.astype(np.float32)).astype(NP[t])
    np.testing.assert_array_equal(result.outputs["y"], scale(prod, t, keep))


def test_bit_mode_keeps_set_bits_lsb_first(tmp_path: Path) -> None:
    rows, cols, keep = 2, 128, 0.75
    rng = np.random.default_rng(11)
    x = rng.uniform(-5, 5, rows * cols).astype(np.float32)
    mask = rng.integers(0, 256, rows * cols // 8).astype(np.uint8)
    result = simulate(tmp_path, "float", x, mask, rows, cols, cols // 8, keep)
    assert result.ok, [str(d) for d in result.findings]
    bits = np.unpackbits(mask, bitorder="little").astype(bool)
    np.testing.assert_array_equal(result.outputs["y"], scale(np.where(bits, x, np.float32(0)), "float", keep))


def test_padded_byte_rows_are_packed_in_place(tmp_path: Path) -> None:
    # mask rows of 64 bytes, 32 used: the library packs the used parts to the front of the mask
    rows, cols, mask_last, keep = 3, 32, 64, 0.5
    rng = np.random.default_rng(12)
    x = rng.uniform(-5, 5, rows * cols).astype(np.float16)
    mask = rng.integers(0, 2, rows * mask_last).astype(np.uint8)
    result = simulate(tmp_path, "half", x, mask, rows, cols, mask_last, keep)
    assert result.ok, [str(d) for d in result.findings]
    used = mask.reshape(rows, mask_last)[:, :cols].reshape(-1)
    prod = (used.astype(np.float32) * x.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(result.outputs["y"], scale(prod, "half", keep))
    m_out = result.outputs["mOut"]
    np.testing.assert_array_equal(m_out[:rows * cols], used)
    np.testing.assert_array_equal(m_out[rows * cols:], mask[rows * cols:])
