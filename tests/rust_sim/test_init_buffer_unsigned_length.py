"""TPipe::InitBuffer's length is a `uint32_t`: `0xffffffffu` (a hex literal with suffix u is an unsigned int,
[lex.icon]), `0u - 1u` or a plain 4294967295 converted to it all ask for 4294967295 bytes. The simulator read the
length register signed (the program's registers carry no sign) and stopped at 'InitBuffer of b with 1 buffers of
-1 bytes' (ASC959) instead of the capacity finding such a request deserves (issue 28, found by fuzzrun)."""

from __future__ import annotations

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void big(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    INIT;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> t = TAKE;
    DataCopy(t, xGm, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, 64);
}
"""
TBUF = ("TBuf<TPosition::VECCALC> b;\n    pipe.InitBuffer(b, {len})", "b.Get<float>()")
QUEUE = ("TQue<TPosition::VECIN, 1> b;\n    pipe.InitBuffer(b, 2, {len})", "b.AllocTensor<float>()")


@pytest.mark.parametrize(("length", "nbytes"), [("0xffffffffu", 4294967295), ("0u - 1u", 4294967295),
                                               ("4294967295", 4294967295), ("0x80000000u", 2147483648)])
@pytest.mark.parametrize(("init", "take"), [TBUF, QUEUE], ids=["tbuf", "queue"])
def test_a_length_past_int32_is_that_many_bytes(length: str, nbytes: int, init: str, take: str) -> None:
    source = KERNEL.replace("INIT", init.format(len=length)).replace("TAKE", take)
    x = np.arange(64, dtype=np.float32)
    result = run(source, [x], block_dim=1, outputs={"y": ((64,), "float32")})
    messages = [d.message for d in result.findings]
    assert not [m for m in messages if "-1 bytes" in m or "-2147483648" in m], messages
    assert [d.code for d in result.findings] == ["ASC951"], messages  # the capacity warning, then the run goes on
    assert f"x {nbytes} bytes" in messages[0], messages
    assert "which has 196608 bytes" in messages[0]
    assert np.array_equal(result.outputs["y"], x)
