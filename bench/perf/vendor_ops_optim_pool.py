"""Vendor op projects of kinds the other case lists lack (session 12, issue 28): ops-nn optimiser steps, a 3-D
max pool with argmax, losses' gradients, vfusion ops (modulate, scaled masked softmax), a segment reduction, and
ops-math diagonal / padding ops. Each numpy model is the formula of the op's README.md (its 计算公式 section; the
aclnn page under docs/ where the README gives none), checked against its examples/test_aclnn_*.cpp for the
attributes; shapes small, inputs seeded. The cases name the OpDef's inputs, outputs and attributes in op order, as
`ascendir run OPDIR` takes them; an optimiser's updated tensors are outputs named like its inputs (ref tensors,
updated in place)."""

from __future__ import annotations

import numpy as np

from vendor_op_case import Arrays, OpCase, f32


def _adam_w(a: Arrays, lr: float, beta1: float, beta2: float, decay: float, eps: float) -> Arrays:
    """apply_adam_w_v2 (amsgrad and maximize false): m, v the moving moments, the step bias-corrected, and the
    decoupled weight decay lr * decay * var. The step tensor counts the steps taken before this one: both kernels
    bias-correct with t = step + 1 (apply_adam_w_v2_fp.h `step_ += 1`, arch35's OpStepAddOne, as torch's AdamW
    increments its step first), though aclnnApplyAdamWV2.md calls step the formula's t."""
    g = a["grad"].astype(np.float64)
    t = float(a["step"].reshape(-1)[0]) + 1
    m = beta1 * a["m"] + (1 - beta1) * g
    v = beta2 * a["v"] + (1 - beta2) * g * g
    m_hat, v_hat = m / (1 - beta1 ** t), v / (1 - beta2 ** t)
    var = a["var"] - lr * m_hat / (np.sqrt(v_hat) + eps) - lr * decay * a["var"]
    return {"var": var, "m": m, "v": v}


def _ema_adam(a: Arrays, lr: float, ema: float, beta1: float, beta2: float, eps: float, decay: float) -> Arrays:
    """apply_fused_ema_adam, mode 1 (decay in the update) and bias_correction true; s the EMA of the weights."""
    g = a["grad"].astype(np.float64)
    t = float(a["step"].reshape(-1)[0])
    m = beta1 * a["m"] + (1 - beta1) * g
    v = beta2 * a["v"] + (1 - beta2) * g * g
    denom = np.sqrt(v / (1 - beta2 ** t)) + eps
    var = a["var"] - lr * (m / (1 - beta1 ** t) / denom + decay * a["var"])
    return {"var": var, "m": m, "v": v, "s": ema * a["s"] + (1 - ema) * var}


def _max_pool3d(x: np.ndarray, k: int) -> Arrays:
    """Kernel k, stride k, no padding or dilation (NCDHW): y the window's maximum, argmax its flat d * H * W +
    h * W + w in the input's spatial plane."""
    n, c, d, h, w = x.shape
    od, oh, ow = d // k, h // k, w // k
    y = np.zeros((n, c, od, oh, ow), x.dtype)
    arg = np.zeros((n, c, od, oh, ow), np.int32)
    for i in range(od):
        for j in range(oh):
            for q in range(ow):
                win = x[:, :, i * k:(i + 1) * k, j * k:(j + 1) * k, q * k:(q + 1) * k].reshape(n, c, -1)
                a = win.argmax(axis=-1)
                y[:, :, i, j, q] = win.max(axis=-1)
                dd, rest = a // (k * k), a % (k * k)
                arg[:, :, i, j, q] = ((i * k + dd) * h + j * k + rest // k) * w + q * k + rest % k
    return {"y": y, "argmax": arg}


def _masked_softmax(x: np.ndarray, mask: np.ndarray, scale: float) -> np.ndarray:
    """softmax over the last axis of scale * x with the masked (true) places set to -10000 first."""
    z = np.where(mask, -10000.0, scale * x.astype(np.float64))
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _circular_pad(x: np.ndarray, pads: np.ndarray) -> np.ndarray:
    """The op's paddings, (before, after) per padded axis in axis order (top, bottom, left, right: the aclnn
    layer turns aclnnCircularPad2d's (left, right, top, bottom) into this, aclnn_circular_pad2d.cpp
    GetPaddingTensor), filled from the other side (wrap)."""
    top, bottom, left, right = (int(p) for p in pads)
    return np.pad(x, [(0, 0)] * (x.ndim - 2) + [(top, bottom), (left, right)], mode="wrap")


def _fill_diagonal(x: np.ndarray, value: float) -> np.ndarray:
    out = x.copy()
    np.fill_diagonal(out, value)  # wrap false: the main diagonal of the top square only
    return out


def _repeat_interleave_grad(y_grad: np.ndarray, repeats: np.ndarray) -> np.ndarray:
    """The sum of each block of repeats[i] rows of y_grad along axis 0."""
    ends = np.cumsum(repeats)
    return np.stack([y_grad[e - r:e].astype(np.float64).sum(axis=0) for e, r in zip(ends, repeats)])


def optim_pool_cases(rows: int, cols: int) -> list[OpCase]:
    adam = dict(lr=1e-3, beta1=0.9, beta2=0.999, decay=1e-2, eps=1e-8)
    ema = dict(lr=1e-3, ema=0.9999, beta1=0.9, beta2=0.999, eps=1e-8, decay=1e-2)
    return [
        OpCase("apply_adam_w_v2", "ops-nn/optim/apply_adam_w_v2",
               lambda r: {"var": f32(r, rows, cols), "m": f32(r, rows, cols) * 0.1,
                          "v": np.abs(f32(r, rows, cols)) * 0.01, "grad": f32(r, rows, cols),
                          "step": np.array([3.0], np.float32), "max_grad_norm": np.zeros((rows, cols), np.float32)},
               {}, lambda a: _adam_w(a, **adam),
               attrs=[str(adam["lr"]), str(adam["beta1"]), str(adam["beta2"]), str(adam["decay"]), str(adam["eps"]),
                      "false", "false"],
               note="AdamW, step tensor 3 (t = 4), in place: m, v moments, bias-corrected, var -= lr * m^ / "
                    "(sqrt(v^) + eps) + lr * decay * var",
               inplace=["var", "m", "v"]),  # the op declares no outputs: var, m, v come back under their names
        OpCase("apply_fused_ema_adam", "ops-nn/optim/apply_fused_ema_adam",
               lambda r: {"grad": f32(r, rows, cols), "var": f32(r, rows, cols), "m": f32(r, rows, cols) * 0.1,
                          "v": np.abs(f32(r, rows, cols)) * 0.01, "s": f32(r, rows, cols),
                          "step": np.array([3], np.int64)},
               {name: ((rows, cols), "float32") for name in ("var", "m", "v", "s")},
               lambda a: _ema_adam(a, **ema),
               attrs=[str(ema["lr"]), str(ema["ema"]), str(ema["beta1"]), str(ema["beta2"]), str(ema["eps"]), "1",
                      "true", str(ema["decay"])],
               note="Adam step 3 (mode 1: decay added to the update, bias correction) and s = EMA of var"),
        OpCase("max_pool3d_with_argmax_v2", "ops-nn/pooling/max_pool3d_with_argmax_v2",
               lambda r: {"x": f32(r, 1, 2, 4, 6, 6)},
               {"y": ((1, 2, 2, 3, 3), "float32"), "argmax": ((1, 2, 2, 3, 3), "int32")},
               lambda a: _max_pool3d(a["x"], 2), attrs=["2,2,2", "2,2,2", "0,0,0", "1,1,1", "false", "NCDHW", "3"],
               note="3-D max pool, kernel and stride 2, NCDHW; argmax the flat index in D x H x W"),
        OpCase("modulate", "ops-nn/vfusion/modulate",
               lambda r: {"x": f32(r, 2, 16, cols), "scale": f32(r, 2, 1, cols), "shift": f32(r, 2, 1, cols)},
               {"y": ((2, 16, cols), "float32")},
               lambda a: {"y": a["x"].astype(np.float64) * (1 + a["scale"]) + a["shift"]},
               note="y = x * (1 + scale) + shift, scale and shift per batch row broadcast over L"),
        OpCase("scaled_masked_softmax_v2", "ops-nn/vfusion/scaled_masked_softmax_v2",
               lambda r: {"x": f32(r, 2, 2, rows, cols), "mask": r.random((2, 2, rows, cols)) < 0.2},
               {"y": ((2, 2, rows, cols), "float32")},
               lambda a: {"y": _masked_softmax(a["x"], a["mask"], 0.5)}, attrs=["0.5", "false"],
               note="y = softmax(scale * x, masked places -10000 (the kernel's MASK_VAL), last axis), scale 0.5"),
        OpCase("circular_pad", "ops-math/conversion/circular_pad",
               lambda r: {"x": f32(r, 1, 2, rows, 16), "paddings": np.array([1, 2, 2, 1], np.int64)},
               {"y": ((1, 2, rows + 3, 19), "float32")},
               lambda a: {"y": _circular_pad(a["x"], a["paddings"])},
               note="circular padding of the last two axes by (top, bottom, left, right) = (1, 2, 2, 1)"),
        OpCase("diag_v2", "ops-math/conversion/diag_v2",
               lambda r: {"x": f32(r, cols, cols)}, {"y": ((cols - 2,), "float32")},
               lambda a: {"y": np.diagonal(a["x"], offset=2)}, attrs=["2"],
               note="y = the diagonal of x above the main one by 'diagonal' (2)"),
        OpCase("mse_loss_grad_v2", "ops-nn/loss/mse_loss_grad_v2",
               lambda r: {"predict": f32(r, rows, cols), "label": f32(r, rows, cols), "dout": f32(r, rows, cols)},
               {"y": ((rows, cols), "float32")},
               lambda a: {"y": a["dout"].astype(np.float64) * (a["predict"] - a["label"]) * 2 / a["predict"].size},
               attrs=["mean"], note="y = dout * (predict - label) * 2 / numel (reduction mean)"),
        OpCase("logit_grad", "ops-nn/loss/logit_grad",
               lambda r: {"x": r.uniform(0.0, 1.0, (rows, cols)).astype(np.float32), "dy": f32(r, rows, cols)},
               {"dx": ((rows, cols), "float32")},
               lambda a: {"dx": np.where((a["x"] < 0.05) | (a["x"] > 0.95), 0.0,
                                         a["dy"] / (a["x"].astype(np.float64) * (1 - a["x"])))},
               attrs=["0.05"], note="dx = dy / (x (1 - x)) for eps <= x <= 1 - eps, else 0 (eps 0.05)"),
        OpCase("fill_diagonal_v2", "ops-math/conversion/fill_diagonal_v2",
               lambda r: {"x": f32(r, rows * 2, rows), "fill_value": np.array([7.5], np.float32)},
               {"x": ((rows * 2, rows), "float32")},
               lambda a: {"x": _fill_diagonal(a["x"], float(a["fill_value"][0]))}, attrs=["false"],
               note="x[i][i] = fill_value for i < min(rows, cols), in place (wrap false)"),
        OpCase("repeat_interleave_grad", "ops-nn/index/repeat_interleave_grad",
               lambda r: {"y_grad": f32(r, 12, cols), "repeats": np.array([2, 3, 1, 4, 2], np.int64)},
               {"x_grad": ((5, cols), "float32")},
               lambda a: {"x_grad": _repeat_interleave_grad(a["y_grad"], a["repeats"])}, attrs=["0"],
               note="x_grad[i] = sum of the repeats[i] rows of y_grad that row i was repeated into (axis 0)"),
    ]
