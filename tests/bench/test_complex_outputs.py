"""complex64 tensors: the host sees their ge::DataType (DT_COMPLEX64, 8 bytes), the simulator their memory (pairs
of floats), output buffers of that dtype start poisoned like two floats, and a complex output compares with a
real reference by the complex difference, as torch compares them. NPUKernelBench's AbsMath writes |z| into the
real part of a complex64 buffer (its binding's empty_like(x)) against torch.abs's float32 reference; before, its
host stopped at "unknown dtype 'complex64'" and the buffer was sized as the float32 reference.
"""

from __future__ import annotations

import numpy as np

from ascendir.dialects.host import GE_DATA_TYPE_SIZES
from ascendir.host_eval import ge_dtype
from bench.harness.stages.compile import _type_name
from bench.harness.stages.correctness import count_poison, poisoned
from bench.suites.model import Tolerance


def test_host_dtype_and_size() -> None:
    assert ge_dtype("complex64") == 16 and GE_DATA_TYPE_SIZES[16] == 8
    assert _type_name("DT_COMPLEX64") == "complex64"


def test_a_complex_buffer_starts_poisoned() -> None:
    buf = poisoned((3,), np.dtype(np.complex64), seed=7)
    assert buf.dtype == np.complex64 and buf.shape == (3,)
    assert np.isnan(buf.real).all() and np.isnan(buf.imag).all()
    assert count_poison(buf.view(np.float32), seed=7) == 6


def test_complex_output_against_a_real_reference() -> None:
    expected = np.array([1.0, 2.5, 3.0], dtype=np.float32)
    tolerance = Tolerance()
    good = (expected + 0j).astype(np.complex64)
    assert tolerance.compare(expected, good, "float32").ok
    # the real parts agree but an imaginary part is left: wrong, as |out - ref| is not small
    bad = good.copy()
    bad[1] = 2.5 + 1.0j
    result = tolerance.compare(expected, bad, "float32")
    assert not result.ok and result.mismatched == 1
