"""bench/perf/sim_gaps.py counts the statements the lowering left out (`left_out` instructions: ASC958 when a core
reaches one) beside the `unsupported` ones, in a file's row, in the table and in the JSON. Before, only
`unsupported` instructions counted, so a gap left out rather than made opaque fell out of the figures (issue 28)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void left(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y, 8);
    uint32_t n = 8;
    n.Process();
    yGm.SetValue(0, 1.0f);
}
"""


def test_left_out_statements_are_counted(tmp_path: Path) -> None:
    kernel = tmp_path / "repo" / "op" / "op_kernel" / "left.cpp"
    kernel.parent.mkdir(parents=True)
    kernel.write_text(KERNEL, encoding="utf-8")
    out = tmp_path / "gaps.json"
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "perf" / "sim_gaps.py"), str(tmp_path / "repo"),
                           "--count", "0", "--json", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    what = "method 'Process' called on a value of type uint32_t"
    assert report["rows"][0]["left_out"] == {what: {"instructions": 1, "at": "left.cpp:9"}}
    assert report["rows"][0]["unsupported"] == {}
    assert report["with"]["left-out statements"] == 1 and report["instructions"]["left-out statements"] == 1
    assert report["constructs"]["left-out statements"][what]["files"] == 1
    assert "left-out statements: instructions" in done.stdout
