"""AscendC::SimpleSoftMax on the simulator: the softmax corpus project with SoftMax's max and sum reused by a
SimpleSoftMax of the source plus 1, which is e times the softmax (a recomputed max would give the softmax
itself). Before SimpleSoftMax was simulated the call stopped the run (ASC958: not in the catalog)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

PROJECT = Path(__file__).resolve().parents[1] / "corpus" / "clean" / "projects" / "softmax_custom"
SOFTMAX_CALL = "AscendC::SoftMax<T>(yLocal, sumLocal, maxLocal, xLocal, tmpLocal, smTiling, shapeInfo);"
SIMPLE = """
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(xLocal, xLocal, static_cast<T>(1), rowsPerLoop * cols);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::SimpleSoftMax<T>(yLocal, sumLocal, maxLocal, xLocal, tmpLocal, smTiling, shapeInfo);"""


@pytest.mark.parametrize(("shape", "dtype", "tol"), [((16, 64), np.float32, 1e-5), ((40, 32), np.float16, 2e-3)])
def test_simple_softmax_uses_the_given_max_and_sum(tmp_path: Path, shape: tuple[int, int], dtype: type,
                                                    tol: float) -> None:
    project = tmp_path / "simple_custom"
    shutil.copytree(PROJECT, project)
    kernel = project / "op_kernel" / "softmax_custom.cpp"
    text = kernel.read_text(encoding="utf-8")
    assert SOFTMAX_CALL in text
    kernel.write_text(text.replace(SOFTMAX_CALL, SOFTMAX_CALL + SIMPLE), encoding="utf-8")
    x = np.random.default_rng(5).uniform(-3, 3, shape).astype(dtype)
    result = run(str(project), [x])
    assert result.ok, [str(d) for d in result.findings]
    x32 = x.astype(np.float32)
    e = np.exp(x32 - x32.max(axis=-1, keepdims=True))
    expected = np.e * e / e.sum(axis=-1, keepdims=True)
    np.testing.assert_allclose(result.outputs["y"].astype(np.float32), expected, rtol=tol, atol=tol)
