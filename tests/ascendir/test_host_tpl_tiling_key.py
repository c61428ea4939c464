"""The ops repositories' template tiling key (asc-devkit template_argument.h, out of reach of an op folder):
`GET_TPL_TILING_KEY(v0, v1, ...)` packs the values of the parameters an `ASCENDC_TPL_ARGS_DECL` declares, in
declaration order from bit 0 up, each in its declared width; a UINT parameter by the index of its value among
the declared ones (ranges expanded), a BOOL or DATATYPE parameter by its value; an undeclared UINT value gives
the all-ones INVALID_TILING_KEY. `ASCENDC_TPL_SEL_PARAM(context, ...)` sets that key. ops-nn ascend_quant_v2 and
dynamic_quant stopped at GET_TPL_TILING_KEY as an undeclared identifier (ASC102)."""

from __future__ import annotations

import pytest

from ascendir.host_eval_types import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from ascendir.lower.tpl_tiling_key import INVALID_TILING_KEY, TplDeclaration, TplParam, decode, encode
from frontend.pipeline import load_text
from tests.ascendir.host_op import op_def

SOURCE = """
#include "register/tilingdata_base.h"
#include "ascendc/host_api/tiling/template_argument.h"
#define MODE_A 3
#define MODE_B 7
#define MODE_C 9
namespace POp {
ASCENDC_TPL_ARGS_DECL(P,
    ASCENDC_TPL_UINT_DECL(mode, 2, ASCENDC_TPL_UI_LIST, MODE_A, MODE_B, MODE_C),
    ASCENDC_TPL_BOOL_DECL(flag, 0, 1),
    ASCENDC_TPL_UINT_DECL(tiles, ASCENDC_TPL_4_BW, ASCENDC_TPL_UI_MIX, 2, 0, 2, 5, 6, 10, 12),
    ASCENDC_TPL_DATATYPE_DECL(dt, ge::DT_FLOAT16, ge::DT_FLOAT));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(mode, ASCENDC_TPL_UI_LIST, MODE_A)));
}
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    uint32_t n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint32_t mode = n > 16 ? MODE_C : MODE_B;
    td.set_n(n);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    if (n == 4) {
        ASCENDC_TPL_SEL_PARAM(context, mode, 1, 12, ge::DT_FLOAT);
        return ge::GRAPH_SUCCESS;
    }
    if (n == 6) {
        context->SetTilingKey(GET_TPL_TILING_KEY(MODE_A, 0, n - 1, 1));  // constant operands
        return ge::GRAPH_SUCCESS;
    }
    context->SetTilingKey(GET_TPL_TILING_KEY(mode, true, n / 4, 1));
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()

# bits: mode 0-1 (index among 3, 7, 9), flag 2, tiles 3-6 (index among 0, 1, 2, 5, 6, 10, 12), dt 7-14 (ge code)
CASES = [
    (4, 1 | 1 << 2 | 6 << 3 | 0 << 7),  # SEL_PARAM: mode 7, flag 1, tiles 12, DT_FLOAT (0)
    (5, 1 | 1 << 2 | 1 << 3 | 1 << 7),  # mode 7, tiles 1, DT_FLOAT16
    (6, 0 | 0 << 2 | 3 << 3 | 1 << 7),  # MODE_A, tiles 5
    (20, 2 | 1 << 2 | 3 << 3 | 1 << 7),  # MODE_C, tiles 5
    (12, INVALID_TILING_KEY),  # tiles 3 is not declared
]


@pytest.mark.parametrize(("size", "key"), CASES)
def test_the_host_packs_the_declared_parameters_into_the_key(size: int, key: int) -> None:
    program = load_text(SOURCE, "p/op_host/p_tiling.cpp")  # (an op_host source: the macros are read there)
    result = evaluate_program_tiling(program, TilingInputs([TensorSpec((size,), "float32")]))
    assert result.succeeded, result.diagnostics
    assert result.diagnostics == []
    assert result.tiling_key == key


DECL = TplDeclaration("P", (TplParam("mode", "uint", 2, (3, 7, 9)), TplParam("flag", "bool", 1, (0, 1)),
                            TplParam("dt", "dtype", 8, (1, 0))), None)  # type: ignore[arg-type]


def test_decoding_gives_back_the_values_and_refuses_keys_no_values_give() -> None:
    assert decode(DECL, encode(DECL, [9, 1, 27])) == [9, 1, 27]
    with pytest.raises(ValueError):
        decode(DECL, 3)  # mode index 3: only three values are declared
    with pytest.raises(ValueError):
        decode(DECL, 1 << 11)  # a bit past the 11 the parameters use


def test_a_key_without_a_declaration_in_reach_is_a_gap_not_an_undeclared_name() -> None:
    source = SOURCE.split("namespace POp {")[0] + "namespace optiling {" + SOURCE.split("namespace optiling {", 1)[1]
    program = load_text(source, "p/op_host/p_tiling.cpp")
    result = evaluate_program_tiling(program, TilingInputs([TensorSpec((5,), "float32")]))
    assert any("without an ASCENDC_TPL_ARGS_DECL in reach" in d for d in result.diagnostics), result.diagnostics
    assert not any("undeclared identifier" in d for d in result.diagnostics)
