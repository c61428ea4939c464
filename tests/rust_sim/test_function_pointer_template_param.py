"""A value template parameter of pointer-to-function type (`TriangleOp<P> *op`, an alias of a function type with a
`*`) takes a function, so a partial specialisation on it (`InnerComputer<bfloat16_t, float, op, n>`) is chosen.
NPUKernelBench's Foreach answers (foreach_triangle.h, foreach_one_scalar_binary.h) have this shape. The parser
dropped the `*` of such a parameter, and since the lowering rejects a function bound to a plain value parameter
(a number is meant), the specialisation was passed over and the primary template called the float adapter with
bfloat16 tensors (ASC106)."""

from __future__ import annotations

from frontend.parser import get_parser
from frontend.ast.declarations import TemplateDecl
from passes.sim import run

SOURCE = """\
#include "kernel_operator.h"
template <typename T>
using Producer = int32_t (const T);
template <typename T>
__aicore__ inline int32_t Twice(const T x) { return (int32_t)(x * 2); }
template <typename T, typename P, Producer<P> *fn, uint8_t n>
struct Pick {
    __aicore__ inline int32_t Go(T x) { return fn(x) + n; }
};
template <Producer<float> *fn, uint8_t n>
struct Pick<int16_t, float, fn, n> {
    __aicore__ inline int32_t Go(int16_t x) { return fn((float)x) * 100 + n; }
};
extern "C" __global__ __aicore__ void fn_param(GM_ADDR y)
{
    AscendC::GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 2);
    Pick<int32_t, int32_t, Twice<int32_t>, 1> primary;
    Pick<int16_t, float, Twice<float>, 3> special;
    yg.SetValue(0, primary.Go(5));
    yg.SetValue(1, special.Go(7));
}
"""


def test_the_parameter_keeps_its_pointer() -> None:
    unit = get_parser().parse("template <typename P, Producer<P> *fn> struct S {};", "t.cpp").unit
    decl = next(d for d in unit.decls if isinstance(d, TemplateDecl))
    assert decl.params[1].kind == "value" and decl.params[1].type.pointers == ["*"]


def test_a_specialisation_on_a_function_pointer_argument_is_chosen() -> None:
    result = run(SOURCE, [], outputs={"y": ((2,), "int32")}, block_dim=1)
    assert [f"{d.code} {d.message}" for d in result.findings] == []
    assert result.outputs["y"].tolist() == [5 * 2 + 1, 7 * 2 * 100 + 3]
