"""Arrays of catalogued parameter structs filled in a loop and read back by a run-time index (issue 28;
passes/sim/struct_array.py): `MultiCopyParams<T, 2> params_[2]` as a class member, `params_[k].loopInfo.loopSize[0]
= n` for each k, then `auto params = params_[k]; DataCopy<T, 2>(dst, src, params);` (ops-nn softplus_v2_grad's
nddmaParams_, fused_mul_apply_momentum). Before, the program stopped at the array ('the simulator does not model an
array of !ascendc.struct<'MultiCopyParams'>', ASC958) and wrote nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;
using T = float;

class K {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t n)
    {
        xGm.SetGlobalBuffer((__gm__ T *)x, 64);
        yGm.SetGlobalBuffer((__gm__ T *)y, 128);
        pipe.InitBuffer(buf, 128 * sizeof(T));
        for (int k = 0; k < 2; k++) {
            params_[k].loopInfo.loopSize[0] = n;
            params_[k].loopInfo.loopSize[1] = 2;
            params_[k].loopInfo.loopSrcStride[0] = 1;
            params_[k].loopInfo.loopSrcStride[1] = k * n;
            params_[k].loopInfo.loopDstStride[0] = 1;
            params_[k].loopInfo.loopDstStride[1] = n;
            params_[k].loopInfo.loopLpSize[0] = 0;
            params_[k].loopInfo.loopLpSize[1] = 0;
            params_[k].loopInfo.loopRpSize[0] = 0;
            params_[k].loopInfo.loopRpSize[1] = 0;
        }
    }
    __aicore__ inline void Process(uint32_t n)
    {
        LocalTensor<T> l = buf.Get<T>();
        Duplicate(l, (T)-1, 128);
        PipeBarrier<PIPE_ALL>();
        for (int k = 0; k < 2; k++) {
            auto params = params_[k];
            DataCopy<T, 2>(l[k * 2 * n], xGm, params);
        }
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm, l, 128);
    }
private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<T> xGm, yGm;
    MultiCopyParams<T, 2> params_[2];
};

extern "C" __global__ __aicore__ void mcp(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    K k;
    k.Init(x, y, td.n);
    k.Process(td.n);
}
"""


def test_each_element_keeps_its_own_loop_arrays(tmp_path: Path) -> None:
    path = tmp_path / "mcp.cpp"
    path.write_text(SOURCE, encoding="utf-8")
    x = np.arange(64, dtype=np.float32)
    n = 8
    result = run(str(path), {"x": x}, chip="950PR", block_dim=1, tiling={"n": n}, outputs={"y": ((128,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    y = result.outputs["y"]
    # element k: 2 rows of n, the second row read k * n further on (element 0: the first row twice)
    np.testing.assert_array_equal(y[:2 * n], np.concatenate([x[:n], x[:n]]))
    np.testing.assert_array_equal(y[2 * n:4 * n], x[:2 * n])
    np.testing.assert_array_equal(y[4 * n:], np.full(128 - 4 * n, -1, np.float32))


def test_a_copied_struct_has_arrays_of_its_own(tmp_path: Path) -> None:
    # `auto other = params; other.loopInfo.loopSize[0] = 1;` must leave params' loop as it was: the simulator
    # moved a struct into a variable by naming the source's arrays (passes/sim/struct_arrays.store_into), so the
    # copy called with params then moved 1 element per row instead of n
    source = SOURCE.replace("auto params = params_[k];", "auto params = params_[k];\n"
                            "            MultiCopyParams<T, 2> other = params;\n"
                            "            other.loopInfo.loopSize[0] = 1;")
    path = tmp_path / "mcp_copy.cpp"
    path.write_text(source, encoding="utf-8")
    x = np.arange(64, dtype=np.float32)
    n = 8
    result = run(str(path), {"x": x}, chip="950PR", block_dim=1, tiling={"n": n}, outputs={"y": ((128,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    y = result.outputs["y"]
    np.testing.assert_array_equal(y[:2 * n], np.concatenate([x[:n], x[:n]]))
    np.testing.assert_array_equal(y[2 * n:4 * n], x[:2 * n])
