"""One vendor op project's case for bench/perf/vendor_ops.py: the op folder, its seeded inputs, the outputs to
allocate, the numpy model of its documented formula and the tolerances (shared by vendor_ops.py and the case
lists beside it, vendor_ops_nn.py)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the repository's packages (bench.suites) before bench/perf's own modules

from bench.suites.model import Tolerance  # noqa: E402  (after the path line above)

Arrays = dict[str, np.ndarray]
# the benchmark's tolerance model (bench/suites/model.py): an element fails when |d| > 1e-3 * max(1, |ref|);
# integer outputs match exactly
DEFAULT_TOLERANCE = Tolerance({}, "norm", (1e-3, 1e-3))


def within(atol: float) -> Tolerance:
    """An absolute bound: an element fails when |d| > atol (a quantised output's rounding step)."""
    return Tolerance({}, "allclose", (atol, 0.0))


@dataclass
class OpCase:
    name: str  # the table's name
    folder: str  # under --real
    inputs: Callable[[np.random.Generator], Arrays]  # op order, by the OpDef's input names
    outputs: dict[str, tuple[tuple[int, ...], str]]  # name -> (shape, dtype), as --output takes them
    reference: Callable[[Arrays], Arrays]  # the documented formula, on the inputs
    attrs: list[str] = field(default_factory=list)  # in op order, as --attr takes them
    tolerance: dict[str, Tolerance] = field(default_factory=dict)  # per output (default DEFAULT_TOLERANCE)
    chip: str | None = None
    note: str = ""  # what the formula is taken from
    # inputs the op updates in place (--inplace): the run returns each as an output of its name, compared with the
    # reference's value of that name (apply_adam_w_v2 declares no outputs and updates var, m and v)
    inplace: list[str] = field(default_factory=list)
    # outputs the op's docs say it does not compute yet (cross_entropy_loss's zloss, "not supported yet"):
    # allocated for the launch, left out of the comparison, and their 'no core writes' finding (ASC961) is no stop
    unwritten: list[str] = field(default_factory=list)


def f32(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> Arrays:
    """Normalised over the last axis: y = (x - mean) * rstd * gamma + beta, with mean and rstd kept per row."""
    x = x.astype(np.float64)
    mean = x.mean(axis=-1, keepdims=True)
    rstd = 1.0 / np.sqrt(((x - mean) ** 2).mean(axis=-1, keepdims=True) + eps)
    return {"y": (x - mean) * rstd * gamma + beta, "mean": mean, "rstd": rstd}


def with_specials(x: np.ndarray) -> np.ndarray:
    """x with +inf, -inf and nan planted at fixed strides (a float-class op's inputs), in place."""
    flat = x.reshape(-1)
    flat[::7] = np.inf
    flat[3::11] = -np.inf
    flat[5::13] = np.nan
    return x


def unpack_int4(packed: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """An int4 output as the launch returns it (its bytes, two elements each, the even one in the low nibble) as
    int8 values of `shape`."""
    nibbles = np.stack([packed & 0xF, packed >> 4], axis=-1).reshape(-1).astype(np.int8)
    return np.where(nibbles > 7, nibbles - 16, nibbles)[:int(np.prod(shape))].reshape(shape)
