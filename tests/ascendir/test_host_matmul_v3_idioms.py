"""Host idioms of ops-nn's mat_mul_v3 tiling (matmul_v3_tiling.cpp, matmul_v3_base_tiling.cpp, matmul/common's
math_util.h), each of which stopped or left out part of the op's tiling before (session 12, issue 29): the
framework's op cache and tuning bank (undeclared: ASC102), `ge::GetPrimaryFormat` (a gap), `ops::CeilAlign`
wrapping ops-base's `Ops::Base::CeilAlign` (read as a recursive call: a gap), `strcmp` of the node type
against a literal (comparing std::string models: a gap), and MatmulV3BaseTiling's tiling data: a plain struct
holding a TCubeTiling, filled by a MultiCoreMatmulTiling class member (gaps: the member was never built, the
TCubeTiling fields and the struct's sizeof were unknown)."""

from __future__ import annotations

from pathlib import Path

from ascendir.host_eval import TilingResult
from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

FRAMEWORK = """
namespace optiling {
struct PTiling { uint32_t prepared; uint32_t fromBank; };
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTiling *t = context->GetTilingData<PTiling>();
    t->prepared = TilingPrepareForOpCache(context) ? 1 : 0;
    void *tuning = nullptr;
    uint32_t ret = Ops::NN::QueryBank(nullptr, 0, "P", "Ascend910B", 20, tuning);
    t->fromBank = (ret != 0U || tuning == nullptr) ? 0 : 1;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_the_op_cache_is_prepared_and_the_tuning_bank_has_no_tiling() -> None:
    result = run_tiling(FRAMEWORK)
    assert_tiled(result)
    assert result.fields == {"prepared": 1, "fromBank": 0}


FORMAT_AND_WRAPPERS = """
namespace Ops {
namespace NN {
class MathUtil {
public:
    template <typename T>
    static T Align(T num1, T num2) { return Ops::Base::CeilAlign(num1, num2); }
};
}
}
namespace ops {
template <typename T>
static T CeilAlign(T num1, T num2) { return Ops::Base::CeilAlign(num1, num2); }
template <typename T>
static T CeilDiv(T num1, T num2) { return Ops::Base::CeilDiv(num1, num2); }
}
namespace optiling {
struct PTiling { uint32_t nd; uint32_t aligned; uint32_t blocks; uint32_t util; };
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTiling *t = context->GetTilingData<PTiling>();
    ge::Format f = static_cast<ge::Format>(ge::GetPrimaryFormat(context->GetInputDesc(0)->GetStorageFormat()));
    t->nd = f == ge::FORMAT_ND ? 1 : 0;
    uint64_t rows = context->GetInputShape(0)->GetStorageShape().GetDim(0);
    t->aligned = ops::CeilAlign(rows, 16UL);
    t->blocks = ops::CeilDiv(rows, 2UL);
    t->util = Ops::NN::MathUtil::Align(rows, 8UL);
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_primary_format_and_the_ops_namespace_wrappers_of_ops_base() -> None:
    result = run_tiling(FORMAT_AND_WRAPPERS, rows=5)
    assert_tiled(result)
    assert result.fields == {"nd": 1, "aligned": 16, "blocks": 3, "util": 8}


NODE_TYPE = """
namespace optiling {
struct PTiling { uint32_t isP; uint32_t isQ; };
static inline void GetKind(const gert::TilingContext& context, PTiling* t)
{
    t->isP = strcmp(context.GetNodeType(), "P") == 0 ? 1 : 0;
}
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTiling *t = context->GetTilingData<PTiling>();
    GetKind(*context, t);
    const char *opType = context->GetNodeType();
    t->isQ = strcmp(opType, "Q") == 0 ? 1 : 0;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_strcmp_of_the_node_type() -> None:
    # the op type is the op the OpDef adds (OP_ADD(P)); mat_mul_v3's GetDtype tells MatMulV3 from the other
    # ops that share its tiling class this way
    result = run_tiling(NODE_TYPE)
    assert_tiled(result)
    assert result.fields == {"isP": 1, "isQ": 0}


TILING_CLASS = """
namespace optiling {
struct L2Para { uint32_t mTile; uint32_t nTile; };
struct PMatmulTilingData { TCubeTiling matmulTiling; L2Para l2; uint32_t baseAN; };
class PBaseTiling : public TilingBaseClass {
public:
    explicit PBaseTiling(gert::TilingContext* context) : TilingBaseClass(context), tilingData_(tilingDataSelf_) {}
protected:
    bool IsCapable() override { return true; }
    ge::graphStatus GetPlatformInfo() override { return ge::GRAPH_SUCCESS; }
    ge::graphStatus GetShapeAttrsInfo() override { return ge::GRAPH_SUCCESS; }
    ge::graphStatus DoOpTiling() override
    {
        mm_.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16,
                     false);
        mm_.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16,
                     false);
        mm_.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
        mm_.SetDim(1);
        mm_.SetShape(64, 96, 128);
        mm_.SetOrgShape(64, 96, 128);
        mm_.SetBufferSpace(-1, -1, -1);
        if (mm_.GetTiling(tilingData_.matmulTiling) == -1) { return ge::GRAPH_FAILED; }
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus DoLibApiTiling() override
    {
        tilingData_.matmulTiling.baseM = 16;
        tilingData_.l2.mTile = tilingData_.matmulTiling.baseM + 1;
        tilingData_.baseAN = tilingData_.matmulTiling.singleCoreM;
        return ge::GRAPH_SUCCESS;
    }
    uint64_t GetTilingKey() const override { return 7; }
    ge::graphStatus GetWorkspaceSize() override { return ge::GRAPH_SUCCESS; }
    ge::graphStatus PostTiling() override
    {
        size_t tilingDataSize = sizeof(PMatmulTilingData);
        errno_t ret = memcpy_s(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity(),
                               reinterpret_cast<void*>(&tilingData_), tilingDataSize);
        if (ret != EOK) { return ge::GRAPH_FAILED; }
        context_->GetRawTilingData()->SetDataSize(tilingDataSize);
        context_->SetBlockDim(tilingData_.matmulTiling.usedCoreNum);
        return ge::GRAPH_SUCCESS;
    }
private:
    PMatmulTilingData tilingDataSelf_{};
protected:
    matmul_tiling::MultiCoreMatmulTiling mm_;
    PMatmulTilingData& tilingData_;
};
REGISTER_TILING_TEMPLATE("P", PBaseTiling, 0);
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    return TilingRegistry::GetInstance().DoTilingImpl(context);
}
}
extern "C" __global__ __aicore__ void p(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(PMatmulTilingData);
    GET_TILING_DATA(t, tiling);
}
""" + op_def()


def test_a_tiling_class_filling_the_kernel_tiling_struct_with_a_tcubetiling_member() -> None:
    # mat_mul_v3's MatmulV3BaseTiling: the struct the kernel registers (REGISTER_TILING_DEFAULT) is a plain one
    # holding a TCubeTiling, a member of the tiling class reached through a reference member, filled by the
    # class's MultiCoreMatmulTiling member and field by field, sizeof'd and memcpy_s'd whole into the context's
    # buffer. Before: the library objects were not built, the TCubeTiling fields and sizeof were gaps, and the
    # record was not the tiling struct.
    result = run_tiling(TILING_CLASS)
    assert result.succeeded and not result.gaps, result.diagnostics
    assert all(d.startswith("GetTiling is taken as succeeding") for d in result.diagnostics), result.diagnostics
    assert (result.block_dim, result.tiling_key, result.struct_name) == (1, 7, "PMatmulTilingData")
    fields = result.fields
    assert (fields["matmulTiling.baseM"], fields["matmulTiling.singleCoreM"], fields["l2.mTile"],
            fields["baseAN"]) == (16, 64, 17, 64)


def test_the_raw_tiling_bytes_lay_out_the_tcubetiling_member() -> None:
    # the kernel that reads its tiling bytes itself gets the TCubeTiling member in place (before: no layout, no
    # bytes for a struct holding a library struct)
    from ascendir.lower.library_structs import library_struct_fields
    from ascendir.lower.tiling_layout import tiling_slots
    from frontend.pipeline import load_text

    laid = tiling_slots(load_text(TILING_CLASS, "p.cpp"), "PMatmulTilingData")
    assert laid is not None
    slots, size = laid
    offsets = {s.path: s.offset for s in slots}
    cube = library_struct_fields("TCubeTiling")
    assert len(slots) == len(cube) + 3 and offsets[f"matmulTiling.{cube[0][0]}"] == 0
    assert offsets["l2.mTile"] >= 4 * len(cube) and offsets["baseAN"] == offsets["l2.mTile"] + 8
    # TCubeTiling is matmul_tilingdata.h's whole declaration: BatchNum (batch_mat_mul_v3's tiling sets it) is its
    # 49th int32, mxTypePara the last
    assert (offsets["matmulTiling.BatchNum"], offsets["matmulTiling.mxTypePara"], len(cube)) == (4 * 48, 4 * 49, 50)
    # every member is 4-byte aligned (TCubeTiling's 50 int32 fields, L2Para's two uint32): C++'s sizeof is the end
    assert size == offsets["baseAN"] + 4


def test_a_compile_info_copied_through_a_dereferenced_auto_pointer() -> None:
    # MatmulV3BaseTiling::GetPlatformInfo: `auto p = reinterpret_cast<const CompileInfo *>(...); compileInfo_ = *p;`
    # (before: "dereferencing a value of type DemoCompileInfo", a gap, and the copy's fields unknown)
    from ascendir.host_eval import TensorSpec, TilingInputs
    from ascendir.lower.host import evaluate_program_tiling
    from frontend.pipeline import load_text
    from tests.ascendir.test_host_compile_info import PARSED

    holder = """struct Holder {
    void Take(gert::TilingContext *context)
    {
        auto p = reinterpret_cast<const DemoCompileInfo*>(context->GetCompileInfo());
        info_ = *p;
    }
    DemoCompileInfo info_;
};
template <typename T>"""
    use = "    Holder h;\n    h.Take(context);\n    t->cores = h.info_.totalCoreNum + 1000;"
    source = PARSED.replace("template <typename T>", holder).replace("    t->cores = info->totalCoreNum;", use)
    assert "struct Holder" in source and use in source
    result = evaluate_program_tiling(load_text(source, "demo.cpp"), TilingInputs([TensorSpec((8, 16), "float32")]))
    assert result.diagnostics == [] and result.succeeded
    assert result.fields["cores"] == 1000 + result.block_dim


UNREACHED_ERROR = """
namespace optiling {
struct PTiling { uint32_t rows; };
class PT {
public:
    explicit PT(gert::TilingContext* c) : context_(c) {}
    void Legacy()
    {
        UnknownParas paras;
        paras.flag = true;
        rows_ = 7;
    }
    void Maybe()
    {
        if (rows_ > 100) {
            return;
        }
        if (!trans_) {
            return;
        }
        Legacy();
    }
    ge::graphStatus Run()
    {
        rows_ = context_->GetInputShape(0)->GetStorageShape().GetDim(0);
        Maybe();
        PTiling *t = context_->GetTilingData<PTiling>();
        t->rows = rows_;
        context_->SetBlockDim(1);
        return ge::GRAPH_SUCCESS;
    }
    gert::TilingContext* context_;
    uint64_t rows_ = 0;
    bool trans_ = false;
};
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PT p(context);
    return p.Run();
}
}
""" + op_def()


def test_an_error_in_a_helper_the_run_never_enters_does_not_fail_it() -> None:
    # mat_mul_v3's GetV2Tiling (the legacy library's structs, out of reach: ASC105) is called by DoIncreTiling
    # only for a transposed x2. Before, the error also marked each statement whose call led to it (`Maybe();`),
    # so every run failed; it is marked at its own statement now, which this run never reaches
    result = run_tiling(UNREACHED_ERROR)
    assert result.succeeded and not result.gaps and result.fields == {"rows": 5}
    taken = run_tiling(UNREACHED_ERROR.replace("bool trans_ = false;", "bool trans_ = true;"))
    assert not taken.succeeded


BASE_TILING_H = """
#pragma once
namespace optiling {
class PBase : public TilingBaseClass {
public:
    explicit PBase(gert::TilingContext* context) : TilingBaseClass(context) {}
protected:
    bool IsCapable() override { return true; }
    ge::graphStatus GetShapeAttrsInfo() override
    {
        if (context_->GetInputShape(0)->NoSuchMember() > 2) {
            return ge::GRAPH_FAILED;
        }
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus GetPlatformInfo() override { return ge::GRAPH_SUCCESS; }
    ge::graphStatus DoOpTiling() override { return ge::GRAPH_SUCCESS; }
    ge::graphStatus DoLibApiTiling() override { return ge::GRAPH_SUCCESS; }
    uint64_t GetTilingKey() const override { return 0; }
    ge::graphStatus GetWorkspaceSize() override { return ge::GRAPH_SUCCESS; }
    ge::graphStatus PostTiling() override { return ge::GRAPH_SUCCESS; }
};
}
"""
REGISTRY_PATH = """
#include "p_base_tiling.h"
namespace optiling {
struct PTiling { uint32_t rows; };
REGISTER_TILING_TEMPLATE("P", PBase, 0);
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    uint64_t rows = context->GetInputShape(0)->GetStorageShape().GetDim(0);
    if (rows < LIMIT) {
        PTiling *t = context->GetTilingData<PTiling>();
        t->rows = rows;
        context->SetBlockDim(1);
        return ge::GRAPH_SUCCESS;
    }
    return TilingRegistry::GetInstance().DoTilingImpl(context);
}
}
"""


def _registry_path_run(tmp_path: Path, limit: int) -> TilingResult:
    from ascendir.host_eval import TensorSpec, TilingInputs
    from ascendir.lower.host import evaluate_program_tiling
    from frontend.readers import read_input
    from passes.verify import load_for_check

    host = tmp_path / f"p{limit}" / "op_host"
    host.mkdir(parents=True)
    (host / "p_def.cpp").write_text(op_def())
    (host / "p_base_tiling.h").write_text(BASE_TILING_H)
    (host / "p_tiling.cpp").write_text(REGISTRY_PATH.replace("LIMIT", str(limit)))
    program, chip = load_for_check(read_input(str(host.parent)))
    return evaluate_program_tiling(program, TilingInputs([TensorSpec((5, 6), "float32")], chip=chip))


def test_an_error_in_a_condition_the_run_never_reaches_does_not_fail_it(tmp_path: Path) -> None:
    # transpose_batch_mat_mul: its einsum cases never take the registry path, whose base tiling has
    # `shape->GetShape()`, a member the model does not know (ASC100), in an OP_TILING_CHECK condition in a file of
    # its own. Before, an error in a condition had no mark of its own (the statements whose calls lead to it are in
    # other files: the framework's source, the tiling function's), so every run failed once f49078c lowered the path
    result = _registry_path_run(tmp_path, 100)
    assert result.succeeded and result.fields == {"rows": 5}, result.diagnostics
    assert not _registry_path_run(tmp_path, 2).succeeded
