"""A Matmul member declared through `AscendC::Conditional<b, Matmul<...>, Matmul<...>>::type` (NPUKernelBench's
large-head-dim flash attention picks its bmm2's C format so) carries the chosen Matmul's template arguments to the
simulator (the object's config). It carried the Conditional's text, both alternatives: the simulator read the
first alternative's C type (CubeFormat::NZ) as B's format, so bmm2 read V as NZ fractals and the attention output
was wrong while the answer's tolerance still passed it."""

from __future__ import annotations

import pytest

from ascendir.dialects import ascendc as asc
from ascendir.lower import LoweringOptions, lower_program
from frontend.pipeline import load_text

KERNEL = """#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;
class K {
public:
    using aType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using bType = MatmulType<TPosition::GM, CubeFormat::ND, half, false>;
    using cType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using cNzType = MatmulType<TPosition::GM, CubeFormat::NZ, float>;
    using mmType = typename AscendC::Conditional<%s, Matmul<aType, bType, cNzType, cType>,
                                                 Matmul<aType, bType, cType, cType>>::type;
    __aicore__ inline void Done() { mm.End(); }
    mmType mm;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    K op;
    op.Done();
}
"""


@pytest.mark.parametrize(("cond", "c_format"), [("false", "ND"), ("true", "NZ"), ("sizeof(half) == 4", "ND")])
def test_the_chosen_matmuls_arguments(cond: str, c_format: str) -> None:
    result = lower_program(load_text(KERNEL % cond, "k.cpp"), LoweringOptions())
    (obj,) = [op for op in result.module.walk() if isinstance(op, asc.MatmulObjectOp)]
    config = obj.properties["config"].data
    assert not config.startswith("AscendC::Conditional") and config.count("MatmulType<") == 4
    assert config.split("MatmulType<")[3].split(",")[1].strip() == f"CubeFormat::{c_format}"
