"""Host tiling classes that keep their values in a struct held by `std::unique_ptr`, allocated inside a
`try`, with a handle member (`attrs = context->GetAttrs();`) set in a helper after an early return.

NPUKernelBench GroupNormSwishGrad's host does all three; before, the try block, every `tilingParams->x` and the
`attrs` assignment were left out (ASC103) and no tiling field was set.
"""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

PREFIX = """
#include "register/tilingdata_base.h"
#include <memory>
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint64_t, n);
TILING_DATA_FIELD_DEF(uint64_t, c);
TILING_DATA_FIELD_DEF(uint64_t, g);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
struct Params {
  uint64_t n = 0;
  uint64_t c = 0;
  uint64_t g = 7;
};
class PTiling {
 public:
  explicit PTiling(gert::TilingContext* context) : ctx(context) {};
  ge::graphStatus Init();
  ge::graphStatus Save();
 private:
  bool CheckShape();
  std::unique_ptr<Params> params;
  gert::TilingContext* ctx = nullptr;
  const gert::RuntimeAttrs* attrs = nullptr;
  PTilingData tilingData;
};
bool PTiling::CheckShape()
{
  auto shape = ctx->GetInputShape(0);
  if (shape == nullptr) { return false; }
  attrs = ctx->GetAttrs();
  if (attrs == nullptr) { return false; }
  params->n = shape->GetStorageShape().GetDim(0);
  return true;
}
"""

SUFFIX = """
ge::graphStatus PTiling::Save()
{
  tilingData.set_n(params->n);
  tilingData.set_c(params->c);
  tilingData.set_g(params->g);
  tilingData.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
  ctx->GetRawTilingData()->SetDataSize(tilingData.GetDataSize());
  ctx->SetBlockDim(1);
  return ge::GRAPH_SUCCESS;
}
static ge::graphStatus TilingP(gert::TilingContext* context)
{
  PTiling t(context);
  t.Init();
  return t.Save();
}
}
""" + op_def('this->Attr("k").AttrType(OPTIONAL).Int(3);')

INIT = """
ge::graphStatus PTiling::Init()
{
  try {
    params = std::make_unique<Params>();
  } catch (const std::bad_alloc& e) {
    return ge::GRAPH_FAILED;
  }
  if (params == nullptr) { return ge::GRAPH_FAILED; }
  if (!CheckShape()) { return ge::GRAPH_FAILED; }
  params->c = *(attrs->GetAttrPointer<int32_t>(0));
  return ge::GRAPH_SUCCESS;
}
"""


def test_unique_ptr_struct_allocated_in_try_and_handle_member_set_in_helper() -> None:
    result = run_tiling(PREFIX + INIT + SUFFIX, attrs=[4])
    assert_tiled(result)
    # n from the shape (set after the helper's early returns), c from the attribute read through the member
    # handle in another method, g the struct's own initialiser
    assert result.fields == {"n": 5, "c": 4, "g": 7}


def test_a_try_body_that_throws_is_reported() -> None:
    throwing = INIT.replace("params = std::make_unique<Params>();",
                            "params = std::make_unique<Params>();\n    if (ctx == nullptr) { throw 1; }")
    result = run_tiling(PREFIX + throwing + SUFFIX, attrs=[4])
    assert any("try block that throws" in d for d in result.diagnostics)
    assert not result.complete


def test_use_of_a_unique_ptr_never_allocated_is_reported() -> None:
    no_alloc = INIT.replace("params = std::make_unique<Params>();", "")
    result = run_tiling(PREFIX + no_alloc + SUFFIX, attrs=[4])
    assert result.gaps  # `params->n` on a pointer that holds no object: left out, said so
    assert not result.complete
