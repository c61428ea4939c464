"""The poison count judges float outputs only: any bit pattern of an integer type is a value a kernel may compute
(NPUKernelBench's Neg on int8 wrote the one-byte marker hundreds of times by chance and was failed for it); the
simulator's byte-exact count of unwritten output bytes (ASC961) judges integer outputs."""

from __future__ import annotations

import numpy as np

from bench.harness.stages.correctness import count_poison, poisoned


def test_integer_outputs_are_not_judged_by_the_marker() -> None:
    assert count_poison(poisoned((300,), np.dtype(np.int8), 7), 7) == 0
    assert count_poison(poisoned((300,), np.dtype(np.int32), 7), 7) == 0


def test_float_outputs_are() -> None:
    out = poisoned((10,), np.dtype(np.float16), 7)
    out[:4] = 1.0
    assert count_poison(out, 7) == 6
    assert count_poison(poisoned((5,), np.dtype(np.float32), 7), 7) == 5
