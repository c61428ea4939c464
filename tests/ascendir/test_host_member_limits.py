"""Host tiling classes whose scalar members start at `std::numeric_limits<T>::max()` and are then set under an
`if` (NPUKernelBench's large-head-dim flash attention: `int64_t s1BasicBlock = std::numeric_limits<int64_t>::max();`).

numeric_limits' max() was taken for std::max with no arguments (ASC103 'std::max of non-arithmetic values'), which
left the member a variable without memory; a later assignment under control flow that the lowering left out then
crashed it (ASC000 internal error: 'NoneType' object has no attribute 'type') instead of being reported."""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

PROGRAM = """
#include "register/tilingdata_base.h"
#include <limits>
#include <numeric>
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(int64_t, n);
TILING_DATA_FIELD_DEF(int64_t, big);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
class PTiling {
 public:
  explicit PTiling(gert::TilingContext* context) : ctx(context) {};
  ge::graphStatus DoTiling()
  {
    int64_t rows = ctx->GetInputShape(0)->GetStorageShape().GetDim(0);
    block = std::min(block, rows);
    tilingData.set_n(block);
    tilingData.set_big(INIT_OTHER);
    tilingData.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(tilingData.GetDataSize());
    ctx->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
  }
 private:
  gert::TilingContext* ctx = nullptr;
  int64_t block = std::numeric_limits<int64_t>::max();
  int64_t other = 0;
  PTilingData tilingData;
};
static ge::graphStatus TilingP(gert::TilingContext* context)
{
  PTiling t(context);
  return t.DoTiling();
}
}
""" + op_def()

def test_numeric_limits_max_initialises_a_member() -> None:
    result = run_tiling(PROGRAM.replace("INIT_OTHER", "other"))
    assert_tiled(result)
    assert result.fields == {"n": 5, "big": 0}


def test_a_member_left_unknown_and_set_in_a_statement_left_out_is_reported_not_a_crash() -> None:
    # `other` starts from a library call the host lowering does not model (no memory of its own), and is then
    # set inside a statement the lowering leaves out: what it holds afterwards is unknown
    text = PROGRAM.replace("int64_t other = 0;", "int64_t other = std::gcd(4, 6);").replace(
        "tilingData.set_big(INIT_OTHER);",
        "if (rows > 1) { other = std::lcm(rows, 3); }\\n    tilingData.set_big(other);")
    result = run_tiling(text)
    assert not any("internal error" in d for d in result.diagnostics), result.diagnostics
    # big's value is unknown: not set, and the run says it is incomplete
    assert "big" not in result.fields and result.fields.get("n") == 5
    assert not result.complete and result.gaps
