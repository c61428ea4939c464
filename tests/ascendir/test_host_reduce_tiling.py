"""The Reduce APIs' temporary-size queries in host tiling functions (KernelHive sum_reduction_over_a_dimension#0
sizes ReduceSum<float, Pattern::Reduce::RA>'s sharedTmpBuffer with GetReduceSumMaxMinTmpSize). Expected sizes are
worked out by hand from the tiling library's formulas (see ascendir/lower/host_tiling_api.py)."""

from __future__ import annotations

import pytest

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

HOST = """
namespace optiling {{
BEGIN_TILING_DATA_DEF(ReduceTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, mx);
    TILING_DATA_FIELD_DEF(uint32_t, mn);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ReduceOp, ReduceTilingData)
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{{
    ReduceTilingData tiling;
    const auto shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t maxTmp = 7;
    uint32_t minTmp = 7;
    ge::Shape reduceShape({{shape.GetDim(0), shape.GetDim(1)}});
    AscendC::{api}(reduceShape, ge::{dtype}, AscendC::ReducePattern::{pattern}, true, {reuse}, maxTmp, minTmp);
    tiling.set_mx(maxTmp);
    tiling.set_mn(minTmp);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}}
}}
"""


def size(api: str, pattern: str, shape: tuple[int, int], dtype: str = "DT_FLOAT", reuse: bool = False) -> int:
    source = HOST.format(api=api, dtype=dtype, pattern=pattern, reuse="true" if reuse else "false")
    result = evaluate_program_tiling(load_text(source, "reduce.cpp"), TilingInputs([TensorSpec(shape, "float32")]))
    assert result.diagnostics == [] and result.succeeded and not result.gaps, result.diagnostics
    assert result.fields["mx"] == result.fields["mn"]  # the library's maximum is its minimum
    return result.fields["mn"]


@pytest.mark.parametrize(("shape", "expected"), [
    ((256, 64), 128 * 64 * 4),   # the attempt's tile: 256 a power of two, halved to 128 rows of 64 floats
    ((300, 20), 256 * 24 * 4),   # 256 <= 300 kept; 20 columns padded to 24
    ((1, 64), 1 * 64 * 4),       # one row: nothing to halve
])
def test_reduce_sum_ra(shape: tuple[int, int], expected: int) -> None:
    assert size("GetReduceSumMaxMinTmpSize", "RA", shape) == expected


def test_reduce_sum_ar_and_reuse() -> None:
    assert size("GetReduceSumMaxMinTmpSize", "AR", (16, 64)) == 0        # a row fits one repeat
    assert size("GetReduceSumMaxMinTmpSize", "AR", (16, 256)) == 16 * 128 * 4  # 256 halved (first > 1)
    assert size("GetReduceSumMaxMinTmpSize", "AR", (16, 100)) == 16 * 64 * 4
    assert size("GetReduceMeanMaxMinTmpSize", "RA", (256, 64)) == 128 * 64 * 4
    assert size("GetReduceSumMaxMinTmpSize", "RA", (256, 64), reuse=True) == 0


def test_reduce_max_min() -> None:
    # AR: within a block nothing, within a repeat a block per row, else a repeat per row
    assert size("GetReduceMaxMaxMinTmpSize", "AR", (10, 8)) == 0
    assert size("GetReduceMaxMaxMinTmpSize", "AR", (10, 40)) == 10 * 32
    assert size("GetReduceMinMaxMinTmpSize", "AR", (10, 40), dtype="DT_FLOAT16") == 10 * 32
    assert size("GetReduceMinMaxMinTmpSize", "AR", (10, 128), dtype="DT_FLOAT16") == 10 * 256
    # RA: p2(first) rows of the last axis padded to 32 bytes
    assert size("GetReduceMaxMaxMinTmpSize", "RA", (33, 10), dtype="DT_FLOAT16") == 32 * 32


def test_reduce_prod() -> None:
    """KernelHive product_reduction_over_a_dimension's final sizes ReduceProd<float, RA>'s sharedTmpBuffer with
    GetReduceProdMaxMinTmpSize; unmodelled, the host left it 0 and the simulator's ASC959 stopped a final that passed
    on hardware."""
    assert size("GetReduceProdMaxMinTmpSize", "RA", (256, 64)) == 128 * 256  # the final's tile: 128 rows of 64 floats
    assert size("GetReduceProdMaxMinTmpSize", "RA", (300, 20)) == 256 * 96   # 20 floats padded to 32 bytes
    assert size("GetReduceProdMaxMinTmpSize", "RA", (256, 64), reuse=True) == 0
    # AR: (max(p2(last), 8) + 8 per row) floats and a 256-byte repeat
    assert size("GetReduceProdMaxMinTmpSize", "AR", (16, 100)) == (64 + 16 * 8) * 4 + 256
    assert size("GetReduceProdMaxMinTmpSize", "AR", (16, 4)) == (8 + 16 * 8) * 4 + 256   # 4 halved to 2, then 8
    assert size("GetReduceProdMaxMinTmpSize", "AR", (1, 4)) == (8 + 8) * 4 + 256
    assert size("GetReduceProdMaxMinTmpSize", "AR", (16, 100), reuse=True) == 256
    assert size("GetReduceProdMaxMinTmpSize", "AR", (16, 100), dtype="DT_FLOAT16") == 7  # float only: left as it was
