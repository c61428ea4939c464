"""Host lowerings kept per process: a program's tiling and InferShape functions are lowered once and every
evaluation (`evaluate_program_tiling`, `evaluate_program_infer_shape`) interprets the kept module.

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
    """Drop every kept lowering (tests; a long-lived process that loads many programs keeps only _KEPT)."""
    _kept.clear()
