"""Host lowerings kept per process: a program's tiling and InferShape functions are lowered once and every
evaluation (`evaluate_program_tiling`, `evaluate_program_infer_shape`) interprets the kept module; a tiling run
on inputs equal to an earlier one's gives a copy of that run's result (`kept_result`).

The harness runs the host tiling at every launch: each case of an answer, each input draw of a case. Lowering
it again each time cost about 1.5 s a launch on this machine for NPUKernelBench ForeachAddcdivList's host (its
18 cases x 2 draws: most of a small case's time; bench/README.md, Level 2). Lowering is a function of the
program alone (default options), and the interpreter never changes the module it runs, so the kept module is
the one a fresh lowering would build. The key holds the program's identity and the identities of its units'
syntax trees, so a program whose units were replaced is lowered again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

# one answer's launches come one after another; a couple of programs (an answer and its task's reference
# solution, the baseline) are in use at once
_KEPT = 4
_kept: OrderedDict[tuple[Any, ...], tuple[Any, Any]] = OrderedDict()


def _key(program: Any, kind: str) -> tuple[Any, ...]:
    return (id(program), kind, tuple(id(getattr(u, "ast", None)) for u in getattr(program, "units", ())))


def kept_lowering(program: Any, kind: str, lower: Callable[[Any], T]) -> T:
    """`lower(program)`, from the kept result when `program` (with the same units) was lowered for `kind`
    before in this process. The result is shared: callers copy what they change."""
    key = _key(program, kind)
    entry = _kept.get(key)
    if entry is None or entry[0] is not program:  # (the program is held, so its id is not another's)
        entry = (program, lower(program))
        _kept[key] = entry
        while len(_kept) > _KEPT:
            _kept.popitem(last=False)
    _kept.move_to_end(key)
    return entry[1]  # type: ignore[no-any-return]


def forget() -> None:
    """Drop every kept lowering and result (tests; a long-lived process keeps only _KEPT and _RESULTS)."""
    _kept.clear()
    _results.clear()


# -- the tiling's results, per program and inputs ---------------------------------------------------------------

# An answer's input draws of one case give the tiling the same shapes, dtypes and attributes (the values of
# only the small tensors it may read differ): the second draw's run gave the first's result again, ~1.5 s of
# interpreting for ForeachAddcdivList's big cases. Results are small (numbers, the struct's fields).
_RESULTS = 64
_results: OrderedDict[tuple[Any, ...], tuple[Any, Any]] = OrderedDict()


def frozen(value: Any) -> Any:
    """`value` (tiling inputs: dataclasses, lists, dicts, numbers, strings) as a hashable key that tells apart
    any two values that differ; None where something else is met (then nothing is kept)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return (type(value).__name__, repr(value) if isinstance(value, float) else value)  # (-0.0, nan)
    if isinstance(value, (list, tuple)):
        items = [frozen(v) for v in value]
        return None if any(i is None for i in items) else (type(value).__name__, tuple(items))
    if isinstance(value, dict):
        pairs = [(frozen(k), frozen(v)) for k, v in value.items()]
        return None if any(k is None or v is None for k, v in pairs) else ("dict", tuple(pairs))
    fields = getattr(value, "__dataclass_fields__", None)
    if fields is not None:
        return frozen({"@": type(value).__qualname__, **{name: getattr(value, name) for name in fields}})
    return None


def kept_result(program: Any, kind: str, inputs: Any, run: Callable[[], T], copy: Callable[[T], T]) -> T:
    """`run()` for `program`'s `kind` function on `inputs`, or a copy (`copy`) of the result kept for the same
    program (with the same units) and equal inputs."""
    key_inputs = frozen(inputs)
    if key_inputs is None:
        return run()
    key = (*_key(program, kind), key_inputs)
    entry = _results.get(key)
    if entry is None or entry[0] is not program:
        entry = (program, run())
        _results[key] = entry
        while len(_results) > _RESULTS:
            _results.popitem(last=False)
    _results.move_to_end(key)
    return copy(entry[1])
