"""`AscendC::SoftMaxFlashV2TilingFunc(shape, dataTypeSize1, dataTypeSize2, workSize, tiling.sm, isUpdate[,
isBasicBlock[, isFlashOutputBrc]])` in a host tiling function (NPUKernelBench's large-head-dim flash attention
calls it with a `ge::Shape` of its basic block): its arguments run and the SoftMaxTiling it fills is left to the
kernel's side (as SoftMaxTilingFunc's is). It was ASC103 'not modelled by the host lowering', a gap."""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

PROGRAM = """
namespace optiling {
BEGIN_TILING_DATA_DEF(FTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmaxFlashTiling);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(FOp, FTilingData)
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    FTilingData tiling;
    const gert::Shape &in = context->GetInputShape(0)->GetStorageShape();
    auto shape = ge::Shape({in.GetDim(0) / 8, in.GetDim(1) * 8});
    AscendC::SoftMaxFlashV2TilingFunc(shape, sizeof(float), sizeof(float), 2 * 64 * 128 * 4,
                                      tiling.softmaxFlashTiling, true, in.GetDim(1) % 64 == 0);
    tiling.set_rows(shape.GetDim(0));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_softmax_flash_v2_tiling_func_is_no_gap() -> None:
    result = evaluate_program_tiling(load_text(PROGRAM, "f.cpp"), TilingInputs([TensorSpec((64, 128), "float32")]))
    assert result.diagnostics == []
    assert result.succeeded and not result.gaps
    assert result.fields["rows"] == 8


def test_softmax_flash_v2_tiling_into_another_struct_is_a_gap() -> None:
    source = PROGRAM.replace("TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmaxFlashTiling);",
                             "TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, softmaxFlashTiling);")
    result = evaluate_program_tiling(load_text(source, "f.cpp"), TilingInputs([TensorSpec((64, 128), "float32")]))
    assert len(result.gaps) == 1 and result.gaps[0].message.startswith("SoftMax tiling into ")
