"""The dtype of each output buffer comes from the op description's column for the inputs' dtypes; where several
columns take the same inputs (a cast: one per target type), the one whose outputs have the reference's dtypes."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bench.harness.stages.compile import op_output_dtypes
from frontend.pipeline import load

CAST_HOST = """
namespace ops {
class CastMath : public OpDef {
public:
    explicit CastMath(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_INT8, ge::DT_FLOAT16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
    }
};
OP_ADD(CastMath);
}
"""


def test_the_column_whose_outputs_the_reference_has(tmp_path: Path) -> None:
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_host" / "cast_math.cpp").write_text(CAST_HOST)
    program = load(str(tmp_path))
    assert op_output_dtypes(program, ["float16"], {"y": np.zeros(3, np.int8)}) == ["int8"]
    assert op_output_dtypes(program, ["float32"], {"y": np.zeros(3, np.int32)}) == ["int32"]
    # no column gives the reference's dtype: the first that takes the inputs
    assert op_output_dtypes(program, ["float16"], {"y": np.zeros(3, np.int64)}) == ["float32"]
