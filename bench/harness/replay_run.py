"""The correctness stage's Run of one draw through a replayed binding: the binding (binding_replay.Replay, or
aclnn_replay's layers) runs over numpy and each of its launches of the answer's kernel runs on the simulator
(kernel_launcher), whose findings, instructions and cycles go into the Run; the binding's result becomes the Run's
outputs (finish_run)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from bench.harness import tensor_ops as T
from bench.harness.binding_replay import BindingError, Launch, Replay
from bench.harness.binding_source import binding_unit, kernel_calls
from bench.harness.tensor_ops import NotModelled, Tensor


class Stopped(Exception):
    """A kernel run stopped (a dynamic finding, the budget, not modelled): the replay ends there."""


def simulate_binding(task: Any, program: Any, chip: str, inputs: Any, expected: dict[str, Any], seed: int,
                     budget: int | None, zeroed_attrs: Sequence[int] = ()) -> Any | None:
    """The correctness stage's Run of one draw with the binding replayed around the kernel, or None when there
    is nothing to replay (no binding, or one that never calls this answer's kernel: the caller then runs the
    kernel directly on the op's inputs). `zeroed_attrs`: the op's attributes the binding hands over so that the
    op reads 0 (Compiled.zeroed_attrs)."""
    from bench.harness.stages.correctness import Run
    from bench.harness.verdict import Finding

    if binding_unit(program) is None or not kernel_calls(program):
        return None
    run = Run({}, [], True)
    cycles: list[float | None] = []
    launch, poison = kernel_launcher(program, chip, budget, seed, run, cycles, zeroed_attrs)
    args = [T.make(v, inputs.dtypes.get(k, str(v.dtype))) if isinstance(v, np.ndarray) else
            (list(v) if isinstance(v, tuple) else v) for k, v in inputs.values.items()]
    replay = Replay(program, launch, poison)
    try:
        result = replay.run(args)
    except Stopped:
        return run
    except NotModelled as exc:
        run.not_modelled = f"the binding replay does not model {exc}"
        return run
    except BindingError as exc:
        run.findings.append(Finding("binding", "error", f"the op's binding fails: {exc}"))
        run.completed = False
        return run
    except RecursionError:
        run.not_modelled = "the binding replay does not model a binding this deeply recursive"
        return run
    except (TypeError, ValueError, IndexError, KeyError, AttributeError) as exc:
        # a value of a kind the replay does not follow reached an operation (ours, never a traceback at the user)
        run.not_modelled = f"the binding replay does not model this binding ({type(exc).__name__}: {exc})"
        return run
    run.not_modelled = finish_run(run, replay, result, expected, seed, cycles)
    return run


def kernel_launcher(program: Any, chip: str, budget: int | None, seed: int, run: Any, cycles: list[float | None],
                    zeroed_attrs: Sequence[int] = ()) -> tuple[Launch, Callable[[tuple[int, ...], str], np.ndarray]]:
    """(launch, poison) for a replay: `launch` runs the answer's kernel on the simulator (the attributes of
    `zeroed_attrs` as 0), adds its findings, instructions and cycles to `run` and `cycles`, writes its outputs (and
    the inputs the op updates in place) into the tensors given, and raises Stopped where the run stopped; `poison`
    fills new memory with the run's poison pattern."""
    from bench.harness.stages.correctness import zero_attributes
    from bench.harness.stages.correctness import NOT_MODELLED_CODES, from_sim, host_not_modelled, poisoned, \
        simulator, to_sim
    from bench.harness.verdict import Finding
    from bench.suites.model import canonical_dtype, numpy_dtype
    from passes.sim.launch import SimError, run_loaded
    from passes.verify.kernel_only import op_description

    sim = simulator()
    desc = op_description(program) or {}
    in_names = [str(d.get("name")) for d in desc.get("input_desc") or []]
    refs = set(in_names) & {str(d.get("name")) for d in desc.get("output_desc") or []}

    def poison(shape: tuple[int, ...], dtype: str) -> np.ndarray:
        return poisoned(shape, np.dtype(numpy_dtype(dtype)), seed)

    def launch(ins: list[Tensor | None], attrs: list[Any], outs: list[Tensor]) -> None:
        tensors = [None if t is None else to_sim(np.ascontiguousarray(t.data), t.dtype) for t in ins]
        buffers = [to_sim(np.ascontiguousarray(t.data), t.dtype) for t in outs]
        dtypes = [None if t is None else canonical_dtype(t.dtype) for t in ins] + [canonical_dtype(t.dtype)
                                                                                   for t in outs]
        plain = zero_attributes([list(a) if isinstance(a, tuple | list) else a for a in attrs], zeroed_attrs)
        try:
            result = run_loaded(program, chip, tensors, plain, outputs=buffers, budget=budget or sim.DEFAULT_BUDGET,
                                dtypes=dtypes)
        except SimError as exc:
            run.not_modelled = str(exc)
            raise Stopped from None
        found = [Finding.of(d) for d in result.findings]
        run.findings += found
        run.instructions += int(result.instructions)
        cycles.append(float(result.cycles) if result.cycles is not None else None)
        run.not_modelled = next((f.message for f in found if f.code in NOT_MODELLED_CODES or host_not_modelled(f)),
                                "")
        if run.not_modelled or not result.completed:
            run.completed = False
            raise Stopped
        for t, buf in zip(outs, buffers):
            write_back(t, from_sim(buf, t.dtype))
        for name, t, arr in zip(in_names, ins, tensors):
            if name in refs and t is not None and arr is not None:
                write_back(t, from_sim(arr, t.dtype))  # an input the op updates in place

    return launch, poison


def finish_run(run: Any, replay: Replay, result: Any, expected: dict[str, Any], seed: int,
               cycles: list[float | None]) -> str:
    """`run`'s outputs from what the replayed binding returns, by the expected outputs' order; '' when they are
    set, else why the result cannot be judged."""
    from bench.harness.stages.correctness import count_poison

    values = list(result) if isinstance(result, list | tuple) else [result]
    if not all(isinstance(v, Tensor) for v in values):
        return "the binding replay does not model a result that is not a tensor or a tuple of them"
    if not any(v.kernel for v in values):
        return (f"the binding's result does not come from its kernel's output (it launches {replay.own} and returns "
                "what ATen computes beside it): the kernel is not what passed on hardware")
    for name, v in zip(expected, values):
        arr = np.array(v.data, copy=True, order="C")
        run.outputs[name] = arr
        run.unwritten[name] = count_poison(arr, seed) if v.dtype != "bfloat16" else 0
    run.cycles = sum(c for c in cycles if c is not None) if cycles and None not in cycles else None
    return ""


def write_back(t: Tensor, values: np.ndarray) -> None:
    """The kernel's output into the binding's tensor (a view writes through to its base)."""
    if not t.data.flags.writeable:
        raise NotModelled("a kernel output that is a broadcast view (ATen would write overlapping memory)")
    t.data[...] = values.reshape(t.data.shape)
