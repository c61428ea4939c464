"""Two ways catlass's gemv blocks name a class template's constants (include/catlass/gemv), in kernels of ours.
Before (issue 29), in 17_gemv_aiv:
- `UBAlignHelper::ALIGN` under a member alias of the namespace's class name (`using UBAlignHelper =
  Gemv::helper::UBAlignHelper<ElementA>;`) read the class template with no arguments, whose `sizeof(Element)` is
  unknown (ASC103), so RoundUp(UBTileShape::M, UBAlignHelper::ALIGN) divided by zero;
- `using VecCopyUbToGm = VecCopyUBToGm<ArchTag, YType, is_atoadd>;` with `is_atoadd` a static constant of the same
  class template (TileCopyGemvAiv): the bare name was unknown where the alias is resolved, no specialisation was
  chosen, and the member of that type was 'a variable' when called (ASC103): the output was never written."""

from __future__ import annotations

from passes.sim import run

ALIAS_HIDES_CLASS = """\
#include "kernel_operator.h"
using namespace AscendC;

namespace gv::helper {
template <class Element> struct UBAlign { static constexpr uint32_t ALIGN = 32 / sizeof(Element); };
}
using namespace gv::helper;

template <class T, class U>
__aicore__ inline auto RoundUpTo(T const &val, U const &align) { return (val + align - 1) / align * align; }

template <class E>
struct Block {
    using UBAlign = gv::helper::UBAlign<E>;
    __aicore__ inline uint32_t operator()(uint32_t m) { return RoundUpTo(m, UBAlign::ALIGN) * 100 + UBAlign::ALIGN; }
};

extern "C" __global__ __aicore__ void alias_hides_class(GM_ADDR y)
{
    GlobalTensor<uint32_t> yg;
    yg.SetGlobalBuffer((__gm__ uint32_t *)y, 2);
    Block<half> block;
    yg.SetValue(0, block(5));
    yg.SetValue(1, UBAlign<float>::ALIGN);
}
"""

CONSTANT_IN_MEMBER_ALIAS = """\
#include "kernel_operator.h"
using namespace AscendC;

namespace lay { struct RowMajor {}; struct VectorLayout {}; }
struct A2 {};
template <class E, class L> struct GemmType { using Element = E; using Layout = L; };
template <class G> struct AtomicSel {};
template <class E> struct AtomicSel<GemmType<E, lay::RowMajor>> { static constexpr bool value = false; };
template <class E> struct AtomicSel<GemmType<E, lay::VectorLayout>> { static constexpr bool value = true; };

template <class Arch, class G, bool atomic = false> struct CopyOut {};
template <class E> struct CopyOut<A2, GemmType<E, lay::VectorLayout>> {
    __aicore__ inline uint32_t operator()(uint32_t v) { return v + 1; }
};
template <class E> struct CopyOut<A2, GemmType<E, lay::VectorLayout>, true> {
    __aicore__ inline uint32_t operator()(uint32_t v) { return v + 2; }
};

template <class Arch, class AT, class YT>
struct TileCopy {
    static constexpr bool is_atomic = AtomicSel<AT>::value;
    using Out = CopyOut<Arch, YT, is_atomic>;
};

template <class TC>
struct Block {
    using Out = typename TC::Out;
    Out out;
    __aicore__ inline uint32_t operator()(uint32_t m) { return out(m); }
};

extern "C" __global__ __aicore__ void constant_in_member_alias(GM_ADDR y)
{
    GlobalTensor<uint32_t> yg;
    yg.SetGlobalBuffer((__gm__ uint32_t *)y, 2);
    using Vec = GemmType<float, lay::VectorLayout>;
    Block<TileCopy<A2, GemmType<float, lay::RowMajor>, Vec>> plain;
    Block<TileCopy<A2, Vec, Vec>> atomic;
    yg.SetValue(0, plain(5));
    yg.SetValue(1, atomic(5));
}
"""


def test_a_member_alias_hides_the_namespace_class_of_its_name() -> None:
    result = run(ALIAS_HIDES_CLASS, [], outputs={"y": ((2,), "uint32")}, block_dim=1)
    assert not result.findings, result.findings
    # UBAlign<half>::ALIGN = 16: RoundUpTo(5, 16) * 100 + 16; UBAlign<float>::ALIGN = 8 (the class, named as such)
    assert result.outputs["y"].tolist() == [1616, 8]


def test_a_class_templates_constant_in_its_member_alias() -> None:
    result = run(CONSTANT_IN_MEMBER_ALIAS, [], outputs={"y": ((2,), "uint32")}, block_dim=1)
    assert not result.findings, result.findings
    # is_atomic false -> the two-argument specialisation (v + 1); true -> the `true` one (v + 2)
    assert result.outputs["y"].tolist() == [6, 7]
