"""A base class named with its namespace in a constructor's init list (`: NormModulate::ModulateBase<T>(pipe,
tiling)`, ops-nn modulate) runs that base constructor. The class keys leave the namespace out, so the entry was not
matched to the base, the base's default construction ran instead, and modulate's kernel copied no tiling field and
set up no queue: every field read 0 and it wrote nothing (ASC961)."""

from __future__ import annotations

import numpy as np

from passes.sim.launch import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
namespace Outer {
template <typename T>
class Base {
protected:
    __aicore__ inline Base(int64_t n) { this->n = n; }
    int64_t n;
};
template <typename T>
class Derived : public Outer::Base<T> {
public:
    __aicore__ inline Derived(int64_t n) : Outer::Base<T>(n) {}
    __aicore__ inline void Run(GM_ADDR y)
    {
        GlobalTensor<T> g;
        g.SetGlobalBuffer((__gm__ T*)y, 8);
        g.SetValue(0, (T)this->n);
    }
};
}  // namespace Outer
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    Outer::Derived<int32_t> op(7);
    op.Run(y);
}
"""


def test_the_namespaced_base_constructor_runs() -> None:
    result = run(KERNEL, {}, block_dim=1, outputs={"y": ((8,), "int32")}, outputs_initialised=True)
    assert not result.errors, result.findings
    assert result.outputs["y"][0] == 7
