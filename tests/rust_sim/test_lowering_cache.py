"""A launch lowers its program once per chip and dtypes (passes/sim/lowering_cache.py): later launches of the
same program fold their tiling into a copy of the kept module, and launches folding the same values (a case's
draws) share the simulator program built for the first. Both must give what a fresh lowering and build give:
same module text, same simulator program, same outputs and cycles, whatever was folded into an earlier copy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import lowering_cache
from tests.rust_sim.test_per_key_launch import HOST, KERNEL


@pytest.fixture
def program(tmp_path: Path):  # type: ignore[no-untyped-def]
    from frontend.pipeline import load

    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "key_op.cpp").write_text(HOST)
    (tmp_path / "op_kernel" / "key_op.cpp").write_text(KERNEL)
    lowering_cache.forget()
    yield load(str(tmp_path))
    lowering_cache.forget()


def _launch(program, n: int):  # type: ignore[no-untyped-def]
    from passes.sim.launch import run_loaded

    x = np.arange(n, dtype=np.float32)
    result = run_loaded(program, "910B2", [x], outputs={"y": np.zeros(n, dtype=np.float32)})
    assert result.ok, [str(d) for d in result.findings]
    return result


def _facts(result):  # type: ignore[no-untyped-def]
    return (result.program, result.tiling_key, result.block_dim, result.instructions, result.cycles,
            {k: v.tobytes() for k, v in result.outputs.items()}, [str(f) for f in result.findings])


def test_a_copy_is_the_fresh_lowering(program) -> None:  # type: ignore[no-untyped-def]
    from ascendir.lower import LoweringOptions, lower_program

    options = LoweringOptions(chip="910B2")
    fresh = lower_program(program, options)
    first = lowering_cache.lowered_copy(program, options)
    second = lowering_cache.lowered_copy(program, options)
    assert first.module is not second.module
    assert str(first.module) == str(second.module) == str(fresh.module)
    assert [str(d) for d in first.diagnostics] == [str(d) for d in fresh.diagnostics]
    assert [k.sym_name.data for k in first.kernels] == [k.sym_name.data for k in fresh.kernels]
    assert all(any(k is op for op in first.module.walk()) for k in first.kernels)


def test_launches_from_the_kept_lowering_equal_fresh_ones(program, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    fresh = {}
    for n in (4, 8):  # two tiling keys: each launch folds a different key and size into its module
        lowering_cache.forget()
        fresh[n] = _facts(_launch(program, n))
    lowering_cache.forget()
    import passes.sim

    calls, builds = [], []
    real, real_build = lowering_cache.lower_program, passes.sim.build_program
    monkeypatch.setattr(lowering_cache, "lower_program", lambda *a, **k: calls.append(1) or real(*a, **k))
    monkeypatch.setattr(passes.sim, "build_program", lambda *a, **k: builds.append(1) or real_build(*a, **k))
    for n in (4, 8, 4, 8):
        assert _facts(_launch(program, n)) == fresh[n]
    assert len(calls) == 1  # lowered by the first launch only
    assert len(builds) == 2  # built once per tiling (a case's second draw runs the program its first built)
