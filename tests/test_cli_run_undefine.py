"""`ascendir run -U NAME`: undefine a macro the build defines, as `ascendc-check -U` does. A split chip's kernel is
run as its vector pass (`__DAV_C220_VEC__`, ascendir/chips kernel_defines); the cube pass of an AIC-only kernel
(ops-nn transpose_batch_mat_mul's utils/ branches) needs `-U __DAV_C220_VEC__ -D __DAV_C220_CUBE__`, which `run`
could not express (no -U: the vector branch always won)."""

from __future__ import annotations

import numpy as np
from click.testing import CliRunner

from cli.run import main

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void pass_kind(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xg, 64);
    PipeBarrier<PIPE_ALL>();
#if defined(__DAV_C220_VEC__)
    Adds(t, t, 1.0f, 64);
#else
    Muls(t, t, 2.0f, 64);
#endif
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, t, 64);
}
"""


def _run(tmp_path, *extra: str) -> np.ndarray:
    source = tmp_path / "pass_kind.cpp"
    source.write_text(KERNEL)
    x = np.arange(64, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [str(source), "--input", str(tmp_path / "x.npy"), "--output", "y=64:float32",
                                       "--block-dim", "1", "--output-dir", str(out), *extra])
    assert result.exit_code == 0, result.output
    return np.load(out / "y.npy")


def test_undefine_removes_a_macro_the_build_defines(tmp_path) -> None:
    x = np.arange(64, dtype=np.float32)
    assert np.array_equal(_run(tmp_path), x + 1)  # the vector pass, by default
    assert np.array_equal(_run(tmp_path, "-U", "__DAV_C220_VEC__"), x * 2)
