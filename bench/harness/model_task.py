"""The task a MultiKernelBench answer's correctness is judged on, from what its ModelNew hands the op.

The benchmark calls ModelNew(*get_init_inputs())(*get_inputs()); ModelNew's forward decides what the custom op
gets. Where it hands the op its own arguments unchanged, the reference's inputs are the op's (the task as it is).
Where it hands the op its module's weights and settings or converts its arguments first (op(x, self.conv.weight,
self.eps), op(x.contiguous().float())), the forward is read with `ast` (bench/harness/model_forward.py, never run)
and the op gets what it would hand the op, evaluated on the seeded reference Model: a WeightedTask. Where the
forward does anything else, the op's inputs are not known and the answer is not judged (evaluate.py says so).

ModelNew is the answer's `model_src` string (the multikernelbench form) or an op project folder's `model_src.py`
(Extracted.model_src).
"""

from __future__ import annotations

import dataclasses
import zlib
from typing import Any

from bench.harness.model_forward import apply_result_methods, forward_plan, is_passthrough, result_methods
from bench.harness.model_inputs import weighted_inputs
from bench.suites import Task
from bench.suites.multikernelbench import MultiKernelBenchTask


@dataclasses.dataclass(frozen=True)
class ForwardReading:
    """What ModelNew's forward says about the op's inputs."""

    task: Task  # the task the cases are judged on: the answer's own, or a WeightedTask
    readable: bool  # forward_plan read the forward (False: no ModelNew, or a forward that computes)

    @property
    def weighted(self) -> bool:
        return isinstance(self.task, WeightedTask)


def forward_task(task: Task, model_src: str | None, sample: str, replay_binding: bool) -> ForwardReading:
    """The task to judge an answer whose ModelNew is `model_src` on: a WeightedTask (named after `sample`) where
    the forward hands the op anything but its own arguments in order, or applies methods to the op's result that
    count (`replay_binding`, below); `task` itself otherwise.

    Forward's methods on the op's result (`.unsqueeze(1)`) apply only where the op binding is replayed
    (EvalOptions.replay_binding), which gives the op's outputs the shapes the binding makes; without it the harness
    makes them in the shapes of the reference's outputs, which are forward's results already, and applying the
    methods again would compare [16, 1, 1, 256] with [16, 1, 256]."""
    if not isinstance(task, MultiKernelBenchTask) or not model_src:
        return ForwardReading(task, False)
    plan = forward_plan(model_src)
    if plan is None:
        return ForwardReading(task, False)
    post = tuple(result_methods(model_src)) if replay_binding else ()
    if is_passthrough(plan) and not post:
        return ForwardReading(task, True)
    return ForwardReading(make_weighted_task(task, sample, model_src, plan, post), True)


def make_weighted_task(base: Task, sample: str, model_src: str, plan: list[tuple[Any, ...]],
                       post: tuple[tuple[str, tuple[Any, ...]], ...] = ()) -> WeightedTask:
    """`base` with the op's inputs taken from ModelNew's forward. Named `<task>~<sample>`: a draw's seed follows
    the task's key (evaluate.case_seed), as the KernelHive tables were measured."""
    fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(base)}
    fields["name"] = f"{base.name}~{sample}"
    return WeightedTask(**fields, model_src=model_src, plan=tuple(plan), post=post)


@dataclasses.dataclass
class WeightedTask(MultiKernelBenchTask):
    """A MultiKernelBench task whose inputs are what ModelNew hands the op (weighted_inputs); its reference
    still runs the reference Model on get_inputs' tensors."""

    model_src: str = ""
    plan: tuple[tuple[Any, ...], ...] = ()
    post: tuple[tuple[str, tuple[Any, ...]], ...] = ()  # forward's methods on the op's result (result_methods)

    @property
    def variant(self) -> str:
        """The reduced cases' tag and the forward's: two answers of one task and sample whose forwards differ
        draw different inputs, and the harness's draw cache (evaluate.draw) keys on this."""
        return f"{super().variant}~{zlib.crc32(repr((self.plan, self.post)).encode()):08x}"

    def make_inputs(self, case: Any, seed: int) -> Any:
        drawn = super().make_inputs(case, seed)
        _DRAWN[(self.name, seed)] = drawn
        return weighted_inputs(self, drawn, case)

    def reference(self, case: Any, inputs: Any) -> dict[str, Any]:
        # the reference Model runs on get_inputs' draw, taken back once used (evaluate.draw calls make_inputs, then
        # this, once per draw): a long run would otherwise keep every draw of every weighted answer
        return super().reference(case, _DRAWN.pop((self.name, inputs.seed), inputs))

    def compare(self, case: Any, expected: Any, actual: Any) -> Any:
        """The op's outputs as forward returns them (its methods on the result applied), against the reference."""
        return super().compare(case, expected, {k: apply_result_methods(v, self.post) for k, v in actual.items()})


_DRAWN: dict[tuple[str, int], Any] = {}  # the reference's own draw, by task and seed, until its reference runs
