"""The draws' cross-checks (follows_inputs: _ignores_inputs) and the inputs-unchanged check compare whole
arrays in pieces: np.array_equal's temporaries were as large as the arrays (a bool per byte for the byte
compare, ~11 bytes a float32 element with equal_nan), GiBs for a 2^29-element case while both draws' outputs
are held."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from bench.harness.stages import correctness
from bench.harness.stages.array_equal import same_bytes, same_values
from bench.suites import Inputs


@pytest.mark.parametrize("dtype", ["float16", "float32", "int32", "bool", "complex64"])
def test_the_answers_are_numpys(dtype: str) -> None:
    rng = np.random.default_rng(1)
    a = (rng.standard_normal((3, 1000)) * 4).astype(dtype)
    if a.dtype.kind in "fc":
        a[0, 5] = np.nan
    for b in (a.copy(), a[::-1].copy(), a.T.copy(), a.reshape(-1).copy(), a[:, :999].copy()):
        assert same_values(a, b) == np.array_equal(a, b, equal_nan=True)
        assert same_bytes(a, b) == np.array_equal(a.reshape(-1).view(np.uint8), b.reshape(-1).view(np.uint8))
    flipped = a.copy()
    last = flipped.reshape(-1)[-1]
    flipped.reshape(-1)[-1] = (not last) if dtype == "bool" else 1 - last
    assert not same_values(a, flipped) and not same_bytes(a, flipped)
    zero, minus_zero = np.float32(0.0), np.float32(-0.0)
    assert same_bytes(minus_zero, minus_zero) and not same_bytes(zero, minus_zero)
    assert same_values(zero, minus_zero)


def _peak(fn: object, *args: object) -> int:
    tracemalloc.start()
    try:
        fn(*args)  # type: ignore[operator]
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_follows_inputs_check_reads_in_pieces() -> None:
    n = 1 << 23  # 32 MiB of float32 per array
    exp_a = np.random.default_rng(2).standard_normal(n).astype(np.float32)
    exp_b = exp_a.copy()
    exp_b[-1] += 1  # the expected outputs differ: the outputs are then compared
    out = exp_a.copy()
    draws = [(Inputs({}, {}), {"y": exp_a}), (Inputs({}, {}), {"y": exp_b})]
    runs = [correctness.Run({"y": out}, [], True), correctness.Run({"y": out.copy()}, [], True)]
    peak = _peak(correctness._ignores_inputs, draws, runs)
    assert correctness._ignores_inputs(draws, runs)  # identical outputs for different expected ones
    # np.array_equal(..., equal_nan=True) alone made several n-element bool arrays, the byte compare 4n bytes
    assert peak < n // 2, peak
