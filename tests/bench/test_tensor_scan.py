"""The output comparison's whole-tensor scans (bench/suites/tensor_scan.py) give torch's and numpy's answers, and
the benchmark's check_precision rule no longer asks CPU torch's slow isfinite of float tensors (ForeachAddcdivList:
4.5 s of a case's 49 s of CPU, bench/README.md Level 2)."""

from __future__ import annotations

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from bench.suites.tensor_scan import all_finite, max_ignoring_nan  # noqa: E402
from bench.suites.torch_ref import precision_check  # noqa: E402

SPECIAL = [0.0, -0.0, 1.0, -2.5, 6.0e-8, 65504.0, -65504.0, math.inf, -math.inf, math.nan]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_all_finite_is_torchs_isfinite_all(dtype: str) -> None:
    dt = getattr(torch, dtype)
    finite = torch.tensor([v for v in SPECIAL if math.isfinite(v)], dtype=dt)
    assert all_finite(finite) and bool(torch.isfinite(finite).all())
    # the largest finite value of each width, and the smallest subnormal: finite
    info = torch.finfo(dt)
    assert all_finite(torch.tensor([info.max, -info.max, info.tiny / 4], dtype=dt))
    for bad in (math.inf, -math.inf, math.nan):
        t = torch.cat([finite, torch.tensor([bad], dtype=dt), finite])
        assert not all_finite(t) and not bool(torch.isfinite(t).all())
        assert not all_finite(t.reshape(3, -1)[:, ::2])  # a strided view: read as torch reads it
    assert all_finite(torch.zeros(0, dtype=dt))
    # float16 overflow: the tensor holds infinity
    assert not all_finite(torch.tensor([70000.0], dtype=torch.float32).to(torch.float16))


def test_all_finite_of_integer_bool_and_complex_tensors() -> None:
    assert all_finite(torch.tensor([-(2**31), 2**31 - 1], dtype=torch.int32))
    assert all_finite(torch.tensor([True, False]))
    assert all_finite(torch.tensor([1 + 2j]))
    assert not all_finite(torch.tensor([complex(1.0, math.inf)]))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_max_ignoring_nan_is_numpys_nanmax(dtype: str) -> None:
    dt = getattr(torch, dtype)
    t = torch.tensor([0.5, math.nan, 3.0, -1.0], dtype=dt)
    assert max_ignoring_nan(t) == 3.0 == float(np.nanmax(t.float().numpy()))
    assert max_ignoring_nan(torch.tensor([1.0, math.inf, math.nan], dtype=dt)) == math.inf
    assert max_ignoring_nan(torch.tensor([0.25, 2.0], dtype=dt)) == 2.0
    assert math.isnan(max_ignoring_nan(torch.tensor([math.nan, math.nan], dtype=dt)))
    assert max_ignoring_nan(torch.tensor([3, 7, -1], dtype=torch.int32)) == 7.0


def test_check_precision_reads_finiteness_from_the_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    check = precision_check(1e-3, 1e-3)
    ref = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16)
    calls: list[object] = []
    real = torch.isfinite

    def counted(t: object) -> object:
        calls.append(t)
        return real(t)

    monkeypatch.setattr(torch, "isfinite", counted)
    assert check(ref, ref.clone())[0] == 1
    assert check(ref, torch.tensor([1.0, math.inf, 3.0], dtype=torch.float16))[0] == 0
    assert check(ref, torch.tensor([1.0, math.nan, 3.0], dtype=torch.float16))[0] == 0
    # an overflowed difference of two finite values is not finite either: it fails, as the benchmark's rule does
    assert check(torch.tensor([60000.0], dtype=torch.float16), torch.tensor([-60000.0], dtype=torch.float16))[0] == 0
    assert calls == []
