"""The add kernels end to end: source -> IR with tiling folded -> program -> Rust on N cores -> numpy outputs."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from passes.sim import run

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
PROJECT = str(ROOT / "tests/corpus/clean/projects/add_custom")
EXAMPLE = str(ROOT / "examples/add_custom.cpp")


@pytest.mark.parametrize("shape", [(8, 2048), (8, 2050), (3, 77)])
def test_add_project_runs_its_host_tiling_and_matches_numpy_bit_for_bit(shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(1)
    x = rng.uniform(-2, 2, shape).astype(np.float16)
    y = rng.uniform(-2, 2, shape).astype(np.float16)
    result = run(PROJECT, [x, y])
    assert result.ok, result.findings
    assert 0 < result.block_dim <= 48 and result.instructions > 0
    assert np.array_equal(result.outputs["z"], x + y)


def test_kernel_without_host_code_takes_block_dim_and_tiling_from_the_caller() -> None:
    x = np.arange(16384, dtype=np.float16) / 100
    y = np.ones(16384, dtype=np.float16)
    result = run(EXAMPLE, {"x": x, "y": y}, block_dim=8, tiling={"totalLength": 16384, "tileNum": 8},
                 outputs={"z": ((16384,), "float16")})
    assert result.ok, result.findings
    assert np.array_equal(result.outputs["z"], x + y)
    assert len(result.per_core) == 8 and all(n > 0 for n in result.per_core)


def test_the_program_text_names_calls_by_catalog_overload_and_keeps_locations() -> None:
    x = np.zeros((8, 2048), np.float16)
    text = run(PROJECT, [x, x]).program
    assert text.startswith("ascendir-sim 1\n")
    assert "call Add.count<T=f16> dst=h" in text
    assert "call DataCopyPad.ext_gm_to_local<T=f16>" in text
    assert "object o1 queue inQueueX pos=VECIN depth=2 mem=UB fwd=MTE2_V back=V_MTE2" in text
    add_line = next(line for line in text.splitlines() if "call Add.count" in line)
    loc = int(add_line.split()[0].lstrip("@"))
    assert f"loc {loc} 0 71 9" in text  # Add(zLocal, xLocal, yLocal, len) in op_kernel/add_custom.cpp


def test_ascendir_run_cli_writes_outputs_and_reports_json(tmp_path: object) -> None:
    out = subprocess.run([sys.executable, "-m", "cli.main", "run", PROJECT, "--input", "x=4,100:float16",
                          "--input", "y=4,100:float16", "--output-dir", str(tmp_path), "--format", "json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["findings"] == [] and report["completed"] and report["block_dim"] > 0
    z = np.load(report["outputs"]["z"]["path"])
    assert z.shape == (4, 100) and z.dtype == np.float16
