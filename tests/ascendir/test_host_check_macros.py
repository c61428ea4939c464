"""Host tiling functions written with the cann-ops checking macros and context queries of NPUKernelBench's
Level-2 answers: `OPS_CHECK(cond, log, return ...)` and `OPS_LOG_E_IF_NULL(ctx, ptr, return ...)` (log/ops_log.h,
which the answers include through error/ops_error.h without defining them: GroupNormSwish), and
`context->GetDeterministic()` (DeepNormGrad), 0 while deterministic computation is off."""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

CHECKS = """
#include "error/ops_error.h"
namespace optiling {
struct CheckTilingData { uint32_t rows; uint32_t flag; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    CheckTilingData *t = context->GetTilingData<CheckTilingData>();
    const gert::StorageShape *x = context->GetInputShape(0);
    OPS_LOG_E_IF_NULL(context, x, return ge::GRAPH_FAILED);
    const gert::Shape &s = x->GetStorageShape();
    OPS_CHECK((s.GetDimNum() != 2), OPS_LOG_E(context, "rank %zu", s.GetDimNum()), return ge::GRAPH_FAILED);
    OPS_CHECK(s.GetDim(1) > 64, , return ge::GRAPH_PARAM_INVALID);
    t->rows = s.GetDim(0);
    t->flag = context->GetDeterministic() == 1 ? 7 : 3;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def run(shape: tuple[int, ...]):
    return evaluate_program_tiling(load_text(CHECKS, "checks.cpp"), TilingInputs([TensorSpec(shape, "float32")]))


def test_checks_pass_and_deterministic_mode_is_off() -> None:
    result = run((5, 16))
    assert result.diagnostics == []
    assert result.succeeded and not result.gaps
    assert result.fields == {"rows": 5, "flag": 3}


def test_a_failed_check_runs_its_statement() -> None:
    from ascendir.dialects.host import GRAPH_FAILED

    assert run((5, 16, 2)).status == GRAPH_FAILED  # the rank check
    result = run((5, 128))
    assert not result.succeeded
    assert result.status == 50331649  # GRAPH_PARAM_INVALID, the statement the second check was given


SOC = """
namespace optiling {
struct SocTilingData { uint32_t is910b; uint32_t version; };
class SocTiling {
public:
    explicit SocTiling(gert::TilingContext *context) : context_(context) {}
    ge::graphStatus Run() {
        auto ascendcPlatform = platform_ascendc::PlatformAscendC(context_->GetPlatformInfo());
        soc_ = ascendcPlatform.GetSocVersion();
        SocTilingData *t = context_->GetTilingData<SocTilingData>();
        const bool is910b = soc_ == platform_ascendc::SocVersion::ASCEND910B;
        t->is910b = is910b ? 1 : 0;
        t->version = static_cast<int32_t>(soc_);
        context_->SetBlockDim(1);
        return ge::GRAPH_SUCCESS;
    }
private:
    gert::TilingContext *context_;
    platform_ascendc::SocVersion soc_;
};
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    SocTiling tiling(context);
    return tiling.Run();
}
}
"""


def test_a_soc_version_member_holds_the_chip_s_number() -> None:
    from ascendir.dialects.host import SOC_VERSIONS

    result = evaluate_program_tiling(load_text(SOC, "soc.cpp"), TilingInputs([TensorSpec((4,), "float32")]))
    assert result.diagnostics == []
    assert result.succeeded and not result.gaps
    assert result.fields == {"is910b": 1, "version": SOC_VERSIONS["ASCEND910B"]}
