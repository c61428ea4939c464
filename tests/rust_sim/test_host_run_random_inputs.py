"""A host program's input buffer that no tensor is given for gets the data `ascendir run --input x=SHAPE:DTYPE`
draws (passes/sim/random_inputs.py). Before, passes/sim/host_run.py drew its own: integers in [0, 10) only (no
negative value ever reached a kernel's sign paths) and, for bfloat16, integers 0-9 taken as uint16 bit patterns
(denormals of about 1e-40, not data)."""

from __future__ import annotations

import numpy as np
import pytest

from passes.sim.host_run import _bind
from passes.sim.launch import numpy_dtype
from passes.sim.random_inputs import random_input


@pytest.mark.parametrize("dtype", ["int32", "bfloat16", "float16", "uint8"])
def test_a_host_programs_input_buffer_gets_the_data_ascendir_run_draws(dtype: str) -> None:
    """An input buffer no tensor is given for (its host array's element type; 256 elements) is filled with what
    random_input draws for that dtype from the run's generator; outputs and workspace start zeroed."""
    size = 256 * np.dtype(numpy_dtype(dtype)).itemsize
    buffers = [{"name": "deviceX", "role": "input", "dtype": dtype, "size": size},
               {"name": "deviceY", "role": "output", "dtype": dtype, "size": size},
               {"name": "workspace", "role": "workspace", "dtype": None, "size": 64}]
    arrays, outputs = _bind(buffers, [], np.random.default_rng(3), numpy_dtype)
    expected = random_input(256, dtype, np.random.default_rng(3))
    assert arrays[0].tobytes() == expected.tobytes()
    assert not arrays[1].any() and not arrays[2].any() and list(outputs) == ["deviceY"]
    if dtype == "int32":
        assert (arrays[0].view(np.int32) < 0).any()  # the sign paths get data too
