"""asc-devkit's basic-API cube examples not run before (read from the checkout; skipped without it), against
numpy: mmad_gemv (M 1: the cube's GEMV, B given N x K), mmad_unitflag (K in 8 rounds of 64, A given as the
rounds' M x 64 blocks one after another, with and without ENABLE_UNITFLAG), fixpipe_l0c2gm's scenarios
(1 NZ, 2 ND, 6 ND with ReLU, 7 NZ with isChannelSplit: 16 x 8 fractals, all float; 4 and 5 int8 with scalar and
per-column quantisation; A given as its 2 K rounds' blocks).
Scenario 7 was ASC958 (isChannelSplit not modelled) before rust_sim/src/cube/fixpipe.rs's channel split.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

DEVKIT = Path(os.environ.get("ASC_DEVKIT", "/work/ext/real/asc-devkit"))
EXAMPLES = DEVKIT / "examples/01_simd_cpp_api/03_basic_api/03_matrix_compute"
pytestmark = pytest.mark.skipif(not EXAMPLES.is_dir(), reason=f"no asc-devkit checkout at {DEVKIT} (set ASC_DEVKIT)")


def _ab(m: int, k: int, n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    return a, b, a.astype(np.float64) @ b.astype(np.float64)


def _rounds(a: np.ndarray, rounds: int) -> np.ndarray:
    """A (M x K) as its K rounds' M x (K / rounds) blocks, one after another."""
    m, k = a.shape
    return np.ascontiguousarray(a.reshape(m, rounds, k // rounds).transpose(1, 0, 2))


def test_mmad_gemv_matches_numpy() -> None:
    a, b, want = _ab(1, 256, 32)
    result = run(str(EXAMPLES / "mmad_gemv/mmad_gemv.asc"), [a, np.ascontiguousarray(b.T)], block_dim=1,
                 outputs={"c": np.zeros((1, 32), np.float32)})
    assert result.ok, result.findings
    np.testing.assert_allclose(result.outputs["c"], want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("unit_flag", ["0", "1"])
def test_mmad_unitflag_matches_numpy(unit_flag: str) -> None:
    a, b, want = _ab(128, 512, 256, seed=1)
    result = run(str(EXAMPLES / "mmad_unitflag/mmad_unitflag.asc"), [_rounds(a, 8), b], block_dim=1,
                 defines={"ENABLE_UNITFLAG": unit_flag}, outputs={"c": np.zeros((128, 256), np.float32)})
    assert result.ok, result.findings
    # 512 products of fp16 summed in fp32
    np.testing.assert_allclose(result.outputs["c"], want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("scenario", [1, 2, 6, 7])
def test_fixpipe_l0c2gm_float_scenarios_match_numpy(scenario: int) -> None:
    m, k, n = 128, 128, 256
    a, b, want = _ab(m, k, n, seed=2)
    result = run(str(EXAMPLES / "fixpipe_l0c2gm/fixpipe_l0c2gm.asc"),
                 {"a": _rounds(a, 2), "b": b, "quantAlpha": np.zeros(n, np.uint64)}, block_dim=1,
                 defines={"SCENARIO_NUM": str(scenario)}, outputs={"c": np.zeros(m * n, np.float32)})
    assert result.ok, result.findings
    c = result.outputs["c"]
    if scenario in (1, 7):
        z = 16 if scenario == 1 else 8  # NZ: [N / z][M][z]
        c = c.reshape(n // z, m, z).transpose(1, 0, 2)
    got = c.reshape(m, n)
    np.testing.assert_allclose(got, np.maximum(want, 0) if scenario == 6 else want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("scenario", [4, 5])
def test_fixpipe_l0c2gm_int8_quant_scenarios_match_numpy(scenario: int) -> None:
    # 4: the scalar QF322B8_PRE with the example's quantScalar 2.0 (deqScalar: the float's bits, bit 46 signed);
    # 5: VQF322B8_PRE with one uint64 per column from quantAlpha (bits [31:13] of a float scale kept, bit 46 set)
    m, k, n = 128, 128, 256
    a, b, want = _ab(m, k, n, seed=2)
    rng = np.random.default_rng(3)
    scales = rng.uniform(0.5, 4, (n,)).astype(np.float32)
    bits = (scales.view(np.uint32).astype(np.uint64) & np.uint64(0xFFFFE000)) | np.uint64(1 << 46)
    used = (bits & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.float32).astype(np.float64)
    result = run(str(EXAMPLES / "fixpipe_l0c2gm/fixpipe_l0c2gm.asc"),
                 {"a": _rounds(a, 2), "b": b, "quantAlpha": bits}, block_dim=1,
                 defines={"SCENARIO_NUM": str(scenario)}, outputs={"c": np.zeros(m * n, np.int8)})
    assert result.ok, result.findings
    scale = 2.0 if scenario == 4 else used
    expected = np.clip(np.rint(want * scale), -128, 127)
    # the fixpipe multiplies in float32: a product next to a .5 tie may round the other way
    assert np.abs(result.outputs["c"].reshape(m, n).astype(np.int64) - expected).max() <= 1
