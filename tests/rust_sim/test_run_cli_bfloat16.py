"""`ascendir run --input x=4,64:bfloat16`: numpy has no bfloat16, so the seeded data is a uint16 array of bit
patterns, and the CLI did not tell the launch which dtype it stands for: the launch took it for uint16 data (the
gelu project's host: "the op json supports no inputs of dtypes (uint16)"; NPUKernelBench RmsNorm instantiated its
kernel for uint16_t and failed to lower). The CLI now names the dtype, by input name or by position.
"""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from cli.run import main
from passes.sim.random_inputs import random_input

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
GELU = str(ROOT / "tests/corpus/clean/projects/gelu_custom")


def _as_float(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


@pytest.mark.parametrize("spec", ["x=4,64:bfloat16", "4,64:bfloat16"])
def test_a_bfloat16_input_runs_the_kernel_built_for_bfloat16(spec: str, tmp_path: object) -> None:
    out = CliRunner().invoke(main, [GELU, "--input", spec, "--output-dir", str(tmp_path)])
    assert out.exit_code == 0, out.output
    x = _as_float(random_input((4, 64), "bfloat16", np.random.default_rng(0)))  # the CLI's data for --seed 0
    y = np.load(f"{tmp_path}/y.npy")
    assert y.dtype == np.uint16 and y.shape == (4, 64)
    expected = x / (1 + np.exp(-1.5957691216057308 * (x + 0.044715 * x ** 3)))
    assert np.allclose(_as_float(y), expected, rtol=1 / 64, atol=1e-3)
