"""A function template of host code instantiated for gert::Shape (ops-math's TilingUtils::GetDimNum<T>, and
is_finite's IsFiniteCommonTiling<gert::Shape>): `std::is_same_v<T, gert::Shape>` was false (the parameter read as
an unknown type named T), so GetDimNum took its `throw` branch and the element count stayed 1; `sizeof(T)` was
"not known" (ASC103) and the block size it scales left out. T is now the runtime type it is bound to, and a
gert::Shape's size is its dim count and its kMaxDimNum (25) int64 dims: 8 + 25 * 8 bytes."""

from __future__ import annotations

from tests.ascendir.host_op import OP_DEF, assert_tiled, run_tiling

HOST = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, dims);
TILING_DATA_FIELD_DEF(uint32_t, size);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
class Sizer {
public:
    template <typename T>
    static int64_t Rank(T x)
    {
        if constexpr (std::is_same_v<T, gert::Shape>) {
            return x.GetDimNum();
        } else {
            return 7;
        }
    }
    template <typename T>
    static void Fill(T x, PTilingData& td)
    {
        td.set_dims(Rank(x));
        td.set_size(32 * sizeof(T));
    }
};
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    Sizer::Fill<gert::Shape>(context->GetInputShape(0)->GetStorageShape(), td);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + OP_DEF


def test_a_template_parameter_bound_to_gert_shape_is_that_type() -> None:
    result = run_tiling(HOST)
    assert_tiled(result)
    assert result.fields == {"dims": 2, "size": 32 * (8 + 25 * 8)}
