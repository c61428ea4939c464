"""A brace list assigned to a catalogued struct member of a program struct (issue 28): ops-math circular_pad_grad's
`struct sDataCopyExtParams { DataCopyExtParams paramsIn, paramsOut; }` filled by `params.paramsIn = {rows, bytes,
0, 0, 0};` in a helper taking it by reference, then `params.paramsIn` passed to DataCopyPad. Before: 'cannot
convert sDataCopyExtParams to uint32_t' (ASC103, `<not lowered>`: 96 instructions in the session-13 sweep), and a
nested member passed to an API reached it with no fields. Now field by field, as `params.paramsIn.blockCount =
rows; ...`, and the API is given the fields set by path."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

struct sDataCopyExtParams {
    DataCopyExtParams paramsIn = {0, 0, 0, 0, 0};
    DataCopyExtParams paramsOut = {0, 0, 0, 0, 0};
};

class K {
public:
    __aicore__ inline void Calc(sDataCopyExtParams& params, uint16_t rows, uint32_t bytes)
    {
        params.paramsIn = {rows, bytes, 0, 0, 0};
        params.paramsOut = {rows, bytes, 0, 0, 0};
    }
    __aicore__ inline void Run(GM_ADDR x, GM_ADDR z)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, 64);
        zGm.SetGlobalBuffer((__gm__ float *)z, 64);
        pipe.InitBuffer(q, 1, 64 * sizeof(float));
        sDataCopyExtParams params;
        Calc(params, 2, 32 * sizeof(float));
        LocalTensor<float> a = q.AllocTensor<float>();
        DataCopyPad(a, xGm, params.paramsIn, DataCopyPadExtParams<float>{false, 0, 0, 0});
        q.EnQue(a);
        a = q.DeQue<float>();
        DataCopyPad(zGm, a, params.paramsOut);
        q.FreeTensor(a);
    }
private:
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
    GlobalTensor<float> xGm, zGm;
};

extern "C" __global__ __aicore__ void sp(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    K k;
    k.Run(x, z);
}
"""


def test_brace_list_into_a_struct_member_reaches_the_copy(tmp_path: Path) -> None:
    path = tmp_path / "sp.cpp"
    path.write_text(KERNEL, encoding="utf-8")
    x = np.arange(64, dtype=np.float32) * 0.5
    result = run(str(path), {"x": x}, chip="950PR", block_dim=1, outputs={"z": ((64,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["z"], x)  # 2 rows of 32 floats in, the same out
