"""`new T(args)` of a class of the program in host tiling code: a pointer to a new object (as make_unique's).

NPUKernelBench's large-head-dim flash attention tiles with `XTiling *basePtr = new XTiling(context);
basePtr->DoTiling(); delete basePtr;`; the host lowering modelled only `new T[n]` of numbers, so the whole tiling
class was left out (ASC103) and no tiling field was set."""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

PROGRAM = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint64_t, n);
TILING_DATA_FIELD_DEF(uint64_t, c);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
class PTiling {
 public:
  explicit PTiling(gert::TilingContext* context) : ctx(context) {};
  ge::graphStatus DoTiling()
  {
    auto shape = ctx->GetInputShape(0);
    tilingData.set_n(shape->GetStorageShape().GetDim(0));
    tilingData.set_c(shape->GetStorageShape().GetDim(1) * factor);
    tilingData.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(tilingData.GetDataSize());
    ctx->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
  }
 private:
  gert::TilingContext* ctx = nullptr;
  uint64_t factor = 3;
  PTilingData tilingData;
};
static ge::graphStatus TilingP(gert::TilingContext* context)
{
  PTiling* basePtr = new PTiling(context);
  ge::graphStatus status = basePtr->DoTiling();
  delete basePtr;
  return status;
}
}
""" + op_def()

def test_an_object_made_by_new_runs_its_methods_through_the_pointer() -> None:
    result = run_tiling(PROGRAM)
    assert_tiled(result)
    assert result.fields == {"n": 5, "c": 18}  # the member initialiser and the constructor's argument both held


def test_new_of_a_library_class_is_still_reported() -> None:
    text = PROGRAM.replace("PTiling* basePtr = new PTiling(context);", "PTiling* basePtr = new PTiling(context);\n"
                           "  auto *other = new std::string(\"x\");")
    result = run_tiling(text)
    assert any("new of anything but" in d for d in result.diagnostics)
