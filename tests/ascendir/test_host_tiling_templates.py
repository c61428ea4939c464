"""Host code on the ops repositories' tiling-template framework: classes derived from TilingBaseClass,
registered with REGISTER_TILING_TEMPLATE("Op", Class, priority), the tiling function
`return TilingRegistry::GetInstance().DoTilingImpl(context);` (NPUKernelBench LayerNormV4, BatchNormV3,
DequantSwigluQuant). Neither framework header ships with an answer; ascendir/lower/tiling_framework.py adds
their documented behaviour. Before, the call was an undeclared identifier (ASC102) and no tiling ran.
"""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

SOURCE = """
#include "register/tilingdata_base.h"
#include "tiling/tiling_base.h"
#include "tiling/tiling_templates_registry.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF(uint32_t, path);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)

class PTilingBase : public TilingBaseClass {
public:
    explicit PTilingBase(gert::TilingContext *context) : TilingBaseClass(context) {}
protected:
    ge::graphStatus GetShapeAttrsInfo() override
    {
        rows = context_->GetInputShape(0)->GetStorageShape().GetDim(0);
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus GetPlatformInfo() override { return ge::GRAPH_SUCCESS; }
    ge::graphStatus DoLibApiTiling() override { return ge::GRAPH_SUCCESS; }
    ge::graphStatus GetWorkspaceSize() override { return ge::GRAPH_SUCCESS; }
    ge::graphStatus PostTiling() override
    {
        td.set_rows(rows);
        td.set_path(path);
        td.SaveToBuffer(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity());
        context_->GetRawTilingData()->SetDataSize(td.GetDataSize());
        context_->SetBlockDim(1);
        return ge::GRAPH_SUCCESS;
    }
    uint32_t rows = 0;
    uint32_t path = 0;
    PTilingData td;
};

class PSmallTiling : public PTilingBase {
public:
    explicit PSmallTiling(gert::TilingContext *context) : PTilingBase(context) {}
protected:
    bool IsCapable() override { return rows <= 8; }
    ge::graphStatus DoOpTiling() override { path = 1; return ge::GRAPH_SUCCESS; }
    uint64_t GetTilingKey() const override { return 100; }
};

class PLargeTiling : public PTilingBase {
public:
    explicit PLargeTiling(gert::TilingContext *context) : PTilingBase(context) {}
protected:
    bool IsCapable() override { return true; }
    ge::graphStatus DoOpTiling() override { path = 2; return ge::GRAPH_SUCCESS; }
    uint64_t GetTilingKey() const override { return 200; }
};

REGISTER_TILING_TEMPLATE("P", PLargeTiling, 1000);
REGISTER_TILING_TEMPLATE("P", PSmallTiling, 10);

static ge::graphStatus TilingP(gert::TilingContext *context)
{
    return TilingRegistry::GetInstance().DoTilingImpl(context);
}
}
""" + op_def()


def _run(rows: int):
    return run_tiling(SOURCE, rows, 4)


def test_the_first_capable_template_by_priority_tiles() -> None:
    # priority 10 (PSmallTiling) is tried first, although registered second; it takes 4 rows
    small = _run(4)
    assert_tiled(small)
    assert small.fields == {"rows": 4, "path": 1}
    assert small.tiling_key == 100


def test_a_template_that_is_not_capable_hands_over_to_the_next() -> None:
    large = _run(32)
    assert_tiled(large)
    assert large.fields == {"rows": 32, "path": 2}
    assert large.tiling_key == 200


def test_the_templates_tried_are_those_of_the_context_op_type() -> None:
    # a project that builds another op's tiling sources too registers that op's templates as well (ops-nn
    # batch_mat_mul_v3 builds mat_mul_v3's), at the same priorities: the registry keeps them per op type. Before,
    # "Q"'s PLargeTiling at priority 1 came first for "P" too (path 2 where P's own priority 10 takes 4 rows).
    source = SOURCE.replace('REGISTER_TILING_TEMPLATE("P", PLargeTiling, 1000);',
                            'REGISTER_TILING_TEMPLATE("Q", PLargeTiling, 1);\n'
                            'REGISTER_TILING_TEMPLATE("P", PLargeTiling, 1000);\n'
                            'REGISTER_TILING_TEMPLATE("Q", PSmallTiling, 1000);')
    small = run_tiling(source, 4, 4)
    assert_tiled(small)
    assert small.fields == {"rows": 4, "path": 1}
    large = run_tiling(source, 32, 4)
    assert_tiled(large)
    assert large.fields == {"rows": 32, "path": 2}


def test_a_template_hiding_do_tiling_is_still_run_by_the_base_steps() -> None:
    # The registry holds its templates as TilingBaseClass pointers and calls DoTiling() through them; the base's
    # DoTiling is not virtual, so a template declaring a DoTiling() of its own (ops-nn max_pool3d_with_argmax_v2's
    # ksize-one template: `void DoTiling()`, called from its DoOpTiling) only hides it. The registry still runs
    # the base's steps, whose GetShapeAttrsInfo hands the case over (GRAPH_PARAM_INVALID). Before, the registry
    # called the template's own DoTiling, which divided by the unset `unit` (ASC602, division by zero).
    hiding = """
class PHidingTiling : public PTilingBase {
public:
    explicit PHidingTiling(gert::TilingContext *context) : PTilingBase(context) {}
    void DoTiling()
    {
        path = 64 / unit;
    }
protected:
    ge::graphStatus GetShapeAttrsInfo() override { return ge::GRAPH_PARAM_INVALID; }
    bool IsCapable() override
    {
        unit = 4;
        return true;
    }
    ge::graphStatus DoOpTiling() override
    {
        DoTiling();
        return ge::GRAPH_SUCCESS;
    }
    uint64_t GetTilingKey() const override { return 300; }
    uint32_t unit = 0;
};

REGISTER_TILING_TEMPLATE("P", PHidingTiling, 1);
"""
    source = SOURCE.replace('REGISTER_TILING_TEMPLATE("P", PLargeTiling, 1000);',
                            hiding + 'REGISTER_TILING_TEMPLATE("P", PLargeTiling, 1000);')
    small = run_tiling(source, 4, 4)
    assert_tiled(small)
    assert small.fields == {"rows": 4, "path": 1}
    assert small.tiling_key == 100
