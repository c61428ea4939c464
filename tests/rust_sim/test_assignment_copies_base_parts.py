"""`a = b` of class objects assigns every base subobject (the implicit copy assignment, C++ [class.copy.assign]/12),
also the members of sibling bases that declare the same name (tla's tuple: `EBO<0, Shape>` and `EBO<1, Stride>`
each hold a `t_`). Issue 29: the lowering copied only the object's own member table, where one `t_` hides the
other, so after catlass 14_optimized_matmul_tla's DeviceGemm `params = ToUnderlyingArguments(...)` its layouts kept
their strides but their shapes read 0, and the padding kernel divided by a row length of 0. Our own miniature."""

from __future__ import annotations

import numpy as np

from passes.sim import run

SOURCE = """\
#include "kernel_operator.h"
#include <type_traits>
template <size_t N, class T, bool IsEmpty = std::is_empty<T>::value>
struct Slot;
template <size_t N, class T>
struct Slot<N, T, false> {
    __aicore__ Slot() : t_{} {}
    __aicore__ Slot(T const &t) : t_{t} {}
    T t_;
};
template <size_t N, class T>
__aicore__ inline T const &get_slot(Slot<N, T, false> const &s) { return s.t_; }
template <size_t... I>
struct seq {};
template <class Seq, class... T>
struct TupleBase;
template <size_t... I, class... T>
struct TupleBase<seq<I...>, T...> : Slot<I, T>... {
    __aicore__ TupleBase() {}
    __aicore__ TupleBase(T const &...t) : Slot<I, T>(t)... {}
};
using Two = TupleBase<seq<0, 1>, uint32_t, uint32_t>;

extern "C" __global__ __aicore__ void assigns(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<int32_t> xg;
    xg.SetGlobalBuffer((__gm__ int32_t *)x, 2);
    AscendC::GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 4);
    Two made(xg.GetValue(0), xg.GetValue(1));
    Two assigned;
    assigned = made;
    Two again(5, 6);
    again = assigned;
    yg.SetValue(0, get_slot<0>(assigned));
    yg.SetValue(1, get_slot<1>(assigned));
    yg.SetValue(2, get_slot<0>(again));
    yg.SetValue(3, get_slot<1>(again));
}
"""


def test_an_assignment_copies_each_base_parts_member() -> None:
    result = run(SOURCE, [np.array([3, 4], np.int32)], block_dim=1, outputs={"y": np.zeros(4, np.int32)})
    assert result.ok, result.findings
    assert result.outputs["y"].tolist() == [3, 4, 3, 4]
