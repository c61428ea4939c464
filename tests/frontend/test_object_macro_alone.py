"""An object-like macro of a header out of reach, alone on its line before a macro declaration: ops-nn's
mat_mul_v3 matmul_v3_tuning.h ends a tuning struct with `END_TUNING_TILING_DEF` (register/tuning_tiling_registry.h
makes it `};`) and declares `DECLARE_SCHEMA(MatMulV3TunnerTiling, FIELD(MatMulV3TunnerTiling, usedCoreNum), ...)`
on the next line. Unexpanded, the word read as a return type and DECLARE_SCHEMA as a function, whose `FIELD(` was a
syntax error [ASC001] that stopped every host including the header (transpose_batch_mat_mul's among them)."""

from __future__ import annotations

import textwrap

from frontend import ast as A
from frontend.pipeline import load_text

TUNING = """\
#include "register/tuning_tiling_registry.h"
namespace tuningtiling {
BEGIN_TUNING_TILING_DEF(TunerTiling)
TUNING_TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);
TUNING_TILING_DATA_FIELD_DEF(uint32_t, baseM);
END_TUNING_TILING_DEF

DECLARE_SCHEMA(TunerTiling, FIELD(TunerTiling, usedCoreNum),
               FIELD(TunerTiling, baseM));
}  // namespace tuningtiling
int after(int a) { return a + 1; }
"""


def _parse(src: str) -> tuple[list[str], A.TranslationUnit]:
    program = load_text(textwrap.dedent(src), "ops/mm/op_host/op_tiling/mm_tuning.h")
    return [d.code for d in program.diagnostics if d.code != "ASC002"], program.units[0].ast


def test_a_macro_alone_before_a_macro_declaration_is_left_out() -> None:
    codes, unit = _parse(TUNING)
    assert codes == []
    macros = {n.name: n for n in unit.walk() if isinstance(n, A.MacroDecl)}
    assert len(macros["DECLARE_SCHEMA"].args) == 3
    # the declarations after it are read as before
    assert [f.name.parts[-1].name for f in unit.walk() if isinstance(f, A.FunctionDecl)] == ["after"]


def test_other_syntax_errors_are_still_reported() -> None:
    # a lower-case word, or one with something after it on its line, is no macro written alone: an error
    assert _parse(TUNING.replace("END_TUNING_TILING_DEF", "end_tuning_def"))[0] == ["ASC001"]
    assert _parse(TUNING.replace("END_TUNING_TILING_DEF\n", "END_TUNING_TILING_DEF int\n"))[0] == ["ASC001"]
