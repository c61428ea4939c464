"""A kernel too large to lower whole is lowered once per tiling key: a launch runs one TILING_KEY_IS branch, and
vendor kernels that dispatch to dozens of templates are large only taken together."""

import pytest

import ascendir.lower.function as function_module
import ascendir.lower.tiling_key_split as split_module
from ascendir.lower import lower_program
from ascendir.lower.tiling_key_split import TILING_KEY_ATTR
from frontend.pipeline import load_text
from passes.verify import check_program

_ROUND = """
        {{
            LocalTensor<float> a{i} = inQ.AllocTensor<float>();
            DataCopy(a{i}, xGm, 256);
            inQ.EnQue(a{i});
            LocalTensor<float> b{i} = inQ.DeQue<float>();
            Adds(b{i}, b{i}, 1.0f, 256);
            inQ.FreeTensor(b{i});{extra}
        }}"""


def _kernel(branches: dict[int, str]) -> str:
    body = "\n    } else if ".join(f"(TILING_KEY_IS({key})) {{{code}" for key, code in branches.items())
    return f"""#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void split_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    pipe.InitBuffer(inQ, 1, 1024);
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 256);
    if {body}
    }}
}}
"""


def _rounds(n: int, bug_at: int | None = None) -> str:
    # the bug: a tensor used after FreeTensor gave its buffer back (ASC201)
    return "".join(_ROUND.format(i=i, extra=f"\n            Adds(b{i}, b{i}, 2.0f, 256);" if i == bug_at else "")
                   for i in range(n))


@pytest.fixture
def small_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lowered-op limit of 100: ten rounds take a key's lowering to 74 ops, three keys' to 206 whole."""
    monkeypatch.setattr(function_module, "MAX_KERNEL_OPS", 100)


def test_each_key_is_lowered_as_a_kernel_of_its_own(small_limit: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(split_module, "MAX_SPLIT_OPS", 180)  # room for two keys of 74 ops, not three
    program = load_text(_kernel({1: _rounds(10), 2: _rounds(10), 3: _rounds(10)}), "split.cpp")
    lowered = lower_program(program)
    keys = [k.attributes[TILING_KEY_ATTR].value.data for k in lowered.kernels]
    assert keys == [1, 2]
    for kernel in lowered.kernels:
        assert not any(op.name == "ascendc.tiling_key_is" for op in kernel.walk())
    assert [d.message for d in lowered.diagnostics] == [
        "kernel 'split_kernel' is too large to check whole (more than 100 operations after inlining); it was "
        "checked once per tiling key, but not for 1 of its 3 keys (3)"]


def test_a_bug_in_one_key_is_found(small_limit: None) -> None:
    text = _kernel({1: _rounds(10), 2: _rounds(10, bug_at=4)})
    found = check_program(load_text(text, "split.cpp"))
    bug_line = text[:text.index("2.0f")].count("\n") + 1  # in key 2's branch
    assert [(d.code, d.span.line) for d in found if d.is_error] == [("ASC201", bug_line)]
    assert not [d for d in found if d.code == "ASC103"]


def test_without_tiling_keys_the_kernel_is_too_large(small_limit: None) -> None:
    program = load_text(_kernel({1: _rounds(20)}).replace("if (TILING_KEY_IS(1)) {", "{"), "whole.cpp")
    lowered = lower_program(program)
    assert lowered.kernels == []
    assert [d.message for d in lowered.diagnostics] == [
        "kernel 'split_kernel' is too large to check: more than 100 operations after inlining"]


def test_each_key_has_a_symbol_of_its_own_and_keeps_the_source_name(small_limit: None) -> None:
    from ascendir.verify import verify_ir

    lowered = lower_program(load_text(_kernel({1: _rounds(10), 2: _rounds(10)}), "split.cpp"))
    assert [k.sym_name.data for k in lowered.kernels] == ["split_kernel_tiling_key_1", "split_kernel_tiling_key_2"]
    assert [k.source_name for k in lowered.kernels] == ["split_kernel", "split_kernel"]
    assert verify_ir(lowered.module) == []
