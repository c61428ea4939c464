"""DataCopyPad's padding value: DataCopyPadParams (the DataCopyParams overload) holds it in a uint64_t, and
asc-devkit's DataCopyPadGm2UBImpl (impl/basic_api/dav_c220/kernel_operator_data_copy_impl.h) hands that field to
set_mov_pad_val as it is, so the element gets the value's low bits: {true, 2, 2, 0xBF800000} pads a float row
with -1.0f (0xBF800000 is its bit pattern), and 0xBC00 pads a half row with -1.0. DataCopyPadExtParams<T>
(the DataCopyExtParams overload) holds a T, which the library passes as GetScalarBitcodeValue(T(value)): a number
converted to T. Before, the simulator converted the uint64_t field to the element type as a number (3.2128369e9
for the float case; engineer V, bench/README.md "Vendor op projects end to end (issue 28)").
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void padbits(GM_ADDR x, GM_ADDR h, GM_ADDR y, GM_ADDR z, GM_ADDR w,
                                              GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 4096);
    GlobalTensor<float> xGm, yGm, wGm;
    GlobalTensor<half> hGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 16);
    hGm.SetGlobalBuffer((__gm__ half *)h, 16);
    yGm.SetGlobalBuffer((__gm__ float *)y, 32);
    zGm.SetGlobalBuffer((__gm__ half *)z, 32);
    wGm.SetGlobalBuffer((__gm__ float *)w, 16);
    LocalTensor<float> fbuf = ub.Get<float>();
    LocalTensor<half> hbuf = ub.Get<half>()[128];
    LocalTensor<float> wbuf = ub.Get<float>()[128];
    // two rows of 8 floats, 2 + 2 floats of padding with the bits 0xBF800000 (-1.0f); 48 bytes a row, so the
    // last 16 bytes of each 64-byte row are dummy data: the pad value again
    DataCopyParams rows{2, 8 * sizeof(float), 0, 0};
    DataCopyPadParams minusOne{true, 2, 2, 0xBF800000};
    DataCopyPad(fbuf, xGm, rows, minusOne);
    // two rows of 8 halves, 1 + 3 halves of padding with the bits 0xBC00 (half -1.0): 24 bytes of a 32-byte row
    DataCopyParams hrows{2, 8 * sizeof(half), 0, 0};
    DataCopyPadParams hMinusOne{true, 1, 3, 0xBC00};
    DataCopyPad(hbuf, hGm, hrows, hMinusOne);
    // the ExtParams form holds a float: 2.0f is the number 2
    DataCopyExtParams one{1, 8 * sizeof(float), 0, 0, 0};
    DataCopyPadExtParams<float> two{true, 0, 2, 2.0f};
    DataCopyPad(wbuf, xGm, one, two);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, fbuf, 32);
    DataCopy(zGm, hbuf, 32);
    DataCopy(wGm, wbuf, 16);
}
"""


def _rows(data: np.ndarray, left: int, right: int, width: int, value: float) -> np.ndarray:
    out = []
    for row in data:
        out.append(np.concatenate([np.full(left, value, data.dtype), row,
                                   np.full(width - left - right - len(row) + right, value, data.dtype)]))
    return np.concatenate(out)


def test_uint64_padding_value_is_the_elements_bits() -> None:
    x = (np.arange(16, dtype=np.float32) + 1) * np.float32(0.25)
    h = (np.arange(16, dtype=np.float16) + 1) * np.float16(0.5)
    result = run(KERNEL, {"x": x, "h": h}, block_dim=1,
                 outputs={"y": ((32,), "float32"), "z": ((32,), "float16"), "w": ((16,), "float32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    np.testing.assert_array_equal(result.outputs["y"], _rows(x.reshape(2, 8), 2, 2, 16, -1.0))
    np.testing.assert_array_equal(result.outputs["z"], _rows(h.reshape(2, 8), 1, 3, 16, -1.0))
    w = result.outputs["w"]
    np.testing.assert_array_equal(w[:8], x[:8])
    np.testing.assert_array_equal(w[8:16], np.full(8, 2.0, np.float32))
