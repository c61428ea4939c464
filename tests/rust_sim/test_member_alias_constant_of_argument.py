"""`T::Alias::CONST` with T a class template argument: the static constant of the class that T's member alias
names (issue 29: catlass 23_flash_attention_infer's kernel sizes its L1 buffers with `static constexpr uint32_t
L1_QK_SIZE = BlockMmadQK::L1TileShape::M * BlockMmadQK::L1TileShape::K * sizeof(ElementQ) + ...`, BlockMmad
declaring `using L1TileShape = L1TileShape_;`). Before, a qualified name of more than one member after a type
argument was an unknown value, read as 0 without a finding: 23's PV blocks placed their L1 buffers over the QK
ones (offset 0)."""

from __future__ import annotations

from passes.sim import run

SOURCE = """\
#include "kernel_operator.h"
template <uint32_t M_, uint32_t N_, uint32_t K_>
struct GemmShape {
    static constexpr uint32_t M = M_;
    static constexpr uint32_t N = N_;
    static constexpr uint32_t K = K_;
};
template <class Shape_>
struct Mmad {
    using L1TileShape = Shape_;
};
template <class MmadQK, class E>
struct Kernel {
    __aicore__ inline void operator()(GM_ADDR y)
    {
        static constexpr uint32_t L1_QK_SIZE = MmadQK::L1TileShape::M * MmadQK::L1TileShape::K * sizeof(E)
                                             + MmadQK::L1TileShape::N * MmadQK::L1TileShape::K * sizeof(E) * 2;
        AscendC::GlobalTensor<int32_t> yg;
        yg.SetGlobalBuffer((__gm__ int32_t *)y, 3);
        yg.SetValue(0, L1_QK_SIZE);
        yg.SetValue(1, MmadQK::L1TileShape::N);
        uint32_t k3 = MmadQK::L1TileShape::K * 3;
        yg.SetValue(2, k3);
    }
};
extern "C" __global__ __aicore__ void alias_constant(GM_ADDR y)
{
    Kernel<Mmad<GemmShape<128, 64, 256>>, half> k;
    k(y);
}
"""


def test_a_constant_through_a_member_alias_of_a_type_argument() -> None:
    result = run(SOURCE, [], outputs={"y": ((3,), "int32")}, block_dim=1)
    assert [f"{d.code} {d.message}" for d in result.findings] == []
    assert result.outputs["y"].tolist() == [128 * 256 * 2 + 64 * 256 * 2 * 2, 64, 768]
