"""Arithmetic of a number and an object whose class converts to a number (issue 29: catlass tla's `C<v>`, an integral
constant with `operator value_type()`, in `RoundUp(val, align)` = `(val + align - 1) / align * align` with align a
C<16>). Before: ASC103 "operator '+' on uint32_t and C<16>" and the statement lost (here y stayed 0); now the
object goes through its one conversion operator, as C++'s usual arithmetic conversions take it."""

from __future__ import annotations

from passes.sim import run

SOURCE = """\
#include "kernel_operator.h"
using namespace AscendC;

template <auto v>
struct C {
    using type = C<v>;
    static constexpr auto value = v;
    using value_type = decltype(v);
    __aicore__ constexpr operator value_type() const noexcept { return value; }
};
template <class T, class U>
__aicore__ inline auto RoundUp(T const &val, U const &align)
{
    return (val + align - 1) / align * align;
}

extern "C" __global__ __aicore__ void conversion_arith(GM_ADDR y)
{
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float *)y, 4);
    uint32_t x = 5;
    C<16u> sixteen;
    yg.SetValue(0, (float)(x + sixteen));
    yg.SetValue(1, (float)RoundUp(x, C<16u>{}));
    yg.SetValue(2, (float)(sixteen * x));
    yg.SetValue(3, (x < sixteen) ? 1.0f : 0.0f);
}
"""


def test_an_object_converting_to_a_number_takes_part_in_arithmetic() -> None:
    result = run(SOURCE, [], outputs={"y": ((4,), "float32")}, block_dim=1)
    assert [f"{d.code} {d.message}" for d in result.findings] == []
    assert result.outputs["y"].tolist() == [21.0, 16.0, 80.0, 1.0]
