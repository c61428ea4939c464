"""A member alias template named through a class template parameter, `typename TileCopy_::template
CopyIn<TensorA>` (issue 29: catlass's tla block matmul, block_mmad_pingpong_tla.hpp, whose TileCopy declares
`template <class TensorA> using CopyGmToL1A = TileCopyTla<ArchTag, TensorA, TensorL1A>;`). Before, only an alias
template that forwards its parameters unchanged was followed; this one, which binds them beside the class's own
member aliases, was an unknown type (ASC105) and the object of that type was never made."""

from __future__ import annotations

from passes.sim import run

SOURCE = """\
#include "kernel_operator.h"
using namespace AscendC;

template <class Arch, class Src, class Dst> struct Copier {
    __aicore__ inline float Width()
    {
        return (float)(sizeof(typename Src::Element) * 10 + sizeof(typename Dst::Element));
    }
};
template <class E> struct Tensor { using Element = E; };
template <class Arch>
struct TileCopy {
    using ArchTag = Arch;
    using TensorL1 = Tensor<half>;
    template <class TensorA>
    using CopyIn = Copier<ArchTag, TensorA, TensorL1>;
};
template <class TileCopy_>
struct Block {
    template <class TensorA>
    __aicore__ inline float Run(TensorA &a)
    {
        using CopyIn = typename TileCopy_::template CopyIn<TensorA>;
        CopyIn c;
        return c.Width();
    }
};
extern "C" __global__ __aicore__ void alias_template(GM_ADDR y)
{
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float *)y, 2);
    Block<TileCopy<int>> b;
    Tensor<float> t;
    Tensor<int8_t> u;
    yg.SetValue(0, b.Run(t));
    yg.SetValue(1, b.Run(u));
}
"""


def test_a_member_alias_template_binds_its_arguments_beside_the_class_aliases() -> None:
    result = run(SOURCE, [], outputs={"y": ((2,), "float32")}, block_dim=1)
    assert [f"{d.code} {d.message}" for d in result.findings] == []
    # sizeof(float) * 10 + sizeof(half), then sizeof(int8_t) * 10 + sizeof(half)
    assert result.outputs["y"].tolist() == [42.0, 12.0]
