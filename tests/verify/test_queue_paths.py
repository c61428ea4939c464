"""Which paths the queue analysis follows: tests the lowering keeps correlated."""

from __future__ import annotations


def test_an_if_constexpr_on_an_unknown_trait_goes_the_same_way_each_time() -> None:
    # ops-nn scatter_add: `if constexpr (platform::IsSupportAtomicAdd<T>())` (a header that was not read)
    # picks the queues Init sets up and, tested again in Process, the queues it uses; the path through
    # one arm of the first test and the other arm of the second does not exist
    kernel = """
#include "kernel_operator.h"
#include "../inc/platform.h"
using namespace AscendC;
template <typename T>
class K {
public:
    __aicore__ inline void Init(GM_ADDR x) {
        xGm.SetGlobalBuffer((__gm__ T*)x + GetBlockIdx() * 1024, 1024);
        if constexpr (platform::IsSupportAtomicAdd<T>()) {
            pipe.InitBuffer(direct, 1, 4096);
        } else {
            pipe.InitBuffer(staged, 1, 4096);
        }
    }
    __aicore__ inline void Process() {
        if constexpr (platform::IsSupportAtomicAdd<T>()) {
            Copy(direct);
        } else {
            Copy(staged);
        }
    }
    __aicore__ inline void Copy(TQueBind<TPosition::VECIN, TPosition::VECOUT, 1>& q) {
        LocalTensor<T> t = q.template AllocTensor<T>();
        DataCopy(t, xGm, 1024);
        q.EnQue(t);
        t = q.template DeQue<T>();
        DataCopy(xGm, t, 1024);
        q.FreeTensor(t);
    }
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> direct, staged;
    GlobalTensor<T> xGm;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    K<float> op;
    op.Init(x);
    op.Process();
}
"""
    from frontend.pipeline import load_text
    from passes.verify import check_program

    found = [d.code for d in check_program(load_text(kernel, "k.cpp")) if d.is_error]
    assert found == []
    swapped = kernel.replace("Copy(direct);", "Copy(staged);")
    assert [d.code for d in check_program(load_text(swapped, "k.cpp")) if d.is_error] == ["ASC206"]


_LEAKY_NESTED_LOOPS = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, uint32_t rows, uint32_t cols) {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 65536);
    pipe.InitBuffer(q, 2, 4096);
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < cols; ++c) {
            LocalTensor<float> t = q.AllocTensor<float>();
            DataCopy(t, xGm[c * 1024], 1024);
            q.EnQue(t);
            t = q.DeQue<float>();
            DataCopy(xGm[c * 1024], t, 1024);
        }
    }
}
"""


def test_a_kernel_over_the_step_budget_is_run_again_with_paths_merged(monkeypatch) -> None:
    # four unknown branches before the loops give 16 paths into them: 4593 op steps, against 290 with the
    # paths merged into one state; with a budget between the two the merged run still finds the leak
    from frontend.pipeline import load_text
    from passes.verify import buffer_state, check_program

    kernel = _LEAKY_NESTED_LOOPS.replace("    for (uint32_t r = 0; r < rows; ++r) {", """    uint32_t a = 0, b = 0, c = 0, d = 0;
    if (rows > 1) { a = 1; }
    if (rows > 2) { b = 1; }
    if (cols > 3) { c = 1; }
    if (cols > 4) { d = 1; }
    for (uint32_t r = 0; r < rows; ++r) {""")
    monkeypatch.setattr(buffer_state, "STEP_BUDGET", 1000)
    codes = [d.code for d in check_program(load_text(kernel, "k.cpp"))]
    assert codes == ["ASC207"]


def test_a_kernel_over_the_step_budget_twice_is_given_up_without_findings(monkeypatch) -> None:
    # the inner loop never frees what it takes: ASC207 within budget; a budget too small for the kernel
    # even with its paths merged drops every verdict of it instead of reporting a partial run, and says so
    from frontend.pipeline import load_text
    from passes.verify import buffer_state, check_program

    codes = [d.code for d in check_program(load_text(_LEAKY_NESTED_LOOPS, "k.cpp")) if d.is_error]
    assert "ASC207" in codes
    monkeypatch.setattr(buffer_state, "STEP_BUDGET", 5)
    diags = check_program(load_text(_LEAKY_NESTED_LOOPS, "k.cpp"))
    assert not [d.code for d in diags if d.is_error]
    (gave_up,) = [d for d in diags if d.code == "ASC103"]
    assert gave_up.message.startswith("the queue and capacity analysis gave up on kernel 'k' after 5 steps")
    assert gave_up.span is not None and gave_up.span.line == 4


def test_an_inner_loop_is_run_once_per_distinct_entry_state(monkeypatch) -> None:
    # an outer loop of 3 trips runs its body three times, and each reaches the inner loop in the same state:
    # the memo answers the second and third, and the findings (a use after free in the inner loop) are those
    # of the run without the memo
    kernel = _LEAKY_NESTED_LOOPS.replace("r < rows", "r < 3").replace(
        "DataCopy(xGm[c * 1024], t, 1024);", "q.FreeTensor(t);\n            DataCopy(xGm[c * 1024], t, 1024);")
    from frontend.pipeline import load_text
    from passes.verify import buffer_state, check_program

    runs: list[int] = []
    real = buffer_state.Analysis._run_loop

    def counting(self, op, states, run, trip):  # type: ignore[no-untyped-def]
        runs.append(id(op))
        return real(self, op, states, run, trip)

    monkeypatch.setattr(buffer_state.Analysis, "_run_loop", counting)
    with_memo = [(d.code, d.span) for d in check_program(load_text(kernel, "k.cpp"))]
    memo_runs = len(runs)
    runs.clear()
    monkeypatch.setattr(buffer_state.Analysis, "_loop_memo", property(lambda self: {}, lambda self, v: None),
                        raising=False)
    without = [(d.code, d.span) for d in check_program(load_text(kernel, "k.cpp"))]
    assert [code for code, _ in with_memo if code.startswith("ASC2")] == ["ASC201"]
    assert with_memo == without
    assert memo_runs < len(runs)
