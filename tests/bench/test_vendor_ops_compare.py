"""bench/perf/vendor_ops.py compares an op's outputs with its numpy model through the benchmark's tolerance model
(bench.suites.model.Tolerance), not a rule of its own: an element fails when |d| > 1e-3 * max(1, |ref|), integer
outputs (indices) match exactly, and a case may bound an output absolutely (a quantised output's rounding step)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

_PATH = Path(__file__).resolve().parents[2] / "bench" / "perf" / "vendor_ops.py"
_SPEC = importlib.util.spec_from_file_location("vendor_ops", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
vendor_ops = importlib.util.module_from_spec(_SPEC)
sys.modules["vendor_ops"] = vendor_ops
_SPEC.loader.exec_module(vendor_ops)


def _case(**tolerance: object) -> object:
    return vendor_ops.OpCase("t", "none", lambda r: {}, {"y": ((4,), "float32"), "idx": ((4,), "int32")},
                             lambda a: {}, tolerance=dict(tolerance))


def test_a_float_output_within_the_benchmark_tolerance_matches() -> None:
    want = {"y": np.array([0.5, -2.0, 100.0, 0.0]), "idx": np.array([3, 1, 0, 2])}
    got = {"y": np.array([0.5004, -2.0015, 100.09, 0.0], np.float32), "idx": np.array([3, 1, 0, 2], np.int32)}
    ok, text = vendor_ops._compare(_case(), got, want)
    assert ok, text
    assert text.startswith("y: max err 0.09")


def test_an_element_past_it_or_a_wrong_index_does_not() -> None:
    want = {"y": np.array([0.5, -2.0, 100.0, 0.0]), "idx": np.array([3, 1, 0, 2])}
    ok, text = vendor_ops._compare(_case(), {"y": np.array([0.5, -2.0, 100.0, 0.0015], np.float32),
                                             "idx": np.array([3, 1, 0, 2], np.int32)}, want)
    assert not ok and "y: max err 0.0015 (1 of 4 elements differ" in text
    ok, text = vendor_ops._compare(_case(), {"y": np.array([0.5, -2.0, 100.0, 0.0], np.float32),
                                             "idx": np.array([3, 1, 2, 0], np.int32)}, want)
    assert not ok and "idx: max err 2 (2 of 4 elements differ" in text


def test_an_absolute_bound_and_a_missing_output() -> None:
    case = _case(y=vendor_ops._within(1.0))
    want = {"y": np.array([3.0, -4.0, 0.0, 127.0]), "idx": np.array([0, 0, 0, 0])}
    ok, text = vendor_ops._compare(case, {"y": np.array([4, -4, 1, 126], np.int8),
                                          "idx": np.zeros(4, np.int32)}, want)
    assert ok, text
    ok, text = vendor_ops._compare(case, {"y": np.array([3, -4, 0, 125], np.int8)}, want)
    assert not ok and "idx: missing" in text and "y: max err 2" in text


def test_an_in_place_input_is_compared_with_the_inputs_shape_and_dtype() -> None:
    # apply_adam_w_v2 declares no outputs: var comes back under its own name, as the input it was
    case = vendor_ops.OpCase("t", "none", lambda r: {}, {}, lambda a: {}, inplace=["var"])
    given = {"var": np.zeros(4, np.float32), "step": np.array([3.0], np.float32)}
    ok, text = vendor_ops._compare(case, {"var": np.array([1.0, 2.0, 3.0, 4.0], np.float32)},
                                   {"var": np.array([1.0, 2.0, 3.0, 4.0004])}, given)
    assert ok and text == "var: max err 0.0004", text
    ok, text = vendor_ops._compare(case, {}, {"var": np.zeros(4)}, given)
    assert not ok and text == "var: missing"


def test_an_output_the_op_documents_as_unwritten_is_no_stop() -> None:
    # cross_entropy_loss allocates zloss but its docs say zloss is not supported yet: no core writes it (ASC961)
    findings = [{"severity": "error", "code": "ASC961", "message": "no core writes 4 of the 4 bytes of output 'zloss'"}]
    assert vendor_ops._stage(findings, True, {"loss": {}}, ["zloss"]) == ("kernel runs", "")
    stage, first = vendor_ops._stage(findings, True, {"loss": {}})
    assert stage == "tiling runs; kernel stops" and first.startswith("ASC961")
