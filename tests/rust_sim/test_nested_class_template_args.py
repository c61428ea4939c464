"""A class template nested in a class template, the shape of catlass's OptimizedMatmul (issue 29, 06_optimized_matmul
and 26_matmul_relu), in a kernel of our own:

    template <class PrologueA, ...> class Kernel {
        using LayoutA = std::conditional_t<std::is_void_v<PrologueA>, Plain, typename Helper<PrologueA>::type>;
        struct ParamsBase { LayoutA layoutA; ... };
        template <bool IsPadding = true> struct KernelParams : public ParamsBase { ... };
        template <> struct KernelParams<false> : public ParamsBase { ... };
        using Params = KernelParams<!std::is_void_v<PrologueA>>;
    };

Before, an instance of KernelParams carried only its own argument (IsPadding), so its base ParamsBase was lowered
with PrologueA bound to that bool, LayoutA did not fold and every core stopped at the member (ASC958). And a
return type `std::enable_if_t<!std::is_void_v<T> && std::is_void_v<U>, void>` elsewhere in the unit made the
parser's pre-scan take is_void_v for a class template, so the conditional's condition was read as a type whose
value the lowering never knows (ASC105 'conditional_t')."""

from __future__ import annotations

from passes.sim import run

SOURCE = """\
#include "kernel_operator.h"
#include <type_traits>
using namespace AscendC;

struct RowLayout {
    uint32_t stride;
    __aicore__ inline RowLayout() : stride(0) {}
    __aicore__ inline RowLayout(uint32_t s) : stride(s) {}
    __aicore__ inline uint32_t Stride() const { return stride; }
};
struct PaddedLayout {
    uint32_t stride;
    __aicore__ inline PaddedLayout() : stride(0) {}
    __aicore__ inline PaddedLayout(uint32_t s) : stride(s + 16) {}
    __aicore__ inline uint32_t Stride() const { return stride * 2; }
};
struct Pad { using LayoutIn = PaddedLayout; };

template <class PrologueA, class Scale>
class Kernel {
public:
    template <class T> struct LayoutHelper { using type = typename T::LayoutIn; };
    template <> struct LayoutHelper<void> { using type = void; };
    using LayoutA = std::conditional_t<std::is_void_v<PrologueA>, RowLayout, typename LayoutHelper<PrologueA>::type>;

    struct ParamsBase {
        LayoutA layoutA;
        float scale;
        __aicore__ inline ParamsBase() {}
        __aicore__ inline ParamsBase(LayoutA l, float s) : layoutA(l), scale(s) {}
    };
    template <bool IsPadding = true>
    struct KernelParams : public ParamsBase {
        uint32_t extra;
        __aicore__ inline KernelParams() {}
        __aicore__ inline KernelParams(LayoutA l, float s, uint32_t e) : ParamsBase(l, s), extra(e) {}
    };
    template <>
    struct KernelParams<false> : public ParamsBase {
        __aicore__ inline KernelParams() {}
        __aicore__ inline KernelParams(LayoutA l, float s, uint32_t e) : ParamsBase(l, s) {}
    };
    using Params = KernelParams<!std::is_void_v<PrologueA>>;

    template <class T = PrologueA, class U = Scale>
    __aicore__ inline std::enable_if_t<!std::is_void_v<T> && std::is_void_v<U>, void> Note(uint32_t &x) { x += 1; }

    __aicore__ inline float Run(Params const &p)
    {
        return (float)p.layoutA.Stride() * p.scale;
    }
};

extern "C" __global__ __aicore__ void nested_args(GM_ADDR y)
{
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float *)y, 4);
    using Plain = Kernel<void, float>;
    using Padded = Kernel<Pad, float>;
    Plain plain;
    Padded padded;
    Plain::Params p{RowLayout(8), 0.5f, 3};
    Padded::Params q{PaddedLayout(8), 0.5f, 3};
    yg.SetValue(0, plain.Run(p));
    yg.SetValue(1, padded.Run(q));
    yg.SetValue(2, (float)sizeof(Plain::LayoutA));
    yg.SetValue(3, 1.0f);
}
"""


def test_a_nested_class_template_carries_the_outer_instance_arguments() -> None:
    result = run(SOURCE, [], outputs={"y": ((4,), "float32")}, block_dim=1)
    assert [f"{d.code} {d.message}" for d in result.findings] == []
    # Plain: RowLayout stride 8 * 0.5; Padded: PaddedLayout (8 + 16) * 2 * 0.5
    assert result.outputs["y"].tolist() == [4.0, 24.0, 4.0, 1.0]
