"""What the checker sees of a kernel is not always all of it: a header checked on its own, a statement it could
not lower, a compile pass (cube or vector) of a mixed kernel. What it cannot see must not become a finding."""

from __future__ import annotations

from frontend.pipeline import read_text
from frontend.readers import Bundle, SourceUnit
from passes.verify import check_program, load_for_check

# An AscendC type and API named bare: fine where the including source has `using namespace AscendC`.
BARE_NAMES = """\
#include "kernel_operator.h"

class Helper {
public:
    __aicore__ inline void Init(TPipe* pipe, GM_ADDR x)
    {
        core = GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float*)x + core * 256, 256);
        pipe->InitBuffer(que, 1, 1024);
    }
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> que;
    AscendC::GlobalTensor<float> xGm;
    uint32_t core;
};

extern "C" __global__ __aicore__ void bare(GM_ADDR x, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    Helper h;
    h.Init(&pipe, x);
}
"""


def _codes(text: str, name: str, chip: str | None = None, defines: dict[str, str | None] | None = None) -> list[str]:
    program, target = load_for_check(read_text(text, name), chip, defines)
    return [d.code for d in check_program(program, target)]


def test_bare_ascendc_names_in_a_source_are_reported() -> None:
    assert _codes(BARE_NAMES, "bare.cpp").count("ASC509") == 2  # TPipe, GetBlockIdx


def test_names_brought_in_by_one_using_declaration_list_are_declared() -> None:
    source = BARE_NAMES.replace('#include "kernel_operator.h"',
                                '#include "kernel_operator.h"\nusing AscendC::TPipe, AscendC::GetBlockIdx;')
    assert source != BARE_NAMES
    assert _codes(source, "listed.cpp") == []
    assert _codes(source.replace(", AscendC::GetBlockIdx", ""), "listed.cpp") == ["ASC509"]  # GetBlockIdx


def test_bare_ascendc_names_in_a_header_checked_alone_are_not() -> None:
    # the kernel source that includes it decides whether `using namespace AscendC` is in effect
    assert "ASC509" not in _codes(BARE_NAMES, "helper.h")


# The event ids live in a struct from a header that is not there: the SetFlags before the loop cannot be
# lowered, the WaitFlags in it (on ids copied to locals) can.
FLAGS_PARTLY_LOWERED = """\
#include "kernel_operator.h"
#include "missing_events.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void partly(GM_ADDR x, GM_ADDR tiling)
{
    EventManager events;
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 2048);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> t = ub.Alloc<float, 1024>();
    SetFlag<HardEvent::MTE3_MTE2>(events.ping);
    for (int32_t i = 0; i < 2; i++) {
        event_t id = static_cast<event_t>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(id);
        DataCopy(t, xGm[i * 1024], 1024);
        SetFlag<HardEvent::MTE2_MTE3>(id);
        WaitFlag<HardEvent::MTE2_MTE3>(id);
        DataCopy(xGm[i * 1024], t, 1024);
        SetFlag<HardEvent::MTE3_MTE2>(id);
    }
    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
}
"""


def test_flags_of_a_statement_not_lowered_are_not_judged() -> None:
    codes = _codes(FLAGS_PARTLY_LOWERED, "partly.cpp")
    assert "ASC103" in codes  # the SetFlag on events.ping was not lowered, and it says so
    assert not {"ASC701", "ASC702", "ASC703"} & set(codes)


def test_flags_are_judged_when_every_statement_is_lowered() -> None:
    whole = FLAGS_PARTLY_LOWERED.replace('#include "missing_events.h"\n', "").replace(
        "    EventManager events;\n", "").replace("events.ping", "EVENT_ID0")
    assert _codes(whole, "whole.cpp") == []
    # without the set before the loop, the first wait blocks forever
    broken = whole.replace("    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);\n    for", "    for")
    assert "ASC701" in _codes(broken, "broken.cpp")


# A mixed kernel's vector pass: code under __DAV_C220_VEC__ is compiled for the AIV cores.
VECTOR_PASS = """\
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void mixed(GM_ADDR x, GM_ADDR tiling)
{
#if defined(__DAV_C220_CUBE__)
    uint32_t unused = 0;
#elif defined(__DAV_C220_VEC__)
    GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, 2048);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<half> t = ub.Alloc<half, 2048>();
    DataCopy(t, xGm, 2048);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, 0.5f, 2048);
    PipeBarrier<PIPE_ALL>();
    DataCopy(xGm, t, 2048);
#endif
}
"""


def test_the_vector_pass_of_a_910b_kernel_is_checked() -> None:
    assert "ASC503" in _codes(VECTOR_PASS, "mixed.cpp")  # Muls with a float scalar on half
    assert "ASC503" in _codes(VECTOR_PASS, "mixed.cpp", chip="910B4")


def test_undefining_the_vector_pass_macro_checks_neither_pass() -> None:
    assert "ASC503" not in _codes(VECTOR_PASS, "mixed.cpp", defines={"__DAV_C220_VEC__": None})


def test_chips_without_a_vector_pass_macro_do_not_define_it() -> None:
    assert "ASC503" not in _codes(VECTOR_PASS, "mixed.cpp", chip="310P")


def test_host_sources_are_not_compiled_as_a_vector_pass() -> None:
    host = '#include "register/op_def_registry.h"\n#ifdef __DAV_C220_VEC__\n#error vector pass\n#endif\n'
    kernel = "#ifndef __DAV_C220_VEC__\n#error no vector pass\n#endif\n"
    bundle = Bundle("proj", "project", [
        SourceUnit("proj/op_host/add_custom.cpp", host, "host", "proj/op_host/add_custom.cpp"),
        SourceUnit("proj/op_host/add_custom_tiling.h", host, "header", "proj/op_host/add_custom_tiling.h"),
        SourceUnit("proj/op_kernel/add_custom.cpp", kernel, "kernel", "proj/op_kernel/add_custom.cpp"),
    ])
    program, _ = load_for_check(bundle)
    assert [d for d in program.diagnostics if d.code == "ASC004"] == []
