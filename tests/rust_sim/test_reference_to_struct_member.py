"""A member of a parameter struct passed to a non-const reference parameter: the callee's writes reach it (issue 28;
ascendir/lower/reference_members.py).

ops-math slice (arch35/slice_nddma.h) fills its NDDMA loops through
`SetLoopInfo(paramsMain.loopInfo, paramsTail.loopInfo)` with `SetLoopInfo(MultiCopyLoopInfo<N>& loopInfo,
MultiCopyLoopInfo<N>& loopInfoTail)`, then `DataCopy<T, N>(dst, src, paramsMain)`. The callee wrote a copy of
each member, so the copies moved nothing, silently: no finding, the output as it was. C++ binds the reference to
the member itself ([dcl.init.ref]/5)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;
using T = float;

class K {
public:
    __aicore__ inline void SetLoopInfo(MultiCopyLoopInfo<2>& loopInfo, MultiCopyLoopInfo<2>& loopInfoTail,
                                       uint32_t n)
    {
        for (int i = 0; i < 2; i++) {
            loopInfo.loopLpSize[i] = 0;
            loopInfo.loopRpSize[i] = 0;
            loopInfo.loopDstStride[i] = i == 0 ? 1 : n;
            loopInfoTail.loopLpSize[i] = 0;
            loopInfoTail.loopRpSize[i] = 0;
            loopInfoTail.loopDstStride[i] = i == 0 ? 1 : n;
        }
        loopInfo.loopSize[0] = n;
        loopInfo.loopSize[1] = 2;
        loopInfo.loopSrcStride[0] = 1;
        loopInfo.loopSrcStride[1] = n;
        loopInfoTail.loopSize[0] = n / 2;
        loopInfoTail.loopSize[1] = 1;
        loopInfoTail.loopSrcStride[0] = 2;
        loopInfoTail.loopSrcStride[1] = 0;
    }
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ T *)x, 64);
        yGm.SetGlobalBuffer((__gm__ T *)y, 64);
        pipe.InitBuffer(buf, 64 * sizeof(T));
    }
    __aicore__ inline void Process(uint32_t n)
    {
        LocalTensor<T> l = buf.Get<T>();
        Duplicate(l, (T)-1, 64);
        PipeBarrier<PIPE_ALL>();
        MultiCopyParams<T, 2> paramsMain;
        MultiCopyParams<T, 2> paramsTail;
        PRELUDE
        SetLoopInfo(paramsMain.loopInfo, paramsTail.loopInfo, n);
        DataCopy<T, 2>(l, xGm, paramsMain);
        DataCopy<T, 2>(l[32], xGm, paramsTail);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm, l, 64);
    }
private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<T> xGm, yGm;
};

extern "C" __global__ __aicore__ void mcp(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    K k;
    k.Init(x, y);
    k.Process(td.n);
}
"""


# the structs as constants until the call, and as variables written before it
@pytest.mark.parametrize("prelude", ["", "paramsMain.constantValue = 0; paramsTail.constantValue = 0;"])
def test_the_callee_fills_the_members_themselves(tmp_path: Path, prelude: str) -> None:
    path = tmp_path / "mcp.cpp"
    path.write_text(SOURCE.replace("PRELUDE", prelude), encoding="utf-8")
    x = np.arange(64, dtype=np.float32)
    n = 8
    result = run(str(path), {"x": x}, chip="950PR", block_dim=1, tiling={"n": n}, outputs={"y": ((64,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    y = result.outputs["y"]
    np.testing.assert_array_equal(y[:2 * n], x[:2 * n])  # the main copy: two rows of n
    np.testing.assert_array_equal(y[2 * n:32], np.full(32 - 2 * n, -1, np.float32))
    np.testing.assert_array_equal(y[32:32 + n // 2], x[0:n:2])  # the tail copy: every other element
    np.testing.assert_array_equal(y[32 + n // 2:], np.full(32 - n // 2, -1, np.float32))


def _as_class_members(call: str) -> str:
    # paramsMain / paramsTail as members of K instead of locals of Process, passed as `call` writes them
    source = SOURCE.replace("PRELUDE", "").replace(
        "        MultiCopyParams<T, 2> paramsMain;\n        MultiCopyParams<T, 2> paramsTail;\n", "")
    source = source.replace("SetLoopInfo(paramsMain.loopInfo, paramsTail.loopInfo, n);", call)
    return source.replace("    GlobalTensor<T> xGm, yGm;\n",
                          "    GlobalTensor<T> xGm, yGm;\n    MultiCopyParams<T, 2> paramsMain;\n"
                          "    MultiCopyParams<T, 2> paramsTail;\n")


# `this->paramsMain.loopInfo` names the same member as `paramsMain.loopInfo` in a method ([expr.prim.this],
# [class.mfct.non.static]/2). Before, the `this->` form was not taken: the callee wrote copies and both DataCopy
# moved nothing, with no finding (y stayed -1); the plain form already worked.
@pytest.mark.parametrize("call", ["SetLoopInfo(paramsMain.loopInfo, paramsTail.loopInfo, n);",
                                  "SetLoopInfo(this->paramsMain.loopInfo, this->paramsTail.loopInfo, n);"])
def test_members_of_the_object_are_filled_through_this(tmp_path: Path, call: str) -> None:
    path = tmp_path / "mcp.cpp"
    path.write_text(_as_class_members(call), encoding="utf-8")
    x = np.arange(64, dtype=np.float32)
    n = 8
    result = run(str(path), {"x": x}, chip="950PR", block_dim=1, tiling={"n": n}, outputs={"y": ((64,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    y = result.outputs["y"]
    np.testing.assert_array_equal(y[:2 * n], x[:2 * n])
    np.testing.assert_array_equal(y[32:32 + n // 2], x[0:n:2])
