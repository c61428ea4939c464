"""Seeded data for a kernel input nobody gave: `ascendir run --input x=8,2048:float16` and a host program's input
buffers (passes/sim/host_run.py) draw theirs here, so one dtype gets the same kind of values on both paths.

Floats are uniform in [-1, 1) (in range for every narrow type: no overflow, no infinities after the cast).
bfloat16 has no numpy type; its values are drawn as float32 and kept as the uint16 bit patterns a kernel reads
(the top half, truncated). Signed integers are in [-10, 10] (negative values reach the sign paths of a kernel:
abs, shifts, comparisons), unsigned ones in [0, 20], bools 0 or 1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from passes.sim.launch import numpy_dtype


def random_input(shape: int | tuple[int, ...], dtype: str, rng: np.random.Generator) -> np.ndarray:
    """An array of `shape` of the dtype named `dtype` (bfloat16: uint16 bit patterns), drawn from `rng`."""
    if dtype == "bfloat16":
        vals = rng.uniform(-1, 1, size=shape).astype(np.float32)
        return (vals.view(np.uint32) >> 16).astype(np.uint16)
    t: Any = np.dtype(numpy_dtype(dtype))
    if t.kind == "f":
        return rng.uniform(-1, 1, size=shape).astype(t)
    if t.kind == "b":
        return rng.integers(0, 2, size=shape).astype(t)
    if t.kind == "u":
        return rng.integers(0, 21, size=shape).astype(t)
    return rng.integers(-10, 11, size=shape).astype(t)
