"""Four C++ idioms catlass's host-side option and shape code uses (examples/common/options.hpp, detail/alignment.hpp,
block_swizzle.hpp), in a kernel of ours. Before (issue 29):
- an accessor returning a reference as an assignment target, `problemShape.m() = n` (GemmCoord::m() returns
  `this->At(M_INDEX)`, which returns `idx[dim]`): ASC103 "assignment to this kind of expression";
- an enum declared in a function body named qualified, `ArgsIndex::M_INDEX` (GemmOptions::Parse): ASC102;
- `std::is_empty<T>::value` (tla's is_static: a shape known at compile time is an empty class): ASC102;
- a function returning `auto` from an `if constexpr` chain (CeilDiv over two MatrixCoord): its result was a cell of
  type auto, which stopped the core (ASC958) and left the swizzle's loop counts unset."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

struct Pair {
    uint32_t v[2];
    __aicore__ inline uint32_t &At(int i) { return v[i]; }
    __aicore__ inline uint32_t &first() { return v[0]; }
    __aicore__ inline uint32_t &second() { return this->At(1); }
};
struct Empty {};
template <class T>
struct IsStatic {
    static constexpr bool value = std::is_empty<T>::value;
};
template <class T, class U>
__aicore__ inline auto Scale(T const &a, U const &b)
{
    if constexpr (IsStatic<T>::value) {
        return b;
    } else {
        Pair r;
        r.first() = a.v[0] * 2;
        r.second() = a.v[1] * 3;
        return r;
    }
}

extern "C" __global__ __aicore__ void idioms(GM_ADDR y)
{
    enum class Slot { FIRST = 1, SECOND };
    Pair p;
    p.first() = 5;
    p.second() = static_cast<uint32_t>(Slot::SECOND);
    Pair q = Scale(p, Empty{});
    GlobalTensor<uint32_t> yg;
    yg.SetGlobalBuffer((__gm__ uint32_t *)y, 4);
    yg.SetValue(0, q.v[0]);
    yg.SetValue(1, q.v[1]);
    yg.SetValue(2, std::is_empty<Empty>::value ? 100 : 7);
    yg.SetValue(3, IsStatic<Pair>::value ? 100 : 7);
}
"""


def test_reference_accessors_local_enums_is_empty_and_auto_returns() -> None:
    result = run(KERNEL, [], outputs={"y": ((4,), "uint32")}, block_dim=1)
    assert not result.errors, result.errors
    # p = {5, Slot::SECOND == 2}; Scale(p, Empty{}) takes the else branch (Pair is not empty): {10, 6};
    # std::is_empty<Empty> is true, IsStatic<Pair> false
    assert result.outputs["y"].tolist() == [10, 6, 100, 7]
