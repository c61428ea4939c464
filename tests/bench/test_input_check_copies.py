"""The inputs-unchanged check reads the drawn inputs' bits in place (correctness.sim_bits): it made a second copy of
every input a draw (to_sim) only to compare with it, 3 x 128 MiB a draw for ForeachAddcdivList's big cases
(bench/README.md Level 2). The check still sees every change: tests/bench/test_bench_integrity.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from bench.harness import Answer, EvalOptions, evaluate
from bench.harness.stages import correctness
from bench.suites import find_task, load_suite

SOURCE = Path(__file__).resolve().parents[2] / "bench" / "tasks" / "level1" / "math" / "add"


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "int8", "bool"])
def test_sim_bits_are_the_bits_the_simulator_is_given(dtype: str) -> None:
    values = np.array([[0.5, -1.25, 3.0], [2.0, 0.0, -0.0]], dtype=np.float32 if dtype == "bfloat16" else dtype)
    given, read = correctness.to_sim(values, dtype), correctness.sim_bits(values, dtype)
    assert given.dtype == read.dtype and np.array_equal(given.view(np.uint8), read.view(np.uint8))
    assert np.shares_memory(read, values) == (dtype != "bfloat16")  # read in place, but for bfloat16's bits


@pytest.mark.skipif(not correctness.simulator_available(), reason="the simulator is not available")
def test_each_input_is_copied_once_a_draw(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "level1" / "math" / "add"
    shutil.copytree(SOURCE, folder)
    with open(folder / "task.toml", "a") as fh:
        fh.write('\n[[cases]]\nid = "one"\ndtype = "float32"\nshapes = { x1 = [64], x2 = [64] }\n')
    task = find_task(load_suite("bundled", tmp_path), "add")
    copies: list[str] = []
    real = correctness.to_sim

    def counted(value: np.ndarray, dtype: str) -> np.ndarray:
        copies.append(dtype)
        return real(value, dtype)

    monkeypatch.setattr(correctness, "to_sim", counted)
    options = EvalOptions(draws=2, static_shapes=False, performance=False)
    v, = evaluate(task, [Answer("add", "ref", task.solution, "one")], options)
    assert v.correct is True, v.reason
    assert len(copies) == 4  # x1 and x2, two draws
