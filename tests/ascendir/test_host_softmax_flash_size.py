"""`AscendC::GetSoftMaxFlashV2MaxTmpSize` / `GetSoftMaxFlashV2MinTmpSize` in host tiling code (ops-transformer
moe_gating_top_k_softmax's k-full-load tiling sizes its UB with the first). Before, an undeclared identifier
(ASC102) stopped the tiling. Expected bytes worked by hand from asc-devkit's 220x formulas
(impl/adv_api/tiling/activation/softmax_tiling.cpp), [M, K] = the shape's rows and last dim, blk = 32 / typeSize2:
max float M * (blk + 64), half M * (2 * blk + K + 64), a half basic block M' * (blk + K + 64) with M halved while
M * K >= 16384; min one row (8 for a basic block), times min(32 / typeSize1, M) rows with isFlashOutputBrc."""

from __future__ import annotations

import pytest

from ascendir.host_eval_types import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text
from tests.ascendir.host_op import op_def, run_tiling

SOURCE = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, maxSize);
TILING_DATA_FIELD_DEF(uint32_t, minSize);
TILING_DATA_FIELD_DEF(uint32_t, minBrc);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    const gert::Shape &in = context->GetInputShape(0)->GetStorageShape();
    auto shape = ge::Shape({in.GetDim(0), in.GetDim(1)});
    const auto attrs = context->GetAttrs();
    uint32_t typeSize = static_cast<uint32_t>(*attrs->GetInt(0));
    bool basic = *attrs->GetBool(1);
    td.set_maxSize(AscendC::GetSoftMaxFlashV2MaxTmpSize(shape, typeSize, typeSize, true, basic));
    td.set_minSize(GetSoftMaxFlashV2MinTmpSize(shape, typeSize, typeSize, true, basic));
    td.set_minBrc(GetSoftMaxFlashV2MinTmpSize(shape, typeSize, typeSize, true, basic, true));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def('this->Attr("type_size").AttrType(REQUIRED).Int();', 'this->Attr("basic").AttrType(REQUIRED).Bool();')


@pytest.mark.parametrize(("rows", "cols", "type_size", "basic", "want"), [
    (8, 16, 4, False, (576 * 4, 72 * 4, 576 * 4)),
    (8, 16, 2, False, (896 * 4, 112 * 4, 112 * 8 * 4)),  # brc: min(32 / 2, M = 8) = 8 rows
    (8, 64, 2, True, (1152 * 4, 8 * 144 * 4, 144 * 8 * 4)),
    (64, 512, 2, True, (16 * 592 * 4, 8 * 592 * 4, 592 * 16 * 4)),  # M halved 64 -> 16; brc 16 rows
    (0, 16, 4, False, (0, 0, 0)),  # no elements: the library asserts and returns 0
])
def test_softmax_flash_v2_tmp_sizes(rows: int, cols: int, type_size: int, basic: bool,
                                    want: tuple[int, int, int]) -> None:
    result = run_tiling(SOURCE, rows=rows, cols=cols, attrs=[type_size, basic])
    assert result.succeeded, result.diagnostics
    assert [d for d in result.diagnostics if "error" in d or "warning" in d] == [], result.diagnostics
    assert (result.fields["maxSize"], result.fields["minSize"], result.fields["minBrc"]) == want


@pytest.mark.parametrize(("rows", "cols", "type_size", "update", "want"), [
    # isUpdate, float: the Max's 220x row size for M > 2; the Min align(M, 64) + 2 * M * blk
    (8, 16, 4, True, (576 * 4, (64 + 8 * 16) * 4, (64 + 8 * 16) * 4)),
    # isUpdate, half, M <= 2: align(2 * M, 128) + M * (2 * blk + K), the Max's and the Min's alike
    (2, 64, 2, True, ((128 + 2 * 96) * 4,) * 3),
    # no isUpdate: max(M * (8 + K) + 256 + align(M, 8), M * (blk + K) (+ 64 * M for the Max))
    (8, 16, 4, False, (8 * 88 * 4, (8 * 24 + 256 + 8) * 4, (8 * 24 + 256 + 8) * 4)),
])
def test_softmax_flash_v2_tmp_sizes_on_dav_3510(rows: int, cols: int, type_size: int, update: bool,
                                                want: tuple[int, int, int]) -> None:
    """The 950's (DAV_3510) branch of the same functions (softmax_tiling.cpp :566-606, :672-690)."""
    source = SOURCE if update else SOURCE.replace("typeSize, typeSize, true,", "typeSize, typeSize, false,")
    inputs = TilingInputs([TensorSpec((rows, cols), "float32")], attrs=[type_size, False], chip="950PR")
    result = evaluate_program_tiling(load_text(source, "p.cpp"), inputs)
    assert result.succeeded, result.diagnostics
    assert (result.fields["maxSize"], result.fields["minSize"], result.fields["minBrc"]) == want
