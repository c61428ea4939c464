"""The preprocessor's data: its result (PreprocessResult: text, diagnostics, macros, the origin map), Origin
and Macro, and the per-file state of a run (sources, conditional stack, tokens).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from frontend.diagnostics import Diagnostic, Span
from frontend.preprocess_tokens import NEWLINE_RE, Tok


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a character of the output came from, in the original file (1-based line and column)."""

    file: str
    line: int
    col: int
    macro: str | None = None  # outermost macro whose expansion produced the character


@dataclass(frozen=True, slots=True, eq=False)
class Macro:
    """A macro definition. `params` is None for object-like macros; a variadic `...` is `__VA_ARGS__`."""

    name: str
    params: tuple[str, ...] | None
    variadic: bool
    body: str  # the replacement list as written (whitespace runs collapsed to one space)
    origin: Origin | None  # the macro name in its `#define`; None when predefined or given by `defines`
    _tokens: tuple[Tok, ...] = field(default=(), repr=False)
    _pidx: tuple[int, ...] = field(default=(), repr=False)  # parameter index per body token, -1 if none
    _vaopt: bool = field(default=False, repr=False)

    @property
    def function_like(self) -> bool:
        return self.params is not None

    def same_definition(self, other: Macro) -> bool:
        """C's rule for a benign redefinition: same parameters, same tokens, same whitespace separation."""
        if self.params != other.params or self.variadic != other.variadic:
            return False
        if len(self._tokens) != len(other._tokens):
            return False
        for i, (a, b) in enumerate(zip(self._tokens, other._tokens)):
            if a.text != b.text or (i and bool(a.ws) != bool(b.ws)):
                return False
        return True


# Segment kinds of the offset map.
LINES = 0  # output line k of the segment is original line `line + k`; columns linear within a line
LINEAR = 1  # columns advance with offsets on one original line
POINT = 2  # every character maps to one place (a macro invocation)


@dataclass
class PreprocessResult:
    text: str
    diagnostics: list[Diagnostic]
    includes: list[str]
    macros: dict[str, Macro]
    # the quoted includes that could not be found, as written (`#include "foo_tiling.h"` -> "foo_tiling.h")
    missing_includes: list[str]
    suppressions: dict[tuple[str, int], frozenset[str]]
    # the vendor and system headers included, as written, which are known and not read (`lib/matmul_intf.h`)
    vendor_includes: list[str] = field(default_factory=list)
    _seg_starts: list[int] = field(default_factory=list, repr=False)
    _seg_info: list[tuple[str, int, int, int, str | None]] = field(default_factory=list, repr=False)
    _files: list[str] = field(default_factory=list, repr=False)
    _line_starts: list[int] | None = field(default=None, repr=False)
    _seg_line0: list[int] = field(default_factory=list, repr=False)

    def origin(self, offset: int) -> Origin:
        """Origin of output offset `offset` (clamped to 0..len(text)); O(log n)."""
        if offset < 0:
            offset = 0
        elif offset > len(self.text):
            offset = len(self.text)
        k = bisect_right(self._seg_starts, offset) - 1
        if k < 0:
            return Origin(self._files[0] if self._files else "<input>", 1, offset + 1)
        name, line, col, kind, macro = self._seg_info[k]
        if kind == POINT:
            return Origin(name, line, col, macro)
        if kind == LINEAR:
            return Origin(name, line, col + offset - self._seg_starts[k], macro)
        starts = self._line_starts
        if starts is None:
            starts = self._line_starts = [0] + [m.end() for m in NEWLINE_RE.finditer(self.text)]
            # Output line index where each segment starts; LINES segments count lines from there.
            self._seg_line0 = [bisect_right(starts, s) - 1 for s in self._seg_starts]
        here = bisect_right(starts, offset) - 1
        return Origin(name, line + here - self._seg_line0[k], offset - starts[here] + 1, macro)


class PPError(Exception):
    """A problem inside one directive or expansion; becomes a diagnostic by the caller."""


class Budget(Exception):
    """Expansion produced too many tokens."""


class Source:
    """A file after splicing and comment removal: logical lines and how they map to physical ones."""

    __slots__ = ("first_orig", "lines", "name", "pieces", "unterm")

    def __init__(self, name: str) -> None:
        self.name = name
        self.lines: list[str] = []
        # first_orig[i]: physical line of logical line i; one sentinel entry at the end.
        self.first_orig: Sequence[int] = range(1, 2)
        # Logical lines made of spliced physical lines: (logical start columns, (line, col) of each piece).
        self.pieces: dict[int, tuple[list[int], list[tuple[int, int]]]] = {}
        # Unterminated string/char literals: logical line -> (0-based column, literal kind).
        self.unterm: dict[int, tuple[int, str]] = {}


class Cond:
    __slots__ = ("active", "done", "kind", "parent", "seen_else", "span")

    def __init__(self, active: bool, done: bool, parent: bool, span: Span, kind: str) -> None:
        self.active = active
        self.done = done  # some branch of this group was taken (or the group is inside a skipped one)
        self.seen_else = False
        self.parent = parent
        self.span = span
        self.kind = kind


class File:
    """One inclusion of a source: its conditional stack and the current chunk's line range."""

    __slots__ = ("active", "chunk_last", "chunk_tok_line", "cond", "fidx", "src")

    def __init__(self, src: Source, fidx: int) -> None:
        self.src = src
        self.fidx = fidx
        self.cond: list[Cond] = []
        self.active = True
        self.chunk_last = 0
        self.chunk_tok_line = 0
