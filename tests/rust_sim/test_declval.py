"""`std::declval<T>()` where only its type is asked, `decltype(f(std::declval<T>()))` (issue 29: catlass tla's
`template <class Tuple> using depth_t = decltype(depth(std::declval<Tuple>()));`). Before, declval was an
undeclared identifier (ASC102) and the type unknown; now it is a value of T: an object of a class of the program
made without a constructor, or a number."""

from __future__ import annotations

from passes.sim import run

SOURCE = """\
#include "kernel_operator.h"
#include <utility>
using namespace AscendC;

struct Pair {
    uint16_t a;
    __aicore__ inline uint16_t First() const { return a; }
};
template <class T> __aicore__ inline auto Twice(T const &t) { return t.First() * 2.0f; }
template <class T> __aicore__ inline auto Wide(T t) { return static_cast<int64_t>(t); }
using FromPair = decltype(Twice(std::declval<Pair>()));
using FromNumber = decltype(Wide(std::declval<uint8_t>()));

extern "C" __global__ __aicore__ void declval_types(GM_ADDR y)
{
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float *)y, 2);
    FromPair p = 1.5f;
    yg.SetValue(0, p * (float)sizeof(FromPair));
    yg.SetValue(1, (float)sizeof(FromNumber));
}
"""


def test_declval_gives_a_value_whose_use_decltype_follows() -> None:
    result = run(SOURCE, [], outputs={"y": ((2,), "float32")}, block_dim=1)
    assert [f"{d.code} {d.message}" for d in result.findings] == []
    assert result.outputs["y"].tolist() == [6.0, 8.0]  # float (1.5 * 4), int64_t
