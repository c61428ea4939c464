"""A kernel-only NPUKernelBench answer run without a tensor for one of its GM parameters (issue 28's `ascendir run`
on that form).

Such an answer has no host code and no binding, so nothing says an output's shape. Before, `ascendir run swish.md
--input x=2048,1536:float16` ran the kernel with 'y' as a 0-byte buffer and reported every write into it as an
out-of-bounds write ('DataCopy writes elements [0, 8192) of GM 'y', which holds 0 bytes', ASC950, 384 times) with
"outputs: none": the cause, a missing --output, was nowhere. Now the run does not start and says which parameter
has no tensor and how to give it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from click.testing import CliRunner

from cli.run import main
from passes.sim import run

SWISH = str(Path(__file__).resolve().parents[1] / "corpus/clean/answers/npukernelbench/swish.md")
SHAPE = (2048, 1536)  # the one shape the answer's TilingDataDef is written for


def _x() -> np.ndarray:
    return np.random.default_rng(0).uniform(-2, 2, SHAPE).astype(np.float16)


def test_a_parameter_without_a_tensor_is_named_before_the_run() -> None:
    for inputs in ({"x": _x()}, [_x()]):  # by name and in order
        result = run(SWISH, inputs, [1.0])
        assert not result.completed and result.instructions == 0
        assert [d.code for d in result.findings] == ["ASC958"], [str(d) for d in result.findings]
        message = result.findings[0].message
        assert "GM parameter 'y'" in message and "--output y=SHAPE:DTYPE" in message
        assert "2048" not in message  # a shape the kernel was not given is no hint (it said 'y=8,2048:float16')


def test_the_output_given_runs_the_answer() -> None:
    x = _x()
    result = run(SWISH, {"x": x}, [1.0], outputs={"y": (SHAPE, "float16")})
    assert result.ok, [str(d) for d in result.findings]
    xf = x.astype(np.float32)
    np.testing.assert_allclose(result.outputs["y"].astype(np.float32), xf / (1 + np.exp(-xf)), rtol=1e-3, atol=1e-3)


def test_ascendir_run_says_what_to_give() -> None:
    out = CliRunner().invoke(main, [SWISH, "--input", "x=2048,1536:float16", "--attr", "1.0"])
    assert out.exit_code == 1
    assert "no tensor for the kernel's GM parameter 'y'" in out.output and "ASC950" not in out.output
