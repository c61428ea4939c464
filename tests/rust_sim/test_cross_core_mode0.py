"""CrossCoreSetFlag<0, pipe> / CrossCoreWaitFlag in a vector-only kernel (no KERNEL_TASK_TYPE): the barrier over
all the launch's cores that the hardware SyncAll is made of (asc-devkit SyncAllImpl<isAIVOnly>: a mode-0
ffts_cross_core_sync and wait_flag_dev). NPUKernelBench's ForeachNorm uses it and is correct on hardware; the
simulator used to stop it ("cross-core flags need a MIX kernel type"). Modes 1 and 2, which pair the cores of one
AI Core, still need a MIX kernel."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = Path(__file__).resolve().parents[1] / "corpus" / "cross_core" / "aiv_barrier.cpp"


def test_mode_0_is_a_barrier_over_all_vector_cores() -> None:
    x = np.arange(128, dtype=np.float32)
    result = run(str(KERNEL), {"x": x.copy()}, block_dim=2,
                 outputs={"y": ((128,), "float32"), "z": ((128,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], x * 2)
    assert np.array_equal(result.outputs["z"], np.concatenate([x[64:], x[:64]]) * 2)


def test_mode_1_in_a_vector_only_kernel_is_still_an_error(tmp_path: Path) -> None:
    text = KERNEL.read_text().replace("CrossCoreSetFlag<0, PIPE_MTE3>(1);", "CrossCoreSetFlag<1, PIPE_MTE3>(1);")
    source = tmp_path / "aiv_mode1.cpp"
    source.write_text(text)
    x = np.arange(128, dtype=np.float32)
    result = run(str(source), {"x": x.copy()}, block_dim=2,
                 outputs={"y": ((128,), "float32"), "z": ((128,), "float32")})
    assert any("need a MIX kernel type" in d.message for d in result.findings), [str(d) for d in result.findings]
