"""TQueBind<VECIN, VECOUT>: a copy through UB whose EnQue/DeQue set and wait MTE2_MTE3 (and FreeTensor/AllocTensor
MTE3_MTE2), ../shared/docs/ascendc-reference.md section 2 (UB -> UB). It was lowered as TQue<VECOUT> (V_MTE3), so
the race check (ASC965) saw no order between the DataCopy in and the DataCopy out and had to grade every MTE2 <->
MTE3 race a warning; with the route lowered, a plain VECIN queue copied straight out is the error it is.
"""

from __future__ import annotations

import numpy as np
from xdsl.context import Context
from xdsl.parser import Parser

from ascendir.dialects import ascendc as asc
from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void copy_through(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    QUEUE que;
    pipe.InitBuffer(que, 1, 256 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 1024);
    yGm.SetGlobalBuffer((__gm__ float *)y, 1024);
    for (int i = 0; i < 4; ++i) {
        LocalTensor<float> t = que.AllocTensor<float>();
        DataCopy(t, xGm[i * 256], 256);
        que.EnQue(t);
        t = que.DeQue<float>();
        DataCopy(yGm[i * 256], t, 256);
        que.FreeTensor(t);
    }
}
"""


def races(queue: str) -> list:
    x = np.arange(1024, dtype=np.float32)
    result = run(KERNEL.replace("QUEUE", queue), {"x": x}, block_dim=1, outputs={"y": ((1024,), "float32")})
    assert (result.outputs["y"] == x).all()
    return [f for f in result.findings if f.code == "ASC965"]


def test_tquebind_vecin_vecout_orders_its_copy_through() -> None:
    assert races("TQueBind<TPosition::VECIN, TPosition::VECOUT, 1>") == []


def test_a_vecin_queue_copied_straight_out_is_an_mte2_mte3_race_error() -> None:
    found = races("TQue<TPosition::VECIN, 1>")
    assert found and all(f.severity.name == "ERROR" for f in found), found
    assert "PIPE_MTE3 reads" in found[0].message and "PIPE_MTE2 wrote" in found[0].message


def test_the_queue_type_prints_and_parses_its_source() -> None:
    t = asc.TQueType("VECOUT", 1, "VECIN")
    assert str(t) == "!ascendc.tque<VECOUT, 1, from VECIN>"
    ctx = Context()
    ctx.load_dialect(asc.ASCENDC)
    assert Parser(ctx, str(t)).parse_attribute() == t
    assert str(asc.TQueType("VECIN", 2)) == "!ascendc.tque<VECIN, 2>"
