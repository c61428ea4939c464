"""Partial specialisations chosen by a defaulted `class Enable = void` parameter and the API's tensor types in their
patterns (issue 29: catlass's tla copies, `TileCopyTla<Arch::AtlasA2, tla::Tensor<AscendC::GlobalTensor<ElementSrc>,
...>, tla::Tensor<AscendC::LocalTensor<ElementDst>, ...>, std::enable_if_t<isRowMajor<LayoutSrc>::value && ...>>`).
Before, a pattern argument `std::enable_if_t<cond>` and `GlobalTensor<E>` matched nothing, so the primary template
(catlass's: a static_assert and no members) was chosen and each call of the copy object was lost (ASC103, which a
run does not show; its output unwritten). Now the enable_if is decided once the other arguments have bound the
parameters, as C++'s substitution does, and GlobalTensor<E> / LocalTensor<E> match the API's tensors by element."""

from __future__ import annotations

from passes.sim import run

SOURCE = """\
#include "kernel_operator.h"
#include <type_traits>
using namespace AscendC;

template <class E> struct IsWide { static constexpr bool value = sizeof(E) >= 4; };
template <class Src, class Enable = void>
struct Copy {};
template <class E>
struct Copy<GlobalTensor<E>, std::enable_if_t<IsWide<E>::value>> {
    __aicore__ inline float operator()(float x) { return x * 2.0f; }
};
template <class E>
struct Copy<GlobalTensor<E>, typename std::enable_if<!IsWide<E>::value>::type> {
    __aicore__ inline float operator()(float x) { return x * 3.0f; }
};
template <class E>
struct Copy<LocalTensor<E>> {
    __aicore__ inline float operator()(float x) { return x * 5.0f; }
};

extern "C" __global__ __aicore__ void enable_if_special(GM_ADDR y)
{
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float *)y, 3);
    Copy<GlobalTensor<float>> wide;
    Copy<GlobalTensor<half>> narrow;
    Copy<LocalTensor<half>> local;
    yg.SetValue(0, wide(1.0f));
    yg.SetValue(1, narrow(1.0f));
    yg.SetValue(2, local(1.0f));
}
"""


def test_a_specialisation_is_chosen_by_its_enable_if_and_tensor_element() -> None:
    result = run(SOURCE, [], outputs={"y": ((3,), "float32")}, block_dim=1)
    assert [f"{d.code} {d.message}" for d in result.findings] == []
    assert result.outputs["y"].tolist() == [2.0, 3.0, 5.0]
