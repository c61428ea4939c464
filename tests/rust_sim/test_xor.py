"""AscendC::Xor on the simulator: bitwise exclusive or of int16_t / uint16_t tensors, computed as the library does
on 220x in pieces of the sharedTmpBuffer: dst = src0 & src1, tmp = src0 | src1, dst = tmp & ~dst. With distinct
tensors that is the xor; with dst over src0 the Or reads the And's result, and the hardware gives src1 & ~src0,
which the simulator reproduces. Before Xor was simulated every call stopped the run (ASC958)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void xor_k(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<{t}> aGm, bGm, yGm;
    aGm.SetGlobalBuffer((__gm__ {t} *)a, td.n);
    bGm.SetGlobalBuffer((__gm__ {t} *)b, td.n);
    yGm.SetGlobalBuffer((__gm__ {t} *)y, td.n);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> aQ, bQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(aQ, 1, td.n * sizeof({t}));
    pipe.InitBuffer(bQ, 1, td.n * sizeof({t}));
    pipe.InitBuffer(outQ, 1, td.n * sizeof({t}));
    pipe.InitBuffer(tmpBuf, td.tmpBytes);
    LocalTensor<{t}> aLocal = aQ.AllocTensor<{t}>();
    LocalTensor<{t}> bLocal = bQ.AllocTensor<{t}>();
    DataCopy(aLocal, aGm, td.n);
    DataCopy(bLocal, bGm, td.n);
    aQ.EnQue(aLocal);
    bQ.EnQue(bLocal);
    aLocal = aQ.DeQue<{t}>();
    bLocal = bQ.DeQue<{t}>();
    LocalTensor<{t}> yLocal = outQ.AllocTensor<{t}>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    {call};
    PipeBarrier<PIPE_V>();
    {copy}
    outQ.EnQue(yLocal);
    aQ.FreeTensor(aLocal);
    bQ.FreeTensor(bLocal);
    yLocal = outQ.DeQue<{t}>();
    DataCopy(yGm, yLocal, td.n);
    outQ.FreeTensor(yLocal);
}}
"""


def simulate(tmp_path: Path, t: str, call: str, result: str, a: np.ndarray, b: np.ndarray, tmp_bytes: int = 128):
    src = tmp_path / "xor_k.cpp"
    copy = "" if result == "yLocal" else f"DataCopy(yLocal, {result}, td.n);"
    src.write_text(KERNEL.format(t=t, call=call, copy=copy), encoding="utf-8")
    return run(str(src), {"a": a, "b": b}, block_dim=1, tiling={"n": len(a), "tmpBytes": tmp_bytes},
               outputs={"y": ((len(a),), a.dtype.name)})


@pytest.mark.parametrize(("t", "np_t"), [("int16_t", np.int16), ("uint16_t", np.uint16)])
def test_xor_in_pieces_of_the_tmp_buffer(tmp_path: Path, t: str, np_t: type) -> None:
    # 128 bytes of tmp: pieces of 64 elements; 176 = 2 pieces and a tail of 48; the last 16 stay untouched
    rng = np.random.default_rng(8)
    a = rng.integers(np.iinfo(np_t).min, np.iinfo(np_t).max, 192, dtype=np_t, endpoint=True)
    b = rng.integers(np.iinfo(np_t).min, np.iinfo(np_t).max, 192, dtype=np_t, endpoint=True)
    result = simulate(tmp_path, t, "Xor(aLocal, aLocal, bLocal, tmp, 176)",
                      "aLocal", a, b)
    assert result.ok, [str(d) for d in result.findings]
    # dst over src0 (the first call): src1 & ~src0, not the xor
    want = a.copy()
    want[:176] = b[:176] & ~a[:176]
    np.testing.assert_array_equal(result.outputs["y"], want)


def test_whole_form_dst_over_src1_and_no_tmp(tmp_path: Path) -> None:
    # dst over src1: the And leaves a & b there, the Or gives a | (a & b) = a, then a & ~(a & b) = a & ~b
    a = np.arange(-64, 64, dtype=np.int16) * 517
    b = np.arange(128, dtype=np.int16) * -301
    result = simulate(tmp_path, "int16_t", "Xor(bLocal, aLocal, bLocal)", "bLocal", a.copy(), b)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], a & ~b)


def test_a_tmp_buffer_under_64_bytes_is_reported(tmp_path: Path) -> None:
    a = np.zeros(64, np.int16)
    result = simulate(tmp_path, "int16_t", "Xor(yLocal, aLocal, bLocal, tmp, 64)", "yLocal", a, a, tmp_bytes=32)
    hits = [d for d in result.findings if d.code == "ASC959" and "Xor" in d.message]
    assert hits, [str(d) for d in result.findings]


def test_xor_of_distinct_tensors(tmp_path: Path) -> None:
    a = np.arange(-64, 64, dtype=np.int16) * 517
    b = np.arange(128, dtype=np.int16) * -301
    result = simulate(tmp_path, "int16_t", "Xor(yLocal, aLocal, bLocal, 128)", "yLocal", a, b)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], a ^ b)
