"""C++ idioms of catlass's block matmul with prologues (30_w8a16_matmul: an int8 B dequantised to half on the vector
cores before the cube multiplies), each in a kernel of our own. Before (issue 29) each was wrong in the lowering:

- a class nested in a base, named through the derived class (`Traits<Dequant>::Params`, Traits deriving from
  Dequant): taken for whichever class called Params was read last, there the block's own Params, which holds a
  `Traits<...>::Params`: an object containing itself, instantiated until the recursion limit (ASC958);
- a member type named through two member types (`typename Block::Prologue::Element`): unknown (ASC105);
- inherited constructors (`using Prologue::Prologue;`): never run, so the dequantiser's buffers and scale were unset;
- overloads told apart by `std::enable_if_t` on defaulted template parameters (`Prologue(...)` for a void
  PrologueA and for a void PrologueB, both with five parameters): the first was taken, whose B tensors were `{}`;
- a braced list inside a braced list given to a constructor (`Params{n, {{}, {scale, zero}, {}}}`): the inner
  object was never built from its values (scale 0, so the example's output was all zeros);
- a nested braced list for a member aggregate without constructors (`{{2.0}}`): its members were not set."""

from __future__ import annotations

import numpy as np

from passes.sim import run

PRELUDE = """\
#include "kernel_operator.h"
using namespace AscendC;
"""


def _run(body: str, n: int = 4, inputs=()):
    result = run(PRELUDE + body, list(inputs), outputs={"y": ((n,), "float32")}, block_dim=1)
    assert not [d for d in result.findings if d.code != "ASC961"], result.findings
    return result.outputs["y"].tolist()


def test_a_class_nested_in_a_base_is_found_through_the_derived_class() -> None:
    y = _run("""
struct Scale {
    struct Params { float s; };
};
template <class P> struct Traits : public P {};
template <class P>
struct Block {
    struct Params {
        typename Traits<P>::Params inner{};
        uint32_t n{0};
    };
};
struct Other {
    struct Params { uint32_t a; uint32_t b; };
};
extern "C" __global__ __aicore__ void nested_in_base(GM_ADDR y)
{
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float *)y, 4);
    Block<Scale>::Params p;
    p.inner.s = 2.5f;
    p.n = 3;
    yg.SetValue(0, p.inner.s);
    yg.SetValue(1, (float)p.n);
}
""")
    assert y[:2] == [2.5, 3.0]  # before: ASC958, expressions or templates nested too deeply


def test_a_member_type_named_through_two_member_types() -> None:
    y = _run("""
struct Widen { using ElementSrc = int8_t; };
template <class P> struct Copy { using Prologue = P; };
template <class C> struct Block { using TileCopy = C; };
template <class B>
struct Kernel {
    using ElementIn = typename B::TileCopy::Prologue::ElementSrc;
    __aicore__ inline uint32_t Width() { return sizeof(ElementIn); }
};
extern "C" __global__ __aicore__ void two_members(GM_ADDR y)
{
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float *)y, 4);
    Kernel<Block<Copy<Widen>>> k;
    yg.SetValue(0, (float)k.Width());
}
""")
    assert y[0] == 1.0  # before: ASC105, unknown type name 'ElementSrc'


def test_inherited_constructors_run() -> None:
    y = _run("""
struct Scale {
    struct Params { float s; };
    __aicore__ inline Scale(Params const &p) : s(p.s * 2) {}
    float s;
};
template <class Prologue>
struct Traits : public Prologue {
    using Prologue::Prologue;
};
extern "C" __global__ __aicore__ void inherited(GM_ADDR y)
{
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float *)y, 4);
    Scale::Params p{2.5f};
    Traits<Scale> t(p);
    yg.SetValue(0, t.s);
}
""")
    assert y[0] == 5.0  # before: 0, Scale's constructor never ran


def test_enable_if_drops_the_overloads_whose_condition_is_false() -> None:
    y = _run("""
template <class PA, class PB>
struct Block {
    template <class T = PA, class U = PB>
    __aicore__ inline std::enable_if_t<!std::is_void_v<T> && std::is_void_v<U>, void> Run(
        GlobalTensor<float> const &y, uint32_t v)
    {
        y.SetValue(0, (float)(v + 100));
    }
    template <class T = PA, class U = PB>
    __aicore__ inline std::enable_if_t<std::is_void_v<T> && !std::is_void_v<U>, void> Run(
        GlobalTensor<float> const &y, uint32_t v)
    {
        y.SetValue(0, (float)(v + 200));
    }
};
template <class T>
__aicore__ inline typename std::enable_if<sizeof(T) == 4, uint32_t>::type Width() { return 4; }
template <class T>
__aicore__ inline typename std::enable_if<sizeof(T) == 2, uint32_t>::type Width() { return 2; }
extern "C" __global__ __aicore__ void enable_if_overloads(GM_ADDR y)
{
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float *)y, 4);
    Block<void, int> b;
    b.Run(yg, 1);
    yg.SetValue(1, (float)Width<half>());
}
""")
    assert y[:2] == [201.0, 2.0]  # before: 101 and 4, the first overload of each


def test_a_braced_list_inside_a_constructors_braced_list() -> None:
    y = _run("""
struct EmptyType {};
struct Dequant {
    struct Params {
        half scale;
        half zero;
        __aicore__ inline Params() = default;
        __aicore__ inline Params(half scale_, half zero_)
        {
            scale = scale_;
            zero = zero_;
        }
    };
};
struct MmadParams {
    EmptyType prologueA{};
    Dequant::Params prologueB{};
    EmptyType copy{};
};
struct KernelParams {
    uint32_t n;
    MmadParams mmad;
    __aicore__ inline KernelParams() {}
    __aicore__ inline KernelParams(uint32_t n_, MmadParams const &mmad_) : n(n_), mmad(mmad_) {}
};
extern "C" __global__ __aicore__ void nested_lists(GM_ADDR y)
{
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float *)y, 4);
    half s = 2.0;
    KernelParams p{3, {{}, {s, (half)0.5}, {}}};
    yg.SetValue(0, (float)p.mmad.prologueB.scale);
    yg.SetValue(1, (float)p.mmad.prologueB.zero);
    yg.SetValue(2, (float)p.n);
}
""")
    assert y[:3] == [2.0, 0.5, 3.0]


def test_a_nested_braced_list_fills_a_member_aggregate() -> None:
    y = _run("""
template <class T> struct Inner { T scale; uint32_t n; };
template <class T> struct Outer { Inner<T> inner{}; uint32_t m{0}; };
extern "C" __global__ __aicore__ void nested_aggregate(GM_ADDR y)
{
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float *)y, 4);
    Outer<float> o{{2.5f, 7}, 9};
    yg.SetValue(0, o.inner.scale);
    yg.SetValue(1, (float)o.inner.n);
    yg.SetValue(2, (float)o.m);
}
""")
    assert y[:3] == [2.5, 7.0, 9.0]
