"""`std::array<T, N>` in host code is the C array `T[N]` (ascendir/lower/host_std_array.py): a struct member or
a local of it is read and written by `[]`, and a whole array is assigned from a brace list, a
`std::array<T, N>{...}` temporary or another array. ops-nn max_pool3d_with_argmax_v2's tiling templates keep
their shapes, kernel sizes and strides in std::array members (`inputData.inputShape = {d, h, w};`); before, the
type was an unmodelled library type and every tiling field set from one was left unset (the kernel read dx, kd,
sd, ... as 0, ASC958)."""

from __future__ import annotations

import pytest

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling


def _source(fill: str) -> str:
    return """
#include "register/tilingdata_base.h"
#include <array>
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, a);
TILING_DATA_FIELD_DEF(uint32_t, b);
TILING_DATA_FIELD_DEF(uint32_t, c);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
constexpr int DIMS = 3;
struct Info {
    std::array<uint64_t, DIMS> shape;
    uint64_t n;
};
class T {
public:
    void Fill(gert::TilingContext *context)
    {
        int64_t d0 = context->GetInputShape(0)->GetStorageShape().GetDim(0);
        int64_t d1 = context->GetInputShape(0)->GetStorageShape().GetDim(1);
        info.shape[2] = 99;
        %s
    }
    uint64_t Sum() const { return info.shape[0] * 100 + info.shape[2]; }
    Info info;
};
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    T t;
    t.Fill(context);
    PTilingData td;
    td.set_a(t.Sum());
    td.set_b(t.info.shape[1]);
    td.set_c(t.info.shape[2]);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" % fill + op_def()


@pytest.mark.parametrize("fill", [
    "info.shape = {uint64_t(d0), uint64_t(d1), uint64_t(d0 + d1)};",
    "info.shape = std::array<uint64_t, DIMS>{uint64_t(d0), uint64_t(d1), uint64_t(d0 + d1)};",
    "std::array<uint64_t, 3> tmp = {uint64_t(d0), uint64_t(d1)};\n        tmp[2] = d0 + d1;\n"
    "        info.shape = tmp;",
])
def test_a_whole_std_array_member_is_assigned(fill: str) -> None:
    result = run_tiling(_source(fill), 5, 6)
    assert_tiled(result)
    assert result.fields == {"a": 511, "b": 6, "c": 11}


def test_elements_past_the_items_are_value_initialised() -> None:
    # the temporary's elements past its items are 0, and the copy-assignment takes them (99 is overwritten)
    result = run_tiling(_source("info.shape = {uint64_t(d0), uint64_t(d1)};"), 5, 6)
    assert_tiled(result)
    assert result.fields == {"a": 500, "b": 6, "c": 0}
