"""An op project whose op_host keeps one tiling per architecture folder (ops-nn deep_norm: op_host/arch22 and
op_host/arch35 each `IMPL_OP_OPTILING(DeepNorm)`, the ops repositories' CMake building arch35's for ascend950 only
and arch22's for the others) runs the tiling of the chip's build: the 910B's from arch22, the 950's from arch35.
Both folders define a tiling struct of one name with different fields, as deep_norm does (arch22 a TILING_DATA_DEF,
arch35 a plain struct its tiling fills through GetTilingData<S>()). Before, the arch35 registration won on the 910B
(the last one the scan met) and its struct replaced arch22's; on the 950, arch22's TILING_DATA_DEF replaced arch35's
struct ("no field named 'newer'")."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascendir.host_eval_types import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.readers import read_input
from passes.verify import load_for_check

HEADER = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, NAME);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
}
"""
TILING = """
#include "p_tiling.h"
namespace optiling {
static ge::graphStatus TILING_FN(gert::TilingContext *context)
{
    PTilingData td;
    td.set_NAME(VALUE);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
struct PCompileInfo {};
static ge::graphStatus Prepare(gert::TilingParseContext *context) { return ge::GRAPH_SUCCESS; }
IMPL_OP_OPTILING(P).Tiling(TILING_FN).TilingParse<PCompileInfo>(Prepare);
}
"""
PLAIN_HEADER = """
#include <cstdint>
struct PTilingData {
    uint32_t newer;
};
"""
PLAIN_TILING = """
#include "p_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus PTilingFunc(gert::TilingContext *context)
{
    PTilingData *td = context->GetTilingData<PTilingData>();
    if (memset_s(td, sizeof(PTilingData), 0, sizeof(PTilingData)) != EOK) {
        return ge::GRAPH_FAILED;
    }
    td->newer = 35;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
struct PCompileInfo {};
static ge::graphStatus Prepare(gert::TilingParseContext *context) { return ge::GRAPH_SUCCESS; }
IMPL_OP_OPTILING(P).Tiling(PTilingFunc).TilingParse<PCompileInfo>(Prepare);
}
"""
OP_DEF = """
#include "register/op_def_registry.h"
namespace ops {
class P : public OpDef {
public:
    explicit P(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend950");
    }
};
OP_ADD(P);
}
"""


def _tiling(field: str, fn: str, value: int) -> str:
    return TILING.replace("NAME", field).replace("TILING_FN", fn).replace("VALUE", str(value))


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("p")
    (root / "op_host" / "arch22").mkdir(parents=True)
    (root / "op_host" / "arch35").mkdir()
    (root / "op_host" / "p_def.cpp").write_text(OP_DEF)
    (root / "op_host" / "arch22" / "p_tiling.h").write_text(HEADER.replace("NAME", "older"))
    (root / "op_host" / "arch22" / "p_tiling_arch22.cpp").write_text(_tiling("older", "Tiling4P", 22))
    (root / "op_host" / "arch35" / "p_tiling.h").write_text(PLAIN_HEADER)
    (root / "op_host" / "arch35" / "p_tiling_arch35.cpp").write_text(PLAIN_TILING)
    return root


@pytest.mark.parametrize(("chip", "field", "value"), [("910B2", "older", 22), ("950PR", "newer", 35)])
def test_the_tiling_of_the_chips_architecture_folder_runs(project: Path, chip: str, field: str, value: int) -> None:
    program, _ = load_for_check(read_input(str(project)), chip)
    result = evaluate_program_tiling(program, TilingInputs([TensorSpec((4, 4), "float32")], chip=chip))
    assert result.succeeded, result.diagnostics
    assert [d for d in result.diagnostics if "error" in d] == [], result.diagnostics
    assert result.fields == {field: value}
