"""A std::string data member of a host class is a memory cell (issue 29, session 13). ops-nn mat_mul_v3's
MatmulV3CompileInfo holds `std::string socVersionStr = "";` before its bools supportL0c2out / supportL12BtBf16, and
its tiling class copies the whole struct under an `if` (`if (!compileInfoInit_) { compileInfo_ = *p; }`). The
member was a handle, which an assignment under control flow cannot rebind: the copy stopped there (a gap), the
bools after it kept their false defaults, and a shape whose n is not 32-byte aligned (50x100 @ 100x70 half) failed
the tiling's 310P alignment check, meant for chips without the L0C-to-GM path."""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

SRC = """
namespace optiling {
struct PTiling { uint32_t cores; uint32_t support; uint32_t same; };
struct PCompileInfo { uint64_t aicNum{0UL}; std::string socVersionStr = ""; bool support = false; };
static ge::graphStatus TilingPrepareP(gert::TilingParseContext* context)
{
    auto info = context->GetCompiledInfo<PCompileInfo>();
    fe::PlatFormInfos* platformInfo = context->GetPlatformInfo();
    platformInfo->GetPlatformRes("version", "SoC_version", info->socVersionStr);
    std::string val;
    platformInfo->GetPlatformRes("AICoreintrinsicDtypeMap", "Intrinsic_fix_pipe_l0c2out", val);
    info->support = !val.empty();
    info->aicNum = 20;
    return ge::GRAPH_SUCCESS;
}
class PT {
public:
    explicit PT(gert::TilingContext* c) : context_(c) {}
    ge::graphStatus Run()
    {
        if (!init_) {
            auto p = reinterpret_cast<const PCompileInfo*>(context_->GetCompileInfo());
            info_ = *p;
        }
        PTiling *t = context_->GetTilingData<PTiling>();
        t->cores = info_.aicNum;
        t->support = info_.support ? 1 : 0;
        t->same = info_.socVersionStr == "Ascend910B" ? 1 : 0;
        context_->SetBlockDim(1);
        return ge::GRAPH_SUCCESS;
    }
    gert::TilingContext* context_;
    PCompileInfo info_;
    bool init_ = false;
};
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PT p(context);
    return p.Run();
}
IMPL_OP_OPTILING(P).Tiling(TilingP).TilingParse<PCompileInfo>(TilingPrepareP);
}
""" + op_def()


def test_copying_an_object_with_a_string_member_under_an_if_copies_every_member() -> None:
    result = run_tiling(SRC)
    assert_tiled(result)
    assert (result.fields["cores"], result.fields["support"]) == (20, 1)
