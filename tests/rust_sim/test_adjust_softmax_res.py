"""AscendC::AdjustSoftMaxRes on the simulator: the softmax corpus project with the call after its SoftMax (rows whose
max is -FLT_MAX, bits 0xFF7FFFFF, what a fully masked row holds, set to 0) and its result used (true: the block
gets 1 added). Each core takes one row of these inputs, so a row is 1 where it was all -FLT_MAX and its softmax
elsewhere. Before AdjustSoftMaxRes was simulated the call stopped the run (ASC958: not in the catalog)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

from passes.sim import run

PROJECT = Path(__file__).resolve().parents[1] / "corpus" / "clean" / "projects" / "softmax_custom"
SOFTMAX_CALL = "AscendC::SoftMax<T>(yLocal, sumLocal, maxLocal, xLocal, tmpLocal, smTiling, shapeInfo);"
ADJUST = """
        if (AscendC::AdjustSoftMaxRes<T, T>(yLocal, maxLocal, 0xFF7FFFFF, static_cast<T>(0), shapeInfo)) {
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Adds(yLocal, yLocal, static_cast<T>(1), rowsPerLoop * cols);
        }"""


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_masked_rows_are_reset_and_the_result_says_so(tmp_path: Path) -> None:
    project = tmp_path / "adjust_custom"
    shutil.copytree(PROJECT, project)
    kernel = project / "op_kernel" / "softmax_custom.cpp"
    text = kernel.read_text(encoding="utf-8")
    assert SOFTMAX_CALL in text
    kernel.write_text(text.replace(SOFTMAX_CALL, SOFTMAX_CALL + ADJUST), encoding="utf-8")
    x = np.random.default_rng(3).uniform(-4, 4, (16, 64)).astype(np.float32)
    masked = [2, 9]
    x[masked] = np.finfo(np.float32).min
    result = run(str(project), [x])
    assert result.ok, [str(d) for d in result.findings]
    expected = _softmax(x)
    expected[masked] = 1.0
    np.testing.assert_allclose(result.outputs["y"], expected, rtol=1e-5, atol=1e-6)
