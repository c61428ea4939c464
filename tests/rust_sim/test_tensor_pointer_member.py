"""`*p` of a pointer to a GlobalTensor held in a member (issue 28; ascendir/lower/lower_exprs.py expr_Unary).

ops-nn in_training_reduce_v2 (in_training_reduce_v2_sub_r.h) keeps `GlobalTensor<T_X>* xGm_` set by `xGm_ = &xGm;`
from a reference parameter and copies with `DataCopyPad(xLocal, (*xGm_)[gmOffset], ...)` and
`DataCopyPad((*sumGm_)[row], ...)`. The lowering holds a tensor's address as the tensor's handle, but `*` of the
pointer read back from its member was a left-out statement ('dereferencing a value of type GlobalTensor<float>*'):
neither copy ran."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;
using T = float;

class Sub {
public:
    __aicore__ inline void Init(TQue<QuePosition::VECIN, 1>& q, GlobalTensor<T>& xGm, GlobalTensor<T>& yGm)
    {
        q_ = &q;
        xGm_ = &xGm;
        yGm_ = &yGm;
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> l = q_->AllocTensor<T>();
        DataCopy(l, (*xGm_)[8], 32);
        PipeBarrier<PIPE_ALL>();
        DataCopy(*yGm_, l, 32);
        q_->FreeTensor(l);
    }
private:
    TQue<QuePosition::VECIN, 1>* q_{nullptr};
    GlobalTensor<T>* xGm_{nullptr};
    GlobalTensor<T>* yGm_{nullptr};
};

extern "C" __global__ __aicore__ void gp(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, 64);
    yGm.SetGlobalBuffer((__gm__ T *)y, 32);
    pipe.InitBuffer(q, 1, 32 * sizeof(T));
    Sub s;
    s.Init(q, xGm, yGm);
    s.Process();
}
"""


def test_a_copy_through_tensor_pointers_held_in_members(tmp_path: Path) -> None:
    path = tmp_path / "gp.cpp"
    path.write_text(SOURCE, encoding="utf-8")
    x = np.arange(64, dtype=np.float32)
    result = run(str(path), {"x": x}, chip="910B2", block_dim=1, outputs={"y": ((32,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], x[8:40])
