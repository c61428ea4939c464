"""ASC708 ub-reload-before-writeback: the scope decisions the annotated kernels do not pin down one by one.

Each case is a small TPipe-free or TBuf kernel written for this test; only ASC708 is selected.
"""

from __future__ import annotations

import pytest

from frontend.pipeline import load_text
from passes.verify import check_program

HEAD = """#include "kernel_operator.h"
using namespace AscendC;
"""


def tpipe_free(body: str, params: str = "") -> str:
    return HEAD + f"""
__global__ __vector__ void k(GM_ADDR x, GM_ADDR y{params})
{{
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 65536);
    yGm.SetGlobalBuffer((__gm__ float *)y, 65536);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> t = ub.Alloc<float, 1024>();
    LocalTensor<float> u = ub.Alloc<float, 1024>();
{body}
}}
"""


def with_tbuf(body: str) -> str:
    return HEAD + f"""
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, uint32_t n)
{{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 65536);
    yGm.SetGlobalBuffer((__gm__ float *)y, 65536);
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> t = buf.Get<float>();
{body}
}}
"""


def asc708(source: str) -> list:
    return [d for d in check_program(load_text(source, "k.cpp"), select=["ASC708"]) if d.code == "ASC708"]


LOOP = """    for (uint32_t i = 0; i < {trips}; ++i) {{
        DataCopy(t, xGm[i * 1024], 1024);
        SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        DataCopy(yGm[i * 1024], t, 1024);
    }}"""


@pytest.mark.parametrize(("trips", "params", "reported"), [
    ("1", "", False),        # runs once: the store never precedes a load
    ("0", "", False),
    ("2", "", True),
    ("n", ", uint32_t n", True),  # a run-time count: every run with two or more iterations races
])
def test_loop_carried_needs_a_second_iteration(trips: str, params: str, reported: bool) -> None:
    found = asc708(tpipe_free(LOOP.format(trips=trips), params))
    assert bool(found) is reported
    if reported:
        (d,) = found
        assert "previous iteration" in d.message
        (note,) = d.notes
        assert "at the end of the previous iteration" in note.message
        assert note.span is not None and note.span.line == d.span.line + 3  # the store, three lines below


def test_note_points_at_the_store() -> None:
    (d,) = asc708(tpipe_free("""    DataCopy(t, xGm, 1024);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, 1024);
    DataCopy(t, xGm[1024], 1024);"""))
    assert d.message.startswith("DataCopy reloads the LocalMemAllocator tensor while an earlier DataCopy")
    assert d.notes[0].message == "written back here on PIPE_MTE3"
    assert d.notes[0].span is not None and d.notes[0].span.line == d.span.line - 1


@pytest.mark.parametrize("between", [
    "SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);\n    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);",
    "PipeBarrier<PIPE_ALL>();",
    # the scalar unit stops until MTE3 is done, and it issues the load afterwards
    "SetFlag<HardEvent::MTE3_S>(EVENT_ID0);\n    WaitFlag<HardEvent::MTE3_S>(EVENT_ID0);",
    "SetFlag<HardEvent::MTE3_V>(EVENT_ID0);\n    WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);\n"
    "    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);\n    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);",
])
def test_what_orders_the_reload(between: str) -> None:
    assert asc708(tpipe_free(f"""    DataCopy(t, xGm, 1024);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, 1024);
    {between}
    DataCopy(t, xGm[1024], 1024);""")) == []


@pytest.mark.parametrize("between", [
    "",
    "PipeBarrier<PIPE_MTE2>();\n    PipeBarrier<PIPE_MTE3>();",  # orders each pipe with itself only
    # the wrong way round
    "SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);\n    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);",
    "SetFlag<HardEvent::V_MTE2>(EVENT_ID0);\n    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);",  # V never saw MTE3
])
def test_what_does_not_order_the_reload(between: str) -> None:
    assert len(asc708(tpipe_free(f"""    DataCopy(t, xGm, 1024);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, 1024);
    {between}
    DataCopy(t, xGm[1024], 1024);"""))) == 1


def test_another_buffer_is_not_a_reload() -> None:
    assert asc708(tpipe_free("""    DataCopy(t, xGm, 1024);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, 1024);
    DataCopy(u, xGm[1024], 1024);""")) == []


def test_views_at_unknown_offsets_are_taken_as_apart() -> None:
    """The family reports what holds on every path: a view at a run-time offset is not known to overlap, the
    same view (the same offset value) is."""
    body = """    uint32_t off = GetBlockIdx() * 64;
    DataCopy(t, xGm, 1024);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t[off], 64);
    DataCopy(t, xGm[1024], 64);
    DataCopy(t[off], xGm[2048], 64);"""
    source = tpipe_free(body)
    same_view = 1 + source.splitlines().index("    DataCopy(t[off], xGm[2048], 64);")
    assert [d.span.line for d in asc708(source)] == [same_view]


def test_offset_computed_in_the_loop_moves_with_it() -> None:
    """Iteration i stores t[i * 64], iteration i+1 loads t[(i+1) * 64]: nothing is known to overlap."""
    assert asc708(tpipe_free("""    for (uint32_t i = 0; i < 8; ++i) {
        DataCopy(t[i * 64], xGm[i * 64], 64);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm[i * 64], t[i * 64], 64);
    }""")) == []


def test_tbuf_loop_with_flag_from_the_second_iteration() -> None:
    assert asc708(with_tbuf("""    for (uint32_t i = 0; i < n; ++i) {
        if (i > 0) {
            SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
            WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        }
        DataCopy(t, xGm[i * 1024], 1024);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm[i * 1024], t, 1024);
    }""")) == []


def test_tbuf_scalar_write_after_the_store_is_ordered_by_the_compiler() -> None:
    """--cce-auto-sync makes a SetValue wait for the MTE3 read of its tensor; the load is issued later."""
    assert asc708(with_tbuf("""    DataCopy(t, xGm, 1024);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, 1024);
    t.SetValue(0, 1.0f);
    DataCopy(t, xGm[1024], 1024);""")) == []


def test_queue_buffers_are_never_reported() -> None:
    source = HEAD + """
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> que;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 65536);
    yGm.SetGlobalBuffer((__gm__ float *)y, 65536);
    pipe.InitBuffer(que, 1, 4096);
    for (uint32_t i = 0; i < n; ++i) {
        LocalTensor<float> t = que.AllocTensor<float>();
        DataCopy(t, xGm[i * 1024], 1024);
        que.EnQue(t);
        LocalTensor<float> s = que.DeQue<float>();
        DataCopy(yGm[i * 1024], s, 1024);
        que.FreeTensor(s);
    }
}
"""
    assert asc708(source) == []
