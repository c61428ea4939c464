"""A kernel whose local variables need more stack than the simulator takes is a SimError that says so (each core
allocates its stack when it starts; before, 'stack -1' or a huge count reached that allocation, whose failure
aborts the process with no panic to catch). rust_sim's parser rejects such a count too
(parse::checks::tests::register_and_stack_counts_past_the_limits_are_errors); this is the message a user sees."""

from __future__ import annotations

import numpy as np
import pytest

from passes.sim import run
from passes.sim.launch import SimError
from rust_sim._sim import MAX_STACK_BYTES

KERNEL = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR y) {
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 8);
    float local[%d];
    local[3] = 2.0f;
    yGm.SetValue(0, local[3]);
}
"""


def test_a_stack_past_the_limit_is_a_sim_error() -> None:
    elements = MAX_STACK_BYTES // 4 + 8
    with pytest.raises(SimError, match=f"take {elements * 4} bytes of stack on each core; the simulator takes at most"):
        run(KERNEL % elements, {}, block_dim=1, outputs={"y": ((8,), "float32")}, timing=False)


def test_a_local_array_within_the_limit_runs() -> None:
    result = run(KERNEL % 1024, {}, block_dim=1, outputs={"y": ((8,), "float32")}, timing=False)
    assert result.outputs["y"][0] == np.float32(2.0)
