"""An op folder whose tiling another op folder registers (ops-nn gemma_rms_norm: its op_host holds only the OpDef,
`OP_ADD(GemmaRmsNorm)`; rms_norm/op_host/rms_norm_tiling.cpp registers `IMPL_OP_OPTILING(GemmaRmsNorm)`; the
build joins them by `add_modules_sources(... DEPENDENCIES rms_norm)`) runs that tiling: through the CMakeLists'
DEPENDENCIES where it has one, else through the sibling folder that registers the op. Before, ASC120 "no host
tiling function taking a gert::TilingContext*"."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascendir.host_eval_types import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.readers import read_input
from passes.verify import load_for_check

SHARED_TILING = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(BaseTilingData)
TILING_DATA_FIELD_DEF(uint32_t, which);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Base, BaseTilingData)
REGISTER_TILING_DATA_CLASS(Variant, BaseTilingData)
static ge::graphStatus Run(gert::TilingContext *context, uint32_t which)
{
    BaseTilingData td;
    td.set_which(which);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
static ge::graphStatus Tiling4Base(gert::TilingContext *context) { return Run(context, 1); }
static ge::graphStatus Tiling4Variant(gert::TilingContext *context) { return Run(context, 2); }
struct BaseCompileInfo {};
static ge::graphStatus Prepare(gert::TilingParseContext *context) { return ge::GRAPH_SUCCESS; }
IMPL_OP_OPTILING(Base).Tiling(Tiling4Base).TilingParse<BaseCompileInfo>(Prepare);
IMPL_OP_OPTILING(Variant).Tiling(Tiling4Variant).TilingParse<BaseCompileInfo>(Prepare);
}
"""
OP_DEF = """
#include "register/op_def_registry.h"
namespace ops {
class OPNAME : public OpDef {
public:
    explicit OPNAME(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(OPNAME);
}
"""


def _ops(root: Path, cmake: str | None) -> Path:
    (root / "base" / "op_host").mkdir(parents=True)
    (root / "base" / "op_host" / "base_def.cpp").write_text(OP_DEF.replace("OPNAME", "Base"))
    (root / "base" / "op_host" / "base_tiling.cpp").write_text(SHARED_TILING)
    (root / "other" / "op_host").mkdir(parents=True)  # a sibling registering nothing of the variant's
    (root / "other" / "op_host" / "other_tiling.cpp").write_text(SHARED_TILING.replace("Variant", "Unrelated"))
    variant = root / "variant"
    (variant / "op_host").mkdir(parents=True)
    (variant / "op_host" / "variant_def.cpp").write_text(OP_DEF.replace("OPNAME", "Variant"))
    if cmake is not None:
        (variant / "op_host" / "CMakeLists.txt").write_text(cmake)
    return variant


@pytest.mark.parametrize("cmake", [
    None,
    "add_modules_sources(HOSTNAME ${OPHOST_NAME} MODE PRIVATE DIR ${CMAKE_CURRENT_SOURCE_DIR} OPTYPE variant "
    "ACLNNTYPE aclnn DEPENDENCIES base)",
])
def test_the_tiling_registered_in_a_dependency_runs(tmp_path: Path, cmake: str | None) -> None:
    variant = _ops(tmp_path, cmake)
    bundle = read_input(str(variant))
    hosts = sorted(Path(u.path).relative_to(tmp_path).as_posix() for u in bundle.units)
    assert hosts == ["base/op_host/base_tiling.cpp", "variant/op_host/variant_def.cpp"]
    program, chip = load_for_check(bundle)
    result = evaluate_program_tiling(program, TilingInputs([TensorSpec((4, 4), "float32")], chip=chip))
    assert result.succeeded, result.diagnostics
    assert result.fields == {"which": 2}


def test_a_folder_registering_its_own_tiling_reads_no_other(tmp_path: Path) -> None:
    _ops(tmp_path, None)
    bundle = read_input(str(tmp_path / "base"))
    assert sorted(Path(u.path).name for u in bundle.units) == ["base_def.cpp", "base_tiling.cpp"]


def test_an_opdef_with_its_own_set_tiling_reads_no_other(tmp_path: Path) -> None:
    """msopgen projects register their tiling in the OpDef (`SetTiling`), not with IMPL_OP_OPTILING."""
    variant = _ops(tmp_path, None)
    text = OP_DEF.replace("OPNAME", "Variant").replace('this->AICore().AddConfig',
                                                       'this->AICore().SetTiling(optiling::TilingFunc);\n'
                                                       '        this->AICore().AddConfig')
    (variant / "op_host" / "variant_def.cpp").write_text(text)
    assert [Path(u.path).name for u in read_input(str(variant)).units] == ["variant_def.cpp"]


def test_tiling_helpers_of_its_own_do_not_hide_the_dependency_registering_the_op(tmp_path: Path) -> None:
    """ops-nn swi_glu_grad: its op_host holds the OpDef and swi_glu_grad_tiling_regbase.cpp, a tiling class
    taking a gert::TilingContext that registers nothing; swi_glu/op_host/swi_glu_tiling.cpp registers
    IMPL_OP_OPTILING(SwiGluGrad) and the CMakeLists names swi_glu as a DEPENDENCY. Before, any source naming
    TilingContext counted as a tiling of its own, and the run stopped at ASC120 (no tiling function)."""
    variant = _ops(tmp_path, "add_modules_sources(HOSTNAME ${OPHOST_NAME} MODE PRIVATE DIR ${CMAKE_CURRENT_SOURCE_DIR} "
                             "OPTYPE variant ACLNNTYPE aclnn DEPENDENCIES base)")
    (variant / "op_host" / "variant_tiling_helper.cpp").write_text(
        "namespace optiling {\nclass VariantHelper {\npublic:\n"
        "    explicit VariantHelper(gert::TilingContext *context) : context_(context) {}\n"
        "    gert::TilingContext *context_;\n};\n}\n")
    bundle = read_input(str(variant))
    hosts = sorted(Path(u.path).relative_to(tmp_path).as_posix() for u in bundle.units)
    assert "base/op_host/base_tiling.cpp" in hosts
    program, chip = load_for_check(bundle)
    result = evaluate_program_tiling(program, TilingInputs([TensorSpec((4, 4), "float32")], chip=chip))
    assert result.succeeded, result.diagnostics
    assert result.fields == {"which": 2}


COMMON_H = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(CommonTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
END_TILING_DATA_DEF;
class CommonTiling {
public:
    explicit CommonTiling(gert::TilingContext *context) : context_(context) {}
    ge::graphStatus Run();
protected:
    gert::TilingContext *context_;
};
}
"""
COMMON_CPP = """
#include "common_tiling.h"
namespace optiling {
ge::graphStatus CommonTiling::Run()
{
    CommonTilingData td;
    td.set_rows(context_->GetInputShape(0)->GetStorageShape().GetDim(0) + 100);
    td.SaveToBuffer(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity());
    context_->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context_->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_a_header_of_another_op_folder_brings_its_source(tmp_path: Path) -> None:
    """ops-math circular_pad_grad's tiling derives from CircularPadCommonTiling, included as
    "../../circular_pad/op_host/circular_pad_common_tiling.h" and defined by circular_pad_common_tiling.cpp beside
    it (the ops repositories link every op's host sources into one library). Before, its methods were 'declared but
    never defined' (ASC103) and the tiling returned GRAPH_FAILED."""
    (tmp_path / "base" / "op_host").mkdir(parents=True)
    (tmp_path / "base" / "op_host" / "common_tiling.h").write_text(COMMON_H)
    (tmp_path / "base" / "op_host" / "common_tiling.cpp").write_text(COMMON_CPP)
    (tmp_path / "base" / "op_host" / "unrelated.cpp").write_text("int unrelated = 1;\n")
    variant = tmp_path / "variant"
    (variant / "op_host").mkdir(parents=True)
    (variant / "op_host" / "variant_def.cpp").write_text(OP_DEF.replace("OPNAME", "Variant"))
    (variant / "op_host" / "variant_tiling.cpp").write_text(
        '#include "../../base/op_host/common_tiling.h"\nnamespace optiling {\n'
        "static ge::graphStatus TilingVariant(gert::TilingContext *context) { return CommonTiling(context).Run(); }\n"
        "struct VariantCompileInfo {};\n"
        "static ge::graphStatus Prepare(gert::TilingParseContext *context) { return ge::GRAPH_SUCCESS; }\n"
        "IMPL_OP_OPTILING(Variant).Tiling(TilingVariant).TilingParse<VariantCompileInfo>(Prepare);\n}\n")
    bundle = read_input(str(variant))
    hosts = sorted(Path(u.path).relative_to(tmp_path).as_posix() for u in bundle.units)
    assert hosts == ["base/op_host/common_tiling.cpp", "variant/op_host/variant_def.cpp",
                     "variant/op_host/variant_tiling.cpp"]
    program, chip = load_for_check(bundle)
    result = evaluate_program_tiling(program, TilingInputs([TensorSpec((4, 4), "float32")], chip=chip))
    assert result.succeeded, result.diagnostics
    assert result.fields == {"rows": 104}


def test_a_header_included_from_the_repository_root_brings_its_tiling_source(tmp_path: Path) -> None:
    """ops-nn batch_mat_mul_v3's tiling derives from mat_mul_v3's MatmulV3BaseTiling, included from the repository
    root the build puts on the include path ("matmul/mat_mul_v3/op_host/op_tiling/matmul_v3_base_tiling.h") and
    defined by matmul_v3_base_tiling.cpp beside it, mat_mul_v3 being one of its CMakeLists' DEPENDENCIES. Before,
    only a relative include ("../../x/op_host/y.h") brought its source, and the methods were 'declared but never
    defined'. A header's op_api source is not a tiling source (the build's add_tiling_sources takes *_tiling*.cpp
    and op_tiling/*.cpp), and a folder that is no dependency (mat_mul_v3's include of matmul/common) brings none."""
    repo = tmp_path / "repo"
    base = repo / "cat" / "base" / "op_host"
    (base / "op_api").mkdir(parents=True)
    (base / "common_tiling.h").write_text(COMMON_H)
    (base / "common_tiling.cpp").write_text(COMMON_CPP)
    (base / "op_api" / "base_api.h").write_text("int BaseApi();\n")
    (base / "op_api" / "base_api.cpp").write_text("int BaseApi() { return 1; }\n")
    other = repo / "cat" / "other" / "op_host"
    other.mkdir(parents=True)
    (other / "other_tiling.h").write_text("int OtherHelper();\n")
    (other / "other_tiling.cpp").write_text("int OtherHelper() { return 2; }\n")
    variant = repo / "cat" / "variant"
    (variant / "op_host").mkdir(parents=True)
    (variant / "op_host" / "CMakeLists.txt").write_text(
        "add_modules_sources(OPTYPE variant ACLNNTYPE aclnn DEPENDENCIES base)\n")
    (variant / "op_host" / "variant_def.cpp").write_text(OP_DEF.replace("OPNAME", "Variant"))
    (variant / "op_host" / "variant_tiling.cpp").write_text(
        '#include "cat/base/op_host/common_tiling.h"\n#include "cat/base/op_host/op_api/base_api.h"\n'
        '#include "cat/other/op_host/other_tiling.h"\n'
        "namespace optiling {\n"
        "static ge::graphStatus TilingVariant(gert::TilingContext *context) { return CommonTiling(context).Run(); }\n"
        "struct VariantCompileInfo {};\n"
        "static ge::graphStatus Prepare(gert::TilingParseContext *context) { return ge::GRAPH_SUCCESS; }\n"
        "IMPL_OP_OPTILING(Variant).Tiling(TilingVariant).TilingParse<VariantCompileInfo>(Prepare);\n}\n")
    bundle = read_input(str(variant))
    hosts = sorted(Path(u.path).relative_to(repo).as_posix() for u in bundle.units)
    assert hosts == ["cat/base/op_host/common_tiling.cpp", "cat/variant/op_host/variant_def.cpp",
                     "cat/variant/op_host/variant_tiling.cpp"]
    program, chip = load_for_check(bundle)
    result = evaluate_program_tiling(program, TilingInputs([TensorSpec((4, 4), "float32")], chip=chip))
    assert result.succeeded, result.diagnostics
    assert result.fields == {"rows": 104}


def test_a_companion_sources_own_headers_bring_their_sources(tmp_path: Path) -> None:
    """The companion source itself includes headers of its folder whose sources define what it calls (ops-nn
    mat_mul_v3's matmul_v3_base_tiling.cpp, batch_mat_mul_v3's companion, calls L2Cache::SetL2CacheFlag of
    "matmul_v3_l2_cache.h", which matmul_v3_l2_cache.cpp defines): the dependency's build compiles those too. Before,
    only the headers of the op's own sources were followed, and SetL2CacheFlag was 'declared but never defined'."""
    repo = tmp_path / "repo"
    base = repo / "cat" / "base" / "op_host"
    base.mkdir(parents=True)
    (base / "common_tiling.h").write_text(COMMON_H)
    (base / "common_tiling.cpp").write_text(COMMON_CPP.replace(
        '#include "common_tiling.h"', '#include "common_tiling.h"\n#include "extra_tiling.h"').replace(
        "GetDim(0) + 100", "GetDim(0) + Extra()"))
    (base / "extra_tiling.h").write_text("namespace optiling {\nuint32_t Extra();\n}\n")
    (base / "extra_tiling.cpp").write_text("namespace optiling {\nuint32_t Extra() { return 300; }\n}\n")
    variant = repo / "cat" / "variant"
    (variant / "op_host").mkdir(parents=True)
    (variant / "op_host" / "CMakeLists.txt").write_text(
        "add_modules_sources(OPTYPE variant ACLNNTYPE aclnn DEPENDENCIES base)\n")
    (variant / "op_host" / "variant_def.cpp").write_text(OP_DEF.replace("OPNAME", "Variant"))
    (variant / "op_host" / "variant_tiling.cpp").write_text(
        '#include "cat/base/op_host/common_tiling.h"\n'
        "namespace optiling {\n"
        "static ge::graphStatus TilingVariant(gert::TilingContext *context) { return CommonTiling(context).Run(); }\n"
        "struct VariantCompileInfo {};\n"
        "static ge::graphStatus Prepare(gert::TilingParseContext *context) { return ge::GRAPH_SUCCESS; }\n"
        "IMPL_OP_OPTILING(Variant).Tiling(TilingVariant).TilingParse<VariantCompileInfo>(Prepare);\n}\n")
    bundle = read_input(str(variant))
    hosts = sorted(Path(u.path).relative_to(repo).as_posix() for u in bundle.units)
    assert hosts == ["cat/base/op_host/common_tiling.cpp", "cat/base/op_host/extra_tiling.cpp",
                     "cat/variant/op_host/variant_def.cpp", "cat/variant/op_host/variant_tiling.cpp"]
    program, chip = load_for_check(bundle)
    result = evaluate_program_tiling(program, TilingInputs([TensorSpec((4, 4), "float32")], chip=chip))
    assert result.succeeded, result.diagnostics
    assert result.fields == {"rows": 304}
