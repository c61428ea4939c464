"""The chip facts the ops repositories' host utilities ask for, which an op folder read alone does not define:
`Ops::Base::GetUbBlockSize(context)` (the UB block, 32 bytes), `Ops::Base::GetVRegSize(context)` (the vector
register width: ops-nn rms_norm / add_rms_norm arch35 tilings divide it by sizeof(float)) and
`PlatformAscendC::GetCurNpuArch()` compared with `NpuArch::DAV_<n>` (ops-nn ascend_quant_v2's tiling). Before,
each was an undeclared name or an unknown platform method and the tiling stopped. The values come from the chip
files (ascendir/chips/data: the UB alignment, vector_register_bytes, npu_arch)."""

from __future__ import annotations

import pytest

from ascendir.host_eval_types import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text
from tests.ascendir.host_op import op_def

SOURCE = """
#include "register/tilingdata_base.h"
#include "op_common/op_host/util/platform_util.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint64_t, block);
TILING_DATA_FIELD_DEF(uint64_t, vl);
TILING_DATA_FIELD_DEF(uint32_t, is910b);
TILING_DATA_FIELD_DEF(uint32_t, arch);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    td.set_block(Ops::Base::GetUbBlockSize(context));
    td.set_vl(Ops::Base::GetVRegSize(context) / sizeof(float));
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto npuArch = ascendcPlatform.GetCurNpuArch();
    td.set_is910b((npuArch == NpuArch::DAV_2201) || (npuArch == NpuArch::DAV_3003) ? 1 : 0);
    td.set_arch(static_cast<uint32_t>(npuArch));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def _fields(chip: str) -> dict[str, object]:
    result = evaluate_program_tiling(load_text(SOURCE, "p.cpp"),
                                     TilingInputs([TensorSpec((4, 4), "float32")], chip=chip))
    assert result.succeeded, result.diagnostics
    assert [d for d in result.diagnostics if "error" in d] == [], result.diagnostics
    return dict(result.fields)


@pytest.mark.parametrize(("chip", "arch", "is910b"), [("910B2", 2201, 1), ("950PR", 3510, 0), ("310P", 2002, 0)])
def test_chip_facts(chip: str, arch: int, is910b: int) -> None:
    fields = _fields(chip)
    assert fields["block"] == 32
    assert fields["vl"] == 256 // 4  # vector_register_bytes of every chip file today
    assert fields["arch"] == arch
    assert fields["is910b"] == is910b


def test_a_program_that_defines_get_ub_block_size_calls_its_own() -> None:
    own = SOURCE.replace("namespace optiling {",
                         "namespace optiling {\nstatic uint64_t GetUbBlockSize(gert::TilingContext *c) { return 64; }", 1)
    own = own.replace("Ops::Base::GetUbBlockSize(context)", "GetUbBlockSize(context)")
    result = evaluate_program_tiling(load_text(own, "p.cpp"),
                                     TilingInputs([TensorSpec((4, 4), "float32")], chip="910B2"))
    assert result.succeeded, result.diagnostics
    assert result.fields["block"] == 64
