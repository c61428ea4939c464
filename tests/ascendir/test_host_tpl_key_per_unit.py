"""An op folder whose two tiling sources each include their own ASCENDC_TPL_ARGS_DECL of one op (ops-math
is_finite: the 910B tiling .cpp reaches op_kernel/is_finite_struct.h, the 950 one op_kernel/arch35/'s, in other
namespaces): GET_TPL_TILING_KEY was "several ASCENDC_TPL_ARGS_DECL in reach" (ASC103) and the key unknown. The
declaration the call's own translation unit reaches is the one. Also: a declaration whose op name is read as a
type (the kernel header declares a class of that name before it) still names its op; it read as '?', so the
kernel entry was matched to the other declaration and got no instance."""

from __future__ import annotations

from ascendir.host_eval_types import TensorSpec, TilingInputs
from ascendir.lower import scope as scope_mod
from ascendir.lower.host import evaluate_program_tiling
from ascendir.lower.tpl_tiling_key import declarations
from frontend.pipeline import load_bundle, load_text
from passes.sim.host_run import read_bundle
from tests.ascendir.host_op import op_def

_DECL_910B = """#pragma once
#include "ascendc/host_api/tiling/template_argument.h"
namespace PNs {
ASCENDC_TPL_ARGS_DECL(P, ASCENDC_TPL_DTYPE_DECL(D_X, 20, 30), ASCENDC_TPL_DTYPE_DECL(D_Y, 10));
}
"""

_DECL_950 = """#pragma once
#include "ascendc/host_api/tiling/template_argument.h"
namespace POp {
ASCENDC_TPL_ARGS_DECL(P, ASCENDC_TPL_UINT_DECL(mode, 1, ASCENDC_TPL_UI_LIST, 0, 1),
    ASCENDC_TPL_DTYPE_DECL(dType, 1, 2));
}
"""

_TILING = """
#include "register/tilingdata_base.h"
#include "../op_kernel/p_struct.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    td.set_n(1);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    context->SetTilingKey(GET_TPL_TILING_KEY(30, 10));
    return ge::GRAPH_SUCCESS;
}
}
"""

# another tiling source of the folder (the 950's), reaching the other declaration
_TILING_950 = """
#include "../op_kernel/arch35/p_struct.h"
namespace optiling {
static uint64_t Key950() { return GET_TPL_TILING_KEY(1, 0, 2); }
}
"""


def test_the_key_is_packed_with_the_declaration_of_the_calls_own_unit(tmp_path) -> None:
    op = tmp_path / "math" / "p"
    (op / "op_host").mkdir(parents=True)
    (op / "op_kernel" / "arch35").mkdir(parents=True)
    (op / "op_kernel" / "p_struct.h").write_text(_DECL_910B)
    (op / "op_kernel" / "arch35" / "p_struct.h").write_text(_DECL_950)
    (op / "op_host" / "p_tiling.cpp").write_text(_TILING + op_def())
    (op / "op_host" / "p_tiling_apt.cpp").write_text(_TILING_950)
    program = load_bundle(read_bundle(str(op)))
    result = evaluate_program_tiling(program, TilingInputs([TensorSpec((4, 8), "float32")]))
    assert result.succeeded, result.diagnostics
    assert [d for d in result.diagnostics if "ASCENDC_TPL_ARGS_DECL" in d] == []
    assert result.tiling_key == 30 | 10 << 8  # D_X in bits 0-7, D_Y in 8-15


def test_an_op_name_read_as_a_type_still_names_the_op() -> None:
    source = """
#include "ascendc/host_api/tiling/template_argument.h"
namespace PNs {
template <typename T> class P { public: T v; };
ASCENDC_TPL_ARGS_DECL(P, ASCENDC_TPL_DTYPE_DECL(D_X, 20, 30));
}
"""
    program = load_text(source, "p/op_host/p_tiling.cpp")
    collected = scope_mod.collect([u.ast for u in program.units])
    assert [d.op for d in declarations(collected.tpl_declarations)] == ["P"]
