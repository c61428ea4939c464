"""The timing model end to end: cycle sanity against the chip's bounds, double buffering, the Matmul object's
pipeline, and the Chrome trace read back against the trace event format."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ascendir.chips import load_chip
from passes.sim import run
from passes.sim.timing import summary, write_trace

ROOT = Path(__file__).resolve().parents[2]
ADD = str(ROOT / "tests/corpus/clean/projects/add_custom")
MATMUL = str(ROOT / "tests/corpus/clean/projects/matmul_custom")
PIPES = {"PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_FIX"}


def _add_inputs(n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(3)
    return [rng.uniform(-1, 1, n).astype(np.float16), rng.uniform(-1, 1, n).astype(np.float16)]


def test_a_large_fp16_add_on_all_cores_is_within_20_percent_of_the_hbm_bound() -> None:
    n = 16 * 1024 * 1024
    x, y = _add_inputs(n)
    result = run(ADD, [x, y])
    assert result.ok and np.array_equal(result.outputs["z"], x + y)
    chip = load_chip("910B2")
    assert result.block_dim == chip.aiv_cores
    bound_us = 3 * n * 2 / (chip.timing["hbm_gbps"] * 1e9) * 1e6  # two reads and a write through HBM
    assert result.microseconds is not None
    assert bound_us <= result.microseconds <= 1.2 * bound_us, (result.microseconds, bound_us)
    assert result.bound == "PIPE_MTE2"
    assert result.timing is not None and result.timing["hbm_utilization"] > 0.8


_HEAVY_COMPUTE = """
        AscendC::Add(zLocal, xLocal, yLocal, this->tileLength);
        for (int32_t r = 0; r < 6; r++) {
            AscendC::Exp(zLocal, zLocal, this->tileLength);
        }"""


def _buffered(bufs: int, n: int, tiles: int) -> Any:
    text = (ROOT / "examples/add_custom.cpp").read_text()
    text = text.replace("BUFFER_NUM = 2;", f"BUFFER_NUM = {bufs};")
    text = text.replace("\n        AscendC::Add(zLocal, xLocal, yLocal, this->tileLength);", _HEAVY_COMPUTE)
    x = np.random.default_rng(0).uniform(-1, 1, n).astype(np.float16)
    # the same tiles either way: tileLength = n / tileNum / BUFFER_NUM
    result = run(text, {"x": x, "y": x}, block_dim=1, tiling={"totalLength": n, "tileNum": tiles // bufs},
                 outputs={"z": ((n,), "float16")})
    assert result.ok, result.findings
    return result


def test_double_buffering_overlaps_the_copies_with_compute() -> None:
    n, tiles = 16 * 8192, 16
    single, double = _buffered(1, n, tiles), _buffered(2, n, tiles)
    assert single.pipes["PIPE_V"]["busy"] == double.pipes["PIPE_V"]["busy"]
    busy = {p: double.pipes[p]["busy"] for p in ("PIPE_MTE2", "PIPE_V", "PIPE_MTE3")}
    # one buffer: copy in, compute and copy out of a tile mostly follow one another; two: they overlap, and the
    # launch takes about as long as its busiest pipe plus the first tile's copy in and the last one's copy out
    assert double.cycles < 0.8 * single.cycles, (single.cycles, double.cycles)
    assert double.cycles < max(busy.values()) * 1.25, (double.cycles, busy)
    assert single.cycles > 0.9 * (busy["PIPE_MTE2"] + busy["PIPE_V"])


def test_timing_is_deterministic_and_optional() -> None:
    x, y = _add_inputs(8 * 2048)
    first, second = run(ADD, [x, y]), run(ADD, [x, y])
    assert first.cycles == second.cycles and first.pipes == second.pipes
    assert isinstance(first.cycles, int) and first.cycles > 0 and set(first.pipes or {}) == PIPES
    untimed = run(ADD, [x, y], timing=False)
    assert untimed.cycles is None and untimed.pipes is None and untimed.trace is None
    assert np.array_equal(untimed.outputs["z"], first.outputs["z"])
    assert "cycles" in summary(first) and summary(untimed) == "not timed"


def test_the_matmul_object_runs_its_cube_pipeline() -> None:
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (256, 128)).astype(np.float16)
    b = rng.uniform(-1, 1, (128, 192)).astype(np.float16)
    bias = rng.uniform(-1, 1, (192,)).astype(np.float32)
    result = run(MATMUL, [a, b, bias])
    assert result.ok
    pipes = result.pipes or {}
    for pipe in ("PIPE_MTE2", "PIPE_MTE1", "PIPE_M", "PIPE_FIX"):
        assert pipes[pipe]["busy_all_blocks"] > 0, pipe
    assert result.timing is not None and result.timing["unmodelled"] == 0


def _check_chrome_trace(doc: dict[str, Any]) -> None:
    """The JSON object format of the Trace Event Format, as chrome://tracing and Perfetto read it."""
    events = doc["traceEvents"]
    assert isinstance(events, list) and events
    names: dict[tuple[int, int], str] = {}
    processes: set[int] = set()
    used: set[tuple[int, int]] = set()
    flows: dict[int, dict[str, Any]] = defaultdict(dict)
    slices: dict[tuple[int, int], list[tuple[float, float]]] = defaultdict(list)
    for e in events:
        assert {"name", "ph", "pid", "tid"} <= e.keys(), e
        assert isinstance(e["pid"], int) and isinstance(e["tid"], int)
        if e["ph"] == "M":
            if e["name"] == "thread_name":
                names[(e["pid"], e["tid"])] = e["args"]["name"]
            elif e["name"] == "process_name":
                processes.add(e["pid"])
            continue
        assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0
        used.add((e["pid"], e["tid"]))
        if e["ph"] == "X":
            assert e["dur"] >= 0 and isinstance(e.get("args", {}), dict)
            slices[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"]))
        elif e["ph"] in ("s", "f"):
            assert e["ph"] not in flows[e["id"]], f"flow {e['id']} has two {e['ph']} events"
            flows[e["id"]][e["ph"]] = e
            if e["ph"] == "f":
                assert e["bp"] == "e"
        else:
            raise AssertionError(f"unexpected phase {e['ph']}")
    # one track per core and pipe, named after the pipe, in a process per core
    assert used <= names.keys()
    assert {names[t] for t in used} <= PIPES and {pid for pid, _ in used} <= processes
    # flags as flows: each ends once, after it started, each end inside a slice of its track
    assert flows
    for flow in flows.values():
        assert "s" in flow
        if "f" in flow:
            s, f = flow["s"], flow["f"]
            assert s["ts"] <= f["ts"] + 1e-9
            assert any(a - 1e-9 <= f["ts"] <= b + 1e-9 for a, b in slices[(f["pid"], f["tid"])])
        s = flow["s"]
        assert any(a - 1e-9 <= s["ts"] <= b + 1e-9 for a, b in slices[(s["pid"], s["tid"])])


def test_the_trace_reads_back_as_a_chrome_trace(tmp_path: Path) -> None:
    x, y = _add_inputs(8 * 4096)
    result = run(ADD, [x, y], trace=True)
    assert result.trace is not None and result.trace_json is not None
    path = tmp_path / "trace.json"
    write_trace(result, path)
    doc = json.loads(path.read_text())
    _check_chrome_trace(doc)
    tracks = {(e["pid"], e["tid"]) for e in doc["traceEvents"] if e["ph"] == "X"}
    # every core that ran shows its copies in, its adds and its copies out
    assert {pid for pid, _ in tracks} == set(range(result.block_dim))
    ops = {e["name"] for e in doc["traceEvents"] if e["ph"] == "X" and e["cat"] == "op"}
    assert {"DataCopyPad", "Add"} <= ops
    assert doc["otherData"]["cycles"] == result.cycles


def test_the_matmul_trace_shows_the_cube_path() -> None:
    rng = np.random.default_rng(2)
    a = rng.uniform(-1, 1, (128, 256)).astype(np.float16)
    b = rng.uniform(-1, 1, (256, 128)).astype(np.float16)
    result = run(MATMUL, [a, b, np.zeros(128, np.float32)], trace=True)
    assert result.trace_json is not None
    doc = json.loads(result.trace_json)
    _check_chrome_trace(doc)
    tids = {e["tid"] for e in doc["traceEvents"] if e["ph"] == "X" and e["cat"] == "op"}
    assert tids >= {2, 3, 4, 6}  # PIPE_M, MTE1, MTE2, FIX


def test_ascendir_run_writes_the_trace(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    out = subprocess.run([sys.executable, "-m", "cli.main", "run", ADD, "--input", "x=4,4096:float16",
                          "--input", "y=4,4096:float16", "--trace", str(path)],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "time: " in out.stderr and "cycles" in out.stderr and f"trace: {path}" in out.stderr
    _check_chrome_trace(json.loads(path.read_text()))


@pytest.mark.parametrize("chip", ["910B4", "310P"])
def test_other_chips_time_with_their_own_numbers(chip: str) -> None:
    x, y = _add_inputs(8 * 2048)
    result = run(ADD, [x, y], chip=chip)
    assert result.ok and result.cycles and result.timing
    assert result.timing["clock_mhz"] == float(load_chip(chip).clock_mhz or load_chip(chip).timing["clock_mhz"])


def test_a_mix_kernel_times_its_cube_and_vector_cores_together() -> None:
    # mmad_relu_mix_custom: per block the AIC's Mmad tiles go to its AIVs through cross-core flags for the ReLU
    rng = np.random.default_rng(4)
    a = rng.uniform(-1, 1, (128, 256)).astype(np.float16)
    b = rng.uniform(-1, 1, (256, 128)).astype(np.float16)
    bias = rng.uniform(-1, 1, (128,)).astype(np.float32)
    result = run(str(ROOT / "tests/corpus/clean/projects/mmad_relu_mix_custom"), [a, b, bias], trace=True)
    assert result.ok and result.timing is not None and result.trace_json is not None
    assert result.timing["waves"] == 1 and result.timing["unmodelled"] == 0
    pipes = result.pipes or {}
    for pipe in ("PIPE_M", "PIPE_FIX", "PIPE_V", "PIPE_MTE3"):
        assert pipes[pipe]["busy_all_blocks"] > 0, pipe
    doc = json.loads(result.trace_json)
    _check_chrome_trace(doc)
    names = {e["args"]["name"] for e in doc["traceEvents"] if e["name"] == "process_name"}
    assert any("AIC" in n for n in names) and any("AIV" in n for n in names)
    waits = [e for e in doc["traceEvents"] if e["name"] == "CrossCoreWaitFlag"]
    assert waits and max(e["dur"] for e in waits) > 0  # the AIVs wait for their AIC's tiles
