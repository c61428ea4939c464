"""Independent computations of the bundled tasks' outputs, to check the numpy references against.

Each oracle takes the reference's inputs and attributes and returns some or all outputs. They use torch on
CPU (its own kernels, not the references' numpy formulas) in float64, or, where torch has no such op, a
straightforward loop over the definition.
"""

from __future__ import annotations

import os

import numpy as np

os.environ.setdefault("OMP_NUM_THREADS", "1")
torch = __import__("pytest").importorskip("torch")
F = torch.nn.functional


def t64(a: np.ndarray):
    """A float64 torch tensor of a numpy array (integers stay integers)."""
    t = torch.from_numpy(np.ascontiguousarray(a))
    return t.double() if t.is_floating_point() else t


def back(t, like: np.ndarray | str) -> np.ndarray:
    dtype = like if isinstance(like, str) else like.dtype
    return t.detach().numpy().astype(dtype)


def compare(task, case_id: str, name: str, expected: np.ndarray, got: np.ndarray) -> None:
    """The reference's output against the oracle's: exact for integers, a few ulps for floats."""
    where = f"{task.name}/{case_id}/{name}"
    assert expected.shape == got.shape, f"{where}: shape {expected.shape} vs oracle {got.shape}"
    assert expected.dtype == got.dtype, f"{where}: dtype {expected.dtype} vs oracle {got.dtype}"
    if expected.dtype.kind != "f":
        assert np.array_equal(expected, got), f"{where}: differs from the oracle"
        return
    eps = float(np.finfo(expected.dtype).eps)
    np.testing.assert_allclose(expected.astype(np.float64), got.astype(np.float64), rtol=4 * eps, atol=4 * eps,
                               err_msg=where)


def unary(fn):
    return lambda i, a: {"y": back(fn(t64(i["x"])), i["x"])}


ORACLES = {
    "sqrt": unary(torch.sqrt),
    "relu": unary(torch.relu),
    "add": lambda i, a: {"y": back(torch.add(t64(i["x1"]), t64(i["x2"])), i["x1"])},
}
