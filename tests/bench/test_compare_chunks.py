"""Large outputs are compared in pieces (bench/suites/model.py: the float64 copies and masks of a whole 2^27-element
output took 4.6 GB); the pieces give the same Comparison as one pass, counts, maxima and first index included."""

from __future__ import annotations

import numpy as np

from bench.suites import model
from bench.suites.model import Tolerance


def test_pieces_compare_as_the_whole(monkeypatch) -> None:
    tol = Tolerance({}, "elementwise", (1e-3, 1e-3))
    rng = np.random.default_rng(0)
    exp = rng.standard_normal(50_000).astype(np.float32)
    act = exp.copy()
    act[[7, 33_000, 49_999]] += 1
    act[20_000] = np.nan
    whole = tol.compare(exp, act, "float32")
    monkeypatch.setattr(model, "_CHUNK", 1000)
    assert tol.compare(exp, act, "float32") == whole
    assert whole.mismatched == 4 and whole.first_bad == 7 and whole.max_abs == np.inf
    ints = np.arange(5000, dtype=np.int32)
    assert tol.compare(ints, ints.copy(), "int32").ok
    off = ints.copy()
    off[4321] = 0
    assert tol.compare(ints, off, "int32").first_bad == 4321
