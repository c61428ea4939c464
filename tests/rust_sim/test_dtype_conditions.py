"""`#if ORIG_DTYPE_X == DT_FLOAT16`: the build defines ORIG_DTYPE_<NAME> as the ge::DataType code of the tensor's
dtype, so a simulated launch takes the branch of its inputs' dtypes (the checker reads the sources once, with the
first dtype combination's codes; passes.sim.run reads them again for other dtypes). NPUKernelBench's
ForeachNonFiniteCheckAndUnscale casts float16 inputs to float under such a test.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

# the build defines ORIG_DTYPE_<NAME> as the tensor's ge::DataType code, which kernels test in `#if`
DTYPE_CONDITION = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void which(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 1);
#if ORIG_DTYPE_X == DT_FLOAT16
    yGm.SetValue(0, 16);
#elif ORIG_DTYPE_X == DT_FLOAT
    yGm.SetValue(0, 32);
#else
    yGm.SetValue(0, -1);
#endif
}
"""


def test_dtype_conditions_follow_the_launchs_dtypes() -> None:
    for dtype, seen in ((np.float16, 16), (np.float32, 32)):
        result = run(DTYPE_CONDITION, {"x": np.zeros(16, dtype=dtype)}, block_dim=1, outputs={"y": ((1,), "int32")})
        assert not result.errors, result.errors
        assert result.outputs["y"][0] == seen, dtype
