"""Every TPipe kernel of the clean corpus runs on the simulator, on two shapes, and matches numpy within
NPUKernelBench's tolerances; no dynamic check fires on any of them."""

from __future__ import annotations

import numpy as np
import pytest

from passes.sim import run
from clean_cases import CASES, tolerance
from clean_cases_cube import CUBE_CASES
from clean_cases_gm_tiling import GM_TILING_CASES

LAUNCHES = [(case, shape) for case in CASES + GM_TILING_CASES + CUBE_CASES for shape in case.shapes]


def close(actual: np.ndarray, expected: np.ndarray, rtol: float, atol: float) -> tuple[bool, str]:
    """NPUKernelBench's rule: an element fails when |d| > atol and |d| / (|ref| + 1e-7) > rtol; NaN and Inf must
    sit where the reference has them."""
    a = actual.astype(np.float64).reshape(-1)
    e = expected.astype(np.float64).reshape(-1)
    if a.shape != e.shape:
        return False, f"shape {actual.shape} != {expected.shape}"
    nan_ok = np.array_equal(np.isnan(a), np.isnan(e)) and np.array_equal(np.isinf(a), np.isinf(e))
    finite = np.isfinite(e) & np.isfinite(a)
    d = np.abs(a[finite] - e[finite])
    bad = (d > atol) & (d / (np.abs(e[finite]) + 1e-7) > rtol)
    if not nan_ok or bad.any():
        idx = np.flatnonzero(finite)[bad][:5] if bad.any() else []
        return False, f"{int(bad.sum())} elements differ, first at {list(idx)}: {a[idx]} vs {e[idx]}"
    return True, ""


@pytest.mark.parametrize("case,shape", LAUNCHES, ids=[f"{c.name}-{i % 2}" for i, (c, _) in enumerate(LAUNCHES)])
def test_clean_kernel_matches_numpy(case, shape) -> None:
    rng = np.random.default_rng(7)
    launch = case.make(shape, rng)
    result = run(str(case.source), launch.inputs, launch.attrs, block_dim=launch.block_dim, tiling=launch.tiling,
                 tiling_key=launch.tiling_key, outputs=launch.outputs,
                 outputs_initialised=launch.outputs_initialised, tiling_data=launch.tiling_data,
                 workspace=launch.workspace)
    assert result.completed and not result.findings, "\n".join(str(d) for d in result.findings)
    for name, expected in launch.expected.items():
        rtol, atol = tolerance(expected.dtype)
        rtol = launch.rtol if launch.rtol is not None else rtol
        atol = launch.atol if launch.atol is not None else atol
        ok, why = close(result.outputs[name], expected, rtol, atol)
        assert ok, f"{name}: {why}"
