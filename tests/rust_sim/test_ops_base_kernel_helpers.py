"""ops-base's kernel helpers (issue 28, session 13): `Ops::Base::CeilDiv / CeilAlign / FloorDiv / FloorAlign`
(op_kernel/math_util.h) and `Ops::Base::GetUbBlockSize() / GetVRegSize()` (op_kernel/platform_util.h), which the
ops repositories' kernels include from ops-base, out of an op folder's reach. Before, each was an unresolved call
and the core stopped at the first (ASC958 'the call of GetUbBlockSize, which the lowering could not resolve').
The values below are the headers' formulas worked by hand: CeilDiv computes in uint32_t for a 16-bit T (so 65535
rounds up to 32768, where uint16_t arithmetic would wrap to 0) and in uint64_t otherwise (so an int32_t -7 over 2
is -3 after the conversion back); GetVRegSize is the register width on the 950 and 256 elsewhere."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
#include "op_kernel/platform_util.h"
#include "op_kernel/math_util.h"
using namespace AscendC;
constexpr uint32_t BLOCK = Ops::Base::GetUbBlockSize();

extern "C" __global__ __aicore__ void ops_base(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int32_t> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ int32_t *)x, 8);
    zGm.SetGlobalBuffer((__gm__ int32_t *)z, 8);
    int64_t n = xGm.GetValue(0);
    uint16_t big = static_cast<uint16_t>(xGm.GetValue(1));
    int32_t neg = xGm.GetValue(2);
    zGm.SetValue(0, static_cast<int32_t>(Ops::Base::CeilDiv(n, static_cast<int64_t>(BLOCK))));
    zGm.SetValue(1, static_cast<int32_t>(Ops::Base::CeilAlign(n, static_cast<int64_t>(BLOCK))));
    zGm.SetValue(2, static_cast<int32_t>(Ops::Base::FloorAlign(n, static_cast<int64_t>(BLOCK))));
    zGm.SetValue(3, static_cast<int32_t>(Ops::Base::FloorDiv<int64_t>(n, 7)));
    zGm.SetValue(4, static_cast<int32_t>(Ops::Base::CeilDiv(big, static_cast<uint16_t>(2))));
    zGm.SetValue(5, Ops::Base::CeilDiv(neg, 2));
    zGm.SetValue(6, static_cast<int32_t>(Ops::Base::GetVRegSize()));
    zGm.SetValue(7, static_cast<int32_t>(BLOCK));
}
"""


@pytest.mark.parametrize("chip", ["950PR", "910B2"])
def test_ops_base_kernel_helpers_compute_as_their_headers(tmp_path: Path, chip: str) -> None:
    src = tmp_path / "ops_base.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    x = np.array([100, 65535, -7, 0, 0, 0, 0, 0], np.int32)
    result = run(str(src), {"x": x}, chip=chip, block_dim=1, outputs={"z": ((8,), "int32")})
    assert result.ok, [str(d) for d in result.findings]
    # 100 in blocks of 32: 4 blocks, 128 aligned up, 96 down; 100 / 7 = 14; (65535 + 1) / 2 in uint32_t; -7 / 2
    # rounded up to -3 through uint64_t; the 950's register is 256 bytes (its chip file), 256 elsewhere by the header
    np.testing.assert_array_equal(result.outputs["z"], [4, 128, 96, 14, 32768, -3, 256, 32])
