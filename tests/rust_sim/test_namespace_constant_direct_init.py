"""A namespace-scope constant direct-initialised with parentheses ([dcl.init]/16.6: `T x(args);`), as ops-nn's
mat_mul_nd2nz_util.h declares `constexpr TransDataTo5HDParams PARA_ONE(false, false, 1, 0, 0);`. Before, the
lowering read only `= value` / `{...}` initialisers and stopped at the first use ("global variable 'PARA_ONE' is
not a constant"); the parenthesised arguments are the struct's constructor arguments, as for a local."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
constexpr DataCopyParams ONE_BLOCK(1, 1, 0, 0);
constexpr int32_t SCALE(3);
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    GlobalTensor<int32_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ int32_t *)x, 8);
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    LocalTensor<int32_t> t = buf.Get<int32_t>();
    DataCopy(t, xGm, ONE_BLOCK);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, SCALE, 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, ONE_BLOCK);
}
"""


def test_parenthesised_namespace_constants_are_their_constructor_arguments(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    x = np.arange(8, dtype=np.int32) - 2
    result = run(str(src), {"x": x}, block_dim=1, outputs={"y": ((8,), "int32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], x * 3)
