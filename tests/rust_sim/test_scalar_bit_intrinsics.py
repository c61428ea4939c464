"""The scalar unit's bit intrinsics (issue 28): GetUintDivMagicAndShift (the 3510's multiply-high division
constants, GetUintDivMagicAndShiftImpl), GetBitCount / ScalarGetCountOfValue, CountLeadingZero /
ScalarCountLeadingZero, GetSFFValue, CountBitsCntSameAsSignBit (asc-devkit's 标量计算 pages). In the session-13
sweep GetUintDivMagicAndShift was an unresolved call in 9 files (91 instructions: transpose, eye, select, split_v,
deformable_offsets, ...), ScalarGetCountOfValue in 4 (29) and ScalarCountLeadingZero in 2 (9)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void sb(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<uint32_t> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ uint32_t *)x, 8);
    zGm.SetGlobalBuffer((__gm__ uint32_t *)z, 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8 * sizeof(uint32_t));
    LocalTensor<uint32_t> out = buf.Get<uint32_t>();
    uint32_t d = xGm.GetValue(0);
    uint32_t n = xGm.GetValue(1);
    uint32_t magic = 0;
    uint32_t shift = 0;
    GetUintDivMagicAndShift(magic, shift, d);
    // n / d as a multiply-high: (mulhi(n, magic) + n) >> shift
    uint32_t q = static_cast<uint32_t>(((static_cast<uint64_t>(n) * magic >> 32) + n) >> shift);
    out.SetValue(0, q);
    out.SetValue(1, static_cast<uint32_t>(ScalarGetCountOfValue<1>(n)));
    out.SetValue(2, static_cast<uint32_t>(ScalarCountLeadingZero(n)));
    out.SetValue(3, static_cast<uint32_t>(GetSFFValue<1>(n)));
    out.SetValue(4, static_cast<uint32_t>(CountBitsCntSameAsSignBit(static_cast<int64_t>(n))));
    out.SetValue(5, static_cast<uint32_t>(GetBitCount<0>(n)));
    out.SetValue(6, magic);
    out.SetValue(7, shift);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, out, 8);
}
"""


def test_division_magic_and_bit_counts(tmp_path: Path) -> None:
    path = tmp_path / "sb.cpp"
    path.write_text(KERNEL, encoding="utf-8")
    for d, n in [(7, 1_000_003), (1, 5), (64, 4095), (1000, 123_456_789), (2_147_483_647, 2_147_483_646)]:
        x = np.array([d, n, 0, 0, 0, 0, 0, 0], dtype=np.uint32)
        result = run(str(path), {"x": x}, chip="950PR", block_dim=1, outputs={"z": ((8,), "uint32")})
        assert result.ok, [str(f) for f in result.findings]
        z = result.outputs["z"]
        ones = bin(n).count("1")
        lowest = (n & -n).bit_length() - 1
        assert list(z[:6]) == [n // d, ones, 64 - n.bit_length(), lowest, 64 - n.bit_length() - 1, 64 - ones], (d, n)
