"""Vendor op projects of kinds the other case lists lack (session 13, issue 28): activation gradients (SwiGLU,
SiTU-GLU, hard-swish), a clipped SwiGLU, index and scatter ops (index fill, scatter-nd update, index add, the
embedding gradient), conversion ops (diag_flat, the replicate-pad gradient, unfold's gradient) and a loss
(cross entropy). Each numpy model is the formula of the op's docs/aclnn*.md (its formula section, or the
function it documents where it gives none), checked against its examples/test_aclnn_*.cpp for the attributes.
Every case has at least one axis that is not a multiple of a 32-byte block or of the cores' split (a tail).
The cases name the OpDef's inputs, outputs and attributes in op order, as `ascendir run OPDIR` takes them."""

from __future__ import annotations

import numpy as np

from vendor_op_case import Arrays, OpCase, f32


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def _halves(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h = x.shape[-1] // 2
    return x[..., :h].astype(np.float64), x[..., h:].astype(np.float64)


def _swi_glu_grad(a: Arrays) -> Arrays:
    """aclnnSwiGluGrad.md: A, B the halves of x on dim; out_A = g * [s + s (1 - s) A] * B, out_B = g * s * A with
    s = sigmoid(A)."""
    A, B = _halves(a["x"])
    g = a["y_grad"].astype(np.float64)
    s = _sigmoid(A)
    return {"x_grad": np.concatenate([g * (s + s * (1 - s) * A) * B, g * s * A], axis=-1)}


def _situ_glu_grad(a: Arrays, beta: float) -> Arrays:
    """aclnnSituGluGrad.md, activate_left true (gate the left half), linear_beta 0 (up' = up): t = tanh(gate /
    beta), s = sigmoid(gate), grad_gate = g * up * s * [(1 - t^2) + beta * t * (1 - s)], grad_up = g * beta * t *
    s."""
    gate, up = _halves(a["x"])
    g = a["grad_y"].astype(np.float64)
    t, s = np.tanh(gate / beta), _sigmoid(gate)
    grad_gate = g * up * s * ((1 - t * t) + beta * t * (1 - s))
    return {"grad_x": np.concatenate([grad_gate, g * beta * t * s], axis=-1)}


def _clipped_swiglu(x: np.ndarray, alpha: float, limit: float, bias: float) -> np.ndarray:
    """aclnnClippedSwiglu.md, interleaved (A the even columns, B the odd ones), no group_index: A clamped above at
    limit, B into [-limit, limit], y = A * sigmoid(alpha * A) * (B + bias)."""
    A = np.minimum(x[..., 0::2].astype(np.float64), limit)
    B = np.clip(x[..., 1::2].astype(np.float64), -limit, limit)
    return A * _sigmoid(alpha * A) * (B + bias)


def _diag_flat(x: np.ndarray, k: int) -> np.ndarray:
    """aclnnDiagFlat.md: x flattened onto diagonal k of a square matrix of side numel + |k| (numpy.diagflat)."""
    return np.diagflat(x.reshape(-1), k)


def _replicate_pad_grad(grad: np.ndarray, pads: np.ndarray) -> np.ndarray:
    """The gradient of replicate (edge) padding of the last two axes, pads (before, after) per axis in axis order
    (contiguous): each padded position's gradient goes to the input element it copied (the clamped position)."""
    top, bottom, left, right = (int(p) for p in pads[-4:])
    h, w = grad.shape[-2] - top - bottom, grad.shape[-1] - left - right
    out = np.zeros(grad.shape[:-2] + (h, w), np.float64)
    rows = np.clip(np.arange(grad.shape[-2]) - top, 0, h - 1)
    cols = np.clip(np.arange(grad.shape[-1]) - left, 0, w - 1)
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            out[..., r, c] += grad[..., i, j]
    return out


def _cross_entropy(a: Arrays) -> Arrays:
    """aclnnCrossEntropyLoss.md, reduction mean, no label smoothing, ignore_index -100 (no target is):
    log_prob = log_softmax(input), loss = sum_n -w[t_n] log_prob[n, t_n] / sum_n w[t_n]."""
    x = a["input"].astype(np.float64)
    z = x - x.max(axis=1, keepdims=True)
    log_prob = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    t = a["target"].astype(np.int64)
    w = a["weight"].astype(np.float64)[t]
    picked = log_prob[np.arange(len(t)), t]
    return {"loss": np.array([-(w * picked).sum() / w.sum()]), "log_prob": log_prob}


def _unfold_grad(g: np.ndarray, length: int, size: int, step: int) -> np.ndarray:
    """aclnnUnfoldGrad.md (the backward of torch's Tensor.unfold on dim 0 of a 2-D input): window i of the
    forward covered rows i * step .. i * step + size - 1, its column j taking row i * step + j; each input row sums
    the gradients of the window positions that read it. g has shape (windows, cols, size)."""
    out = np.zeros((length,) + g.shape[1:-1], np.float64)
    for i in range(g.shape[0]):
        for j in range(size):
            out[i * step + j] += g[i, ..., j]
    return out


def _avg_pool3d_ndhwc(x: np.ndarray, k: int) -> np.ndarray:
    """Kernel k, stride k, no padding (NDHWC, floor mode): the mean of each window."""
    n, d, h, w, c = x.shape
    od, oh, ow = d // k, h // k, w // k
    win = x[:, :od * k, :oh * k, :ow * k].astype(np.float64).reshape(n, od, k, oh, k, ow, k, c)
    return win.mean(axis=(2, 4, 6))


def _adaptive_max_pool3d(x: np.ndarray, out: tuple[int, int, int]) -> Arrays:
    """aclnnAdaptiveMaxPool3d.md: window i of an axis of length L spans [floor(i L / o), ceil((i + 1) L / o));
    y its maximum, indices its flat d * H * W + h * W + w in the input's spatial volume (the first maximum)."""
    n, c, d, h, w = x.shape
    y = np.zeros((n, c) + out, np.float64)
    idx = np.zeros((n, c) + out, np.int32)

    def span(i: int, length: int, o: int) -> tuple[int, int]:
        return (i * length) // o, -((-(i + 1) * length) // o)

    for i in range(out[0]):
        d0, d1 = span(i, d, out[0])
        for j in range(out[1]):
            h0, h1 = span(j, h, out[1])
            for q in range(out[2]):
                w0, w1 = span(q, w, out[2])
                win = x[:, :, d0:d1, h0:h1, w0:w1].reshape(n, c, -1)
                a = win.argmax(axis=-1)
                y[:, :, i, j, q] = win.max(axis=-1)
                wd, wh, ww = d1 - d0, h1 - h0, w1 - w0
                dd, hh, qq = a // (wh * ww), (a // ww) % wh, a % ww
                idx[:, :, i, j, q] = ((d0 + dd) * h + h0 + hh) * w + w0 + qq
    return {"y": y, "indices": idx}


def _masked_softmax_grad(a: Arrays, scale: float) -> np.ndarray:
    """aclnnScaledMaskedSoftmaxBackward.md: (g y - sum(g y) y) * scale where mask is 0, 0 where it is 1."""
    g, y = a["yGrad"].astype(np.float64), a["y"].astype(np.float64)
    out = (g * y - (g * y).sum(axis=-1, keepdims=True) * y) * scale
    return np.where(a["mask"], 0.0, out)


def _modulate_grad(a: Arrays) -> Arrays:
    """aclnnModulateBackward.md, scale and shift per batch broadcast over L: grad_input = g * scale (the doc's
    formula: scale as the op is given it), grad_scale = sum over L of g x, grad_shift = sum over L of g."""
    g, x = a["grad_Output"].astype(np.float64), a["Input"].astype(np.float64)
    return {"grad_input": g * a["Scale"], "grad_scale": (g * x).sum(axis=1, keepdims=True),
            "grad_shift": g.sum(axis=1, keepdims=True)}


def _circular_pad_grad(grad: np.ndarray, pads: np.ndarray) -> np.ndarray:
    """The gradient of circular padding of the last two axes by (top, bottom, left, right): each padded position's
    gradient added to the element it wrapped from."""
    top, bottom, left, right = (int(p) for p in pads)
    h, w = grad.shape[-2] - top - bottom, grad.shape[-1] - left - right
    out = np.zeros(grad.shape[:-2] + (h, w), np.float64)
    for i in range(grad.shape[-2]):
        for j in range(grad.shape[-1]):
            out[..., (i - top) % h, (j - left) % w] += grad[..., i, j]
    return out


def grad_index_cases() -> list[OpCase]:
    rows, half = 7, 50  # 7 rows over the cores, 50 floats a half: neither fills whole 32-byte blocks
    sig_beta = 1.0
    clip = dict(alpha=1.702, limit=7.0, bias=1.0)
    return [
        OpCase("swi_glu_grad", "ops-nn/activation/swi_glu_grad",
               lambda r: {"y_grad": f32(r, rows, half), "x": f32(r, rows, 2 * half)},
               {"x_grad": ((rows, 2 * half), "float32")}, _swi_glu_grad, attrs=["-1"],
               note="x_grad = [g (s + s (1 - s) A) B, g s A], A / B the halves of x, s = sigmoid(A)"),
        OpCase("situ_glu_grad", "ops-nn/activation/situ_glu_grad",
               lambda r: {"grad_y": f32(r, rows, half), "x": f32(r, rows, 2 * half)},
               {"grad_x": ((rows, 2 * half), "float32")}, lambda a: _situ_glu_grad(a, sig_beta),
               attrs=["-1", str(sig_beta), "0.0", "true"],
               note="gate the left half; t = tanh(gate / beta), s = sigmoid(gate); grad_gate = g up s ((1 - t^2) + "
                    "beta t (1 - s)), grad_up = g beta t s (beta 1, linear_beta 0)"),
        OpCase("hard_swish_grad_v2", "ops-nn/activation/hard_swish_grad_v2",
               lambda r: {"gradOutput": f32(r, rows, 100), "self": r.uniform(-5, 5, (rows, 100)).astype(np.float32)},
               {"out": ((rows, 100), "float32")},
               lambda a: {"out": a["gradOutput"] * np.where(a["self"] <= -3, 0.0, np.where(
                   a["self"] >= 3, 1.0, a["self"].astype(np.float64) / 3 + 0.5))},
               note="out = g * (0 for x <= -3, x / 3 + 0.5 between, 1 for x >= 3)"),
        OpCase("clipped_swiglu", "ops-nn/activation/clipped_swiglu",
               lambda r: {"x": f32(r, rows, 2 * half) * 4},
               {"y": ((rows, half), "float32")},
               lambda a: {"y": _clipped_swiglu(a["x"], **clip)},
               attrs=["-1", str(clip["alpha"]), str(clip["limit"]), str(clip["bias"]), "true"],
               note="interleaved halves A (even) / B (odd), A <= limit, B in [-limit, limit], y = A sigmoid(alpha A) "
                    "(B + bias); alpha 1.702, limit 7, bias 1, no group_index"),
        OpCase("diag_flat", "ops-math/conversion/diag_flat",
               lambda r: {"x": f32(r, 3, 7)}, {"y": ((23, 23), "float32")},
               lambda a: {"y": _diag_flat(a["x"], 2)}, attrs=["2"],
               note="y = x flattened on diagonal 2 of a 23 x 23 matrix, zeros elsewhere"),
        OpCase("scatter_nd_update", "ops-nn/index/scatter_nd_update",
               lambda r: {"var": f32(r, 13, 40), "indices": np.array([[11], [2], [7], [0], [5]], np.int64),
                          "updates": f32(r, 5, 40)},
               {"var": ((13, 40), "float32")},
               lambda a: {"var": _scatter_rows(a["var"], a["indices"][:, 0], a["updates"])},
               note="var[indices[k]] = updates[k] (distinct rows), the rest of var unchanged"),
        OpCase("inplace_scatter_add", "ops-nn/index/inplace_scatter_add",
               lambda r: {"var": f32(r, 11, 40), "indices": np.array([3, 0, 3, 10, 7, 0], np.int32),
                          "updates": f32(r, 6, 40)},
               {"var": ((11, 40), "float32")},
               lambda a: {"var": _index_add(a["var"], a["indices"], a["updates"])},
               note="var[indices[k]] += updates[k] along axis 0, repeated indices summed (aclnnIndexAdd, dim 0)"),
        OpCase("embedding_dense_grad_v2", "ops-nn/index/embedding_dense_grad_v2",
               lambda r: _embedding_inputs(r, 9, 24),
               {"y": ((12, 24), "float32")},
               lambda a: {"y": _embedding_grad(a, 12)}, attrs=["12", "-1", "false"],
               note="y[w] = sum of the grad rows whose index is w; num_weights 12, no padding_idx, no frequency "
                    "scaling; the 910B small-dim call (aclnn passes the unsorted indices as both index inputs)"),
        OpCase("pad_v3_grad_replicate", "ops-math/conversion/pad_v3_grad_replicate",
               lambda r: {"x": f32(r, 1, 2, 9, 21), "paddings": np.array([0, 0, 0, 0, 2, 1, 3, 2], np.int64)},
               {"y": ((1, 2, 6, 16), "float32")},
               lambda a: {"y": _replicate_pad_grad(a["x"], a["paddings"])}, attrs=["edge", "true"],
               note="replicate-pad gradient, pads (top, bottom, left, right) = (2, 1, 3, 2): each padded "
                    "position's gradient added to the edge element it copied"),
        OpCase("cross_entropy_loss", "ops-nn/loss/cross_entropy_loss",
               lambda r: {"input": f32(r, 6, 37), "target": r.integers(0, 37, 6).astype(np.int64),
                          "weight": r.uniform(0.5, 1.5, 37).astype(np.float32)},
               # zloss and lse_for_zloss: allocated, not written (the doc: zloss is not supported yet)
               {"loss": ((1,), "float32"), "log_prob": ((6, 37), "float32"), "zloss": ((1,), "float32"),
                "lse_for_zloss": ((6,), "float32")},
               _cross_entropy, attrs=["mean", "-100", "0.0", "0.0", "false"], unwritten=["zloss", "lse_for_zloss"],
               note="log_prob = log_softmax(input), loss = -sum w[t] log_prob[t] / sum w[t] (mean, weighted)"),
        OpCase("unfold_grad", "ops-math/conversion/unfold_grad",
               lambda r: {"grad_out": f32(r, 5, 12, 4), "input_sizes": np.array([13, 12], np.int64)},
               {"grad_in": ((13, 12), "float32")},
               lambda a: {"grad_in": _unfold_grad(a["grad_out"], 13, 4, 2)}, attrs=["0", "4", "2"],
               note="gradient of x.unfold(0, size 4, step 2) for x of 13 x 12: overlapping windows' gradients summed"),
        OpCase("avg_pool3_d", "ops-nn/pooling/avg_pool3_d",
               lambda r: {"x": f32(r, 1, 5, 7, 7, 3)}, {"y": ((1, 2, 3, 3, 3), "float32")},
               lambda a: {"y": _avg_pool3d_ndhwc(a["x"], 2)},
               attrs=["2,2,2", "2,2,2", "0,0,0,0,0,0", "false", "true", "0", "NDHWC"],
               note="3-D average pool, NDHWC, kernel and stride 2, no padding, floor: D 5 -> 2, H and W 7 -> 3"),
        OpCase("adaptive_max_pool3d", "ops-nn/pooling/adaptive_max_pool3d",
               lambda r: {"x": f32(r, 1, 2, 5, 7, 7)},
               {"y": ((1, 2, 2, 3, 3), "float32"), "indices": ((1, 2, 2, 3, 3), "int32")},
               lambda a: _adaptive_max_pool3d(a["x"], (2, 3, 3)), attrs=["2,3,3", "3"],
               note="adaptive 3-D max pool to 2 x 3 x 3 from 5 x 7 x 7 (overlapping windows), indices flat in D H W"),
        OpCase("scaled_masked_softmax_grad_v2", "ops-nn/vfusion/scaled_masked_softmax_grad_v2",
               lambda r: {"yGrad": f32(r, 2, 2, 8, 40), "y": _softmax_rows(r, (2, 2, 8, 40)),
                          "mask": r.random((2, 2, 8, 40)) < 0.2},
               {"xGrad": ((2, 2, 8, 40), "float32")},
               lambda a: {"xGrad": _masked_softmax_grad(a, 0.5)}, attrs=["0.5", "false"],
               note="xGrad = (g y - sum(g y) y) * scale where mask is 0, else 0 (scale 0.5, last axis 40)"),
        OpCase("modulate_grad", "ops-nn/vfusion/modulate_grad",
               lambda r: {"grad_Output": f32(r, 2, 11, 40), "Input": f32(r, 2, 11, 40), "Scale": f32(r, 2, 1, 40),
                          "Shift": f32(r, 2, 1, 40)},
               {"grad_input": ((2, 11, 40), "float32"), "grad_scale": ((2, 1, 40), "float32"),
                "grad_shift": ((2, 1, 40), "float32")},
               _modulate_grad,
               note="grad_input = g * scale, grad_scale = sum_L g x, grad_shift = sum_L g (L 11)"),
        OpCase("circular_pad_grad", "ops-math/conversion/circular_pad_grad",
               lambda r: {"x": f32(r, 1, 2, 10, 19), "paddings": np.array([1, 2, 2, 1], np.int64)},
               {"y": ((1, 2, 7, 16), "float32")},
               lambda a: {"y": _circular_pad_grad(a["x"], a["paddings"])},
               note="circular-pad gradient, pads (top, bottom, left, right) = (1, 2, 2, 1): wrapped gradients added"),
        OpCase("equal", "ops-math/math/equal",
               lambda r: _pairs(r, (7, 45)), {"y": ((7, 45), "bool")},
               lambda a: {"y": a["x1"] == a["x2"]}, chip="950PR",
               note="y = (x1 == x2), a third of the pairs equal (aclnnEqTensor); the op's kernel is arch35's"),
        OpCase("greater", "ops-math/math/greater",
               lambda r: _pairs(r, (7, 45)), {"y": ((7, 45), "bool")},
               lambda a: {"y": a["x1"] > a["x2"]}, chip="950PR",
               note="y = (x1 > x2), a third of the pairs equal (aclnnGtTensor); the op's kernel is arch35's"),
    ]


def _softmax_rows(r: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    x = r.standard_normal(shape)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)


def _pairs(r: np.random.Generator, shape: tuple[int, ...]) -> Arrays:
    x1 = f32(r, *shape)
    x2 = np.where(r.random(shape) < 1 / 3, x1, f32(r, *shape)).astype(np.float32)
    return {"x1": x1, "x2": x2}


def _scatter_rows(var: np.ndarray, rows: np.ndarray, updates: np.ndarray) -> np.ndarray:
    out = var.copy()
    out[rows] = updates
    return out


def _index_add(var: np.ndarray, rows: np.ndarray, updates: np.ndarray) -> np.ndarray:
    out = var.astype(np.float64)
    np.add.at(out, rows, updates)
    return out


def _embedding_inputs(r: np.random.Generator, n: int, dim: int) -> Arrays:
    """The small-dim call of aclnn_embedding_dense_backward.cpp on a 910B (embedding dim small beside the weights):
    the indices unsorted, given as both sort_indices and pos_idx (the kernel sorts them itself)."""
    indices = r.integers(0, 12, n).astype(np.int32)
    return {"grad": f32(r, n, dim), "sort_indices": indices, "pos_idx": indices.copy()}


def _embedding_grad(a: Arrays, num_weights: int) -> np.ndarray:
    out = np.zeros((num_weights, a["grad"].shape[1]), np.float64)
    np.add.at(out, a["sort_indices"], a["grad"])
    return out
