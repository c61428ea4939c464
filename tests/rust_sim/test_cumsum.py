"""AscendC::CumSum on the simulator: running sums along the last axis (each row) or the first (each column), as the
CumSumConfig template argument says (a constexpr struct; none: the library's default {true, false, true}), the last
row copied out when outputLastRow, summed in f32; and its temporary space: the caller's sharedTmpBuffer must hold
GetCumSumMaxMinTmpSize's minimum (2 * 16 * inner * sizeof(T) along the last axis), else an error at the call."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
{config_decl}
extern "C" __global__ __aicore__ void cumsum_k(GM_ADDR x, GM_ADDR y, GM_ADDR last, GM_ADDR workspace, GM_ADDR tiling)
{{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<{t}> xGm, yGm, lastGm;
    xGm.SetGlobalBuffer((__gm__ {t} *)x, td.rows * td.cols);
    yGm.SetGlobalBuffer((__gm__ {t} *)y, td.rows * td.cols);
    lastGm.SetGlobalBuffer((__gm__ {t} *)last, td.cols);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ, lastQ;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inQ, 1, td.rows * td.cols * sizeof({t}));
    pipe.InitBuffer(outQ, 1, td.rows * td.cols * sizeof({t}));
    pipe.InitBuffer(lastQ, 1, td.cols * sizeof({t}));
    pipe.InitBuffer(tmpBuf, td.tmpBytes);
    LocalTensor<{t}> xLocal = inQ.AllocTensor<{t}>();
    DataCopy(xLocal, xGm, td.rows * td.cols);
    inQ.EnQue(xLocal);
    xLocal = inQ.DeQue<{t}>();
    LocalTensor<{t}> yLocal = outQ.AllocTensor<{t}>();
    LocalTensor<{t}> lastLocal = lastQ.AllocTensor<{t}>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    const CumSumInfo info{{td.rows, td.cols}};
    {call};
    outQ.EnQue(yLocal);
    lastQ.EnQue(lastLocal);
    inQ.FreeTensor(xLocal);
    yLocal = outQ.DeQue<{t}>();
    DataCopy(yGm, yLocal, td.rows * td.cols);
    outQ.FreeTensor(yLocal);
    lastLocal = lastQ.DeQue<{t}>();
    DataCopy(lastGm, lastLocal, td.cols);
    lastQ.FreeTensor(lastLocal);
}}
"""


def simulate(tmp_path: Path, t: str, config: str | None, rows: int, cols: int, tmp_bytes: int,
             shared_tmp: bool = True) -> tuple[object, np.ndarray]:
    decl = f"constexpr CumSumConfig kConfig{{{config}}};" if config is not None else ""
    targs = f"{t}, kConfig" if config is not None else t
    args = "yLocal, lastLocal, xLocal, tmp, info" if shared_tmp else "yLocal, lastLocal, xLocal, info"
    src = tmp_path / "cumsum_k.cpp"
    src.write_text(KERNEL.format(config_decl=decl, t=t, call=f"CumSum<{targs}>({args})"), encoding="utf-8")
    dtype = np.float16 if t == "half" else np.float32
    x = np.random.default_rng(3).uniform(-1, 1, rows * cols).astype(dtype)
    result = run(str(src), {"x": x}, block_dim=1, tiling={"rows": rows, "cols": cols, "tmpBytes": tmp_bytes},
                 outputs={"y": ((rows * cols,), dtype.__name__), "last": ((cols,), dtype.__name__)})
    return result, x.reshape(rows, cols)


def test_last_axis_row_sums_in_float(tmp_path: Path) -> None:
    result, x = simulate(tmp_path, "float", "true, false, false", 4, 64, 2 * 16 * 64 * 4)
    # outputLastRow false: lastRow is not written, so copying it out reads memory nothing wrote
    assert [(d.code, "'last'" in d.message) for d in result.findings] == [("ASC952", True)], \
        [str(d) for d in result.findings]
    np.testing.assert_allclose(result.outputs["y"].reshape(4, 64), np.cumsum(x, axis=1, dtype=np.float32),
                               rtol=1e-6, atol=1e-6)


def test_first_axis_half_summed_in_float_with_the_last_row(tmp_path: Path) -> None:
    # half along the first axis: cast up, summed in f32, rounded once (tmp: rows * cols floats)
    result, x = simulate(tmp_path, "half", "false, false, true", 8, 32, 8 * 32 * 4)
    assert result.ok, [str(d) for d in result.findings]
    expected = np.cumsum(x.astype(np.float32), axis=0).astype(np.float16)
    np.testing.assert_array_equal(result.outputs["y"].reshape(8, 32), expected)
    np.testing.assert_array_equal(result.outputs["last"], expected[-1])


def test_default_config_is_last_axis_with_the_last_row(tmp_path: Path) -> None:
    result, x = simulate(tmp_path, "float", None, 2, 16, 2 * 16 * 16 * 4)
    assert result.ok, [str(d) for d in result.findings]
    expected = np.cumsum(x, axis=1, dtype=np.float32)
    np.testing.assert_allclose(result.outputs["y"].reshape(2, 16), expected, rtol=1e-6)
    np.testing.assert_allclose(result.outputs["last"], expected[-1], rtol=1e-6)


@pytest.mark.parametrize("tmp_bytes", [2 * 16 * 64 * 4 - 32, 32])
def test_a_shared_tmp_below_the_minimum_is_an_error_at_the_call(tmp_path: Path, tmp_bytes: int) -> None:
    result, _ = simulate(tmp_path, "float", "true, false, false", 4, 64, tmp_bytes)
    hits = [d for d in result.findings if d.code == "ASC959" and "CumSum" in d.message]
    assert hits and hits[0].severity == "error", [str(d) for d in result.findings]
    assert hits[0].span is not None and "CumSum<" in (tmp_path / "cumsum_k.cpp").read_text().splitlines()[
        hits[0].span.line - 1]


def test_a_shared_tmp_of_the_minimum_placed_past_ub_faults_at_the_call(tmp_path: Path) -> None:
    # cumsum_exclusive#3's case: rows of 2048 floats need 2 * 16 * 2048 * 4 = 256 KB of temporary space, which
    # the host sizes right, and the TPipe places past the end of the 192 KB UB (a warning at InitBuffer); the
    # library's transposes write there: ASC951 at the call
    result, _ = simulate(tmp_path, "float", "true, false, true", 1, 2048, 2 * 16 * 2048 * 4)
    hits = [d for d in result.findings if d.code == "ASC951" and d.severity == "error"]
    assert hits and "temporary buffer" in hits[0].message, [str(d) for d in result.findings]
