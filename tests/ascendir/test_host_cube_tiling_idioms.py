"""Host idioms of ops-nn's matmul tilings (transpose_batch_mat_mul, mat_mul_v3), each of which stopped the op's
tiling (ASC602) before: `attrs->GetAttrNum()` (the attributes the OpDef declares, ASC100 before);
`CUBE_INNER_ERR_REPORT(...)`, error_util.h's logging macro, out of reach (ASC102 before); `Tiling(context).DoTiling()`
on a temporary of a tiling class constructed from the context (read as a method of the context, ASC100 before)."""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

ATTRS = ('this->Attr("perm").AttrType(OPTIONAL).ListInt();', 'this->Attr("hf32").AttrType(OPTIONAL).Bool(false);',
         'this->Attr("split").AttrType(OPTIONAL).Int(1);')


def test_get_attr_num_counts_the_attributes_the_op_def_declares() -> None:
    source = """
namespace optiling {
struct PTiling { uint32_t attrs; uint32_t split; };
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTiling *t = context->GetTilingData<PTiling>();
    auto attrs = context->GetAttrs();
    t->attrs = attrs->GetAttrNum();
    if (attrs->GetAttrNum() >= 3) {
        t->split = *(attrs->GetAttrPointer<int32_t>(2));
    }
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def(*ATTRS)
    result = run_tiling(source, attrs=[[0, 1], False, 4])
    assert_tiled(result)
    assert result.fields == {"attrs": 3, "split": 4}


def test_cube_inner_err_report_only_logs() -> None:
    source = """
namespace optiling {
struct PTiling { uint32_t rows; };
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    OP_TILING_CHECK(context == nullptr, CUBE_INNER_ERR_REPORT("P", "context is null"), return ge::GRAPH_FAILED);
    PTiling *t = context->GetTilingData<PTiling>();
    t->rows = context->GetInputShape(0)->GetStorageShape().GetDim(0);
    OP_TILING_CHECK(t->rows == 0, CUBE_INNER_ERR_REPORT(context->GetNodeName(), "no rows %u", t->rows),
                    return ge::GRAPH_FAILED);
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()
    result = run_tiling(source)
    assert_tiled(result)
    assert result.fields == {"rows": 5}


def test_a_method_of_a_temporary_tiling_object_made_from_the_context() -> None:
    source = """
namespace optiling {
struct PTiling { uint32_t rows; uint32_t cols; };
namespace inner {
class Base {
public:
    explicit Base(gert::TilingContext* context) : context_(context) {}
    virtual ~Base() = default;
    gert::TilingContext* context_ = nullptr;
    uint32_t cols_ = 0;
};
class PTilingClass : public Base {
public:
    explicit PTilingClass(gert::TilingContext* context) : Base(context) {}
    ge::graphStatus DoTiling();
};
ge::graphStatus PTilingClass::DoTiling()
{
    PTiling *t = context_->GetTilingData<PTiling>();
    t->rows = context_->GetInputShape(0)->GetStorageShape().GetDim(0);
    t->cols = context_->GetInputShape(0)->GetStorageShape().GetDim(1);
    context_->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
using namespace inner;
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    return PTilingClass(context).DoTiling();
}
}
""" + op_def()
    result = run_tiling(source)
    assert_tiled(result)
    assert result.fields == {"rows": 5, "cols": 6}


PLATFORM_RES = """
namespace optiling {
struct PTiling { uint32_t fixpipe; uint32_t s8s4; uint32_t l12bt; uint32_t found; uint32_t at; uint32_t soc910b; };
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTiling *t = context->GetTilingData<PTiling>();
    fe::PlatFormInfos* platformInfo = context->GetPlatformInfo();
    std::string mmad;
    std::string val;
    std::string bt;
    std::string soc;
    bool res = platformInfo->GetPlatformRes("AICoreintrinsicDtypeMap", "Intrinsic_mmad", mmad);
    t->s8s4 = res && mmad.find("s8s4") != std::string::npos;
    t->found = platformInfo->GetPlatformRes("AICoreintrinsicDtypeMap", "Intrinsic_fix_pipe_l0c2out", val);
    t->fixpipe = !val.empty();
    t->at = val.find("16");
    platformInfo->GetPlatformRes("AICoreintrinsicDtypeMap", "Intrinsic_data_move_l12bt", bt);
    t->l12bt = (bt.find("bf16") != std::string::npos);
    platformInfo->GetPlatformRes("version", "SoC_version", soc);
    t->soc910b = soc.find("Ascend910B") == 0;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_get_platform_res_reads_the_chips_intrinsics() -> None:
    # the 910B: a fixpipe to GM ("float16", as the ops repositories' tiling tests write a present intrinsic),
    # no L1 -> bias-table move and no s8s4 mmad; the 950 has the bias-table move with bf16
    from ascendir.host_eval import TensorSpec, TilingInputs
    from ascendir.lower.host import evaluate_program_tiling
    from frontend.pipeline import load_text

    result = run_tiling(PLATFORM_RES)
    assert_tiled(result)
    assert result.fields == {"fixpipe": 1, "s8s4": 0, "l12bt": 0, "found": 1, "at": 5, "soc910b": 1}
    on_950 = evaluate_program_tiling(load_text(PLATFORM_RES, "p.cpp"),
                                     TilingInputs([TensorSpec((5, 6), "float32")], chip="950PR"))
    assert on_950.fields["l12bt"] == 1 and on_950.fields["soc910b"] == 0, on_950.diagnostics


BASE_METHOD = """
namespace optiling {
struct PTiling { uint32_t rows; uint32_t cols; };
namespace pp {
class Base {
public:
    explicit Base(gert::TilingContext* context) : context_(context) {}
    virtual ~Base() = default;
    void GetInfo();
    gert::TilingContext* context_ = nullptr;
    uint32_t cols_ = 0;
};
void Base::GetInfo() { cols_ = 7; }
}
namespace inner {
class PTilingClass : public pp::Base {
public:
    explicit PTilingClass(gert::TilingContext* context) : Base(context) {}
    ge::graphStatus DoTiling();
};
ge::graphStatus PTilingClass::DoTiling()
{
    GetInfo();
    PTiling *t = context_->GetTilingData<PTiling>();
    t->rows = context_->GetInputShape(0)->GetStorageShape().GetDim(0);
    t->cols = cols_;
    context_->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
using namespace inner;
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    return PTilingClass(context).DoTiling();
}
}
""" + op_def()


def test_a_method_of_a_base_class_called_unqualified_in_a_derived_method() -> None:
    # PpMatMulDefault::GetHardwareInfo() called in TransposeBatchMatMulEinsumTiling::DoTiling (ASC102 before)
    result = run_tiling(BASE_METHOD)
    assert_tiled(result)
    assert result.fields == {"rows": 5, "cols": 7}


ADVANCED = """
namespace optiling {
struct PTiling { uint32_t adv; uint32_t arch; };
const std::initializer_list<NpuArch> AdvancedNpuArch = {NpuArch::DAV_3510, NpuArch::DAV_RESV};
template <typename T>
inline typename std::enable_if<std::is_same<T, gert::TilingParseContext>::value ||
                                   std::is_same<T, gert::TilingContext>::value,
                               ge::graphStatus>::type
GetArch(const T* context, NpuArch& npuArch)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    bool s8s4 = false;
    npuArch = s8s4 ? NpuArch::DAV_RESV : ascendcPlatform.GetCurNpuArch();
    return ge::GRAPH_SUCCESS;
}
template <typename T>
inline typename std::enable_if<
    std::is_same<T, gert::TilingParseContext>::value || std::is_same<T, gert::TilingContext>::value, bool>::type
IsAdvanced(T* context)
{
    NpuArch npuArch;
    if (GetArch(context, npuArch) == ge::GRAPH_FAILED) {
        return false;
    }
    return std::find(AdvancedNpuArch.begin(), AdvancedNpuArch.end(), npuArch) != AdvancedNpuArch.end();
}
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTiling *t = context->GetTilingData<PTiling>();
    t->adv = IsAdvanced(context) ? 1 : 0;
    NpuArch arch;
    GetArch(context, arch);
    t->arch = static_cast<uint32_t>(arch);
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_enable_if_return_type_npu_arch_and_membership_in_a_constant_list() -> None:
    # matmul_v3_platform_common.h's IsAdvancedSocVersion: an enable_if<..., bool>::type return (before: a result
    # of a type not modelled, the evaluation stopped), a NpuArch variable (before: no conversion to uint32_t) and
    # std::find over a namespace-scope initializer_list compared with its end() (before: begin() not modelled)
    from ascendir.host_eval import TensorSpec, TilingInputs
    from ascendir.lower.host import evaluate_program_tiling
    from frontend.pipeline import load_text

    result = run_tiling(ADVANCED)
    assert_tiled(result)
    assert result.fields == {"adv": 0, "arch": 2201}
    on_950 = evaluate_program_tiling(load_text(ADVANCED, "p.cpp"),
                                     TilingInputs([TensorSpec((5, 6), "float32")], chip="950PR"))
    assert on_950.fields == {"adv": 1, "arch": 3510}, on_950.diagnostics


PLAIN_STRUCT_COPY = """
#include <cstdint>
struct alignas(8) PlainTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t size;
};
namespace optiling {
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PlainTiling tilingData;
    size_t tilingDataSize = sizeof(PlainTiling);
    tilingData.rows = context->GetInputShape(0)->GetStorageShape().GetDim(0);
    tilingData.cols = context->GetInputShape(0)->GetStorageShape().GetDim(1);
    tilingData.size = tilingDataSize;
    errno_t ret = memcpy_s(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity(),
                           static_cast<void*>(&tilingData), tilingDataSize);
    if (ret != EOK) {
        return ge::GRAPH_FAILED;
    }
    context->GetRawTilingData()->SetDataSize(tilingDataSize);
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_a_local_plain_struct_copied_into_the_raw_tiling_data() -> None:
    # transpose_batch_mat_mul_einsum_tiling.cpp's PostTiling: sizeof of a plain struct (before: not known) and a
    # memcpy_s of a local object of it into GetRawTilingData()->GetData() (before: only a tiling struct handle)
    result = run_tiling(PLAIN_STRUCT_COPY)
    assert_tiled(result)
    assert result.fields == {"rows": 5, "cols": 6, "size": 12}  # (alignas(8) is not read: the C++ size is 16)


ENVIRONMENT = """
namespace optiling {
struct PTiling { uint32_t shuffle; uint32_t level; };
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTiling *t = context->GetTilingData<PTiling>();
    const char* closeKShiftFlag = std::getenv("CLOSE_MATMUL_K_SHIFT");
    bool closed = closeKShiftFlag != nullptr && strcmp(closeKShiftFlag, "1") == 0;
    t->shuffle = static_cast<uint32_t>(!closed);
    t->level = context->GetDeterministicLevel() == INT32_MAX ? 9 : context->GetDeterministicLevel();
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_getenv_and_the_deterministic_level() -> None:
    # transpose_batch_mat_mul's GetCloseKShiftFlag (before: GetDeterministicLevel ASC100, getenv a gap): no
    # tuning variable set, deterministic computation off
    result = run_tiling(ENVIRONMENT)
    assert_tiled(result)
    assert result.fields == {"shuffle": 1, "level": 0}


MEMBER_ATTR = """
namespace optiling {
struct PTiling { uint32_t transB; uint32_t count; };
class PTilingClass {
public:
    explicit PTilingClass(gert::TilingContext* context) : context_(context) {}
    bool GetInfo()
    {
        if (context_->GetInputShape(0)->GetStorageShape().GetDimNum() != 2) {
            return false;
        }
        auto attrs = context_->GetAttrs();
        permList_ = attrs->GetAttrPointer<gert::ContinuousVector>(0);
        const int64_t* perm = reinterpret_cast<const int64_t*>(permList_->GetData());
        transB_ = perm[0] == 1 ? 1 : 0;
        return true;
    }
    gert::TilingContext* context_ = nullptr;
    const gert::ContinuousVector* permList_ = nullptr;
    uint32_t transB_ = 0;
};
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingClass c(context);
    if (!c.GetInfo()) {
        return ge::GRAPH_FAILED;
    }
    PTiling *t = context->GetTilingData<PTiling>();
    t->transB = c.transB_;
    t->count = c.permList_->GetSize();
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def(*ATTRS)


def test_an_attribute_pointer_member_assigned_after_an_early_return() -> None:
    # TransposeBatchMatMulEinsumTiling::GetMatMulInfo's `bPermList_ = attrs->GetAttrPointer<...>(1);` after its
    # OP_TILING_CHECK returns (before: assigning it under control flow was not modelled)
    result = run_tiling(MEMBER_ATTR, attrs=[[1, 0, 2], False, 1])
    assert_tiled(result)
    assert result.fields == {"transB": 1, "count": 3}
