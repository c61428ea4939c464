"""Absurd tiling values given to this session's new high-level APIs end in a finding, never a panic (which the
extension turns into 'the simulator failed (a bug)', a RuntimeError out of run()) nor a hang or an allocation of
the size they name. Each case is one the simulator panicked on, or ran away with, before its fix; the kernels are
the APIs' own test kernels with the shape fields set to values no host tiling produces."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run
from tests.rust_sim import test_ascend_dequant, test_ascend_quant, test_dropout, test_philox_random, test_xor

U32_MAX = 0xFFFFFFFF


def codes(result) -> list[str]:
    return [d.code for d in result.findings]


def test_dropout_mask_rows_shorter_than_their_used_bytes(tmp_path: Path) -> None:
    # srcLastAxis 512 with maskLastAxis 32: not 8 * 32, so the bit-misaligned mode 4, whose rows use 64 bytes
    # of a 32-byte mask row; GatherMask's packing indexed past the mask (a panic)
    x = np.ones(512, np.float32)
    mask = np.full(32, 0xFF, np.uint8)
    result = test_dropout.simulate(tmp_path, "float", x, mask, 1, 512, 32, 0.5)
    hits = [d for d in result.findings if d.code == "ASC959" and "DropOut" in d.message]
    assert hits and "no more than the row" in hits[0].message, [str(d) for d in result.findings]


@pytest.mark.parametrize(("rows", "src_last", "mask_last"), [
    (U32_MAX, U32_MAX, U32_MAX),  # byte-aligned: rows * srcLastAxis * 4 bytes past usize
    (U32_MAX, 64, 64),  # fits usize: the mask read past the tensor is reported
    (0, 64, 64),  # nothing to do
    (2, 0, 32),  # srcLastAxis 0 < maskLastAxis: misaligned byte mode with 0 used bytes
])
def test_dropout_absurd_shapes(tmp_path: Path, rows: int, src_last: int, mask_last: int) -> None:
    x = np.ones(64, np.float32)
    mask = np.ones(64, np.uint8)
    result = test_dropout.simulate(tmp_path, "float", x, mask, rows, src_last, mask_last, 0.5)
    assert result.findings is not None  # reaching here: run() returned, no panic
    if rows * src_last > 64:
        assert {"ASC959", "ASC951", "ASC950"} & set(codes(result)), [str(d) for d in result.findings]


@pytest.mark.parametrize(("stride", "rows", "cols"), [
    (0xFFFFFFFC, 0x40000000, 0xFFFFFFFC),  # 2^62 elements: 4 bytes each past isize (a capacity-overflow panic)
    (0xFFFFFFFC, 0xFFFFFFFC, 0xFFFFFFFC),  # row * column * 4 past usize
    (8, 0x01000000, 8),  # 2^27 elements: 512 MiB computed before dst's range was checked
])
def test_philox_params_past_dst(tmp_path: Path, stride: int, rows: int, cols: int) -> None:
    call = f"PhiloxRandomParams p{{{stride}u, {rows}u, {cols}u}};\n    PhiloxRandom<10>(yLocal, key, ctr, p)"
    result = test_philox_random.simulate(tmp_path, "uint32_t", call, 64, [1, 2], [3, 0, 0, 0])
    assert {"ASC959", "ASC951", "ASC950"} & set(codes(result)), [str(d) for d in result.findings]


RMS_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void rms_k(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 256);
    yGm.SetGlobalBuffer((__gm__ half *)y, 256);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, yBuf, gBuf;
    pipe.InitBuffer(xBuf, 512);
    pipe.InitBuffer(yBuf, 512);
    pipe.InitBuffer(gBuf, 512);
    LocalTensor<half> xLocal = xBuf.Get<half>();
    LocalTensor<half> yLocal = yBuf.Get<half>();
    LocalTensor<half> gLocal = gBuf.Get<half>();
    DataCopy(xLocal, xGm, 256);
    DataCopy(gLocal, xGm, 256);
    PipeBarrier<PIPE_ALL>();
    RmsNormTiling t;
    t.bLength = td.b;
    t.sLength = td.s;
    t.hLength = td.h;
    t.originalHLength = td.h;
    t.reciprocalOfHLength = 0.0625f;
    t.mainBshLength = td.h;
    t.mainBsLength = 1;
    t.mainBsLengthAlign = 8;
    RmsNorm<half>(yLocal, xLocal, gLocal, (half)0.0001, t);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yLocal, 256);
}
"""


@pytest.mark.parametrize(("b", "s", "h", "ok"), [
    (1, 16, 16, True),  # the kernel as meant: 16 rows of 16 halves
    (1 << 29, 1 << 30, 16, False),  # 2^63 halves, 2^64 bytes: wrapped to 0, the size checks passed and the
    # read panicked
    (1 << 29, 1 << 29, 16, False),  # 2^63 bytes: no wrap, too big for src (reported before the fix too)
    (U32_MAX, U32_MAX, U32_MAX, False),  # past u64 before the element size
    (0, 16, 16, True),  # no rows: nothing to do
])
def test_rms_norm_shape_past_any_tensor(tmp_path: Path, b: int, s: int, h: int, ok: bool) -> None:
    src = tmp_path / "rms_k.cpp"
    src.write_text(RMS_KERNEL, encoding="utf-8")
    x = np.full(256, 0.5, np.float16)
    result = run(str(src), {"x": x}, block_dim=1, tiling={"b": b, "s": s, "h": h},
                 outputs={"y": ((256,), "float16")})
    hits = [d for d in result.findings if d.code == "ASC959" and "RmsNorm" in d.message]
    assert bool(hits) != ok, [str(d) for d in result.findings]


@pytest.mark.parametrize("params", [
    "{2147483648u, 2147483648u, 8}",  # 2^62 int32_t: 2^64 bytes, wrapped to 0: nothing dequantised, no finding
    "{4294967295u, 4294967288u, 8}",  # the read past the source is reported (ASC951)
])
def test_dequant_params_past_any_tensor(tmp_path: Path, params: str) -> None:
    x = np.arange(8, dtype=np.int32)
    s = np.ones(8, np.float32)
    result, _ = test_ascend_dequant.simulate(tmp_path, "float", "float", f"AscendDequant(yLocal, xLocal, sLocal, "
                                             f"{params})", x, s, 1, 8)
    assert {"ASC959", "ASC951"} & set(codes(result)), [str(d) for d in result.findings]


LN_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void ln_k(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 256);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, yBuf, gBuf, bBuf, mBuf, vBuf;
    pipe.InitBuffer(xBuf, 1024);
    pipe.InitBuffer(yBuf, 1024);
    pipe.InitBuffer(gBuf, 256);
    pipe.InitBuffer(bBuf, 256);
    pipe.InitBuffer(mBuf, 32);
    pipe.InitBuffer(vBuf, 32);
    LocalTensor<float> xLocal = xBuf.Get<float>();
    LocalTensor<float> yLocal = yBuf.Get<float>();
    LocalTensor<float> gLocal = gBuf.Get<float>();
    LocalTensor<float> bLocal = bBuf.Get<float>();
    LocalTensor<float> mLocal = mBuf.Get<float>();
    LocalTensor<float> vLocal = vBuf.Get<float>();
    DataCopy(xLocal, xGm, 256);
    DataCopy(gLocal, xGm, 64);
    DataCopy(bLocal, xGm, 64);
    PipeBarrier<PIPE_ALL>();
    LayerNormTiling t;
    t.hLength = 64;
    t.inputXSize = 256;
    t.meanVarSize = 8;
    t.tmpBufSize = 0;
    t.loopRound = td.loops;
    t.inputRoundSize = td.step;
    t.inputTailSize = td.tail;
    t.inputTailPos = td.tailPos;
    t.meanVarRoundSize = td.rows;
    t.meanVarTailSize = td.tail / 64;
    t.meanVarTailPos = 0;
    t.bshCurLength = td.rows * 64;
    t.bsCurLength = td.rows;
    t.lastDimValueBack = 0.015625f;
    t.oneTmpSize = 256;
    LayerNorm<float>(yLocal, mLocal, vLocal, xLocal, gLocal, bLocal, (float)0.00001, t);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yLocal, 256);
}
"""


@pytest.mark.parametrize(("loops", "step", "rows", "tail", "tail_pos", "ok"), [
    (1, 256, 4, 0, 0, True),  # one pass of the 4 rows, as GetLayerNormNDTilingInfo plans it
    (U32_MAX, 0, 1, 0, 0, False),  # 2^32 - 1 passes over row 0: a pass list of that length was built, and run
    (2, 128, 2, 64, U32_MAX, False),  # a tail past inputXSize
    (1, 256, U32_MAX, 0, 0, False),  # rows * hLength past inputXSize
])
def test_layer_norm_plan_past_input_x_size(tmp_path: Path, loops: int, step: int, rows: int, tail: int,
                                           tail_pos: int, ok: bool) -> None:
    src = tmp_path / "ln_k.cpp"
    src.write_text(LN_KERNEL, encoding="utf-8")
    x = np.linspace(-1, 1, 256, dtype=np.float32)
    result = run(str(src), {"x": x}, block_dim=1,
                 tiling={"loops": loops, "step": step, "rows": rows, "tail": tail, "tailPos": tail_pos},
                 outputs={"y": ((256,), "float32")})
    hits = [d for d in result.findings if d.code == "ASC959" and "LayerNorm" in d.message]
    assert bool(hits) != ok, [str(d) for d in result.findings]


@pytest.mark.parametrize("count", ["4294967295u", "0", "2147483648u"])
def test_xor_absurd_counts(tmp_path: Path, count: str) -> None:
    a = np.arange(64, dtype=np.int16)
    result = test_xor.simulate(tmp_path, "int16_t", f"Xor(yLocal, aLocal, bLocal, tmp, {count})", "yLocal", a, a)
    if count != "0":
        assert {"ASC959", "ASC951"} & set(codes(result)), [str(d) for d in result.findings]


@pytest.mark.parametrize("call", [
    "AscendQuant(yLocal, xLocal, tmp, (float)1.0f, (float)0.0f, 4294967295u)",  # calCount past src
    "AscendQuant(yLocal, xLocal, tmp, (float)1.0f, (float)0.0f, 0)",
    "AscendQuant(yLocal, xLocal, tmp, sLocal, (float)1.5, 4294967295u, 4294967295u)",  # scaleCount past scale
    "AscendQuant(yLocal, xLocal, tmp, sLocal, (float)1.5, 0, 64)",  # scaleCount 0
])
def test_quant_absurd_counts(tmp_path: Path, call: str) -> None:
    x = np.ones(64, np.float32)
    s = np.ones(16, np.float32)
    result = test_ascend_quant.simulate(tmp_path, "float", call, x, s, s)
    assert {"ASC959", "ASC951"} & set(codes(result)), [str(d) for d in result.findings]
