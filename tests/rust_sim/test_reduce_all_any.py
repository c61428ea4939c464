"""ReduceAll / ReduceAny<T, pattern> (asc-devkit include/adv_api/reduce/reduce.h; 220x implementations
impl/adv_api/detail/reduce/reduce_all/reduce_all_v220_impl.h and reduce_any/reduce_any_v220_impl.h): whether every
/ any element of each row (AR) or column (RA) is true, computed as Min / Max, except uint8_t along the first axis
(RA), which the library combines as int16 pairs with And / Or: a bitwise AND / OR of the bytes. Rows are padded to
32 bytes with srcInnerPad. Before, the simulator did not model them (ASC958)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void red(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, outBuf, tmpBuf;
    pipe.InitBuffer(inBuf, td.rows * td.stride * sizeof({t}));
    pipe.InitBuffer(outBuf, 256);
    pipe.InitBuffer(tmpBuf, 8192);
    GlobalTensor<{t}> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ {t} *)x, td.rows * td.stride);
    yGm.SetGlobalBuffer((__gm__ {t} *)y, td.outLen);
    LocalTensor<{t}> a = inBuf.Get<{t}>();
    LocalTensor<{t}> b = outBuf.Get<{t}>();
    DataCopy(a, xGm, td.rows * td.stride);
    PipeBarrier<PIPE_ALL>();
    uint32_t shape[2] = {{td.rows, td.cols}};
    {call}
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, b, td.outLen);
}}
"""


def expected(x: np.ndarray, op: str, pattern: str) -> np.ndarray:
    axis = 1 if pattern == "AR" else 0
    if x.dtype == np.uint8 and pattern == "RA":
        return (np.bitwise_and.reduce if op == "ReduceAll" else np.bitwise_or.reduce)(x, axis=0)
    return (x.min if op == "ReduceAll" else x.max)(axis=axis)


@pytest.mark.parametrize("op", ["ReduceAll", "ReduceAny"])
@pytest.mark.parametrize(("t", "pattern", "rows", "cols", "tmp"), [
    ("float", "AR", 4, 13, False),
    ("float", "RA", 5, 16, True),
    ("uint8_t", "AR", 3, 40, True),
    ("uint8_t", "RA", 6, 64, False),
])
def test_reduce_all_any_against_numpy(tmp_path: Path, op: str, t: str, pattern: str, rows: int, cols: int,
                                      tmp: bool) -> None:
    dt = np.float32 if t == "float" else np.uint8
    per = 32 // np.dtype(dt).itemsize
    stride = -(-cols // per) * per
    rng = np.random.default_rng(3)
    # mostly true with some false, and for uint8_t bytes other than 0 / 1 (where AND / OR differ from min / max)
    vals = rng.choice(np.array([0, 1, 1, 1, 2, 3], dtype=dt), size=(rows, cols))
    vals[0, :] = 1  # one row all true
    x = np.zeros((rows, stride), dtype=dt)
    x[:, :cols] = vals
    out_len = rows if pattern == "AR" else cols
    out_pad = -(-out_len // per) * per
    buf = ", tmpBuf.Get<uint8_t>()" if tmp else ""
    call = f"{op}<{t}, Pattern::Reduce::{pattern}>(b, a{buf}, shape, true);"
    src = tmp_path / "red.cpp"
    src.write_text(KERNEL.format(t=t, call=call), encoding="utf-8")
    result = run(str(src), {"x": x.reshape(-1)}, block_dim=1,
                 tiling={"rows": rows, "cols": cols, "stride": stride, "outLen": out_pad},
                 outputs={"y": ((out_pad,), np.dtype(dt).name)})
    # (the copy-out of the padding past out_len reads bytes nothing wrote: ASC952, expected)
    errors = [f for f in result.findings if f.severity.name == "ERROR" and f.code != "ASC952"]
    assert not any(f.code == "ASC952" for f in result.findings) or out_len != out_pad
    assert errors == [], errors
    np.testing.assert_array_equal(result.outputs["y"][:out_len], expected(vals, op, pattern))
