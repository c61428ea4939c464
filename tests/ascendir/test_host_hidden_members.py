"""Records of one name in two namespaces, and a base class's member hidden by a derived class's member of the same
name (ops-nn batch_mat_mul_v3: optiling::batch_mat_mul_v3::BatchMatmulV3BaseTiling derives from
optiling::matmul_v3::MatmulV3BaseTiling; each namespace declares a `struct TilingEnable` of other members, and each
class holds a `TilingEnable tilingEnable_`). C++ names the struct of the namespace the code is written in, and a
base class's methods their own member (a derived class's member of the same name hides it from the derived class's
code only). Before: the member's type was the first `TilingEnable` declared ("'TilingEnable' has no member
'tilingEnableMultiBatchL1FullLoad'"), and both classes' code shared the derived class's member."""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

CLASSES = r"""
namespace optiling {
namespace first {
enum class ModeA : int32_t { OFF = 0, ON = 1 };
struct Enable { ModeA modeA = ModeA::OFF; int32_t count = 5; };
class BaseT {
public:
    explicit BaseT(gert::TilingContext* c) : context_(c) { enable_.modeA = ModeA::ON; }
    int32_t Base() { return (enable_.modeA == ModeA::ON ? 1 : 2) * 100 + enable_.count * 1000; }
protected:
    gert::TilingContext* context_;
    Enable enable_;
};
}
namespace second {
enum class ModeB : int32_t { OFF = 0, ON = 1 };
struct Enable { ModeB modeB = ModeB::OFF; int32_t count = 3; };
class DerivedT : public first::BaseT {
public:
    explicit DerivedT(gert::TilingContext* c) : BaseT(c) {}
    int32_t Run()
    {
        MEMBER.modeB = ModeB::ON;
        MEMBER.count += 4;
        return (MEMBER.modeB == ModeB::ON ? 10 : 20) + MEMBER.count + Base();
    }
protected:
    Enable MEMBER;
};
}
struct PTiling { int32_t v; int32_t n; };
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    second::DerivedT t(context);
    PTiling* tiling = context->GetTilingData<PTiling>();
    tiling->v = t.Run();
    second::Enable plain;
    first::Enable other;
    tiling->n = plain.count * 10 + other.count;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_a_record_named_in_its_own_namespace() -> None:
    # a member of another name: only the struct's namespace decides (second::Enable: count 3 + 4; the base's
    # first::Enable: modeA ON from its constructor, count 5)
    result = run_tiling(CLASSES.replace("MEMBER", "own_"))
    assert_tiled(result)
    assert result.fields["v"] == 10 + 7 + 5100
    assert result.fields["n"] == 35


def test_a_base_member_hidden_by_a_derived_one_stays_the_bases() -> None:
    result = run_tiling(CLASSES.replace("MEMBER", "enable_"))
    assert_tiled(result)
    assert result.fields["v"] == 10 + 7 + 5100  # Run() sees second's enable_, Base() its own first::Enable
    assert result.fields["n"] == 35
