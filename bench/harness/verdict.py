"""Verdicts: what the stages found for one answer, as plain data that goes to JSONL and back unchanged."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

# Stages in order; a verdict's `stage` is the last one that ran.
STAGES = ("extract", "compile", "correctness", "performance")

# Why an answer stopped, for the funnel and the reports.
FORMAT_FAILURE = "format"  # extract: not an answer in a format the suite accepts
COMPILE_FAILURE = "compile"  # parse, lowering or rule errors
WRONG = "wrong"  # an output outside tolerance, or a dynamic finding that makes the result invalid
RUNTIME = "runtime"  # the simulator stopped the kernel (out of bounds, deadlock, budget ...)
NOT_EVALUATED = "not-evaluated"  # the harness could not judge it (no simulator, a case too large, ...)
TIMEOUT = "timeout"  # the answer's time budget ran out
INTERNAL = "internal"  # a bug of ours; the message says where


@dataclass
class Finding:
    """One diagnostic kept with a verdict (compile diagnostics, static findings with shapes, simulator findings)."""

    code: str
    severity: str
    message: str
    file: str = ""
    line: int = 0
    col: int = 0

    @classmethod
    def of(cls, d: Any) -> Finding:
        """From a frontend Diagnostic."""
        span = getattr(d, "span", None)
        return cls(d.code, str(getattr(d.severity, "value", d.severity)), d.message,
                   span.file if span else "", span.line if span else 0, span.col if span else 0)

    def render(self) -> str:
        where = f"{self.file}:{self.line}:{self.col}: " if self.file else ""
        return f"{where}{self.severity}: {self.message} [{self.code}]"


@dataclass
class CaseResult:
    """One test case of one answer."""

    case: str
    status: str  # pass, fail, error (the run stopped), skipped (not evaluated), static (no simulator yet)
    reason: str = ""
    static_findings: list[Finding] = field(default_factory=list)  # ascendc-check with the case's shapes
    sim_findings: list[Finding] = field(default_factory=list)
    outputs: dict[str, Any] = field(default_factory=dict)  # output name -> comparison per draw
    unwritten: dict[str, int] = field(default_factory=dict)  # output name -> elements no core wrote
    cycles: float | None = None  # simulated time of the answer for this case
    baseline_cycles: float | None = None  # the reference solution's (or the stated baseline's)
    budget_cut: bool = False
    checks: dict[str, bool] = field(default_factory=dict)  # integrity checks: name -> passed
    # the case ran on shapes the harness reduced from the benchmark's (--fit-shapes): what was reduced, to what
    reduced: str = ""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CaseResult:
        data = dict(data)
        for key in ("static_findings", "sim_findings"):
            data[key] = [Finding(**f) for f in data.get(key, [])]
        return cls(**{k: v for k, v in data.items() if k in _names(cls)})


@dataclass
class Verdict:
    """The stages' outcome for one answer."""

    suite: str
    task: str
    sample: str
    answer: str  # the answer's path
    level: int | None = None
    category: str = ""
    case_filter: str | None = None
    key: str = ""
    form: str = ""  # the answer's format (project, npukernelbench, npukernelbench-kernel, multikernelbench)
    stage: str = "extract"  # the last stage that ran
    extracted: bool = False
    compiled: bool = False
    correct: bool | None = None  # None: not judged (no simulator, a case not evaluated)
    fast: bool | None = None  # correct and faster than the baseline
    speedup: float | None = None  # baseline time / the answer's time (geometric mean over cases)
    baseline: str = ""  # what the speedup is measured against
    failure: str = ""  # FORMAT_FAILURE, COMPILE_FAILURE, WRONG, RUNTIME, NOT_EVALUATED, TIMEOUT, INTERNAL
    reason: str = ""  # one line: why the answer stopped where it did
    diagnostics: list[Finding] = field(default_factory=list)  # the compile stage's
    cases: list[CaseResult] = field(default_factory=list)
    checks: dict[str, bool] = field(default_factory=dict)  # integrity checks over all cases
    wall_s: float = 0.0
    # judged on at least one case whose shapes the harness reduced from the benchmark's (--fit-shapes): its
    # verdict is not the benchmark's verdict at the benchmark's shapes (the cases say what was reduced)
    reduced: bool = False
    # the op was judged on what ModelNew's forward hands it (its module's weights, converted arguments; read with
    # ast: bench/harness/model_task.py), not on the reference's inputs as they are
    forward_inputs: bool = False
    # what the harness assumed that the benchmark does not say (Task.notes: a tolerance it could not read)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Verdict:
        data = dict(data)
        data["diagnostics"] = [Finding(**f) for f in data.get("diagnostics", [])]
        data["cases"] = [CaseResult.from_json(c) for c in data.get("cases", [])]
        return cls(**{k: v for k, v in data.items() if k in _names(cls)})

    def stop(self, stage: str, failure: str, reason: str) -> Verdict:
        """Mark the answer as stopped at `stage` for `reason`."""
        self.stage, self.failure, self.reason = stage, failure, reason
        return self

    def comparable(self) -> dict[str, Any]:
        """The verdict without what differs between two runs of the same evaluation (wall time, paths)."""
        data = self.to_json()
        data.pop("wall_s", None)
        return data


def _names(cls: type) -> set[str]:
    return {f.name for f in fields(cls)}
