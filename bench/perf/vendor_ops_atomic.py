"""Vendor op projects whose outputs are accumulated (session 14, issue 28): ops whose host tiling calls
SetNeedAtomic (the runtime fills the outputs with their OpDef's InitValue before the launch: histogram_v2,
reflection_pad3d_grad, the experimental embedding_dense_grad) or whose kernels add into their outputs with atomic
adds or across cores (lp_loss and smooth_l1_loss_v2, reductions to a scalar; the multi-scale deformable
attention gradient, which zeroes its outputs itself and scatters into grad_value). Each numpy model is the formula
of the op's docs/aclnn*.md, checked against its examples/test_aclnn_*.cpp for the attributes; where the aclnn
layer reorders a tensor before the op (msda grad's transposes in op_api), the case gives the op's own layout.
Every case has at least one axis that is not a multiple of a 32-byte block or of the cores' split (a tail).
The cases name the OpDef's inputs, outputs and attributes in op order, as `ascendir run OPDIR` takes them."""

from __future__ import annotations

import numpy as np

from vendor_op_case import Arrays, OpCase, f32, within


def _smooth_l1(a: Arrays, sigma: float) -> np.ndarray:
    """aclnnsmoothl1lossv2.md: d = predict - label; 0.5 d^2 / sigma where |d| < sigma, else |d| - 0.5 sigma."""
    d = a["predict"].astype(np.float64) - a["label"]
    return np.where(np.abs(d) < sigma, 0.5 * d * d / sigma, np.abs(d) - 0.5 * sigma)


def _histc(x: np.ndarray, bins: int, lo: float, hi: float) -> np.ndarray:
    """aclnnHistc.md (torch.histc): bins of equal width over [min, max]; x == max falls in the last bin, elements
    outside are not counted."""
    x = x.astype(np.float64).reshape(-1)
    inside = x[(x >= lo) & (x <= hi)]
    idx = np.minimum(np.floor((inside - lo) * bins / (hi - lo)).astype(np.int64), bins - 1)
    return np.bincount(idx, minlength=bins).astype(np.int32)


def _reflection_pad3d_grad(grad: np.ndarray, pads: np.ndarray) -> np.ndarray:
    """The gradient of reflection padding of the last three axes (aclnnReflectionPad3dBackward): each padded
    position's gradient goes to the input element it mirrors (index -i before the start, 2 (n - 1) - i past the
    end). `pads` is the op's paddings input: (before, after) per axis of the 5-D tensor, in axis order."""
    out_shape = [grad.shape[k] - int(pads[2 * k]) - int(pads[2 * k + 1]) for k in range(grad.ndim)]
    out = np.zeros(out_shape, np.float64)

    def source(i: np.ndarray, before: int, n: int) -> np.ndarray:
        j = i - before
        j = np.where(j < 0, -j, j)
        return np.where(j >= n, 2 * (n - 1) - j, j)

    d = source(np.arange(grad.shape[2]), int(pads[4]), out_shape[2])
    h = source(np.arange(grad.shape[3]), int(pads[6]), out_shape[3])
    w = source(np.arange(grad.shape[4]), int(pads[8]), out_shape[4])
    for i, di in enumerate(d):
        for j, hj in enumerate(h):
            np.add.at(out[:, :, di, hj], (slice(None), slice(None), w), grad[:, :, i, j, :])
    return out


def _msda_inputs(r: np.random.Generator) -> Arrays:
    """value (bs, keys, heads, channels) over two levels of 4 x 5 and 2 x 3; locations and weights in the op's
    layout, (bs, heads, levels, points, 2, queries) and (bs, heads, levels, points, queries): aclnn's
    (bs, queries, heads, levels, points, 2) transposed by op_api (permutation 0, 2, 3, 4, 5, 1), x before y."""
    bs, heads, channels, levels, points, queries = 1, 2, 16, 2, 2, 10
    shapes = np.array([[4, 5], [2, 3]], np.int32)
    keys = int((shapes[:, 0] * shapes[:, 1]).sum())
    # a few locations outside [0, 1] (partly or wholly outside the map: zero padding)
    loc = r.uniform(-0.1, 1.1, (bs, heads, levels, points, 2, queries)).astype(np.float32)
    return {"value": f32(r, bs, keys, heads, channels), "value_spatial_shapes": shapes,
            "value_level_start_index": np.array([0, 20], np.int32), "sampling_locations": loc,
            "attention_weights": r.uniform(0.0, 1.0, (bs, heads, levels, points, queries)).astype(np.float32),
            "grad_output": f32(r, bs, queries, heads * channels)}


def _msda_grad(a: Arrays) -> Arrays:
    """aclnnMultiScaleDeformableAttentionGrad.md: the forward samples each level's map bilinearly (zero outside,
    align_corners false: y = loc_y * H - 0.5, x = loc_x * W - 0.5), weights the samples by attention_weights and
    sums over levels and points into output (bs, queries, heads * channels); the outputs are that sum's gradients
    for grad_output, in the op's layouts."""
    value = a["value"].astype(np.float64)
    bs, _, heads, ch = value.shape
    loc, attn = a["sampling_locations"].astype(np.float64), a["attention_weights"].astype(np.float64)
    _, _, levels, points, _, queries = loc.shape
    top = a["grad_output"].astype(np.float64).reshape(bs, queries, heads, ch)
    g_value, g_loc, g_attn = np.zeros_like(value), np.zeros_like(loc), np.zeros_like(attn)
    for b, m, lv, p, q in np.ndindex(bs, heads, levels, points, queries):
        hh, ww = (int(s) for s in a["value_spatial_shapes"][lv])
        start = int(a["value_level_start_index"][lv])
        y, x = loc[b, m, lv, p, 1, q] * hh - 0.5, loc[b, m, lv, p, 0, q] * ww - 0.5
        if not (y > -1 and x > -1 and y < hh and x < ww):
            continue
        y0, x0 = int(np.floor(y)), int(np.floor(x))
        ly, lx = y - y0, x - x0
        corners = {(0, 0): (1 - ly) * (1 - lx), (0, 1): (1 - ly) * lx, (1, 0): ly * (1 - lx), (1, 1): ly * lx}
        v = {}
        for (dy, dx), wgt in corners.items():
            yy, xx = y0 + dy, x0 + dx
            inside = 0 <= yy < hh and 0 <= xx < ww
            v[dy, dx] = value[b, start + yy * ww + xx, m] if inside else np.zeros(ch)
            if inside:
                g_value[b, start + yy * ww + xx, m] += attn[b, m, lv, p, q] * wgt * top[b, q, m]
        sample = sum(wgt * v[k] for k, wgt in corners.items())
        g_attn[b, m, lv, p, q] = sample @ top[b, q, m]
        dx_ = (1 - ly) * (v[0, 1] - v[0, 0]) + ly * (v[1, 1] - v[1, 0])
        dy_ = (1 - lx) * (v[1, 0] - v[0, 0]) + lx * (v[1, 1] - v[0, 1])
        g_loc[b, m, lv, p, 0, q] = attn[b, m, lv, p, q] * ww * (dx_ @ top[b, q, m])
        g_loc[b, m, lv, p, 1, q] = attn[b, m, lv, p, q] * hh * (dy_ @ top[b, q, m])
    return {"grad_value": g_value, "grad_sampling_locations": g_loc, "grad_attention_weights": g_attn}


def _embedding_grad(a: Arrays, num_weights: int) -> np.ndarray:
    out = np.zeros((num_weights, a["grad"].shape[-1]), np.float64)
    np.add.at(out, a["indices"].reshape(-1), a["grad"].reshape(-1, a["grad"].shape[-1]))
    return out


def _rms_norm_grad(a: Arrays) -> Arrays:
    """aclnnRmsNormGrad.md: with r = rstd per row, dx = (dy g - r x mean(dy g x r)) r, dgamma = sum over rows of
    r x dy (the rows' partial sums added into dgamma across the cores)."""
    dy, x, g = (a[n].astype(np.float64) for n in ("dy", "x", "gamma"))
    r = a["rstd"].astype(np.float64)
    mean = (dy * g * x * r).mean(axis=-1, keepdims=True)
    return {"dx": (dy * g - r * x * mean) * r, "dgamma": (r * x * dy).sum(axis=0)}


def _rstd(x: np.ndarray) -> np.ndarray:
    return (1.0 / np.sqrt((x.astype(np.float64) ** 2).mean(axis=-1, keepdims=True) + 1e-6)).astype(np.float32)


def atomic_cases() -> list[OpCase]:
    return [
        OpCase("lp_loss", "ops-nn/experimental/loss/lp_loss",
               lambda r: {"predict": f32(r, 7, 45), "label": f32(r, 7, 45)},
               {"y": ((1,), "float32")},
               lambda a: {"y": np.abs(a["predict"].astype(np.float64) - a["label"]).mean()},
               attrs=["1", "mean"],
               note="y = mean |predict - label| (aclnnLpLoss, p 1, reduction mean): a reduction over the cores"),
        OpCase("lp_loss_none", "ops-nn/experimental/loss/lp_loss",
               lambda r: {"predict": f32(r, 7, 45), "label": f32(r, 7, 45)},
               {"y": ((7, 45), "float32")},
               lambda a: {"y": np.abs(a["predict"].astype(np.float64) - a["label"])},
               attrs=["1", "none"], note="y = |predict - label| elementwise (reduction none)"),
        OpCase("smooth_l1_loss_v2", "ops-nn/experimental/loss/smooth_l1_loss_v2",
               lambda r: {"predict": f32(r, 7, 45) * 2, "label": f32(r, 7, 45)},
               {"loss": ((1,), "float32")},
               lambda a: {"loss": _smooth_l1(a, 1.0).mean()},
               attrs=["1.0", "mean"],
               note="loss = mean of 0.5 d^2 / sigma (|d| < sigma) else |d| - 0.5 sigma, d = predict - label, "
                    "sigma 1 (aclnnsmoothl1lossv2.md, reduction mean)"),
        OpCase("histogram_v2", "ops-math/math/histogram_v2",
               lambda r: {"x": (f32(r, 37, 29) * 2).astype(np.float32), "min": np.array([-2.5], np.float32),
                          "max": np.array([3.0], np.float32)},
               {"y": ((13,), "int32")},
               lambda a: {"y": _histc(a["x"], 13, -2.5, 3.0)}, attrs=["13"], tolerance={"y": within(0.0)},
               note="y[k] = how many x fall in the k-th of 13 equal bins of [min, max] (aclnnHistc; outside not "
                    "counted); the tiling sets SetNeedAtomic and the OpDef InitValue(0)"),
        OpCase("reflection_pad3d_grad", "ops-math/conversion/reflection_pad3d_grad",
               lambda r: {"x": f32(r, 1, 2, 6, 7, 11),
                          "paddings": np.array([0, 0, 0, 0, 1, 2, 2, 1, 3, 2], np.int32)},
               {"y": ((1, 2, 3, 4, 6), "float32")},
               lambda a: {"y": _reflection_pad3d_grad(a["x"], a["paddings"])},
               note="reflection-pad gradient of D, H, W with pads (1, 2), (2, 1), (3, 2): mirrored gradients added "
                    "(aclnnReflectionPad3dBackward); SetNeedAtomic and InitValue(0)"),
        OpCase("multi_scale_deformable_attention_grad", "ops-nn/vfusion/multi_scale_deformable_attention_grad",
               _msda_inputs,
               {"grad_value": ((1, 26, 2, 16), "float32"),
                "grad_sampling_locations": ((1, 2, 2, 2, 2, 10), "float32"),
                "grad_attention_weights": ((1, 2, 2, 2, 10), "float32")},
               _msda_grad,
               note="gradients of multi-scale deformable attention (bilinear sampling, zero padding) for value, "
                    "the locations and the weights; grad_value by atomic adds after the kernel zeroes it"),
        OpCase("embedding_dense_grad", "ops-nn/experimental/index/embedding_dense_grad",
               lambda r: {"grad": f32(r, 9, 24), "indices": r.integers(0, 12, 9).astype(np.int32)},
               {"y": ((12, 24), "float32")},
               lambda a: {"y": _embedding_grad(a, 12)}, attrs=["12", "-1", "false"],
               note="y[w] = sum of the grad rows whose index is w (aclnnEmbeddingDenseGrad: num_weights 12, no "
                    "padding_idx, no frequency scaling); SetNeedAtomic and InitValue(0)"),
        ] + _reduction_cases()


def _reduction_cases() -> list[OpCase]:
    """Reductions whose cores add their partial results into the output (SetAtomicAdd in their kernels): the
    experimental l2_loss (README: sum(x * x) / 2), dot_v2 and reduce_sum_v2 (README: 2-D, one axis), and the
    RMS-norm gradient, whose dgamma sums over rows."""
    return [
        OpCase("l2_loss", "ops-nn/experimental/loss/l2_loss",
               lambda r: {"x": f32(r, 37, 29)}, {"y": ((1,), "float32")},
               lambda a: {"y": (a["x"].astype(np.float64) ** 2).sum() / 2},
               note="y = sum(x * x) / 2 (README), a scalar"),
        OpCase("dot_v2", "ops-math/experimental/math/dot_v2",
               lambda r: {"x1": f32(r, 1003), "x2": f32(r, 1003)}, {"y": ((1,), "float32")},
               lambda a: {"y": a["x1"].astype(np.float64) @ a["x2"]},
               note="y = sum of x1 * x2 over 1003 elements (the dot product); the tiling splits whole 32-byte "
                    "blocks, so the last core sums the 5 elements past the end too (ASC952, true)"),
        OpCase("dot_v2_blocks", "ops-math/experimental/math/dot_v2",
               lambda r: {"x1": f32(r, 1000), "x2": f32(r, 1000)}, {"y": ((1,), "float32")},
               lambda a: {"y": a["x1"].astype(np.float64) @ a["x2"]},
               note="the dot product over 1000 elements, whole 32-byte blocks (125, a tail over the 48 cores)"),
        OpCase("reduce_sum_v2", "ops-math/experimental/math/reduce_sum_v2",
               lambda r: {"x": f32(r, 37, 45)}, {"y": ((37,), "float32")},
               lambda a: {"y": a["x"].astype(np.float64).sum(axis=1)}, attrs=["1", "0"],
               note="y = x summed over axis 1, keepdims 0 (README: 2-D, one axis)"),
        OpCase("rms_norm_grad", "ops-nn/norm/rms_norm_grad",
               lambda r: (lambda x: {"dy": f32(r, 19, 72), "x": x, "rstd": _rstd(x), "gamma": f32(r, 72)})(
                   f32(r, 19, 72)),
               {"dx": ((19, 72), "float32"), "dgamma": ((72,), "float32")},
               _rms_norm_grad,
               note="dx = (dy g - r x mean(dy g x r)) r, dgamma = sum over rows of r x dy, r = rstd "
                    "(aclnnRmsNormGrad)"),
    ]
