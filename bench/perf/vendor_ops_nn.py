"""More vendor op projects for bench/perf/vendor_ops.py (session 11, issue 28): ops-nn activations, norms,
losses, index ops and pooling, and ops-math elementwise / reduction ops, each with the numpy model of the
formula in the op's own README.md (its 计算公式 section; /work/ext/real/<repo>/<kind>/<op>/README.md), which the
op's examples/test_aclnn_*.cpp agree with. Shapes are small; inputs seeded. The cases name the OpDef's inputs,
outputs and attributes in op order, as `ascendir run OPDIR` takes them."""

from __future__ import annotations

import math

import numpy as np

from vendor_op_case import Arrays, OpCase, f32, layer_norm, with_specials, within


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x.astype(np.float64)))


def _halves(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h = x.shape[-1] // 2
    return x[..., :h].astype(np.float64), x[..., h:].astype(np.float64)


def _gelu_tanh(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def _situ_glu(x: np.ndarray, beta: float) -> np.ndarray:
    gate, up = _halves(x)  # activate_left true: the gate is the first half; linear_beta 0 leaves up as it is
    return beta * np.tanh(gate / beta) * _sigmoid(gate) * up


def _exp_segsum(x: np.ndarray) -> np.ndarray:
    """out[..., i, j] = exp(x[..., j+1] + ... + x[..., i]) for j <= i (1 on the diagonal), exp(-inf) = 0 above."""
    n = x.shape[-1]
    csum = np.cumsum(x.astype(np.float64), axis=-1)
    out = csum[..., :, None] - csum[..., None, :]
    upper = np.triu(np.ones((n, n), bool), k=1)
    out[..., upper] = -np.inf
    return np.exp(out)


def _group_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, groups: int, eps: float) -> Arrays:
    n, c = x.shape[:2]
    g = x.astype(np.float64).reshape(n, groups, -1)
    mean = g.mean(axis=-1)
    rstd = 1.0 / np.sqrt(g.var(axis=-1) + eps)
    norm = ((g - mean[..., None]) * rstd[..., None]).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return {"y": norm * gamma.reshape(shape) + beta.reshape(shape), "mean": mean, "rstd": rstd}


def _silu(x: np.ndarray, scale: float = 1.0) -> np.ndarray:
    return x * _sigmoid(scale * x)


def _rms_cast(a: Arrays) -> Arrays:
    # the sum in the inputs' type (the x output), normalised from there: the kernel's rstd agrees with this to
    # 7e-8, with a float32 sum only to 7e-5
    x = (a["x1"] + a["x2"]).astype(np.float16)
    xf = x.astype(np.float64)
    rstd = 1.0 / np.sqrt((xf ** 2).mean(axis=-1, keepdims=True) + 1e-6)
    y = xf * rstd * a["gamma"].astype(np.float64)
    return {"y1": y, "y2": y.astype(np.float16), "rstd": rstd, "x": x}


def _rms_quant(a: Arrays, low: int = -128, high: int = 127) -> np.ndarray:
    x = a["x"].astype(np.float64)
    normed = x / np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + 1e-6) * a["gamma"] + a["beta"]
    # docs/aclnnRmsNormQuant.md: y = round(quant_in / scale + offset) (the README's 计算公式 writes * scale; the
    # kernel, GetScaleAndOffset, multiplies by 1 / scale as the aclnn page says)
    return np.clip(np.rint(normed / float(a["scale"][0]) + float(a["offset"][0])), low, high)


def _scatter_rows(a: Arrays) -> np.ndarray:
    out = a["var"].copy()
    np.put_along_axis(out, a["indices"].astype(np.int64), a["updates"], axis=1)
    return out


def _adaptive_avg_ndhwc(x: np.ndarray, size: tuple[int, int, int]) -> np.ndarray:
    """Each output cell the mean of input cells [floor(o * In / Out), ceil((o + 1) * In / Out)) per axis."""
    n, c = x.shape[0], x.shape[-1]
    out = np.zeros((n, *size, c))
    spans = [[(o * i // s, -(-(o + 1) * i // s)) for o in range(s)] for i, s in zip(x.shape[1:4], size)]
    for od, (d0, d1) in enumerate(spans[0]):
        for oh, (h0, h1) in enumerate(spans[1]):
            for ow, (w0, w1) in enumerate(spans[2]):
                out[:, od, oh, ow] = x[:, d0:d1, h0:h1, w0:w1].astype(np.float64).mean(axis=(1, 2, 3))
    return out


def nn_and_math_cases(rows: int, cols: int) -> list[OpCase]:
    two = 2 * cols
    return [
        OpCase("swi_glu", "ops-nn/activation/swi_glu",
               lambda r: {"x": f32(r, rows, two)}, {"y": ((rows, cols), "float32")},
               lambda a: {"y": (lambda p, q: p * _sigmoid(p) * q)(*_halves(a["x"]))}, attrs=["-1"],
               note="y = swish(A) * B, A / B the first / second half of x along dim (-1)"),
        OpCase("glu", "ops-nn/activation/glu",
               lambda r: {"x": f32(r, rows, two)}, {"y": ((rows, cols), "float32")},
               lambda a: {"y": (lambda p, q: p * _sigmoid(q))(*_halves(a["x"]))}, attrs=["-1"],
               note="y = a * sigmoid(b), a / b the halves of x along dim (-1)"),
        OpCase("gelu_mul", "ops-nn/activation/gelu_mul",
               lambda r: {"input": f32(r, rows, two)}, {"output": ((rows, cols), "float32")},
               lambda a: {"output": (lambda p, q: _gelu_tanh(p) * q)(*_halves(a["input"]))}, attrs=["tanh"],
               note="output = gelu(x1) * x2, x1 / x2 the halves of the last axis, approximate tanh"),
        OpCase("ge_glu_v2", "ops-nn/activation/ge_glu_v2",
               lambda r: {"x": f32(r, rows, two)}, {"y": ((rows, cols), "float32"), "gelu": ((rows, cols), "float32")},
               lambda a: (lambda p, q: {"y": p * _gelu_tanh(q), "gelu": _gelu_tanh(q)})(*_halves(a["x"])),
               attrs=["-1", "1", "false"],
               note="activate_left false: y = A * gelu(B), gelu = gelu(B), A / B the halves along dim (-1); "
                    "approximate 1 (tanh)"),
        OpCase("fatrelu_mul", "ops-nn/activation/fatrelu_mul",
               lambda r: {"input": f32(r, rows, two), "threshold": np.array([0.25], np.float32)},
               {"output": ((rows, cols), "float32")},
               lambda a: {"output": (lambda p, q: np.where(p >= a["threshold"][0], p, 0.0) * q)(
                   *_halves(a["input"]))},
               note="output = threshold(x1) * x2 (x1 kept where x1 >= threshold, else 0), x1 / x2 the halves"),
        OpCase("squared_relu", "ops-nn/activation/squared_relu",
               lambda r: {"input": f32(r, rows, cols)}, {"output": ((rows, cols), "float32")},
               lambda a: {"output": np.maximum(a["input"].astype(np.float64), 0.0) ** 2},
               note="y = relu(x)^2"),
        OpCase("heaviside", "ops-nn/activation/heaviside",
               lambda r: {"input": np.where(r.random((rows, cols)) < 0.2, 0.0, f32(r, rows, cols)).astype(
                   np.float32), "values": f32(r, rows, cols)},
               {"output": ((rows, cols), "float32")},
               lambda a: {"output": np.where(a["input"] > 0, 1.0, np.where(a["input"] < 0, 0.0, a["values"]))},
               note="0 where input < 0, values where input == 0, 1 where input > 0"),
        OpCase("situ_glu", "ops-nn/activation/situ_glu",
               lambda r: {"x": f32(r, rows, two)}, {"y": ((rows, cols), "float32")},
               lambda a: {"y": _situ_glu(a["x"], 1.0)}, attrs=["-1", "1.0", "0.0", "true"],
               note="gate / up the halves (activate_left), y = beta * tanh(gate / beta) * sigmoid(gate) * up, "
                    "beta 1, linear_beta 0"),
        OpCase("logit", "ops-nn/loss/logit",
               lambda r: {"input": r.uniform(0.02, 0.98, (rows, cols)).astype(np.float32)},
               {"output": ((rows, cols), "float32")},
               lambda a: {"output": np.log(a["input"].astype(np.float64) / (1.0 - a["input"]))}, attrs=["-1.0"],
               note="y = ln(z / (1 - z)), z = x clamped to [eps, 1 - eps] (eps -1: not clamped)"),
        OpCase("cross_v2", "ops-nn/loss/cross_v2",
               lambda r: {"x1": f32(r, 4, 3, 16), "x2": f32(r, 4, 3, 16)}, {"y": ((4, 3, 16), "float32")},
               lambda a: {"y": np.cross(a["x1"].astype(np.float64), a["x2"], axis=1)}, attrs=["1"],
               note="y = x1 x x2, the vector cross product along dim (1, of size 3)"),
        OpCase("segsum", "ops-math/math/segsum",
               lambda r: {"x": f32(r, 2, 4, 16)}, {"y": ((2, 4, 16, 16), "float32")},
               lambda a: {"y": _exp_segsum(a["x"])},
               note="y[..., i, j] = exp(x[..., j+1] + ... + x[..., i]) for j <= i, exp(-inf) = 0 for j > i "
                    "(README steps 1-8, docs/aclnnExpSegsum.md)"),
        OpCase("layer_norm_v4", "ops-nn/norm/layer_norm_v4",
               lambda r: {"x": f32(r, 2, rows, cols), "normalized_shape": np.array([cols], np.int32),
                          "gamma": f32(r, cols), "beta": f32(r, cols)},
               {"y": ((2, rows, cols), "float32"), "mean": ((2, rows, 1), "float32"),
                "rstd": ((2, rows, 1), "float32")},
               lambda a: layer_norm(a["x"], a["gamma"], a["beta"], 1e-5), attrs=["1e-5"],
               note="y = (x - mean) * rstd * gamma + beta over the last axis (normalized_shape [cols]), eps 1e-5"),
        OpCase("group_norm_silu", "ops-nn/norm/group_norm_silu",
               lambda r: {"x": f32(r, 2, 8, 4, 4), "gamma": f32(r, 8), "beta": f32(r, 8)},
               {"y": ((2, 8, 4, 4), "float32"), "mean": ((2, 4), "float32"), "rstd": ((2, 4), "float32")},
               lambda a: (lambda g: {**g, "y": _silu(g["y"])})(_group_norm(a["x"], a["gamma"], a["beta"], 4, 1e-5)),
               attrs=["4", "1e-5", "true"],
               note="group norm over 4 groups of 2 channels (eps 1e-5), then y = silu(y)"),
        OpCase("group_norm_swish", "ops-nn/norm/group_norm_swish",
               lambda r: {"x": f32(r, 2, 8, 4, 4), "gamma": f32(r, 8), "beta": f32(r, 8)},
               {"y": ((2, 8, 4, 4), "float32"), "mean": ((2, 4), "float32"), "rstd": ((2, 4), "float32")},
               lambda a: (lambda g: {**g, "y": _silu(g["y"], 1.0)})(
                   _group_norm(a["x"], a["gamma"], a["beta"], 4, 1e-5)),
               attrs=["4", "NCHW", "1e-5", "true", "1.0"],
               note="group norm over 4 groups (eps 1e-5), then y = y * sigmoid(swish_scale * y), swish_scale 1"),
        OpCase("add_rms_norm_cast", "ops-nn/norm/add_rms_norm_cast",
               lambda r: {"x1": f32(r, rows, cols).astype(np.float16), "x2": f32(r, rows, cols).astype(np.float16),
                          "gamma": f32(r, cols).astype(np.float16)},
               {"y1": ((rows, cols), "float32"), "y2": ((rows, cols), "float16"), "rstd": ((rows, 1), "float32"),
                "x": ((rows, cols), "float16")},
               _rms_cast, attrs=["1e-6"],
               note="x = x1 + x2, y1 = x * rstd * gamma in float32, y2 = y1 as float16, eps 1e-6"),
        OpCase("rms_norm_quant", "ops-nn/norm/rms_norm_quant",
               lambda r: {"x": f32(r, rows, cols).astype(np.float16), "gamma": f32(r, cols).astype(np.float16),
                          "beta": (f32(r, cols) * 0.1).astype(np.float16), "scale": np.array([0.05], np.float16),
                          "offset": np.array([3], np.int8)},
               {"y": ((rows, cols), "int8")},
               lambda a: {"y": _rms_quant(a)}, attrs=["1e-6"], tolerance={"y": within(1.0)},
               note="y = round((x / rms(x) * gamma + beta) / scale + offset) saturated to int8, eps 1e-6 (aclnn page)"),
        OpCase("rms_norm_quant_int4", "ops-nn/norm/rms_norm_quant",
               lambda r: {"x": f32(r, rows, cols).astype(np.float16), "gamma": f32(r, cols).astype(np.float16),
                          "beta": (f32(r, cols) * 0.1).astype(np.float16), "scale": np.array([0.5], np.float16),
                          "offset": np.array([1], np.int8)},
               {"y": ((rows, cols), "int4")},
               lambda a: {"y": _rms_quant(a, -8, 7)}, attrs=["1e-6"], tolerance={"y": within(1.0)},
               note="the same with y int4 (packed two a byte, unpacked to compare), saturated to [-8, 7]"),
        OpCase("angle_v2", "ops-math/math/angle_v2",
               lambda r: {"x": np.where(r.random((rows, cols)) < 0.1, 0.0, f32(r, rows, cols)).astype(np.float32)},
               {"y": ((rows, cols), "float32")},
               lambda a: {"y": np.angle(a["x"].astype(np.float64))},
               note="y = angle(x): pi for a negative real x, 0 otherwise"),
        OpCase("gather_elements_v2", "ops-nn/index/gather_elements_v2",
               lambda r: {"x": f32(r, rows, cols), "index": r.integers(0, cols, (rows, 16)).astype(np.int32)},
               {"y": ((rows, 16), "float32")},
               lambda a: {"y": np.take_along_axis(a["x"], a["index"].astype(np.int64), axis=1)}, attrs=["1"],
               note="y[i][j] = x[i][index[i][j]] (dim 1)"),
        OpCase("scatter_elements_v2", "ops-nn/index/scatter_elements_v2",
               lambda r: {"var": f32(r, rows, cols),
                          "indices": np.stack([r.permutation(cols)[:16] for _ in range(rows)]).astype(np.int32),
                          "updates": f32(r, rows, 16)},
               {"var": ((rows, cols), "float32")},
               lambda a: {"var": _scatter_rows(a)}, attrs=["1", "none", "true"],
               note="var[i][indices[i][j]] = updates[i][j] (axis 1, reduction none; indices distinct per row)"),
        OpCase("mse_loss_v2", "ops-nn/loss/mse_loss_v2",
               lambda r: {"input": f32(r, rows, cols), "target": f32(r, rows, cols)},
               {"output": ((1,), "float32")},
               lambda a: {"output": np.mean((a["input"].astype(np.float64) - a["target"]) ** 2)}, attrs=["mean"],
               note="output = mean((input - target)^2) (reduction mean)"),
        OpCase("is_finite", "ops-math/math/is_finite",
               lambda r: {"x": with_specials(f32(r, rows, cols))}, {"y": ((rows, cols), "bool")},
               lambda a: {"y": np.isfinite(a["x"])},
               note="y = true where x is neither inf nor nan"),
        OpCase("adaptive_avg_pool3d", "ops-nn/pooling/adaptive_avg_pool3d",
               lambda r: {"x": f32(r, 2, 4, 4, 6, 16)}, {"y": ((2, 2, 2, 3, 16), "float32")},
               lambda a: {"y": _adaptive_avg_ndhwc(a["x"], (2, 2, 3))}, attrs=["2,2,3", "NDHWC"],
               tolerance={"y": within(1e-5)},
               note="y[n, d, h, w, c] = mean of x over the cells [floor(o * In / Out), ceil((o + 1) * In / Out)) "
                    "of each axis (NDHWC)"),
    ]

