"""An int4 output of an op project: given as (shape, "int4"), the launch allocates its packed bytes (two elements a
byte, the even one in the low nibble; numpy has no 4-bit type and np.dtype("int4") is a 4-byte int) and binds the
output's DTYPE to int4b_t, the build's binary for that output dtype. ops-nn rms_norm_quant's OpDef lists y int8
and y int4 over the same inputs: before, the inputs alone picked the int8 column, so the kernel ran its int8 path
into a buffer of int4 size (writes past its end on half the cores), and 'int4' allocated float32 elements."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim.launch import packed_int4_bytes, run

OP = Path("/work/ext/real/ops-nn/norm/rms_norm_quant")


def _inputs(rows: int, cols: int) -> dict[str, np.ndarray]:
    r = np.random.default_rng(0)
    return {"x": r.standard_normal((rows, cols)).astype(np.float16),
            "gamma": r.standard_normal(cols).astype(np.float16),
            "beta": (r.standard_normal(cols) * 0.1).astype(np.float16),
            "scale": np.array([0.5], np.float16), "offset": np.array([1], np.int8)}


def _model(a: dict[str, np.ndarray], low: int, high: int) -> np.ndarray:
    x = a["x"].astype(np.float64)
    normed = x / np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + 1e-6) * a["gamma"] + a["beta"]
    return np.clip(np.rint(normed / float(a["scale"][0]) + float(a["offset"][0])), low, high)


def test_packed_bytes_round_up() -> None:
    assert packed_int4_bytes((8, 64)) == 256 and packed_int4_bytes((3,)) == 2


@pytest.mark.skipif(not OP.is_dir(), reason=f"{OP} (the ops-nn checkout) is not here")
def test_rms_norm_quant_with_an_int4_y() -> None:
    rows, cols = 8, 64
    a = _inputs(rows, cols)
    result = run(OP, a, [1e-6], outputs={"y": ((rows, cols), "int4")})
    assert not result.errors, result.findings
    packed = result.outputs["y"]
    assert packed.dtype == np.uint8 and packed.shape == (rows * cols // 2,)
    nibbles = np.stack([packed & 0xF, packed >> 4], axis=-1).reshape(rows, cols).astype(np.int8)
    got = np.where(nibbles > 7, nibbles - 16, nibbles)
    np.testing.assert_allclose(got, _model(a, -8, 7), atol=1)  # the kernel rounds through half: within a step
