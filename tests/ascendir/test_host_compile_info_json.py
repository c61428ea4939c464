"""A TilingParse function that reads the op's compile-info JSON (ops-nn avg_pool3_d: `GetCompiledJson()` parsed with
nlohmann::json, and the AscendC parse taken when `(*info)["_pattern"]` is empty). The run simulates the AscendC
kernel, so the compile info is an AscendC build's, which has no TBE keys (host_json: the empty object). Before,
`std::unique_ptr<nlohmann::json>` was an unmodelled object, `(*info)[...]` a gap, and the TBE parse ran (its
GetCompiledJson an unknown member): the compile info's members stayed zero."""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

SRC = r"""
#include <memory>
#include <nlohmann/json.hpp>
namespace optiling {
struct PTiling { int32_t path; int32_t cores; int32_t keys; };
struct PCompileInfo { int32_t core_num = 0; bool is_ascend_c = false; int32_t keys = -1; };

inline std::unique_ptr<nlohmann::json> GetCompileInfoJson(gert::TilingParseContext* context)
{
    auto json_str = context->GetCompiledJson();
    OP_CHECK_IF(json_str == nullptr, OP_LOGE(context->GetNodeName(), "json_str is nullptr!"), return nullptr);
    std::unique_ptr<nlohmann::json> parsed = std::make_unique<nlohmann::json>(nlohmann::json::parse(json_str));
    return parsed;
}

static ge::graphStatus PrepareVec(gert::TilingParseContext* context)
{
    auto compileInfo = context->GetCompiledInfo<PCompileInfo>();
    compileInfo->core_num = 7;
    compileInfo->is_ascend_c = true;
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus PrepareP(gert::TilingParseContext* context)
{
    std::unique_ptr<nlohmann::json> info = GetCompileInfoJson(context);
    const nlohmann::json& pattern = (*info)["_pattern"];
    context->GetCompiledInfo<PCompileInfo>()->keys = static_cast<int32_t>(info->size()) +
        (info->contains("_pattern") ? 10 : 0) + (pattern.is_null() ? 100 : 0);
    bool isAscendC = pattern.empty();
    if (isAscendC) {
        return PrepareVec(context);
    }
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus TilingP(gert::TilingContext *context)
{
    auto compileInfo = static_cast<const PCompileInfo*>(context->GetCompileInfo());
    PTiling* tiling = context->GetTilingData<PTiling>();
    tiling->path = compileInfo->is_ascend_c ? 1 : 2;
    tiling->cores = compileInfo->core_num;
    tiling->keys = compileInfo->keys;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(P).Tiling(TilingP).TilingParse<PCompileInfo>(PrepareP);
}
""" + op_def()


def test_the_compile_info_json_is_an_ascendc_builds() -> None:
    result = run_tiling(SRC)
    assert_tiled(result)
    assert result.fields == {"path": 1, "cores": 7, "keys": 100}  # no keys, no "_pattern": the AscendC parse
