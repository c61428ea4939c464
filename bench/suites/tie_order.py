"""The order of equal values in a sort or top-k reference is not the answer's to match.

A reference computed with torch on the CPU (`torch.topk`, `torch.sort`) returns, among elements of equal value, an
order torch does not define (its docs: "the order of returned elements with equal values is not guaranteed"; its
CPU top-k picks index 100 before 10 for two equal maxima). The device's sort instructions have their own rule (the
310P's RpSort16 and MrgSort4 put the earlier proposal first) and the benchmark compares them with the device's
torch, whose top-k is the same kernel. Judged against the CPU reference, a correct answer's index output would
differ wherever values tie.

`settle_ties` takes the reference's index output as it is, except where the answer's index selects an element of
exactly the value the reference's index selects, along the axis the reference's indices select on, and the answer
repeats no index in that slice: there the answer's index stands. A wrong element (another value, an index out of
range, an index given twice) still differs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

# a reference that sorts or selects the k largest along an axis: its index output picks elements of its input
_SORTING = re.compile(r"\btorch\s*\.\s*(?:topk|sort|argsort)\s*\(|\.\s*(?:topk|sort|argsort)\s*\(")


def sorts(reference_text: str) -> bool:
    """Whether a reference program returns the indices of a sort or top-k (torch.topk / torch.sort / .topk())."""
    return _SORTING.search(reference_text) is not None


def _axis(x: np.ndarray, idx: np.ndarray, values: np.ndarray | None) -> int | None:
    """The axis the reference's indices select along: the one where the index output's extent differs from the
    input's; else the one along which they reproduce the reference's values output."""
    if x.ndim != idx.ndim or x.ndim == 0:
        return None
    differ = [a for a in range(x.ndim) if x.shape[a] != idx.shape[a]]
    if len(differ) == 1:
        return differ[0]
    if differ or values is None or values.shape != idx.shape:
        return None
    for a in range(x.ndim):
        if np.all((idx >= 0) & (idx < x.shape[a])) and _same(np.take_along_axis(x, idx, a), values).all():
            return a
    return None


def _same(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a == b) | (np.isnan(a) & np.isnan(b)) if a.dtype.kind == "f" else a == b


def settle(x: np.ndarray, expected: np.ndarray, actual: np.ndarray, values: np.ndarray | None = None) -> np.ndarray:
    """`expected` (the reference's indices into `x`) with the answer's index wherever it selects an equal element
    (see the module docstring); `expected` unchanged where nothing applies."""
    exp = np.asarray(expected)
    act = np.asarray(actual)
    if exp.dtype.kind not in "iu" or act.shape != exp.shape or act.dtype.kind not in "iu":
        return exp
    axis = _axis(np.asarray(x), exp, values)
    if axis is None:
        return exp
    n = x.shape[axis]
    valid = (act >= 0) & (act < n) & (exp >= 0) & (exp < n)
    picked = np.take_along_axis(x, np.where(valid, act, 0), axis)
    wanted = np.take_along_axis(x, np.where(valid, exp, 0), axis)
    ok = valid & _same(picked, wanted)
    # an index given twice in one slice takes one element twice: that slice stays as the reference has it
    ordered = np.sort(act, axis=axis)
    repeated = np.any(np.diff(ordered, axis=axis) == 0, axis=axis, keepdims=True)
    ok &= ~np.broadcast_to(repeated, ok.shape)
    return np.where(ok, act, exp).astype(exp.dtype)


def settle_ties(reference_text: str, inputs: Mapping[str, Any], expected: Mapping[str, Any],
                actual: Mapping[str, Any]) -> dict[str, Any]:
    """`expected` with each integer output of a sorting reference settled against the answer's (`settle`), the
    input being the first floating-point input tensor of the index output's rank."""
    out = dict(expected)
    if not sorts(reference_text):
        return out
    arrays = [np.asarray(v) for v in inputs.values() if isinstance(v, np.ndarray) and v.dtype.kind == "f"]
    for name, exp in expected.items():
        got = actual.get(name)
        if not isinstance(exp, np.ndarray) or exp.dtype.kind not in "iu" or got is None:
            continue
        got = np.asarray(got)
        if got.size != exp.size:
            continue
        got = got.reshape(exp.shape)
        x = next((a for a in arrays if a.ndim == exp.ndim), None)
        if x is None:
            continue
        values = next((np.asarray(v) for n, v in expected.items()
                       if n != name and isinstance(v, np.ndarray) and v.shape == exp.shape and v.dtype.kind == "f"),
                      None)
        out[name] = settle(x, exp, got, values)
    return out
