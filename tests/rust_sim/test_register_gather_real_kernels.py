"""Issue 28 on a vendor kernel, session 11: ops-nn SwiGluGrad for arch35 (swi_glu_grad_apt.cpp, arch35/
swi_glu_grad_ub_rearrange.h) with rows narrower than a 32-byte block gathers each half of a row from UB into
registers by an index register (`MicroAPI::Gather(vreg, ubAddr, index, mask)`), computes the gradient in float
(Exp, Div, Muls, Adds, Mul) and scatters the results back (`MicroAPI::Scatter(ubAddr, vreg, index, mask)`). On
--chip 950PR from its tiling fields it equals numpy's gradient of swish(A) * B to rtol 1e-5 (the simulator's float
Exp rounds as its own model, not as numpy). Before this session the core stopped at the four-argument Gather
(ASC958 'the form with 4 arguments'), then at Scatter ('not modelled'). Skips when /work/ext/real is absent."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = Path("/work/ext/real/ops-nn/activation/swi_glu_grad/op_kernel/swi_glu_grad_apt.cpp")
pytestmark = pytest.mark.skipif(not KERNEL.exists(), reason="the vendor kernels (/work/ext/real) are not here")
KEYS = {"float32": 1000010, "float16": 1000000}  # SWIGLUGRAD_UB_REARRANGE_FP32 / _FP16


def swiglu_grad(grad: np.ndarray, x: np.ndarray) -> np.ndarray:
    """d/dA and d/dB of swish(A) * B, A and B the two halves of each row of x (the kernel's Compute comments)."""
    g, x = grad.astype(np.float64), x.astype(np.float64)
    a, b = np.split(x, 2, axis=1)
    s = 1 / (1 + np.exp(-a))
    return np.concatenate([g * s * (1 + (1 - s) * a) * b, g * s * a], axis=1)


@pytest.mark.parametrize("dtype, rows, cols", [("float32", 4, 4), ("float32", 37, 3), ("float16", 9, 5)])
def test_swi_glu_grad_gathers_and_scatters_as_numpy(dtype: str, rows: int, cols: int) -> None:
    rng = np.random.default_rng(rows)
    grad = rng.standard_normal((rows, cols)).astype(dtype)
    x = rng.standard_normal((rows, 2 * cols)).astype(dtype)
    tiling = {"rowTotal": rows, "colTotal": cols, "rowBase": rows, "colBase": cols, "rowTail": rows,
              "colTail": cols, "ubSize": 196608, "rowTileNum": 1, "colTileNum": 1, "usedCoreNum": 1}
    result = run(str(KERNEL), [grad, x], chip="950PR", fmt="cpp", block_dim=1, tiling=tiling,
                 tiling_key=KEYS[dtype], outputs={"x_grad": ((rows * 2 * cols,), dtype)})
    assert result.ok, [str(d) for d in result.findings]
    want = swiglu_grad(grad, x).astype(dtype).ravel()
    tol = {"float32": (1e-5, 1e-6), "float16": (2e-3, 2e-3)}[dtype]
    np.testing.assert_allclose(result.outputs["x_grad"], want, rtol=tol[0], atol=tol[1])
