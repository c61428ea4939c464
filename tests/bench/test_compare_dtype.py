"""The dtype an NPUKernelBench output is compared in: a bfloat16 case's reference outputs arrive as float32 arrays
(numpy has no bfloat16), and one the reference computed in float32 (RmsNormGrad's dgamma) must not be rounded
to bfloat16 with the answer's before the task's check: that turned a 0.0175 difference into 0.125, one bf16 ulp
of ~26, past the task's 1/256 relative tolerance."""

from __future__ import annotations

import numpy as np

from bench.suites.npukernelbench import compare_dtype


def test_float32_values_of_a_bfloat16_case_stay_float32() -> None:
    dgamma = np.array([26.260265, 1.0000001], np.float32)
    assert compare_dtype(dgamma, "bfloat16") is None


def test_bfloat16_values_held_as_float32_compare_as_bfloat16() -> None:
    held = np.array([0.35742188, 0.61328125, -2.0, 0.0], np.float32)  # all exact in bfloat16
    assert compare_dtype(held, "bfloat16") == "bfloat16"


def test_other_dtypes_are_left_alone() -> None:
    assert compare_dtype(np.array([1.1], np.float32), "float16") == "float16"
    assert compare_dtype(np.array([1.1], np.float16), "bfloat16") == "bfloat16"
    assert compare_dtype([np.array([1.1], np.float16)], "bfloat16") == "bfloat16"
    assert compare_dtype(np.array([1.1], np.float32), None) is None


def test_a_tensor_list_is_judged_by_all_its_tensors() -> None:
    # ForeachAddcmulScalar's "bfloat16" rows: float32 inputs, a float32 op, float32 lists compared by the benchmark
    held = np.array([0.5, 1.0078125], np.float32)
    assert compare_dtype([held, np.array([1.1], np.float32)], "bfloat16") is None
    assert compare_dtype([held, held], "bfloat16") == "bfloat16"
    assert compare_dtype([], "bfloat16") == "bfloat16"
