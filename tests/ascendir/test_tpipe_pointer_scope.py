"""Which TPipe GetTPipePtr() returns: the innermost one whose declaration encloses the call, also where the call
sits in a body built before its op (a `?:` branch, the right side of `&&`), whose enclosing blocks are those
its op will be added to."""

from __future__ import annotations

from ascendir.dialects import ascendc as asc
from ascendir.lower import LoweringResult, lower_program
from frontend.pipeline import load_text

HEADER = '#include "kernel_operator.h"\nusing namespace AscendC;\n'


def _lower(body: str) -> LoweringResult:
    source = HEADER + 'extern "C" __global__ __aicore__ void k(GM_ADDR x, uint32_t n) {\n' + body + "\n}\n"
    result = lower_program(load_text(source, "k.cpp"))
    result.module.verify()
    return result


def _pipes_fetched_from(result: LoweringResult) -> list[str]:
    """The declared name of the TPipe each FetchEventID call is made on."""
    names = []
    for op in result.module.walk():
        if isinstance(op, asc.PipeCallOp) and "FetchEventID" in str(op):
            owner = op.operands[0].owner
            assert isinstance(owner, asc.TPipeOp)
            names.append(owner.var_name.data)
    return names


FETCH = "static_cast<int32_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S))"
SYNC = "SetFlag<HardEvent::V_S>(id);\nWaitFlag<HardEvent::V_S>(id);"


def test_in_a_conditional_branch_it_is_the_kernel_pipe() -> None:
    r = _lower(f"TPipe pipe;\nint32_t id = n > 0 ? {FETCH} : 0;\n{SYNC}")
    assert [(d.code, d.message) for d in r.diagnostics] == []
    assert _pipes_fetched_from(r) == ["pipe"]


def test_on_the_right_of_a_logical_and_it_is_the_kernel_pipe() -> None:
    r = _lower(f"TPipe pipe;\nbool ok = n > 0 && {FETCH} > 0;\nif (ok) {{ pipe.Reset(); }}")
    assert [(d.code, d.message) for d in r.diagnostics] == []
    assert _pipes_fetched_from(r) == ["pipe"]


def test_in_a_conditional_branch_inside_a_block_it_is_that_block_s_pipe() -> None:
    r = _lower(f"TPipe outer;\nif (n > 1) {{\nTPipe inner;\nint32_t id = n > 2 ? {FETCH} : 0;\n{SYNC}\n}}")
    assert [(d.code, d.message) for d in r.diagnostics] == []
    assert _pipes_fetched_from(r) == ["inner"]


def test_after_a_block_its_pipe_is_out_of_scope() -> None:
    r = _lower(f"TPipe outer;\nif (n > 1) {{ TPipe inner; inner.Reset(); }}\nint32_t id = {FETCH};\n{SYNC}")
    assert [(d.code, d.message) for d in r.diagnostics] == []
    assert _pipes_fetched_from(r) == ["outer"]


def test_before_any_pipe_is_declared_it_is_reported() -> None:
    r = _lower(f"int32_t id = n > 0 ? {FETCH} : 0;\n{SYNC}\nTPipe pipe;")
    assert [d.message for d in r.diagnostics] == [
        "GetTPipePtr() before any TPipe is declared; later checks of this function are incomplete"]
