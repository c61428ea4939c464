"""A class's data member of the kernel's own plain struct with C array members (`Param param;`) is an object of
that struct (ascendir/lower/aggregates.record_member), as a local of it declared with a brace list already was, and
`param = value` assigns every member, arrays included, by the implicit copy assignment ([class.copy.assign]/12).
Before (issue 28, left by session 17's lowerfix), the member was a struct value of scalars: `param = p;` kept only
p's scalars, and reads of `param.shape[i]` were unset tiling-field reads (ASC958, the values lost); an element store
`tiling.shape[1] = ...` into a member copied from the host's tiling (`this->tiling = *tilingPtr;`) was left out.
A struct value copied in (the host's tiling data, GET_TILING_DATA_WITH_STRUCT) fills the arrays element by element,
two-dimensional ones included, by assignment and by a mem-initializer; those two cases worked before through the
struct value and are kept here so the object model does not lose them."""

from __future__ import annotations

import pytest

from passes.sim import run

HEAD = """#include "kernel_operator.h"
using namespace AscendC;
"""

FROM_OBJECTS = HEAD + """struct Param {
    int32_t n;
    int32_t shape[4];
};
__aicore__ inline int32_t Sum(const Param &p) { return p.n + p.shape[0] + p.shape[1] + p.shape[2] + p.shape[3]; }
class Op {
public:
    __aicore__ inline void Init(GM_ADDR y, const Param &p) {
        yGm.SetGlobalBuffer((__gm__ int32_t *)y, 8);
        param = p;
    }
    __aicore__ inline void Set(Param q) { other = q; }
    __aicore__ inline void Process() {
        yGm.SetValue(0, param.n); yGm.SetValue(1, param.shape[0]); yGm.SetValue(2, param.shape[3]);
        yGm.SetValue(3, other.shape[1]);
        other.shape[2] = 40;
        yGm.SetValue(4, other.shape[2]);
        yGm.SetValue(5, Sum(param));
        yGm.SetValue(6, fixed.shape[1]); yGm.SetValue(7, fixed.shape[3]);
    }
    Param param;
    Param other;
    Param fixed = {1, {2, 3}};
    GlobalTensor<int32_t> yGm;
};
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    Param p = {3, {10, 11, 12, 13}};
    Op op;
    op.Init(y, p);
    p.shape[1] = 21;
    op.Set(p);
    p.shape[1] = 22;
    op.Process();
}
"""


# `param = p;` from a const reference, `other = q;` from a by-value parameter, then a write into the member's own
# array (the caller's p changes after: the members are copies), the member passed on by reference, and a default
# member initialiser's brace list (the elements it leaves out are zero)
def test_a_member_assigned_an_object_keeps_its_arrays() -> None:
    result = run(FROM_OBJECTS, {}, block_dim=1, outputs={"y": ((8,), "int32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == [3, 10, 13, 21, 40, 49, 3, 0]


FROM_TILING = HEAD + """struct ShapeTiling {
    uint32_t n;
    uint32_t shape[4];
};
class Op {
public:
    __aicore__ inline void Init(GM_ADDR y, const ShapeTiling *tilingPtr) {
        yGm.SetGlobalBuffer((__gm__ int32_t *)y, 4);
        this->tiling = *tilingPtr;
    }
    __aicore__ inline void Process() {
        tiling.shape[1] = tiling.shape[1] + 100;
        yGm.SetValue(0, tiling.n); yGm.SetValue(1, tiling.shape[0]); yGm.SetValue(2, tiling.shape[1]);
        yGm.SetValue(3, tiling.shape[3]);
    }
    ShapeTiling tiling;
    GlobalTensor<int32_t> yGm;
};
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ShapeTiling, td, tiling);
    Op op;
    op.Init(y, &td);
    op.Process();
}
"""


def test_a_member_copied_from_the_tiling_takes_element_stores() -> None:
    result = run(FROM_TILING, {}, block_dim=1, tiling={"n": 3, "shape": [5, 6, 7, 8]}, outputs={"y": ((4,), "int32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == [3, 5, 106, 8]


GRID = HEAD + """struct GridTiling {
    uint32_t n;
    int64_t strides[2][3];
};
class Op {
public:
    CTOR
    __aicore__ inline void Init(GM_ADDR y, const GridTiling &t) {
        yGm.SetGlobalBuffer((__gm__ int32_t *)y, 4);
        ASSIGN
    }
    __aicore__ inline void Process() {
        yGm.SetValue(0, tiling.n); yGm.SetValue(1, tiling.strides[0][2]); yGm.SetValue(2, tiling.strides[1][0]);
        yGm.SetValue(3, tiling.strides[1][2]);
    }
    GridTiling tiling;
    GlobalTensor<int32_t> yGm;
};
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(GridTiling, td, tiling);
    DECLARE
    op.Init(y, td);
    op.Process();
}
"""


@pytest.mark.parametrize("form", ["assignment", "mem_initializer"])
def test_two_dimensional_arrays_of_the_tiling_are_copied(form: str) -> None:
    ctor = "__aicore__ inline Op(const GridTiling &t) : tiling(t) {}" if form == "mem_initializer" else ""
    source = GRID.replace("CTOR", ctor).replace("ASSIGN", "tiling = t;" if form == "assignment" else "")
    source = source.replace("DECLARE", "Op op(td);" if form == "mem_initializer" else "Op op;")
    result = run(source, {}, block_dim=1, tiling={"n": 3, "strides": [[1, 2, 3], [4, 5, 6]]},
                 outputs={"y": ((4,), "int32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == [3, 3, 4, 6]
