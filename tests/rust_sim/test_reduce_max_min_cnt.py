"""GetReduceMaxMinCount(value, index): the value and index the last WholeReduceMax / WholeReduceMin found,
read back from the MAX_MIN_CNT register into the two variables the call takes by reference.

NPUKernelBench's Isamax / Isamin / Icamax / Icamin reduce each chunk with WholeReduceMax in counter mode and read
the chunk's maximum and its index this way; before, the lowering passed the variables' initial values (0) and
the simulator stopped at the call (ASC958). The index is an integer whose bits the kernel keeps in a float
(`*reinterpret_cast<uint32_t *>(&idx)`), as asc-devkit's GetReduceMaxMinCountImpl hands it over.
"""

from __future__ import annotations

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void arg_best(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, outBuf;
    pipe.InitBuffer(inBuf, 512 * sizeof(float));
    pipe.InitBuffer(outBuf, 8 * sizeof(float));
    GlobalTensor<float> xGm;
    GlobalTensor<int32_t> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 512);
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    LocalTensor<float> a = inBuf.Get<float>();
    LocalTensor<int32_t> o = outBuf.Get<int32_t>();
    DataCopy(a, xGm, 512);
    PipeBarrier<PIPE_ALL>();
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, @COUNT@);
    @WHOLE@<float, false>(a, a, MASK_PLACEHOLDER, 1, 1, 1, 8);
    SetMaskNorm();
    ResetMask();
    PipeBarrier<PIPE_ALL>();
    float val = 0;
    float idx = 0;
    GetReduceMaxMinCount<float>(val, idx);
    o.SetValue(0, *reinterpret_cast<int32_t *>(&idx));
    o.SetValue(1, *reinterpret_cast<int32_t *>(&val));
    for (int i = 2; i < 8; i++) {
        o.SetValue(i, 0);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, o, 8);
}
"""


@pytest.mark.parametrize("whole, pick", [("WholeReduceMax", np.argmax), ("WholeReduceMin", np.argmin)])
@pytest.mark.parametrize("count", [10, 300])
def test_value_and_index_of_the_last_whole_reduce(whole: str, pick: object, count: int) -> None:
    rng = np.random.default_rng(count)
    x = rng.standard_normal(512).astype(np.float32)
    src = KERNEL.replace("@WHOLE@", whole).replace("@COUNT@", str(count))
    result = run(src, {"x": x}, block_dim=1, outputs={"y": ((8,), "int32")})
    assert not result.errors, result.errors
    y = result.outputs["y"]
    best = int(pick(x[:count]))  # type: ignore[operator]
    assert y[0] == best  # the index over the whole count, across its repeats
    assert np.int32(y[1]).view(np.float32) == x[best]
