"""Issue 28: a bad argument to `ascendir.sim.run` is a SimError that names it, never an exception from deep
inside (pyo3's OverflowError, xDSL's AttributeError, int()'s ValueError) or a silent run with something else.

Each case failed before passes/sim/launch_args.py: found by bench/perf/sim_robustness.py --sources args."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run
from passes.sim.launch import SimError

ROOT = Path(__file__).resolve().parents[2]
ADD = str(ROOT / "tests/corpus/clean/kernels/tpipe/add_custom.cpp")
N = 2048


def _inputs() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(3)
    return {"x": rng.uniform(-1, 1, N).astype(np.float16), "y": rng.uniform(-1, 1, N).astype(np.float16)}


def _run(**changes: object) -> object:
    args: dict = dict(block_dim=8, tiling={"totalLength": N, "tileNum": 1}, outputs={"z": ((N,), "float16")},
                      timing=False)
    source = changes.pop("source", ADD)
    args.update(changes)
    return run(source, _inputs(), **args)


@pytest.mark.parametrize("changes,message", [
    ({"block_dim": -3}, "block_dim -3: it must be 1 to 65535"),  # was OverflowError from pyo3
    ({"block_dim": "8"}, "block_dim must be an integer, not str '8'"),  # was AttributeError in xDSL
    ({"budget": -5}, "budget -5: it must be 0 to"),  # was OverflowError from pyo3
    ({"tiling_key": -1}, "tiling_key -1: it must be 0 to"),  # ran as if no key were given
    ({"workspace": -1}, "workspace -1: it must be 0 to"),  # ran as if no workspace were given
    ({"tiling": {"totalLength": "abc", "tileNum": 1}}, "tiling field 'totalLength': 'abc' is not a number"),
    ({"tiling": {"totalLength": None, "tileNum": 1}}, "tiling field 'totalLength': None is not a number"),
    ({"tiling": {"totalLength": 10**30, "tileNum": 1}}, "tiling field 'totalLength': 1000000000000000000000000000000 "
                                                        "does not fit in 64 bits"),
    ({"tiling": {"totalLength": N, "tileNum": [1, "b"]}}, "tiling field 'tileNum[1]': 'b' is not a number"),
    ({"outputs": {"z": ((N,), "nonsense")}}, "output z: unknown dtype 'nonsense'"),  # was allocated as float32
    ({"dtypes": {"x": "float99"}}, "dtypes['x']: unknown dtype 'float99'"),  # was ignored
    ({"source": "/nonexistent/kernel.cpp"}, "/nonexistent/kernel.cpp: no such file or folder"),  # was ASC001 '/'
])
def test_a_bad_argument_is_a_sim_error_naming_it(changes: dict, message: str) -> None:
    with pytest.raises(SimError) as caught:
        _run(**changes)
    assert message in str(caught.value)


@pytest.mark.parametrize("dtype", ["half", "fp16", np.float16, np.dtype(np.float16)])
def test_an_output_dtype_in_another_spelling_is_that_dtype(dtype: object) -> None:
    # before, every name but numpy's own ('float16') was allocated as float32: twice the bytes, half unwritten
    result = _run(outputs={"z": ((N,), dtype)})
    assert not result.findings, [str(d) for d in result.findings]
    z = result.outputs["z"]
    assert z.dtype == np.float16
    x, y = _inputs().values()
    assert np.allclose(z.astype(np.float32), (x + y).astype(np.float32), atol=1e-3)


def test_kernel_text_on_one_line_is_still_source() -> None:
    # a string that is not a path (it has C++ punctuation) is read as the kernel, as before
    result = run('extern "C" __global__ __aicore__ void k(GM_ADDR x) {}', [np.zeros(8, np.float32)], block_dim=1,
                 timing=False)
    assert result.completed, [str(d) for d in result.findings]
