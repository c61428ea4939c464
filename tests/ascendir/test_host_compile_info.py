"""`context->GetCompileInfo()` in host tiling functions: the struct the op's TilingParse function filled with the
platform's numbers (NPUKernelBench's AddRmsNormQuant and StridedSliceAssignV2 read their core count and UB size
from it), and `GetNodeType()`, the op type IMPL_OP_OPTILING registers."""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

PARSED = """
namespace optiling {
struct DemoCompileInfo {
    uint32_t totalCoreNum = 0;
    uint64_t totalUbSize = 0;
    int32_t untouched;
    int32_t preset = 5;
};
struct DemoTilingData { uint32_t cores; uint32_t ubSame; int32_t untouched; int32_t preset; uint32_t isDemo; };

template <typename T>
inline T *GetCompileInfoPtr(gert::TilingParseContext *context) { return context->GetCompiledInfo<T>(); }

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto info = reinterpret_cast<const DemoCompileInfo *>(context->GetCompileInfo());
    if (info == nullptr) {
        return ge::GRAPH_FAILED;
    }
    DemoTilingData *t = context->GetTilingData<DemoTilingData>();
    t->cores = info->totalCoreNum;
    uint64_t ub = 0;
    platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    t->ubSame = context->GetCompileInfo<DemoCompileInfo>()->totalUbSize == ub && ub > 0 ? 1 : 0;
    t->untouched = info->untouched;
    t->preset = info->preset;
    std::string opType(context->GetNodeType());
    t->isDemo = opType == "DemoOp" ? 1 : 0;
    context->SetBlockDim(info->totalCoreNum);
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus TilingPrepareDemo(gert::TilingParseContext *context)
{
    auto compileInfo = GetCompileInfoPtr<DemoCompileInfo>(context);
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    compileInfo->totalCoreNum = ascendcPlatform.GetCoreNumAiv();
    if (compileInfo->totalCoreNum == 0) {
        return ge::GRAPH_FAILED;
    }
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, compileInfo->totalUbSize);
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_OPTILING(DemoOp)
    .Tiling(TilingFunc)
    .TilingParse<DemoCompileInfo>(TilingPrepareDemo);
}
"""


def test_the_parse_function_fills_what_the_tiling_reads() -> None:
    inputs = TilingInputs([TensorSpec((8, 64), "float16")], chip="910B2")
    result = evaluate_program_tiling(load_text(PARSED, "parsed.cpp"), inputs)
    assert result.diagnostics == []
    assert result.succeeded and not result.gaps
    assert result.fields == {"cores": 48, "ubSame": 1, "untouched": 0, "preset": 5, "isDemo": 1}
    assert result.block_dim == 48


def test_without_a_registered_struct_it_stays_a_gap() -> None:
    source = PARSED.replace(".TilingParse<DemoCompileInfo>(TilingPrepareDemo)", "")
    source = source.replace("context->GetCompileInfo<DemoCompileInfo>()->totalUbSize", "ub")
    result = evaluate_program_tiling(load_text(source, "parsed.cpp"), TilingInputs([TensorSpec((8, 64), "float16")]))
    assert any("GetCompileInfo" in g.message for g in result.gaps)


NO_PARSE = """
namespace optiling {
struct NoParseCompileInfo { int32_t totalCoreNum = 0; };
struct NoParseTilingData { uint32_t cores; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto compileInfo = reinterpret_cast<const NoParseCompileInfo *>(context->GetCompileInfo());
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = (compileInfo == nullptr) ? ascendcPlatform.GetCoreNumAiv() : compileInfo->totalCoreNum;
    NoParseTilingData *t = context->GetTilingData<NoParseTilingData>();
    t->cores = cores;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_an_op_without_a_parse_function_has_no_compile_info() -> None:
    # registered through its OpDef only (NPUKernelBench's StridedSliceAssignV2): GetCompileInfo() is null
    result = evaluate_program_tiling(load_text(NO_PARSE, "noparse.cpp"), TilingInputs([TensorSpec((4,), "float32")]))
    assert result.diagnostics == []
    assert result.succeeded and not result.gaps
    assert result.fields == {"cores": 48}
