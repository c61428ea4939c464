"""A member alias template written with its arguments inside its class: ops-nn transpose_batch_mat_mul's
utils/mem.h declares `template <typename T> using Tensor = AscendC::LocalTensor<T>;` in OnChipBuffer and builds
its buffers as `Tensor<uint8_t>(AscendC::TPosition::VECIN, 0, size)`. The alias was resolved with T unbound, a
tensor of element type none (ASC958), and the core stopped at the buffer's constructor."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """\
#include "kernel_operator.h"
template <int SIZE>
struct Buffers {
    template <typename T>
    using Tensor = AscendC::LocalTensor<T>;
    __aicore__ inline Buffers() { ub = Tensor<uint8_t>(AscendC::TPosition::VECIN, 0, SIZE); }
    template <typename T>
    __aicore__ inline Tensor<T> Get() { return ub.ReinterpretCast<T>(); }
    Tensor<uint8_t> ub;
};
extern "C" __global__ __aicore__ void member_alias(GM_ADDR x, GM_ADDR y)
{
    Buffers<1024> b;
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    AscendC::LocalTensor<float> t = b.Get<float>();
    AscendC::DataCopy(t, xg, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(t, t, 2.0f, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, t, 64);
}
"""


def test_a_member_alias_template_binds_its_arguments(tmp_path) -> None:
    source = tmp_path / "member_alias.cpp"
    source.write_text(KERNEL)
    x = np.arange(64, dtype=np.float32)
    result = run(str(source), {"x": x.copy()}, block_dim=1, outputs={"y": ((64,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], 2 * x)
