"""A std::string the host lowering cannot follow (a member of a struct member, ops-nn max_pool3d_with_argmax_v2's
`inputData.data_format`, set from an attribute and then compared with literals) is a gap at the comparison. The
comparison was built on the member's undefined value, so the whole tiling function was invalid IR: 'internal
error: lowering host tiling function ... produced invalid IR' (ASC000), and no path of it ran, not even one that
never reaches the comparison (max_pool3d's SIMT tiling on a 910B, which returns before it). Since session 13 the
member is followed (a memory cell) and the comparison runs."""

from __future__ import annotations

from tests.ascendir.host_op import op_def, run_tiling

SOURCE = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, a);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)

struct Info {
    int64_t rank = 0;
    std::string format;
};

class PTiling {
public:
    explicit PTiling(gert::TilingContext* context) : context_(context) {}
    ge::graphStatus Run()
    {
        PTilingData td;
        td.set_a(7);
        if (context_->GetInputShape(0)->GetStorageShape().GetDim(0) > LIMIT) {
            const char* format = context_->GetAttrs()->GetAttrPointer<char>(0);
            info.format = format;
            if (!(info.format == "ndhwc" || info.format == "ncdhw")) {
                return ge::GRAPH_FAILED;
            }
        }
        td.SaveToBuffer(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity());
        context_->GetRawTilingData()->SetDataSize(td.GetDataSize());
        context_->SetBlockDim(1);
        return ge::GRAPH_SUCCESS;
    }

private:
    gert::TilingContext* context_;
    Info info;
};

static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTiling tiling(context);
    return tiling.Run();
}
}
"""

ATTR = 'this->Attr("data_format").AttrType(OPTIONAL).String("NCDHW");'


def _run(limit: int):
    """The tiling on a (5, 6) input: the comparison is reached when 5 > limit."""
    return run_tiling(SOURCE.replace("LIMIT", str(limit)) + op_def(ATTR), attrs=["NCDHW"])


def test_a_path_that_does_not_reach_the_comparison_runs() -> None:
    result = _run(100)
    assert not [d for d in result.diagnostics if "internal error" in str(d)], result.diagnostics
    assert result.succeeded and result.fields == {"a": 7}


def test_reaching_the_comparison_runs_it() -> None:
    # (a gap there until session 13: a std::string data member is a memory cell now, host_decls.new_cell, so the
    # assignment and the comparison run, case-sensitive as std::string's operator== is)
    result = _run(1)
    assert not [d for d in result.diagnostics if "internal error" in str(d)], result.diagnostics
    assert not result.left_out_reached and not result.succeeded  # "NCDHW" is neither "ndhwc" nor "ncdhw"
    taken = run_tiling(SOURCE.replace("LIMIT", "1") + op_def(ATTR), attrs=["ncdhw"])
    assert taken.succeeded and taken.fields == {"a": 7}, taken.diagnostics
