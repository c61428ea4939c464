"""Seeded data for inputs nobody gave (passes/sim/random_inputs.py), per dtype: what `ascendir run --input
x=SHAPE:DTYPE` draws, and a host program's input buffers (test_host_run_random_inputs.py)."""

from __future__ import annotations

import numpy as np
import pytest

from passes.sim.random_inputs import random_input


def _bfloat16_values(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


@pytest.mark.parametrize("dtype, numpy_type, low, high", [
    ("float16", np.float16, -1, 1), ("float32", np.float32, -1, 1), ("float64", np.float64, -1, 1),
    ("int8", np.int8, -10, 10), ("int16", np.int16, -10, 10), ("int32", np.int32, -10, 10),
    ("int64", np.int64, -10, 10), ("uint8", np.uint8, 0, 20), ("uint16", np.uint16, 0, 20),
    ("uint32", np.uint32, 0, 20), ("uint64", np.uint64, 0, 20), ("bool", np.bool_, 0, 1),
])
def test_each_dtype_draws_its_range(dtype: str, numpy_type: type, low: int, high: int) -> None:
    data = random_input((64, 64), dtype, np.random.default_rng(0))
    assert data.dtype == np.dtype(numpy_type) and data.shape == (64, 64)
    values = data.astype(np.float64)
    assert values.min() >= low and values.max() <= high
    if data.dtype.kind in "iu":  # 4096 draws reach both ends of the range
        assert values.min() == low and values.max() == high
    if data.dtype.kind == "f":
        assert values.min() < -0.9 and values.max() > 0.9


def test_bfloat16_is_uint16_bit_patterns_of_values_in_minus_one_one() -> None:
    bits = random_input(1000, "bfloat16", np.random.default_rng(1))
    values = _bfloat16_values(bits)
    assert bits.dtype == np.uint16 and bits.shape == (1000,)
    assert values.min() >= -1 and values.max() <= 1 and values.min() < -0.9 and values.max() > 0.9
    assert (np.abs(values) > 1e-3).mean() > 0.99  # values, not denormal bit patterns


def test_the_same_seed_draws_the_same_data() -> None:
    first = random_input(100, "int32", np.random.default_rng(7))
    assert np.array_equal(first, random_input(100, "int32", np.random.default_rng(7)))
    assert not np.array_equal(first, random_input(100, "int32", np.random.default_rng(8)))
