"""One answer through every stage: the harness's Python API (llm/ drives generation loops through `evaluate`).

    verdicts = evaluate(task, [Answer(task.name, "0", "answer.md")])

Nothing the answer holds is executed natively: it is read, checked, and run only on the simulator. The
reference's expected outputs are computed in this process, apart from the simulated memory.
"""

from __future__ import annotations

import math
import time
import zlib
from collections import OrderedDict
from pathlib import Path
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bench.harness.answers import Answer, answer_key
from bench.harness.model_task import forward_task
from bench.harness.stages.compile import Compiled, compile_answer, op_output_dtypes, static_check, tiling_inputs
from bench.harness.stages.correctness import SimulatorUnavailable, check_case, simulator
from bench.harness.stages.extract import extract
from bench.harness.verdict import (
    COMPILE_FAILURE,
    FORMAT_FAILURE,
    INTERNAL,
    NOT_EVALUATED,
    RUNTIME,
    TIMEOUT,
    WRONG,
    CaseResult,
    Verdict,
)
from bench.suites import Case, Inputs, Task


@dataclass(frozen=True)
class EvalOptions:
    """How answers are evaluated (every field travels with each job to the workers)."""

    draws: int = 2  # input draws per case, from seeds seed, seed+1, ...
    seed: int = 0
    time_budget_s: float = 600.0  # per answer, all stages; the executors enforce it
    instruction_budget: int | None = None  # per simulated run; None: the simulator's default
    # cases drawing more input elements are not evaluated here (memory, time); None: the task's suite's limit
    max_elements: int | None = None
    static_shapes: bool = True  # check each case with its shapes (ascendc-check --shape)
    performance: bool = True
    # a MultiKernelBench answer's op binding replayed around its kernel (bench/harness/binding_replay.py)
    replay_binding: bool = False


class BudgetExceeded(Exception):
    """Raised inside a worker when an answer's time budget runs out (see executors)."""


def evaluate(task: Task, answers: Sequence[Answer], options: EvalOptions | None = None) -> list[Verdict]:
    """Every answer to `task` through the stages, in this process, in order."""
    opts = options or EvalOptions()
    return [evaluate_answer(task, a, opts) for a in answers]


def evaluate_answer(task: Task, answer: Answer, options: EvalOptions | None = None) -> Verdict:
    """One answer through extract -> compile -> correctness -> performance. Never raises for a bad answer;
    a failure of ours becomes an `internal` verdict with the exception named."""
    opts = options or EvalOptions()
    start = time.monotonic()
    verdict = Verdict(task.suite, task.name, answer.sample, answer.path, task.level, task.category, answer.case,
                      answer_key(task.suite, answer, task.variant), notes=list(task.notes))
    try:
        _run_stages(task, answer, opts, verdict)
    except BudgetExceeded:
        verdict.stop(verdict.stage, TIMEOUT, f"the answer's time budget ({opts.time_budget_s:g} s) ran out in the "
                                             f"{verdict.stage} stage")
        verdict.correct = False if verdict.compiled else verdict.correct
    except Exception as exc:  # a bug of ours, or of a task's reference: never a traceback at the user
        verdict.stop(verdict.stage, INTERNAL, f"internal error in the {verdict.stage} stage: "
                                              f"{type(exc).__name__}: {exc}")
    verdict.wall_s = round(time.monotonic() - start, 3)
    return verdict


def _run_stages(task: Task, answer: Answer, opts: EvalOptions, verdict: Verdict) -> None:
    extracted = extract(task, answer)
    verdict.form = extracted.form
    if not extracted.ok:
        verdict.stop("extract", FORMAT_FAILURE, extracted.problem)
        return
    verdict.extracted = True
    # what ModelNew's forward hands the op (read with ast, never run): its module's weights, converted arguments
    reading = forward_task(task, extracted.model_src, answer.sample, opts.replay_binding)
    verdict.forward_inputs = reading.weighted
    verdict.stage = "compile"
    compiled = compile_answer(task, extracted)
    verdict.diagnostics = compiled.diagnostics
    if not compiled.ok:
        verdict.stop("compile", COMPILE_FAILURE, compiled.reason)
        return
    verdict.compiled = True
    verdict.stage = "correctness"
    is_reference = task.solution is not None and Path(answer.path).resolve() == Path(task.solution).resolve()
    for case in cases_for(task, answer, extracted.form):
        if extracted.passes_inputs is False and not reading.readable:
            verdict.cases.append(CaseResult(case.id, "skipped", "not evaluated: ModelNew computes the op's arguments "
                                            "in Python beyond what the harness reads (weights, settings, tensor "
                                            "methods: bench/harness/model_forward.py); that is answer code, never "
                                            "run, so the op's inputs are not known"))
            continue
        verdict.cases.append(evaluate_case(reading.task, case, compiled, opts, is_reference))
    _judge(verdict)
    if verdict.correct and opts.performance:
        verdict.stage = "performance"
        verdict.baseline = "reference solution" if task.solution else "memory roofline"
        _speedup(verdict)


def cases_for(task: Task, answer: Answer, form: str) -> list[Case]:
    """The cases an answer is evaluated on: its own case when named, the first case for a kernel-only
    NPUKernelBench answer (written for one case, as that benchmark evaluates it by default), else all."""
    if answer.case is not None:
        return [task.case(answer.case)]
    if form == "npukernelbench-kernel" and task.suite == "npukernelbench":
        return list(task.cases[:1])
    return list(task.cases)


def evaluate_case(task: Task, case: Case, compiled: Compiled, opts: EvalOptions, is_reference: bool = False
                  ) -> CaseResult:
    result = CaseResult(case.id, "static", reduced=case.reduced)
    elements = task.input_elements(case)
    limit = opts.max_elements if opts.max_elements is not None else task.max_elements
    if elements is not None and elements > limit:
        result.status = "skipped"
        result.reason = (f"not evaluated: the case draws {elements:,} input elements, over the harness's limit of "
                         f"{limit:,} (--max-elements)" + (f"; {case.not_reduced}" if case.not_reduced else ""))
        return result
    try:
        inputs, expected = draw(task, case, case_seed(task, case, opts.seed))
    except Exception as exc:
        result.status = "skipped"
        result.reason = (f"not evaluated: the task's reference failed: {type(exc).__name__}: {exc}"
                         + (f" (on the case {case.reduced})" if case.reduced else ""))
        return result
    if opts.static_shapes:
        shapes = tiling_inputs(task, case, inputs, expected, compiled)
        if shapes is not None:
            result.static_findings = static_check(compiled, shapes)
    try:
        simulator()
    except SimulatorUnavailable as exc:
        result.reason = str(exc)
        return result
    draws = [(inputs, expected)]
    for k in range(1, max(1, opts.draws)):
        draws.append(draw(task, case, case_seed(task, case, opts.seed + k)))

    def dtypes_of(drawn: Inputs) -> list[str]:
        drawn = task.answer_inputs(compiled.program, drawn)  # as the op gets them (aclnn_arguments: a Scalar's dtype)
        given = [drawn.dtypes.get(n) for n, v in drawn.values.items()
                 if isinstance(v, np.ndarray) or isinstance(v, list) and v and isinstance(v[0], np.ndarray)]
        return op_output_dtypes(compiled.program, given, expected)

    check_case(task, case, compiled.program, compiled.chip, draws, dtypes_of, opts.instruction_budget, result,
               opts.replay_binding, keyed=compiled.keyed, zeroed_attrs=compiled.zeroed_attrs)
    if result.status == "pass" and opts.performance and result.cycles is not None:
        # the reference solution is its own baseline: no second run
        result.baseline_cycles = result.cycles if is_reference else baseline_cycles(task, case, draws[0], dtypes_of,
                                                                                     opts)
    return result


_BASELINES: dict[str, tuple[Any, str] | None] = {}  # task key -> its reference solution, compiled


def baseline_cycles(task: Task, case: Case, drawn: tuple[Inputs, dict[str, Any]], dtypes_of: Any,
                    opts: EvalOptions) -> float | None:
    """The simulated time of the task's reference solution on the same draw (compiled once per process), or,
    for a suite without one, the memory roofline: the bytes the op must move (its inputs and outputs) at the
    GM bandwidth of every vector core (a lower bound: such speedups are at most 1)."""
    from bench.harness.answers import Answer
    from bench.harness.stages.correctness import simulate

    inputs, expected = drawn
    if task.solution:
        if task.key not in _BASELINES:
            extracted = extract(task, Answer(task.name, "ref", task.solution))
            compiled = compile_answer(task, extracted) if extracted.ok else None
            _BASELINES[task.key] = (compiled.program, compiled.chip) if compiled and compiled.ok else None
        loaded = _BASELINES[task.key]
        if loaded is None:
            return None
        run = simulate(task, case, loaded[0], loaded[1], inputs, expected, dtypes_of(inputs), inputs.seed,
                       opts.instruction_budget)
        return run.cycles if run.completed and run.cycles else None
    from ascendir.chips import load_chip

    chip = load_chip(task.chip)
    moved = sum(a.nbytes for a in inputs.arrays()) + sum(np.asarray(v).nbytes for v in expected.values()
                                                          if isinstance(v, np.ndarray))
    per_cycle = float(chip.bandwidth.get("gm_ub", 128.0)) * chip.aiv_cores
    return moved / per_cycle


def case_seed(task: Task, case: Case, draw_index: int) -> int:
    """The seed of one input draw: fixed per task, case and draw, different between them."""
    return zlib.crc32(f"{task.key}/{case.id}/{draw_index}".encode())


# Expected outputs are computed once per (task, case, seed) in a process: many samples of one task share them.
_DRAWS: OrderedDict[tuple[str, str, int], tuple[Inputs, dict[str, Any]]] = OrderedDict()
_DRAW_CACHE = 4


def draw(task: Task, case: Case, seed: int) -> tuple[Inputs, dict[str, Any]]:
    """The case's inputs drawn with `seed` and the reference's expected outputs for them (cached)."""
    key = (task.key + task.variant, case.id, seed)
    hit = _DRAWS.get(key)
    if hit is not None:
        _DRAWS.move_to_end(key)
        return hit
    inputs = task.make_inputs(case, seed)
    expected = task.reference(case, inputs)
    _DRAWS[key] = (inputs, expected)
    while len(_DRAWS) > _DRAW_CACHE:
        _DRAWS.popitem(last=False)
    return inputs, expected


def _judge(verdict: Verdict) -> None:
    """The answer's correctness from its cases: all passed -> correct; any failed -> wrong (or a runtime stop);
    otherwise not judged, with the first case's reason."""
    statuses = [c.status for c in verdict.cases]
    judged = [c for c in verdict.cases if c.checks]
    verdict.reduced = any(c.reduced and c.status in ("pass", "fail", "error") for c in verdict.cases)
    if judged:
        verdict.checks = {name: all(c.checks.get(name, True) for c in judged) for name in judged[0].checks}
    failed = next((c for c in verdict.cases if c.status in ("fail", "error")), None)
    if failed is not None:
        verdict.correct = False
        verdict.stop("correctness", RUNTIME if failed.status == "error" else WRONG,
                     f"case {failed.case}: {failed.reason}" + (f" ({failed.reduced})" if failed.reduced else ""))
    elif statuses and all(s == "pass" for s in statuses):
        verdict.correct = True
    else:
        verdict.correct = None
        first = next((c for c in verdict.cases if c.status != "pass"), None)
        verdict.stop("correctness", NOT_EVALUATED, f"case {first.case}: {first.reason}" if first else "no cases")


def _speedup(verdict: Verdict) -> None:
    """Geometric mean over the cases of baseline time / answer time; not fast when a run was cut by the
    instruction budget."""
    ratios = [c.baseline_cycles / c.cycles for c in verdict.cases
              if c.cycles and c.baseline_cycles and c.cycles > 0 and c.baseline_cycles > 0]
    if len(ratios) != len(verdict.cases) or not ratios:
        return
    verdict.speedup = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    verdict.fast = verdict.speedup > 1.0 and not any(c.budget_cut for c in verdict.cases)
