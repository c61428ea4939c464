"""int4b_t tensors on the simulator (rust_sim/src/int4.rs): two 4-bit two's-complement elements per byte, the
even element in the low nibble (asc-devkit kernel_tensor_impl.h). A `__gm__ int4b_t*` steps whole bytes (its C++
sizeof is 1), a tensor's element offset and count are halved into bytes, Cast half -> int4b_t rounds with its
mode and saturates to [-8, 7], and DataCopyPad's blockLen counts bytes. The calls that do not take int4b_t are a
gap at their line. Before, any tensor of int4b_t was a gap where it was made (ops-nn rms_norm_quant stopped at its
GlobalTensor<int4b_t>, made on every path)."""

from __future__ import annotations

import numpy as np

from passes.sim.launch import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void pack_int4(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, 64 * sizeof(half));
    pipe.InitBuffer(outQ, 1, 64 / 2);
    GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 64);
    GlobalTensor<int4b_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int4b_t *)y + 16, 64);  // 16 bytes on: 32 elements
    LocalTensor<half> xl = inQ.AllocTensor<half>();
    DataCopy(xl, xGm, 64);
    inQ.EnQue(xl);
    LocalTensor<half> xi = inQ.DeQue<half>();
    LocalTensor<int4b_t> yl = outQ.AllocTensor<int4b_t>();
    Cast(yl, xi, RoundMode::CAST_RINT, 64);
    outQ.EnQue(yl);
    LocalTensor<int4b_t> yo = outQ.DeQue<int4b_t>();
    DataCopyParams p;
    p.blockCount = 1;
    p.blockLen = 32 / 2;
    DataCopyPad(yGm[0], yo, p);
    DataCopyPad(yGm[32], yo[32], p);
    outQ.FreeTensor(yo);
    inQ.FreeTensor(xi);
}
"""


def _unpack(packed: np.ndarray) -> np.ndarray:
    low = (packed & 0xF).astype(np.int8)
    high = (packed >> 4).astype(np.int8)
    pairs = np.stack([low, high], axis=-1).reshape(-1)
    return np.where(pairs > 7, pairs - 16, pairs)


def test_half_to_int4_packs_two_elements_a_byte_low_nibble_first() -> None:
    x = (np.arange(64) % 16 - 8 + 0.5).astype(np.float16)  # -7.5 .. 7.5: ties both ways, 7.5 saturates
    result = run(KERNEL, {"x": x}, block_dim=1, outputs={"y": ((48,), "uint8")}, outputs_initialised=True)
    assert not result.errors, result.findings
    y = result.outputs["y"]
    assert (y[:16] == 0).all()  # the pointer stepped 16 bytes
    want = np.clip(np.rint(x.astype(np.float64)), -8, 7)  # numpy's rint: ties to even, as CAST_RINT
    np.testing.assert_array_equal(_unpack(y[16:]), want)
    assert y[16] == 0xA8  # -8 in the low nibble, -6 in the high one


def _gap_line(kernel: str, line: str) -> str:
    """The message of the first ASC958, which must be at `line` of `kernel`."""
    result = run(kernel, {"x": np.zeros(64, np.float16)}, block_dim=1, outputs={"y": ((48,), "uint8")})
    gaps = [f for f in result.findings if f.code == "ASC958"]
    assert gaps, result.findings
    assert gaps[0].span is not None and gaps[0].span.line == kernel.splitlines().index(line) + 1
    return gaps[0].message


def test_a_call_that_does_not_take_int4_is_a_gap_at_its_line() -> None:
    line = "    Abs(yl, yl, 64);"
    assert "int4b_t" in _gap_line(KERNEL.replace("    outQ.EnQue(yl);", line + "\n    outQ.EnQue(yl);"), line)


def test_an_int4_scalar_is_a_gap_at_its_line() -> None:
    # the scalar registers have no 4-bit type: this was 'internal error: unknown scalar type i4', no location
    line = "    Adds(yl, yl, (int4b_t)1, 64);"
    assert "i4" in _gap_line(KERNEL.replace("    outQ.EnQue(yl);", line + "\n    outQ.EnQue(yl);"), line)
