"""ASC963: a write into an input the op does not update in place (tests/corpus/sim_checks/input_written.cpp has the
trigger and the clean twin). Here: the same writing kernel is clean once the caller names the input in place
(passes.sim.run(inplace=), `ascendir run --inplace`), and the finding says where, on which core and which
elements."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from passes.sim import run

ROOT = Path(__file__).resolve().parents[2]
KERNEL = ROOT / "tests" / "corpus" / "sim_checks" / "input_written.cpp"
LAUNCH = {"block_dim": 2, "tiling": {"blockLength": 512, "tileLength": 256},
          "outputs": {"y": ((1024,), "float32")}, "defines": {"SIM_BUG": "1"}}


def _line() -> int:
    return next(i + 1 for i, line in enumerate(KERNEL.read_text().splitlines()) if "expected-finding ASC963" in line)


def test_the_finding_names_the_input_the_core_and_the_elements() -> None:
    x = np.arange(1024, dtype=np.float32)
    result = run(str(KERNEL), {"x": x.copy()}, **LAUNCH)
    hits = [d for d in result.findings if d.code == "ASC963"]
    assert len(hits) == 1 and hits[0].span is not None and hits[0].span.line == _line()
    message = hits[0].message
    assert "DataCopy writes elements [0, 256) of input 'x'" in message, message
    assert "[core 0; 4 times on 2 cores]" in message, message  # two tiles on each of the two cores
    assert not hits[0].is_error and result.ok  # a warning: nothing faults on the device
    assert np.array_equal(result.outputs["y"], x * 2)


def test_an_input_named_in_place_may_be_written() -> None:
    x = np.arange(1024, dtype=np.float32)
    given = x.copy()
    result = run(str(KERNEL), {"x": given}, inplace=["x"], **LAUNCH)
    assert not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(given, x * 2)  # the kernel's writes reach the caller's array


def test_ascendir_run_takes_inplace(tmp_path: Path) -> None:
    kernel = tmp_path / "writes_x.cpp"
    kernel.write_text("#define SIM_BUG 1\n" + KERNEL.read_text())
    base = [sys.executable, "-m", "cli.main", "run", str(kernel), "--block-dim", "2", "--tiling", "blockLength=512",
            "--tiling", "tileLength=256", "--input", "x=1024:float32", "--output", "y=1024:float32",
            "--format", "json"]
    codes = []
    for extra in ([], ["--inplace", "x"]):
        out = subprocess.run(base + extra, capture_output=True, text=True, cwd=ROOT)
        assert out.returncode == 0, out.stderr  # a warning does not fail the run
        codes.append([f["code"] for f in json.loads(out.stdout)["findings"]])
    assert codes == [["ASC963"], []]
