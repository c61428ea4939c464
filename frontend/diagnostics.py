"""The one diagnostic record every stage produces (parser, verifier, simulator), and its renderers.

A diagnostic is plain data: the `llm` package reuses the same records as error-derived supervision,
so nothing here may hold a reference to an AST, an IR or a parser object.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Callable, Iterable


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True, slots=True)
class Span:
    """A source range: 1-based line and column, end column exclusive, in the user's original file."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    @staticmethod
    def point(file: str, line: int, col: int) -> "Span":
        return Span(file, line, col, line, col + 1)

    def cover(self, other: "Span") -> "Span":
        """The smallest span holding both (same file assumed; the first file wins otherwise)."""
        if other.file != self.file:
            return self
        start = min((self.line, self.col), (other.line, other.col))
        end = max((self.end_line, self.end_col), (other.end_line, other.end_col))
        return Span(self.file, start[0], start[1], end[0], end[1])

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class LazySpan:
    """A node's source range kept as offsets into the preprocessed text; mapped back to the original
    file (through includes and macros) only when someone reads a line or column. Most AST spans are
    never read, and mapping every one costs about a third of parse time."""

    __slots__ = ("start", "end", "_origin", "_span")

    def __init__(self, start: int, end: int, origin: Callable[[int], tuple[str, int, int]]) -> None:
        self.start = start
        self.end = end
        self._origin = origin
        self._span: Span | None = None

    def resolve(self) -> Span:
        if self._span is None:
            file, line, col = self._origin(self.start)
            end_file, end_line, end_col = self._origin(max(self.end - 1, self.start))
            end_col += 1
            if end_file != file or (end_line, end_col) <= (line, col):
                end_line, end_col = line, col + 1
            self._span = Span(file, line, col, end_line, end_col)
        return self._span

    def start_point(self) -> tuple[str, int, int]:
        """(file, line, col) of the start: what an IR location needs, without mapping the end as well."""
        span = self._span
        if span is not None:
            return span.file, span.line, span.col
        return self._origin(self.start)

    @property
    def file(self) -> str:
        return self.resolve().file

    @property
    def line(self) -> int:
        return self.resolve().line

    @property
    def col(self) -> int:
        return self.resolve().col

    @property
    def end_line(self) -> int:
        return self.resolve().end_line

    @property
    def end_col(self) -> int:
        return self.resolve().end_col

    def cover(self, other: "Span | LazySpan") -> "Span | LazySpan":
        if isinstance(other, LazySpan) and other._origin is self._origin:
            return LazySpan(min(self.start, other.start), max(self.end, other.end), self._origin)
        return self.resolve().cover(as_span(other))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Span, LazySpan)):
            return self.resolve() == as_span(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.resolve())

    def __str__(self) -> str:
        return str(self.resolve())

    def __repr__(self) -> str:
        return repr(self.resolve())


def as_span(span: "Span | LazySpan") -> Span:
    return span.resolve() if isinstance(span, LazySpan) else span


@dataclass(frozen=True, slots=True)
class Note:
    """A related location (`note:`) or a suggestion (`help:`) attached to a diagnostic."""

    message: str
    span: Span | None = None
    kind: str = "note"  # "note" or "help"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    span: Span | None
    notes: tuple[Note, ...] = field(default_factory=tuple)

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def to_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["severity"] = self.severity.value
        return data


def _resolved_notes(notes: tuple[Note, ...]) -> tuple[Note, ...]:
    return tuple(Note(n.message, as_span(n.span), n.kind) if isinstance(n.span, LazySpan) else n for n in notes)


def error(code: str, message: str, span: "Span | LazySpan | None", *notes: Note) -> Diagnostic:
    """An error record; AST spans (lazy) are resolved here so diagnostics are plain data."""
    return Diagnostic(code, Severity.ERROR, message, as_span(span) if span else None, _resolved_notes(notes))


def warning(code: str, message: str, span: "Span | LazySpan | None", *notes: Note) -> Diagnostic:
    return Diagnostic(code, Severity.WARNING, message, as_span(span) if span else None, _resolved_notes(notes))


# A function that returns the text of a source line (1-based), or None when unknown.
LineLookup = Callable[[str, int], "str | None"]


def format_page(code: str, name: str, header: str, summary: str, why: str, example: str, instead: str) -> str:
    """A diagnostic's page, as `ascendc-check rule CODE` prints it (ruff's layout)."""
    return "\n".join([
        f"{name} ({code})", "", header, "",
        "## What it does", summary, "",
        "## Why is this bad?", why, "",
        "## Example", "```cpp", example.strip("\n"), "```", "",
        "## Use instead", "```cpp", instead.strip("\n"), "```",
    ])  # fmt: skip


def _caret_lines(span: Span, lookup: LineLookup) -> list[str]:
    text = lookup(span.file, span.line)
    if text is None:
        return []
    text = text.rstrip("\n").expandtabs(1)
    width = max(1, (span.end_col - span.col) if span.end_line == span.line else len(text) - span.col + 1)
    gutter = f"{span.line:>5} | "
    return [gutter + text, " " * (len(gutter) - 2) + "| " + " " * (span.col - 1) + "^" + "~" * (width - 1)]


def render_text(diag: Diagnostic, lookup: LineLookup) -> str:
    """`file:line:col: severity: message [CODE]`, the source line with a caret, then notes."""
    where = f"{diag.span}: " if diag.span else ""
    lines = [f"{where}{diag.severity.value}: {diag.message} [{diag.code}]"]
    if diag.span:
        lines += _caret_lines(diag.span, lookup)
    for note in diag.notes:
        prefix = f"{note.span}: " if note.span else ""
        lines.append(f"{prefix}{note.kind}: {note.message}")
        if note.span:
            lines += _caret_lines(note.span, lookup)
    return "\n".join(lines)


def render_json(diags: Iterable[Diagnostic]) -> str:
    return json.dumps([d.to_dict() for d in diags], indent=2)


def sort_key(diag: Diagnostic) -> tuple[str, int, int, str]:
    if diag.span is None:
        return ("", 0, 0, diag.code)
    return (diag.span.file, diag.span.line, diag.span.col, diag.code)
