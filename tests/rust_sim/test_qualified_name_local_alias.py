"""A name written with its namespaces is never a block-scope alias of the function that writes it. catlass's
18_gemv_aic declares `using TileCopy = Gemv::Tile::TileCopyGemvAic<...>;` in its Run() and then names
`Epilogue::Tile::TileCopy<ArchTag, YType, AXType, ZType>` (Gemm::Tile has a TileCopy too: the namespaces written
choose between the two, and the lookup of a name so written skips the function's own aliases).
Before (issue 29), the qualified name resolved to the local alias: the epilogue's `typename TileCopy_::CopyGmToUbC`
was an unknown type (ASC105) and every core stopped there (ASC958)."""

from __future__ import annotations

from passes.sim import run

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

namespace gm::tile { template <class A, class B, class C> struct TileCopy { static constexpr uint32_t V = 3; }; }
namespace gv::tile { template <class T> struct TileCopyAic { static constexpr uint32_t V = 1; }; }
namespace ep::tile {
template <class... Args> struct TileCopy {};
template <class C, class D> struct TileCopy<C, D> { static constexpr uint32_t V = 2; };
}

extern "C" __global__ __aicore__ void qualified_name(GM_ADDR y)
{
    using TileCopy = gv::tile::TileCopyAic<float>;
    using EpilogueCopy = ep::tile::TileCopy<float, half>;
    GlobalTensor<uint32_t> yg;
    yg.SetGlobalBuffer((__gm__ uint32_t *)y, 3);
    yg.SetValue(0, TileCopy::V);
    yg.SetValue(1, EpilogueCopy::V);
    using GemmCopy = gm::tile::TileCopy<float, float, float>;
    yg.SetValue(2, GemmCopy::V);
}
"""


def test_a_qualified_name_skips_the_local_alias_of_its_last_part() -> None:
    result = run(KERNEL, [], outputs={"y": ((3,), "uint32")}, block_dim=1)
    assert not result.findings, result.findings
    assert result.outputs["y"].tolist() == [1, 2, 3]
