"""Vendor op hosts whose common headers are out of reach (an ops-nn / ops-math op folder read alone).

- The checking macros of the repositories' log headers (OP_TILING_CHECK, OP_CHECK_IF, OPS_ERR_IF,
  OP_CHECK_NULL_WITH_CONTEXT, OP_LOGE_IF) are the guarded statements they expand to
  (ascendir/lower/host_check_macros.py); before, each was an undeclared call and its early return was lost
  (ops-nn quant_matmul_reduce_sum, ops-math stateless_random_uniform_v2).
- A tiling class derived from TilingBaseClass whose host runs `XTiling(context).DoTiling()` itself, with no
  REGISTER_TILING_TEMPLATE, gets the framework's base class too (before: "'XTiling' has no method 'DoTiling'",
  ASC602 in stateless_random_uniform_v2), and the base's members tilingKey_ / workspaceSize_ / blockDim_ /
  aicoreParams_ resolve (before: undeclared, ASC602 in quant_matmul_reduce_sum).
"""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

SOURCE = """
#include "register/tilingdata_base.h"
#include "tiling_base/tiling_base.h"
#include "log/log.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF(uint32_t, ub);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)

class PTiling : public Ops::Math::OpTiling::TilingBaseClass {
public:
    explicit PTiling(gert::TilingContext *context) : TilingBaseClass(context) {}
protected:
    bool IsCapable() override { return true; }
    ge::graphStatus GetShapeAttrsInfo() override
    {
        auto shape = context_->GetInputShape(0);
        OP_CHECK_NULL_WITH_CONTEXT(context_, shape);
        rows = shape->GetStorageShape().GetDim(0);
        OP_TILING_CHECK(rows > 16, OP_LOGE(context_, "too many rows"), return ge::GRAPH_FAILED);
        OP_CHECK_IF(rows == 7, OP_LOGE(context_, "seven"), return ge::GRAPH_PARAM_INVALID);
        OP_CHECK_IF(rows == 3, OP_LOGE(context_, "three: logged only"), ;);
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus GetPlatformInfo() override
    {
        aicoreParams_.ubSize = 4096;
        OP_LOGE_WITHOUT_REPORT("P", "a log call of the repositories' own spelling");
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus DoOpTiling() override
    {
        tilingKey_ = rows > 8 ? 2 : 1;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus DoLibApiTiling() override { return ge::GRAPH_SUCCESS; }
    uint64_t GetTilingKey() const override { return tilingKey_; }
    ge::graphStatus GetWorkspaceSize() override
    {
        workspaceSize_ = 1024 + rows;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus PostTiling() override
    {
        td.set_rows(rows);
        td.set_ub(aicoreParams_.ubSize);
        td.SaveToBuffer(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity());
        context_->GetRawTilingData()->SetDataSize(td.GetDataSize());
        size_t *workspaces = context_->GetWorkspaceSizes(1);
        workspaces[0] = workspaceSize_;
        context_->SetBlockDim(1);
        return ge::GRAPH_SUCCESS;
    }
    uint32_t rows = 0;
    PTilingData td;
};

static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTiling tiling(context);
    return tiling.DoTiling();
}
}
""" + op_def()


def test_a_derived_tiling_class_runs_the_frameworks_steps_without_a_registration() -> None:
    result = run_tiling(SOURCE, 12, 4)
    assert_tiled(result)
    assert result.fields == {"rows": 12, "ub": 4096}  # aicoreParams_, a member of the base, holds its value
    assert result.tiling_key == 2  # tilingKey_, set by a step, read back by GetTilingKey
    assert result.workspace == {0: 1036}  # workspaceSize_, likewise


def test_a_check_macro_returns_where_its_condition_holds() -> None:
    result = run_tiling(SOURCE, 20, 4)  # OP_TILING_CHECK(rows > 16, ..., return ge::GRAPH_FAILED)
    assert result.diagnostics == ["TilingP returned ge::GRAPH_FAILED"]
    assert result.fields == {} and result.tiling_key is None  # nothing after the check ran
    passed = run_tiling(SOURCE, 4, 4)  # the checks pass: the rest of the step runs
    assert_tiled(passed)
    assert passed.tiling_key == 1


def test_a_check_macros_return_value_is_the_status() -> None:
    result = run_tiling(SOURCE, 7, 4)  # OP_CHECK_IF(rows == 7, ..., return ge::GRAPH_PARAM_INVALID)
    assert result.status == 50331649  # ge::GRAPH_PARAM_INVALID, DoTiling's "not this class"
    assert result.fields == {}
