"""Two class templates of one name in two namespaces, each with a partial specialisation of the same pattern
(catlass's Gemm::helper::L1AlignHelper<Element, layout::RowMajor> and Gemv::helper's, both reached once a kernel
includes the block epilogues). Before (issue 29): the two specialisations shared one key, the later took the
earlier's place, and Gemm's `L1AlignHelper<half, RowMajor>::M_ALIGNED` was no member of any class: as a template
argument (`RoundUp<L1AAlignHelper::M_ALIGNED>(m)`) it was an unknown value, RoundUp divided by zero and returned 0,
BlockMmad's L0 loops never ran, and catlass's 03_matmul_add / 27_matmul_gelu / 28_matmul_swish hung at the
destructor's WaitFlag<MTE1_MTE2> (ASC956)."""

from __future__ import annotations

from passes.sim import run

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

namespace lay { struct RowMajor {}; struct ColumnMajor {}; }
namespace gemm::helper {
template <class E, class L> struct AlignHelper {};
template <class E> struct AlignHelper<E, lay::RowMajor> { static constexpr uint32_t M_ALIGNED = 16; };
template <class E> struct AlignHelper<E, lay::ColumnMajor> { static constexpr uint32_t M_ALIGNED = 32 / sizeof(E); };
}
namespace gemv::helper {
template <class E, class L> struct AlignHelper {};
template <class E> struct AlignHelper<E, lay::RowMajor> { static constexpr uint32_t M_ALIGNED = 64; };
}

template <uint32_t ALIGN, typename T>
__aicore__ inline T RoundUp(const T &val) { return (val + ALIGN - 1) / ALIGN * ALIGN; }

template <class L>
struct Block {
    using GemmHelper = gemm::helper::AlignHelper<half, L>;
    using GemvHelper = gemv::helper::AlignHelper<half, L>;
    __aicore__ inline uint32_t operator()(uint32_t m)
    {
        return RoundUp<GemmHelper::M_ALIGNED>(m) * 1000 + RoundUp<GemvHelper::M_ALIGNED>(m);
    }
};

extern "C" __global__ __aicore__ void homonyms(GM_ADDR y)
{
    GlobalTensor<uint32_t> yg;
    yg.SetGlobalBuffer((__gm__ uint32_t *)y, 2);
    Block<lay::RowMajor> block;
    yg.SetValue(0, block(5));
    yg.SetValue(1, gemm::helper::AlignHelper<half, lay::ColumnMajor>::M_ALIGNED);
}
"""


def test_each_namespace_keeps_its_own_partial_specialisation() -> None:
    result = run(KERNEL, [], outputs={"y": ((2,), "uint32")}, block_dim=1)
    assert not result.findings, result.findings  # before: ASC960, integer division by zero in RoundUp
    # RoundUp<16>(5) = 16 (gemm's RowMajor), RoundUp<64>(5) = 64 (gemv's); gemm's ColumnMajor: 32 / 2
    assert result.outputs["y"].tolist() == [16 * 1000 + 64, 16]
