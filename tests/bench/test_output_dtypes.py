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


BF16_HOST = """
namespace ops {
class CastBf16 : public OpDef {
public:
    explicit CastBf16(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_BF16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
    }
};
OP_ADD(CastBf16);
}
"""


def test_a_float32_expectation_of_a_bfloat16_case(tmp_path: Path) -> None:
    # bfloat16 travels in float32 arrays, so a float32 expectation of a bfloat16 case is read as bfloat16 first;
    # with no bfloat16 -> bfloat16 column it is the float32 it says (NPUKernelBench CastMath's bf16 -> float32
    # case took the int32 column and its tiling refused the dst_type)
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_host" / "cast_bf16.cpp").write_text(BF16_HOST)
    program = load(str(tmp_path))
    assert op_output_dtypes(program, ["bfloat16"], {"y": np.zeros(3, np.float32)}) == ["float32"]
    assert op_output_dtypes(program, ["float32"], {"y": np.zeros(3, np.float32)}) == ["bfloat16"]
