"""ASCENDC_TPL_ARGS_DECL forms of ops-nn / ops-transformer tiling-key headers the reading refused (issue 28;
ascendir/lower/tpl_tiling_key.py). Each left the declaration unread ('... in ASCENDC_TPL_ARGS_DECL is not a
parameter declaration', a left-out statement in 11 of sim_gaps' 300 files), and the kernel entry's template
parameters got guessed values instead of the instance of a tiling key:

- `ASCENDC_TPL_DATATYPE_DECL(DTYPE_X, C_DT_FLOAT, C_DT_FLOAT16, ...)` (glu_grad, softplus_v2, ...): DTYPE_X is the
  build's dtype macro, so the parameter's name arrives as a type, and its choices are graph/c_types.h's C_DataType
  names, whose codes are ge's DT_* (Tiling模板编程/模板参数定义.md lists them);
- `ASCENDC_TPL_UINT_DECL(CACHE_MODE, ...)` beside `enum class CACHE_MODE` (mla_prolog): a name that is a type;
- `ASCENDC_TPL_KERNEL_TYPE_DECL(CV_MODE, ASCENDC_TPL_MIX_AIC_1_1, ASCENDC_TPL_MIX_AIC_1_2)`: template_argument.h's
  kernel-type constants (6, 7), the header being out of reach.
The kernel's template parameters are bound by position, so a parameter's name only labels messages."""

from __future__ import annotations

from ascendir.lower.scope import collect
from ascendir.lower.tpl_tiling_key import declarations
from frontend.pipeline import load_text

SOURCE = """
#include "ascendc/host_api/tiling/template_argument.h"
#define DTYPE_X float
enum class CACHE_MODE { BND = 0, PA = 1 };
ASCENDC_TPL_ARGS_DECL(Op,
    ASCENDC_TPL_DATATYPE_DECL(DTYPE_X, C_DT_FLOAT, C_DT_FLOAT16, C_DT_BF16, ASCENDC_TPL_INPUT(1)),
    ASCENDC_TPL_UINT_DECL(CACHE_MODE, ASCENDC_TPL_4_BW, ASCENDC_TPL_UI_LIST, 0, 1, 2),
    ASCENDC_TPL_KERNEL_TYPE_DECL(CV_MODE, ASCENDC_TPL_MIX_AIC_1_1, ASCENDC_TPL_MIX_AIC_1_2), );
"""


def test_the_refused_forms_are_read() -> None:
    program = load_text(SOURCE, "op_tiling_key.h")
    scope = collect([u.ast for u in program.units])
    (decl,) = declarations(scope.tpl_declarations)
    assert [(p.kind, p.bits) for p in decl.params] == [("dtype", 8), ("uint", 4), ("kernel_type", 8)]
    assert decl.params[1].values == (0, 1, 2)
    assert decl.params[2].name == "CV_MODE"
