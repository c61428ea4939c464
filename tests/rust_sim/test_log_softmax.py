"""LogSoftMax's last step is log10 (the API page of CANN 8.5 and later; asc-devkit's logsoftmax example), not the
natural log: kernels written against it multiply by ln(10) to get torch's log_softmax. The softmax corpus
project turned into a LogSoftMax one (the call, its tiling type and the host's tiling calls) runs against numpy's
log10 of the softmax."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np

from passes.sim import run

PROJECT = Path(__file__).resolve().parents[1] / "corpus" / "clean" / "projects" / "softmax_custom"
SOFTMAX_CALL = "AscendC::SoftMax<T>(yLocal, sumLocal, maxLocal, xLocal, tmpLocal, smTiling, shapeInfo);"


def test_log_softmax_is_log10_of_the_softmax(tmp_path: Path) -> None:
    project = tmp_path / "log_softmax_custom"
    shutil.copytree(PROJECT, project)
    kernel = project / "op_kernel" / "softmax_custom.cpp"
    assert SOFTMAX_CALL in kernel.read_text(encoding="utf-8")
    for path in [kernel, *(project / "op_host").iterdir()]:
        text = path.read_text(encoding="utf-8").replace(SOFTMAX_CALL, SOFTMAX_CALL.replace("SoftMax<", "LogSoftMax<"))
        text = re.sub(r"\b(SoftMaxTiling|SoftMaxTilingFunc)\b", r"Log\1", text)
        path.write_text(text.replace("GetSoftMaxMinTmpSize", "GetLogSoftMaxMinTmpSize"), encoding="utf-8")
    x = np.random.default_rng(7).uniform(-4, 4, (16, 64)).astype(np.float32)
    result = run(str(project), [x])
    assert result.ok, [str(d) for d in result.findings]
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    expected = np.log10(e / e.sum(axis=-1, keepdims=True))
    np.testing.assert_allclose(result.outputs["y"], expected, rtol=1e-5, atol=1e-6)
