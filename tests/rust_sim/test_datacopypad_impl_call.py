"""DataCopyPadGm2UBImpl / DataCopyPadUB2GMImpl called directly on raw pointers, as ops-transformer's MoE sorters
do (moe_sort_base.h DataCopyB64: an int64 tensor copied through int32 pointers). They are DataCopyPad's GM -> UB
and UB -> GM bodies (asc-devkit impl/basic_api/dav_c220/kernel_operator_data_copy_impl.h), so they lower as
DataCopyPad on the tensors the pointers were taken from. Before, the calls were unmodelled (ASC958) and the core
stopped there.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__aicore__ inline void CopyB64(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                               const DataCopyExtParams &params, const DataCopyPadExtParams<int32_t> &pad)
{
    DataCopyPadGm2UBImpl((__ubuf__ int32_t *)dst.GetPhyAddr(), (__gm__ int32_t *)src.GetPhyAddr(), params, pad);
}

extern "C" __global__ __aicore__ void pads(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                           GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECIN, 1> wideQueue;
    pipe.InitBuffer(inQueue, 1, 64 * sizeof(float));
    pipe.InitBuffer(wideQueue, 1, 16 * sizeof(int64_t));
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<int64_t> wGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 24);
    yGm.SetGlobalBuffer((__gm__ float *)y, 32);
    wGm.SetGlobalBuffer((__gm__ int64_t *)w, 16);
    zGm.SetGlobalBuffer((__gm__ int64_t *)z, 16);

    // 2 rows of 12 floats (48 bytes), each padded to 16 with 2 left, 2 right of -1
    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopyExtParams rows{2, 48, 0, 0, 0};
    DataCopyPadExtParams<float> pad{true, 2, 2, -1.0f};
    DataCopyPadGm2UBImpl((__ubuf__ float *)xLocal.GetPhyAddr(), (__gm__ float *)xGm.GetPhyAddr(), rows, pad);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    PipeBarrier<PIPE_ALL>();  // a VECIN tensor goes straight out: order MTE2 before MTE3
    DataCopy(yGm, xLocal, 32);
    inQueue.FreeTensor(xLocal);

    // through int32 pointers on int64 tensors, from element 3 on (13 elements)
    LocalTensor<int64_t> wLocal = wideQueue.AllocTensor<int64_t>();
    Duplicate(wLocal.ReinterpretCast<int32_t>(), (int32_t)0, 32);
    PipeBarrier<PIPE_ALL>();
    DataCopyExtParams wide{1, 13 * sizeof(int64_t), 0, 0, 0};
    DataCopyPadExtParams<int32_t> none{false, 0, 0, 0};
    CopyB64(wLocal, wGm[3], wide, none);
    wideQueue.EnQue(wLocal);
    wLocal = wideQueue.DeQue<int64_t>();
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, wLocal, 16);
    // back out with DataCopyPadUB2GMImpl: 5 int64 (40 bytes, not a whole block) over z[11..15]
    DataCopyParams back{1, 5 * sizeof(int64_t), 0, 0};
    PipeBarrier<PIPE_ALL>();
    DataCopyPadUB2GMImpl((__gm__ int32_t *)zGm[11].GetPhyAddr(), (__ubuf__ int32_t *)wLocal.GetPhyAddr(), back);
    wideQueue.FreeTensor(wLocal);
}
"""


def test_datacopypad_impl_matches_numpy() -> None:
    x = np.arange(24, dtype=np.float32) + 0.5
    w = (np.arange(16, dtype=np.int64) - 5) * (1 << 33)
    result = run(KERNEL, {"x": x, "w": w}, block_dim=1,
                 outputs={"y": ((32,), "float32"), "z": ((16,), "int64")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    assert not any(f.code == "ASC958" for f in result.findings), result.findings
    expected_y = np.full(32, -1.0, dtype=np.float32)
    expected_y[2:14] = x[:12]
    expected_y[18:30] = x[12:24]
    np.testing.assert_array_equal(result.outputs["y"], expected_y)
    # (104 bytes end mid-block: what fills the rest of that block without isPad is the model's, not checked;
    # the UB -> GM call then writes exactly its 40 bytes over z[11:16])
    np.testing.assert_array_equal(result.outputs["z"][:11], w[3:14])
    np.testing.assert_array_equal(result.outputs["z"][11:16], w[3:8])
