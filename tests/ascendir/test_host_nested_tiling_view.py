"""A struct nested in the tiling struct, named by host code as a view of that part of it (ops-nn batch_mat_mul_v3:
BatchMatmulV3BaseTiling hands `&bmmTilingDataSelf_.matmulTiling`, a MatmulTilingData inside its
BatchMatmulTilingData, to its base MatmulV3BaseTiling, which binds `MatmulTilingData& tilingData_` to `*tilingData`
and sets `tilingData_.matmulRunInfo.transA` and the rest). Before, the nested struct was a record of its own: the
reference stayed unbound ("member 'matmulRunInfo' of a value of type MatmulTilingData*") and the kernel read those
fields as never set (ASC958)."""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

VIEW = r"""
#include <cstring>
namespace optiling {
struct RunInfo { uint32_t a; uint32_t b; };
struct InnerT { RunInfo run; uint32_t c; };
struct PTiling { InnerT inner; uint32_t d; };
REGISTER_TILING_DEFAULT(PTiling);
class Base {
public:
    Base(gert::TilingContext* ctx, InnerT* t) : ctx_(ctx), t_(*t) {}
    void Set() { t_.run.a = 3; t_.c = 4; t_.run.b = t_.run.a + 1; }
protected:
    gert::TilingContext* ctx_;
    InnerT& t_;
};
class Derived : public Base {
public:
    explicit Derived(gert::TilingContext* ctx) : Base(ctx, &self_.inner), outer_(self_) {}
    void Run()
    {
        Set();
        outer_.d = outer_.inner.c + outer_.inner.run.b * 10;
        memcpy_s(ctx_->GetRawTilingData()->GetData(), ctx_->GetRawTilingData()->GetCapacity(),
                 reinterpret_cast<void*>(&outer_), sizeof(PTiling));
        ctx_->GetRawTilingData()->SetDataSize(sizeof(PTiling));
    }
protected:
    PTiling& outer_;
private:
    PTiling self_{};
};
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    Derived t(context);
    t.Run();
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_a_reference_to_a_nested_struct_writes_the_tiling_struct() -> None:
    result = run_tiling(VIEW)
    assert_tiled(result)
    assert result.fields == {"inner.run.a": 3, "inner.run.b": 4, "inner.c": 4, "d": 44}
