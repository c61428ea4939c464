"""AscendC::PhiloxRandom on the simulator (Ascend 950: the 220x library compiles it to nothing): Philox4x32 with
the library's Rounds (default 7), element e the word e % 4 of the block of counter + e / 4, a float the 23 low
bits as a mantissa in [1, 2) minus 1, and PhiloxRandomParams rows packed in dst taken every stride elements of
the stream. The reference below is the published Philox4x32 round (Salmon et al., SC'11) written here in
Python; the Rust side is also checked against Random123's known answers (cargo test). Before PhiloxRandom was
simulated the call stopped the run (ASC958)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void ph_k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<{t}> yGm;
    yGm.SetGlobalBuffer((__gm__ {t} *)y, td.n);
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(outQ, 1, td.n * 4);
    LocalTensor<{t}> yLocal = outQ.AllocTensor<{t}>();
    uint32_t key[2] = {{{k0}u, {k1}u}};
    uint32_t ctr[4] = {{{c0}u, {c1}u, {c2}u, {c3}u}};
    {call};
    outQ.EnQue(yLocal);
    yLocal = outQ.DeQue<{t}>();
    DataCopy(yGm, yLocal, td.n);
    outQ.FreeTensor(yLocal);
}}
"""

M0, M1, B0, B1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
MASK = 0xFFFFFFFF


def block(c: list[int], k: list[int], rounds: int) -> list[int]:
    c, k = list(c), list(k)
    for r in range(rounds):
        if r:
            k = [(k[0] + B0) & MASK, (k[1] + B1) & MASK]
        p0, p1 = c[0] * M0, c[2] * M1
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & MASK, (p0 >> 32) ^ c[3] ^ k[1], p0 & MASK]
    return c


def stream(ctr: list[int], key: list[int], rounds: int, n: int) -> np.ndarray:
    base = ctr[0] | ctr[1] << 32 | ctr[2] << 64 | ctr[3] << 96
    out = []
    for b in range(-(-n // 4)):
        v = (base + b) & ((1 << 128) - 1)
        out += block([(v >> s) & MASK for s in (0, 32, 64, 96)], key, rounds)
    return np.array(out[:n], dtype=np.uint32)


def simulate(tmp_path: Path, t: str, call: str, n: int, key: list[int], ctr: list[int]):
    src = tmp_path / "ph_k.cpp"
    src.write_text(KERNEL.format(t=t, call=call, k0=key[0], k1=key[1], c0=ctr[0], c1=ctr[1], c2=ctr[2],
                                 c3=ctr[3]), encoding="utf-8")
    np_t = {"uint32_t": "uint32", "int32_t": "int32", "float": "float32"}[t]
    return run(str(src), {}, chip="950PR", block_dim=1, tiling={"n": n}, outputs={"y": ((n,), np_t)})


@pytest.mark.parametrize("rounds", [7, 10])
def test_count_form_is_the_philox_stream(tmp_path: Path, rounds: int) -> None:
    # a counter whose low word carries after 1 block; 136 = 34 blocks (two vector passes and a tail)
    key, ctr, n = [0x12345678, 0x9ABCDEF0], [0xFFFFFFFF, 7, 0, 1], 136
    targ = "" if rounds == 7 else f"<{rounds}>"
    result = simulate(tmp_path, "uint32_t", f"PhiloxRandom{targ}(yLocal, key, ctr, (uint16_t){n})", n, key, ctr)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], stream(ctr, key, rounds, n))


def test_params_form_float_rows_stride_apart(tmp_path: Path) -> None:
    # 3 rows of 8, taken every 12 elements of the stream, packed in dst; floats in [0, 1)
    key, ctr = [1, 2], [3, 0, 0, 0]
    stride, rows, cols = 12, 3, 8
    call = f"PhiloxRandomParams p{{{stride}, {rows}, {cols}}};\n    PhiloxRandom<10>(yLocal, key, ctr, p)"
    result = simulate(tmp_path, "float", call, rows * cols, key, ctr)
    assert result.ok, [str(d) for d in result.findings]
    words = stream(ctr, key, 10, rows * stride).reshape(rows, stride)[:, :cols].reshape(-1)
    want = ((words & 0x7FFFFF) | 0x3F800000).view(np.float32) - np.float32(1)
    np.testing.assert_array_equal(result.outputs["y"], want)
    assert (want >= 0).all() and (want < 1).all()
