"""Vendor op projects of ops-math not in the other case lists (session 14, issue 28): elementwise math in several
dtypes (atan, erf, log with its base / scale / shift, round with decimals, sign, sqrt, tan, floor_mod), a
condition select and an elementwise maximum, reductions along one axis (reduce_max_v2, reduce_min_v2), grouped
sums along the rows (grouped_bias_add_grad) and the attention bias / rescale / split of transform_bias_rescale_qkv.
Each numpy model is the formula of the op's docs/aclnn*.md (README where the op has no doc: the experimental ones),
with the attributes in the OpDef's order. Every case has an axis that is not a multiple of a 32-byte block (a
tail). The cases name the OpDef's inputs, outputs and attributes in op order, as `ascendir run OPDIR` takes them."""

from __future__ import annotations

import numpy as np

from vendor_op_case import Arrays, OpCase, f32

_EXP = "ops-math/experimental/math"


def _f16(r: np.random.Generator, *shape: int) -> np.ndarray:
    return r.standard_normal(shape).astype(np.float16)


def _positive(r: np.random.Generator, *shape: int) -> np.ndarray:
    return r.uniform(0.1, 4.0, shape).astype(np.float32)


def _floor_mod(a: Arrays) -> np.ndarray:
    """aclnnRemainderTensorTensor.md: out = self - floor(self / other) * other (the sign of the divisor)."""
    x1, x2 = a["x1"].astype(np.float64), a["x2"].astype(np.float64)
    return x1 - np.floor(x1 / x2) * x2


def _grouped_bias_add_grad(a: Arrays) -> np.ndarray:
    """aclnnGroupedBiasAddGrad.md (group_idx_type 0): out[j] = sum of grad_y rows from group_idx[j - 1] (0 for
    j = 0) up to group_idx[j], the group's end."""
    grad, ends = a["grad_y"].astype(np.float64), a["group_idx"].astype(np.int64)
    starts = np.concatenate([[0], ends[:-1]])
    return np.stack([grad[s:e].sum(axis=0) for s, e in zip(starts, ends)])


def _transform_qkv(a: Arrays, heads: int) -> Arrays:
    """aclnnTransformBiasRescaleQkv.md: qkv (B, T, 3 * heads * d) plus its bias, split into q, k and v, each
    (B, heads, T, d); q divided by sqrt(d)."""
    x = a["qkv"].astype(np.float64) + a["qkv_bias"]
    b, t, width = x.shape
    d = width // 3 // heads
    parts = x.reshape(b, t, 3, heads, d).transpose(2, 0, 3, 1, 4)
    return {"q": parts[0] / np.sqrt(d), "k": parts[1], "v": parts[2]}


def _with_zeros(x: np.ndarray) -> np.ndarray:
    x.reshape(-1)[::5] = 0
    return x


def math_cases() -> list[OpCase]:
    return _elementwise_cases() + [
        OpCase("select_v2", f"{_EXP}/select_v2",
               lambda r: {"condition": r.integers(0, 2, (9, 37)).astype(np.bool_), "self": f32(r, 9, 37),
                          "other": f32(r, 9, 37)},
               {"out": ((9, 37), "float32")},
               lambda a: {"out": np.where(a["condition"], a["self"], a["other"])},
               note="out = condition ? self : other (aclnnSWhere.md)"),
        OpCase("maximum_v2", f"{_EXP}/maximum_v2",
               lambda r: {"x1": f32(r, 7, 45), "x2": f32(r, 7, 45)}, {"y": ((7, 45), "float32")},
               lambda a: {"y": np.maximum(a["x1"], a["x2"])}, note="y = max(x1, x2) elementwise (README)"),
        OpCase("maximum_v2_int32", f"{_EXP}/maximum_v2",
               lambda r: {"x1": r.integers(-50, 50, (7, 45)).astype(np.int32),
                          "x2": r.integers(-50, 50, (7, 45)).astype(np.int32)},
               {"y": ((7, 45), "int32")},
               lambda a: {"y": np.maximum(a["x1"], a["x2"])}, note="the int32 column of the OpDef"),
        OpCase("reduce_max_v2", f"{_EXP}/reduce_max_v2",
               lambda r: {"x": f32(r, 37, 45)}, {"y": ((37,), "float32")},
               lambda a: {"y": a["x"].max(axis=1)}, attrs=["1", "0"],
               note="y = max of x along axis 1, keepdims 0 (README: 2-D, one axis)"),
        OpCase("reduce_min_v2", f"{_EXP}/reduce_min_v2",
               lambda r: {"x": f32(r, 37, 45)}, {"y": ((1, 45), "float32")},
               lambda a: {"y": a["x"].min(axis=0, keepdims=True)}, attrs=["0", "1"],
               note="y = min of x along axis 0, keepdims 1 (README)"),
        OpCase("grouped_bias_add_grad", "ops-math/math/grouped_bias_add_grad",
               lambda r: {"grad_y": f32(r, 29, 40), "group_idx": np.array([5, 12, 12, 29], np.int32)},
               {"grad_bias": ((4, 40), "float32")},
               lambda a: {"grad_bias": _grouped_bias_add_grad(a)}, attrs=["0"],
               note="grad_bias[j] = sum of the rows of group j, group_idx the groups' ends (one empty group) "
                    "(aclnnGroupedBiasAddGrad.md)"),
        OpCase("transform_bias_rescale_qkv", "ops-math/math/transform_bias_rescale_qkv",
               lambda r: {"qkv": f32(r, 2, 5, 3 * 2 * 24), "qkv_bias": f32(r, 3 * 2 * 24)},
               {"q": ((2, 2, 5, 24), "float32"), "k": ((2, 2, 5, 24), "float32"),
                "v": ((2, 2, 5, 24), "float32")},
               lambda a: _transform_qkv(a, 2), attrs=["2"],
               note="(qkv + bias) split into q, k, v of 2 heads of 24, q / sqrt(24) "
                    "(aclnnTransformBiasRescaleQkv.md)"),
    ]


def _elementwise_cases() -> list[OpCase]:
    return [
        OpCase("atan", f"{_EXP}/atan", lambda r: {"x": f32(r, 7, 45) * 3}, {"y": ((7, 45), "float32")},
               lambda a: {"y": np.arctan(a["x"].astype(np.float64))}, note="y = atan(x) (aclnnAtan.md)"),
        OpCase("atan_fp16", f"{_EXP}/atan", lambda r: {"x": _f16(r, 7, 45) * 3}, {"y": ((7, 45), "float16")},
               lambda a: {"y": np.arctan(a["x"].astype(np.float64))}, note="the float16 column"),
        OpCase("erf", f"{_EXP}/erf", lambda r: {"self": f32(r, 7, 45)}, {"out": ((7, 45), "float32")},
               lambda a: {"out": _erf(a["self"])}, note="out = erf(self) (aclnnErf.md)"),
        OpCase("log", f"{_EXP}/log", lambda r: {"x": _positive(r, 7, 45)}, {"y": ((7, 45), "float32")},
               lambda a: {"y": np.log(a["x"].astype(np.float64))}, attrs=["-1.0", "1.0", "0.0"],
               note="y = ln(x): base -1 (e), scale 1, shift 0 (aclnnLog.md)"),
        OpCase("log_base2", f"{_EXP}/log", lambda r: {"x": _positive(r, 7, 45)}, {"y": ((7, 45), "float32")},
               lambda a: {"y": np.log2(a["x"].astype(np.float64) * 2.0 + 0.5)}, attrs=["2.0", "2.0", "0.5"],
               note="y = log_base(x * scale + shift), base 2, scale 2, shift 0.5 (README)"),
        OpCase("round", f"{_EXP}/round", lambda r: {"x": f32(r, 7, 45) * 5}, {"y": ((7, 45), "float32")},
               lambda a: {"y": np.round(a["x"])}, attrs=["0"], note="y = round(x), halves to even (aclnnRound.md)"),
        OpCase("round_decimals", f"{_EXP}/round", lambda r: {"x": f32(r, 7, 45) * 5}, {"y": ((7, 45), "float32")},
               lambda a: {"y": np.round(a["x"].astype(np.float64), 2)}, attrs=["2"],
               note="y = round(x, 2) (README: decimals)"),
        OpCase("sign", f"{_EXP}/sign", lambda r: {"x": _with_zeros(f32(r, 7, 45))}, {"y": ((7, 45), "float32")},
               lambda a: {"y": np.sign(a["x"])}, note="y = -1, 0 or 1 (aclnnSign.md)"),
        OpCase("sign_int32", f"{_EXP}/sign",
               lambda r: {"x": _with_zeros(r.integers(-9, 9, (7, 45)).astype(np.int32))}, {"y": ((7, 45), "int32")},
               lambda a: {"y": np.sign(a["x"])}, note="the int32 column"),
        OpCase("sqrt_fp16", f"{_EXP}/sqrt", lambda r: {"x": _positive(r, 7, 45).astype(np.float16)},
               {"y": ((7, 45), "float16")},
               lambda a: {"y": np.sqrt(a["x"].astype(np.float64))}, note="y = sqrt(x), float16 (aclnnSqrt.md)"),
        OpCase("tan_v2", f"{_EXP}/tan_v2", lambda r: {"x": r.uniform(-1.4, 1.4, (7, 45)).astype(np.float32)},
               {"y": ((7, 45), "float32")},
               lambda a: {"y": np.tan(a["x"].astype(np.float64))}, note="y = tan(x) on (-1.4, 1.4) (README)"),
        OpCase("floor_mod", f"{_EXP}/floor_mod",
               lambda r: {"x1": f32(r, 7, 45) * 10, "x2": np.where(r.random((7, 45)) < 0.5, -1, 1).astype(
                   np.float32) * r.uniform(0.5, 3.0, (7, 45)).astype(np.float32)},
               {"y": ((7, 45), "float32")},
               lambda a: {"y": _floor_mod(a)},
               note="y = x1 - floor(x1 / x2) * x2 (aclnnRemainderTensorTensor.md); the divisor's sign"),
        OpCase("floor_mod_int32", f"{_EXP}/floor_mod",
               lambda r: {"x1": r.integers(-100, 100, (7, 45)).astype(np.int32),
                          "x2": (r.integers(1, 9, (7, 45)) * np.where(r.random((7, 45)) < 0.5, -1, 1)).astype(
                              np.int32)},
               {"y": ((7, 45), "int32")},
               lambda a: {"y": np.mod(a["x1"], a["x2"])}, note="the int32 column (Python's %)"),
    ]


def _erf(x: np.ndarray) -> np.ndarray:
    """erf by math.erf on each element (numpy has none)."""
    from math import erf

    return np.vectorize(erf)(x.astype(np.float64))
