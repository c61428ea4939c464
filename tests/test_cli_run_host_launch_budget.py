"""A host program whose main launches a kernel in each branch of a run-time `if` lowers one kernel instance per
branch (the run takes the one main's values choose). The lowering's size limit (MAX_KERNEL_OPS, a kernel's worth
of ops) is per launch: catlass's 29_a2_fp8_e4m3_matmul launches FP8Matmul under `if (m > n)` with one swizzle per
branch, 22k ops each, and was stopped at 43.6k ops (ASC958 'more than 40000 operations after inlining') although
either kernel alone was well within the limit. Here the limit is lowered so that one instance fits and two do not;
a main past the limit before its first launch is still stopped."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import ascendir.lower.function as lowering
from cli.run import main
from tests.test_cli_run_host_program import HEADER, PROGRAM

TWO_LAUNCHES = PROGRAM.replace("runner.Run(stream, 4);", "if (length > 300) {\n        runner.Run(stream, 4);\n"
                               "    } else {\n        runner.Run(stream, 2);\n    }")


def _run(tmp_path, program: str, *extra: str):
    (tmp_path / "inc").mkdir(exist_ok=True)
    (tmp_path / "inc" / "scale_kernel.h").write_text(HEADER)
    source = tmp_path / "scale.cpp"
    source.write_text(program)
    out = tmp_path / "out"
    return CliRunner().invoke(main, [str(source), "-I", str(tmp_path / "inc"), "--output-dir", str(out),
                                     "--format", "json", *extra]), out


def _ops_of_one_launch(tmp_path, monkeypatch) -> int:
    """The ops main lowers to with one launch (the limit set just above it still runs it)."""
    from ascendir.lower import host_program

    counted: list[int] = []
    lower_entry = host_program.lower_entry

    def counting(lw, *args, **kwargs):
        try:
            return lower_entry(lw, *args, **kwargs)
        finally:
            counted.append(lw.op_count)

    monkeypatch.setattr(host_program, "lower_entry", counting)
    result, _ = _run(tmp_path, PROGRAM, "--args", "512")
    assert result.exit_code == 0, result.output
    monkeypatch.setattr(host_program, "lower_entry", lower_entry)
    return counted[-1]


def test_each_launch_of_main_has_a_kernels_budget(tmp_path, monkeypatch) -> None:
    one = _ops_of_one_launch(tmp_path, monkeypatch)
    monkeypatch.setattr(lowering, "MAX_KERNEL_OPS", one + 20)  # one instance fits, two do not
    for args, blocks in (("512", 4), ("256", 2)):
        result, out = _run(tmp_path, TWO_LAUNCHES, "--args", args)
        assert result.exit_code == 0, result.output  # before: ASC958, more than N operations after inlining
        assert json.loads(result.output[result.output.index("{"):])["block_dim"] == blocks
        assert np.array_equal(np.load(out / "deviceY.npy"), np.load(out / "deviceX.npy") * 3)


@pytest.mark.parametrize("limit", [50])
def test_a_main_too_large_before_its_first_launch_is_still_stopped(tmp_path, monkeypatch, limit: int) -> None:
    monkeypatch.setattr(lowering, "MAX_KERNEL_OPS", limit)
    result, _ = _run(tmp_path, TWO_LAUNCHES, "--args", "512")
    assert result.exit_code == 1, result.output
    assert f"more than {limit} operations after inlining" in result.output and "Traceback" not in result.output
