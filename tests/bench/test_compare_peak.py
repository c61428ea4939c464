"""The NPUKernelBench compare's memory at big sizes (2^29-element cases): check_precision computes the same
differences as the benchmark's out-of-place expressions without their temporaries, and to_torch converts a
dtype without copying the array first."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from bench.suites.torch_ref import precision_check, to_torch  # noqa: E402

CLEAR_REFS = Path("/proc/self/clear_refs")


def _values(dtype: torch.dtype) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(5)
    out = torch.randn(4096, generator=g) * 3
    new = out + torch.randn(4096, generator=g) * 1e-3
    out[:4] = torch.tensor([0.0, float("inf"), float("nan"), -0.0])
    new[:4] = torch.tensor([1e-8, float("inf"), 1.0, 0.0])
    if dtype == torch.bool:
        return out > 0, new > 0
    if dtype.is_complex:
        return torch.complex(out, new).to(dtype), torch.complex(new, out).to(dtype)
    if not dtype.is_floating_point:
        out, new = torch.nan_to_num(out).clamp(-1e3, 1e3), torch.nan_to_num(new).clamp(-1e3, 1e3)
    return out.to(dtype), new.to(dtype)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.int32, torch.bool,
                                   torch.complex64])
def test_the_differences_are_the_benchmarks_expressions(dtype: torch.dtype) -> None:
    out, new = _values(dtype)
    ok, abs_diff, rel_diff = precision_check(1e-3, 1e-3)(out, new)
    if dtype == torch.bool:
        out, new = out.to(torch.int), new.to(torch.int)
    want_abs = torch.abs(out - new)
    want_rel = want_abs / (torch.abs(out) + 1e-7)
    assert abs_diff.dtype == want_abs.dtype and rel_diff.dtype == want_rel.dtype
    assert torch.equal(abs_diff.view(-1).nan_to_num(-1), want_abs.view(-1).nan_to_num(-1))
    assert torch.equal(rel_diff.view(-1).nan_to_num(-1), want_rel.view(-1).nan_to_num(-1))
    assert ok == 0  # the NaN/inf rows fail, as in the benchmark
    mixed = precision_check(1e-3, 1e-3)(out.to(torch.float32) if not dtype.is_complex else out, new)
    assert mixed[1].numel() == out.numel()


def test_lists_are_concatenated() -> None:
    a, b = _values(torch.float32)
    ok, abs_diff, _ = precision_check(1e-2, 1e-2)([a[4:], a[4:]], [b[4:], b[4:]])
    assert ok == 1 and abs_diff.shape == (2 * (a.numel() - 4),)


def test_to_torch_converts_without_copying_first() -> None:
    values = np.random.default_rng(0).standard_normal(1 << 20).astype(np.float32)  # 4 MiB
    tracemalloc.start()
    try:
        t = to_torch(values, "bfloat16")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert t.dtype == torch.bfloat16 and torch.equal(t, torch.from_numpy(values).to(torch.bfloat16))
    assert peak < values.nbytes // 2  # numpy's copy is traced; torch's own tensor is not
    same = to_torch(values, "float32")  # no conversion: still a copy, which the caller may write
    same[0] = 7.0
    assert values[0] != 7.0


def test_to_torch_converts_a_zero_dimensional_array() -> None:
    # NPUKernelBench ForeachNonFiniteCheckAndUnscale draws 0-d tensors (found_inf, in_scale)
    scalar = np.array(0.5, dtype=np.float32)
    t = to_torch(scalar, "float16")
    assert t.dtype == torch.float16 and t.shape == () and float(t) == 0.5


@pytest.mark.skipif(not CLEAR_REFS.exists(), reason="needs Linux's /proc/self/clear_refs (peak RSS reset)")
def test_check_precision_peak_is_three_outputs() -> None:
    n = 1 << 25  # 64 MiB of float16: above glibc's largest mmap threshold, so each buffer is its own mapping
    out = torch.randn(n, dtype=torch.float16)
    new = out + 0.01
    check = precision_check(1e-3, 1e-3)
    check(out[:8], new[:8])

    def hwm() -> int:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM"):
                return int(line.split()[1]) * 1024
        raise AssertionError("no VmHWM")

    CLEAR_REFS.write_text("5")
    base = hwm()
    check(out, new)
    # |d|, |d|/(|out|+1e-7) and two bool masks of half their size: 3 outputs' worth (the out-of-place
    # expressions and the cat of one tensor took 4)
    assert (hwm() - base) / out.nbytes < 3.5
