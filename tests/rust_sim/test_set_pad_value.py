"""SetPadValue: asc-devkit's SetPadValue<T> (impl/basic_api/kernel_operator_data_copy_intf_impl.h:1758-1778)
calls set_mov_pad_val(GetScalarBitcodeValue((T)paddingValue)) on a vector core, and DataCopyPad GM -> UB with
isPad false pads with that register (isPad true writes its own value into it first, dav_c220
kernel_operator_data_copy_impl.h:460-461 and 509-510). Before, the simulator did not model SetPadValue and left
isPad-false padding unwritten (bench/README.md, session 9 engineer W), so reading it back was ASC952.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void padreg(GM_ADDR x, GM_ADDR h, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                             GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 4096);
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<half> hGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 12);
    hGm.SetGlobalBuffer((__gm__ half *)h, 12);
    yGm.SetGlobalBuffer((__gm__ float *)y, 16);
    zGm.SetGlobalBuffer((__gm__ half *)z, 32);
    LocalTensor<float> fbuf = ub.Get<float>();
    LocalTensor<half> hbuf = ub.Get<half>()[128];
    // two rows of 6 floats, 1 + 1 floats of padding and no value of their own (isPad false): 32 bytes a row
    SetPadValue(37.0f);
    DataCopyExtParams rows{2, 6 * sizeof(float), 0, 0, 0};
    DataCopyPadExtParams<float> noValue{false, 1, 1, 0.0f};
    DataCopyPad(fbuf, xGm, rows, noValue);
    // halves: the register set as a half (-3.5), two rows of 6 with 2 + 3 of padding: 22 bytes, 10 of dummy
    SetPadValue<half>(-3.5);
    DataCopyExtParams hrows{2, 6 * sizeof(half), 0, 0, 0};
    DataCopyPadExtParams<half> hNoValue{false, 2, 3, 0};
    DataCopyPad(hbuf, hGm, hrows, hNoValue);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, fbuf, 16);
    DataCopy(zGm, hbuf, 32);
}
"""


def test_is_pad_false_pads_with_the_set_pad_value_register() -> None:
    x = (np.arange(12, dtype=np.float32) + 1) * np.float32(0.5)
    h = (np.arange(12, dtype=np.float16) + 1) * np.float16(0.25)
    result = run(KERNEL, {"x": x, "h": h}, block_dim=1,
                 outputs={"y": ((16,), "float32"), "z": ((32,), "float16")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    want_y = np.concatenate([np.concatenate([[37.0], row, [37.0]]) for row in x.reshape(2, 6)])
    np.testing.assert_array_equal(result.outputs["y"], want_y.astype(np.float32))
    # each half row: 2 pads, 6 values, 3 pads (11 halves), then 5 dummy halves: the register's value again
    want_z = np.concatenate([np.concatenate([[-3.5] * 2, row, [-3.5] * 8]) for row in h.reshape(2, 6)])
    np.testing.assert_array_equal(result.outputs["z"], want_z.astype(np.float16))


DEVKIT = Path(os.environ.get("ASC_DEVKIT", "/work/ext/real/asc-devkit"))
DATA_COPY_PAD = DEVKIT / ("examples/01_simd_cpp_api/03_basic_api/00_data_movement/data_copy_pad_gm2ub_ub2gm/"
                          "data_copy_pad.asc")


@pytest.mark.skipif(not DATA_COPY_PAD.is_file(), reason=f"no asc-devkit checkout at {DEVKIT} (set ASC_DEVKIT)")
def test_asc_devkit_data_copy_pad_scenario_1() -> None:
    """The example's scenario 1: [1, 20] halves copied into a row of 32 after SetPadValue((T)1) with isPad false
    and rightPadding 12: the 12 padding elements read back as 1 (ASC958 at SetPadValue before)."""
    x = np.arange(20, dtype=np.float16) + 2
    result = run(str(DATA_COPY_PAD), [x], block_dim=1, defines={"SCENARIO_NUM": "1"},
                 outputs={"z": np.zeros(32, np.float16)})
    assert result.ok, result.findings
    np.testing.assert_array_equal(result.outputs["z"], np.concatenate([x, np.ones(12, np.float16)]))
