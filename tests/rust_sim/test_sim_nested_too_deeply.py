"""Issue 30: a kernel whose lowering runs out of Python's recursion (a template that instantiates itself, a chain
of thousands of '+') is left out; the run says so at the kernel, naming the line where the nesting is, and the
lowering's warning sits on that line. Before, the warning sat on the kernel's signature and the run said only
'the program has no kernel (no __global__ __aicore__ function)', with no place (bench/perf/sim_robustness.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

HEAD = """#include "kernel_operator.h"
{decl}
extern "C" __global__ __aicore__ void deep(GM_ADDR x)
{{
    AscendC::GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t *)x, 8);
    g.SetValue(0, {value});
}}
"""

CASES = {
    # line 2: the template, instantiated without end from line 7
    "template": (HEAD.format(decl="template <int N> struct Depth { static constexpr int v = Depth<N + 1>::v; };",
                             value="Depth<0>::v"), 2),
    # line 7: 20000 additions, one nested expression each
    "chain": (HEAD.format(decl="", value="1" + " + 1" * 20000), 7),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_kernel_nested_too_deeply_is_said_where(name: str, tmp_path: Path) -> None:
    from ascendir.lower import LoweringOptions, lower_program
    from frontend.pipeline import load_text

    text, line = CASES[name]
    path = tmp_path / "deep.cpp"
    path.write_text(text)
    lowered = lower_program(load_text(text, name=str(path)), LoweringOptions())
    deep = [d for d in lowered.diagnostics if "nested too deeply" in d.message]
    assert [(d.code, d.span.line) for d in deep] == [("ASC103", line)], [str(d) for d in lowered.diagnostics]
    assert "the kernel 'deep' is left out" in deep[0].message

    result = run(str(path), [np.zeros(8, np.int32)], block_dim=1, timing=False)
    assert not result.completed
    [finding] = result.findings
    assert finding.code == "ASC958" and finding.span is not None and finding.span.line == 3, str(finding)
    assert f"kernel 'deep': it was not lowered (its lowering failed (deep.cpp:{line}: expressions or templates " \
           "nested too deeply to follow here" in finding.message, finding.message
