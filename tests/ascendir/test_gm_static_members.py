"""A static member array of a kernel class in global memory (`constexpr static __gm__ T assistGm[16] = {...}`), as
ops-math lin_space's base class holds its index tables, read through a GlobalTensor on `this->assistGm`. Before,
the member was read as a constant (the lowering made no GM array of it): SetGlobalBuffer got an undefined pointer
and the simulator stopped at it (ASC958). Each instantiation of a class template has its own array (T float and
half here).
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class TableBase {
public:
    constexpr static __gm__ T assistGm[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
};

template <typename T>
class KernelTable : public TableBase<T> {
public:
    __aicore__ inline void Init(GM_ADDR y)
    {
        yGm.SetGlobalBuffer((__gm__ T *)y, 16);
        tableGm.SetGlobalBuffer((__gm__ T *)this->assistGm, 16);
        pipe.InitBuffer(queue, 1, 16 * sizeof(T));
    }
    __aicore__ inline void Process(T scale)
    {
        LocalTensor<T> local = queue.AllocTensor<T>();
        DataCopy(local, tableGm, 16);
        queue.EnQue(local);
        local = queue.DeQue<T>();
        Muls(local, local, scale, 16);
        queue.EnQue(local);
        local = queue.DeQue<T>();
        DataCopy(yGm, local, 16);
        queue.FreeTensor(local);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> queue;
    GlobalTensor<T> yGm, tableGm;
};

extern "C" __global__ __aicore__ void table(GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelTable<float> op;
    op.Init(y);
    op.Process(2.0f);
    KernelTable<half> other;
    other.Init(z);
    other.Process((half)3.0f);
}
"""


def test_a_static_member_gm_array_of_each_instantiation_starts_with_its_initialiser() -> None:
    result = run(KERNEL, {}, block_dim=1, outputs={"y": ((16,), "float32"), "z": ((16,), "float16")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    np.testing.assert_array_equal(result.outputs["y"], np.arange(16, dtype=np.float32) * 2)
    np.testing.assert_array_equal(result.outputs["z"], np.arange(16, dtype=np.float16) * 3)
