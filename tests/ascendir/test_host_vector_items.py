"""A std::vector initialised with a list and then written element by element (ops-math
stateless_random_uniform_v2's tiling: `std::vector<uint64_t> counter = {0, 0}; counter[0] = counterVal[0]; ...`,
then a helper reading `counter[0]` through a const reference). The list initialiser made it a read-only item
list (for a ge::Shape made from it), so each element write and read was left out ("assigning an element of vector
is not modelled"); it is now a run-time vector holding the items."""

from __future__ import annotations

from tests.ascendir.host_op import OP_DEF, assert_tiled, run_tiling

SOURCE = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, low);
TILING_DATA_FIELD_DEF(uint32_t, high);
TILING_DATA_FIELD_DEF(uint32_t, count);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static void Split(PTilingData& td, const std::vector<uint64_t>& counter)
{
    td.set_low(static_cast<uint32_t>(counter[0]));
    td.set_high(static_cast<uint32_t>(counter[1] >> 32));
}
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    std::vector<uint64_t> counter = {0, 7};
    uint64_t n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    counter[0] = n;
    counter[1] = (n << 32) + counter[1];
    Split(td, counter);
    td.set_count(counter.size());
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + OP_DEF


def test_a_list_initialised_vector_is_written_and_read_by_element() -> None:
    result = run_tiling(SOURCE, rows=5, cols=6)
    assert_tiled(result)
    assert result.fields == {"low": 30, "high": 30, "count": 2}
