"""Outputs the reference does not return are neither compared nor required to be written.

NPUKernelBench compares zip(Model's outputs, ModelNew's). GroupNormSwishGrad's ModelNew returns only dx of the
op's dx, dgamma, dbeta (its Model too), and with dgamma_is_require false the kernel never writes dgamma: the
harness failed those cases on 'no core writes output dgamma' (outputs_written), which the benchmark never looks at.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bench.harness.stages import correctness
from bench.harness.stages.correctness import OUTPUT_NOT_WRITTEN, Run, check_case
from bench.harness.verdict import CaseResult, Finding
from bench.suites.model import Comparison, TensorDecl


class _Task:
    outputs = (TensorDecl("dx", ("float32",)), TensorDecl("dgamma", ("float32",)))

    def uncompared(self, case: object, inputs: object) -> tuple[str, ...]:
        return ()

    def compare(self, case: object, expected: dict[str, Any], outputs: dict[str, Any]) -> dict[str, Comparison]:
        return {n: Comparison(True, 0, 4, 0.0, 0.0) for n in expected}


class _Draw:
    seed = 0


def _run(expected: dict[str, Any], monkeypatch: Any) -> CaseResult:
    unwritten = Finding(OUTPUT_NOT_WRITTEN, "error", "no core writes 16 of the 16 bytes of output 'dgamma'", "k.cpp", 1)
    run = Run({"dx": np.zeros(4, np.float32), "dgamma": np.zeros(4, np.float32)}, [unwritten], True,
              unwritten={"dgamma": 4})
    monkeypatch.setattr(correctness, "simulate", lambda *a, **k: run)
    result = CaseResult("0", "static")
    check_case(_Task(), None, None, "910_93", [(_Draw(), expected)], lambda i: [], None, result)  # type: ignore[arg-type]
    return result


def test_an_output_the_reference_does_not_return_need_not_be_written(monkeypatch: Any) -> None:
    result = _run({"dx": np.zeros(4, np.float32)}, monkeypatch)
    assert result.status == "pass", result.reason
    assert result.checks["outputs_written"]


def test_an_output_the_reference_returns_must_be_written(monkeypatch: Any) -> None:
    result = _run({"dx": np.zeros(4, np.float32), "dgamma": np.zeros(4, np.float32)}, monkeypatch)
    assert result.status != "pass"
    assert not result.checks["outputs_written"]
