"""The in-place forms of a depth-0 queue's AllocTensor and DeQue (`que.AllocTensor<T>(t)`, `que.DeQue<T>(t)`, the
catalog's 'inplace' overloads; ops-nn embedding_dense_grad's `TQueBind<VECIN, VECOUT, 0>`) hand the tensor back
through their argument: they are the forms that return it, assigned to it. Before, the call was the opaque
'inplace' overload (ASC958 at the first), and `t` was no variable the call could write."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void copy_rows(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 0> que;
    pipe.InitBuffer(que, 1, 64 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    LocalTensor<float> t;
    for (int32_t row = 0; row < 3; row++) {
        que.AllocTensor<float>(t);
        DataCopy(t, xGm[row * 64], 64);
        que.EnQue<float>(t);
        que.DeQue<float>(t);
        DataCopy(yGm[row * 64], t, 64);
        que.FreeTensor<float>(t);
    }
}
"""


def test_in_place_alloc_and_deque_hand_the_tensor_back() -> None:
    x = np.arange(3 * 64, dtype=np.float32)
    result = run(KERNEL, [x], block_dim=1, outputs={"y": np.zeros(3 * 64, np.float32)})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], x)
