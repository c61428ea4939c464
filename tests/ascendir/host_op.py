"""The op that the host-tiling tests tile: `P`, one float input `x` and one float output `y`, its tiling function
optiling::TilingP (which each test writes), and a run of that function on concrete shapes.

Separate because five test files repeated the same OpDef text and the same run-and-check lines; a test states
only the host code it is about."""

from __future__ import annotations

from collections.abc import Sequence

from ascendir.host_eval import TensorSpec, TilingInputs, TilingResult
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text


def op_def(*extra: str) -> str:
    """`namespace ops { class P : public OpDef ... OP_ADD(P); }`; `extra` are more statements of its
    constructor (an attribute), after the input and output."""
    more = "".join(f"        {line}\n" for line in extra)
    return ("namespace ops {\n"
            "class P : public OpDef {\n"
            "public:\n"
            "    explicit P(const char* name) : OpDef(name)\n"
            "    {\n"
            '        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});\n'
            '        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});\n'
            f"{more}"
            "        this->AICore().SetTiling(optiling::TilingP);\n"
            '        this->AICore().AddConfig("ascend910b");\n'
            "    }\n"
            "};\n"
            "OP_ADD(P);\n"
            "}\n")


OP_DEF = op_def()


def run_tiling(source: str, rows: int = 5, cols: int = 6, attrs: Sequence[object] | None = None) -> TilingResult:
    """TilingP of `source` (host code followed by an op_def()) on a float input of shape (rows, cols)."""
    inputs = TilingInputs([TensorSpec((rows, cols), "float32")], attrs=list(attrs) if attrs is not None else [])
    return evaluate_program_tiling(load_text(source, "p.cpp"), inputs)


def assert_tiled(result: TilingResult) -> None:
    """The tiling function ran to its end with every value known and no diagnostic."""
    assert result.diagnostics == [], result.diagnostics
    assert result.succeeded and not result.gaps
