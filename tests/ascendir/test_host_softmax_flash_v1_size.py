"""`AscendC::GetSoftMaxFlashMaxTmpSize` / `GetSoftMaxFlashMinTmpSize` (SoftmaxFlash, the first form of
SoftmaxFlashV2) in host tiling code; ops-transformer's prompt_flash_attention tiling calls the Min with isUpdate
and isReuseSource true. Before, an undeclared identifier (ASC102) stopped the tiling. Expected bytes worked by hand
from asc-devkit's formulas (impl/adv_api/tiling/activation/softmax_tiling.cpp:222-304), [M, K], blk = 32 /
dataTypeSize, float words times 4: 220x Min blk + K + 64, with isUpdate 4 blk + 2 K, the Max M times that;
DAV_3510 Min M (blk + K), Max M (blk + K + 64), without isUpdate at least M (8 + K) + 256 + align(M, 8)."""

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
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    const gert::Shape &in = context->GetInputShape(0)->GetStorageShape();
    auto shape = ge::Shape({in.GetDim(0), in.GetDim(1)});
    const auto attrs = context->GetAttrs();
    uint32_t typeSize = static_cast<uint32_t>(*attrs->GetInt(0));
    bool update = *attrs->GetBool(1);
    td.set_maxSize(AscendC::GetSoftMaxFlashMaxTmpSize(shape, typeSize, update, true));
    td.set_minSize(GetSoftMaxFlashMinTmpSize(shape, typeSize, update, true));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def('this->Attr("type_size").AttrType(REQUIRED).Int();', 'this->Attr("update").AttrType(REQUIRED).Bool();')


@pytest.mark.parametrize(("rows", "cols", "type_size", "update", "want"), [
    (8, 16, 4, False, (8 * 88 * 4, 88 * 4)),  # blk 8: 8 + 16 + 64
    (8, 16, 4, True, (8 * 64 * 4, 64 * 4)),  # 4 * 8 + 2 * 16
    (4, 128, 2, True, (4 * 320 * 4, 320 * 4)),  # blk 16: 64 + 256
    (0, 16, 4, True, (0, 0)),  # no elements: the library asserts and returns 0
])
def test_softmax_flash_tmp_sizes(rows: int, cols: int, type_size: int, update: bool, want: tuple[int, int]) -> None:
    result = run_tiling(SOURCE, rows=rows, cols=cols, attrs=[type_size, update])
    assert result.succeeded, result.diagnostics
    assert [d for d in result.diagnostics if "error" in d or "warning" in d] == [], result.diagnostics
    assert (result.fields["maxSize"], result.fields["minSize"]) == want


@pytest.mark.parametrize(("update", "want"), [
    (True, (8 * (8 + 16 + 64) * 4, 8 * (8 + 16) * 4)),
    # without isUpdate, M (8 + K) + 256 + align(M, 8) = 456 is larger than the Min's M (blk + K) = 192, smaller
    # than the Max's M (blk + K + 64) = 704
    (False, (8 * 88 * 4, (8 * 24 + 256 + 8) * 4)),
])
def test_softmax_flash_tmp_sizes_on_dav_3510(update: bool, want: tuple[int, int]) -> None:
    inputs = TilingInputs([TensorSpec((8, 16), "float32")], attrs=[4, update], chip="950PR")
    result = evaluate_program_tiling(load_text(SOURCE, "p.cpp"), inputs)
    assert result.succeeded, result.diagnostics
    assert (result.fields["maxSize"], result.fields["minSize"]) == want
