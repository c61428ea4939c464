"""Values the host lowering left out, as the host evaluator holds them.

When the host lowering cannot lower a statement it reports a gap and makes the variables the statement may have
written unknown: it stores `ascendc.undef` into them (lower_stmts._forget_effects). The evaluator holds such a value
as a LeftOut, which may be stored, loaded, passed and returned like any other; the run stops, with where the value
was left out, only when something needs it: arithmetic, a comparison, a branch, a conversion, a tiling field set
from it. A tiling whose left-out values are never used (a member a skipped log statement would have set) runs to
its end; before, the first `ascendc.undef` stopped every such run ('Could not find interpretation function').
"""

from __future__ import annotations

from typing import Any, NoReturn

from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation

from ascendir.dialects import ascendc as asc
from ascendir.dialects import host as hd
from ascendir.host_eval_types import HostEvalError


def _origin(op: Operation) -> str:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f" at {loc.filename.data}:{loc.line.data}:{loc.column.data}"
    return ""


class LeftOut:
    """A value a statement the host lowering left out may have written; any use of it stops the run."""

    __slots__ = ("origin",)

    def __init__(self, origin: str) -> None:
        self.origin = origin

    def __repr__(self) -> str:
        return f"<left out{self.origin}>"

    def described(self) -> str:
        return f"a value the host lowering left out (a statement it could not lower{self.origin}, reported as a gap)"

    def _used(self, *_: Any) -> NoReturn:
        raise HostEvalError(f"{self.described()} is used")

    __hash__ = object.__hash__
    __bool__ = __int__ = __index__ = __float__ = __neg__ = __pos__ = __abs__ = __invert__ = _used
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _used
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _used
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = _used
    __lshift__ = __rlshift__ = __rshift__ = __rrshift__ = __pow__ = __rpow__ = _used
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _used  # type: ignore[assignment]


@register_impls
class LeftOutFunctions(InterpreterFunctions):
    """`ascendc.undef` in host code: a LeftOut."""

    @impl(asc.UndefOp)
    def run_undef(self, interpreter: Interpreter, op: asc.UndefOp, args: PythonValues) -> PythonValues:
        return (LeftOut(_origin(op)),)


def store(array: Any, indices: tuple[int, ...], value: Any) -> bool:
    """Records a LeftOut stored into `array` (a typed buffer cannot hold one); True when `value` was one. Any
    other value stored there replaces it."""
    held: dict[tuple[int, ...], LeftOut] | None = getattr(array, "_left_out", None)
    if isinstance(value, LeftOut):
        if held is None:
            held = array._left_out = {}
        held[indices] = value
        return True
    if held:
        held.pop(indices, None)
    return False


def load(array: Any, indices: tuple[int, ...]) -> LeftOut | None:
    """The LeftOut stored at `indices` of `array`, if one is."""
    held: dict[tuple[int, ...], LeftOut] | None = getattr(array, "_left_out", None)
    return held.get(indices) if held else None


@register_impls
class ReachedFunctions(InterpreterFunctions):
    """`host.left_out`: nothing to run (the evaluator's step counter notes that the run reached it)."""

    @impl(hd.LeftOutOp)
    def run_left_out(self, interpreter: Interpreter, op: hd.LeftOutOp, args: PythonValues) -> PythonValues:
        return ()


def _span_of(at: str) -> tuple[str, int, int, int, int] | None:
    parts = at.rsplit(":", 4)
    if len(parts) != 5 or not all(p.isdigit() for p in parts[1:]):
        return None
    return parts[0], int(parts[1]), int(parts[2]), int(parts[3]), int(parts[4])


def span_text(span: Any) -> str:
    """A statement's span as host.left_out's `at`."""
    return f"{span.file}:{span.line}:{span.col}:{span.end_line}:{span.end_col}"


def reached_gaps(diagnostics: list[Any], module: Any, reached: set[str]) -> list[Any]:
    """The lowering's gaps a run may have depended on: all of them, less those inside a statement the lowering
    left out (a host.left_out in `module`) that the run never reached (`reached`: the `at` of those it ran). A
    gap the lowering reported elsewhere (a condition, a declaration) stays."""
    spans: dict[str, bool] = {}
    for op in module.walk():
        if isinstance(op, hd.LeftOutOp):
            spans[op.at.data] = spans.get(op.at.data, False) or op.at.data in reached
    statements = [(s, hit) for at, hit in spans.items() if (s := _span_of(at)) is not None]
    kept = []
    for d in diagnostics:
        span = getattr(d, "span", None)
        inside = [hit for (f, l0, c0, l1, c1), hit in statements if span is not None and span.file == f
                  and (l0, c0) <= (span.line, span.col) and (span.end_line, span.end_col) <= (l1, c1)]
        if not inside or any(inside):
            kept.append(d)
    return kept
