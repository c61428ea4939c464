"""NotifyEvent<pipe>(id) / WaitEvent<pipe>(id), the cube-vector events of the Matmul library (ops-nn mat_mul_v3's
MatmulBaseUnAlignedKernel hands its ND2NZ workspace between the cores with them), are the cross-core flags of
CrossCoreSetFlag / CrossCoreWaitFlag (asc-devkit kernel_operator_block_sync_intf_impl.h): NotifyEvent is
NotifyEventImpl<2, pipe> (mode 2: the AIC and the AIVs of one block, either way), WaitEvent is WaitEventImpl. They
were not modelled (ASC958): the team's MIX kernel written with them runs as it does with the CrossCore names."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

PROJECT = Path(__file__).resolve().parents[1] / "corpus" / "clean" / "projects" / "mmad_relu_mix_custom"


def _with_events(tmp_path: Path) -> Path:
    project = tmp_path / PROJECT.name
    for src in PROJECT.rglob("*"):
        if src.is_file():
            dst = project / src.relative_to(PROJECT)
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_text(src.read_text())
    kernel = project / "op_kernel" / f"{PROJECT.name}.cpp"
    text = kernel.read_text()
    for old, new in (("CrossCoreSetFlag<2, PIPE_FIX>", "NotifyEvent<PIPE_FIX>"),
                     ("CrossCoreSetFlag<2, PIPE_MTE3>", "NotifyEvent<PIPE_MTE3>"),
                     ("CrossCoreWaitFlag(", "WaitEvent(")):
        assert old in text
        text = text.replace(old, new)
    assert "CrossCore" not in text.split("*/", 1)[1]
    kernel.write_text(text)
    return project


def test_notify_and_wait_event_hand_tiles_between_cube_and_vector(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (20, 16)).astype(np.float16)
    b = rng.uniform(-1, 1, (16, 30)).astype(np.float16)
    bias = rng.uniform(-1, 1, (30,)).astype(np.float32)
    result = run(str(_with_events(tmp_path)), [a, b, bias])
    assert result.ok and not [d for d in result.findings if d.is_error], [str(d) for d in result.findings]
    expected = np.maximum(a.astype(np.float32) @ b.astype(np.float32) + bias, 0)
    (out,) = result.outputs.values()
    assert np.allclose(out.astype(np.float32), expected, atol=1e-2)


def test_a_wait_event_nothing_notifies_is_a_deadlock(tmp_path: Path) -> None:
    project = _with_events(tmp_path)
    kernel = project / "op_kernel" / f"{PROJECT.name}.cpp"
    kernel.write_text(kernel.read_text().replace("AscendC::WaitEvent(slot);", "AscendC::WaitEvent(slot + 7);"))
    rng = np.random.default_rng(0)
    result = run(str(project), [rng.uniform(-1, 1, (20, 16)).astype(np.float16),
                                rng.uniform(-1, 1, (16, 30)).astype(np.float16),
                                rng.uniform(-1, 1, (30,)).astype(np.float32)])
    assert any(d.code == "ASC956" for d in result.findings) and not result.ok
