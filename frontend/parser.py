"""Preprocessed AscendC text in, AST out: Lark LALR with the contextual lexer and an identifier post-lexer.

The grammar (grammar.lark) cannot tell a type from a variable or `Foo<T>(x)` from `a < b > (x)` by
itself; C++ compilers know because they have read the declarations. We approximate that with a
pre-scan of the text (declared class/struct/enum/alias/typedef/template-parameter names, `X y;`
shapes, the vendor's known types) and a balanced look-ahead for template argument lists, and retag
identifiers before the parser sees them. The AST is built during parsing (Lark's inline transformer),
never as an intermediate Lark tree.

Lark builds the grammar's tables, lexers and callbacks; a text is then parsed by _FastPath, one loop
that does what Lark's contextual lexer, the retagger and Lark's LALR driver do, on Lark's own tables
but without the per-token generality of Lark's code. Only when that loop meets a syntax error does
Lark itself parse the text, so errors are reported and recovered from exactly as before. The loop and
the pre-scan's regexes keep the frontend well above 10,000 lines/s (bench/perf/frontend.py).

Syntax errors are diagnostics [ASC001]. After an error the failing statement or declaration is
blanked out (offsets stay exact) and the text is parsed again, so one file yields every independent
error up to a limit, and the AST of everything else.

This module keeps the Parser (its retry loop), the AST builder's state and spans, and get_parser. The
rest lives by purpose in:

- parser_keywords.py: the keyword table; parser_tokens.py: the identifier post-lexer (IdentifierRetagger);
- parser_prescan.py: the pre-scan of declared names (prescan, ScanResult);
- parser_parts.py: the builder's intermediate values and token helpers;
- parser_decls.py (DeclarationBuilder), parser_functions.py (FunctionBuilder), parser_types.py (TypeBuilder),
  parser_stmts.py (StatementBuilder), parser_exprs.py (ExpressionBuilder): AstBuilder's rule callbacks, which
  it inherits;
- parser_fastpath.py: the one loop for lexer, retagger and LALR (FastPath);
- parser_lark.py: building Lark and its pickled snapshot;
- parser_readings.py: the other reading of a name after an error (retag fallback, AlikeReadings);
- parser_recovery.py: syntax error messages and the region blanked after one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from lark import Token
from lark.exceptions import UnexpectedInput, UnexpectedToken

from frontend import ast as A
from frontend.diagnostics import Diagnostic, LazySpan, Span, error
from frontend.parser_decls import DeclarationBuilder
from frontend.parser_exprs import ExpressionBuilder
from frontend.parser_fastpath import FastPath, FastPathUnsupported
from frontend.parser_functions import FunctionBuilder
from frontend.parser_lark import load_lark
from frontend.parser_parts import OriginFn, nodes_of
from frontend.parser_prescan import prescan as prescan
from frontend.parser_readings import AlikeReadings, error_offset, retag_fallback, same_statement
from frontend.parser_recovery import SYNTAX_ERROR as SYNTAX_ERROR, describe_error, missing_argument
from frontend.parser_object_macros import blanked_object_macro
from frontend.parser_stmts import StatementBuilder
from frontend.parser_tokens import (
    FLIPS,
    MAX_RETAG_RETRIES,
    FastToken,
    IdentifierRetagger as IdentifierRetagger,
)
from frontend.parser_types import TypeBuilder

# Defined in the modules this one was split into; other modules import them from here.
from frontend.parser_keywords import KEYWORDS as KEYWORDS
from frontend.parser_lark import _SNAPSHOT_NAME as _SNAPSHOT_NAME
from frontend.parser_prescan import (
    ScanResult as ScanResult,
    _ATTRIBUTE_CALL_MACRO_GUARD as _ATTRIBUTE_CALL_MACRO_GUARD,
    _ATTRIBUTE_CALL_MACRO_RE as _ATTRIBUTE_CALL_MACRO_RE,
    _ATTRIBUTE_MACRO_GUARD as _ATTRIBUTE_MACRO_GUARD,
    _ATTRIBUTE_MACRO_RE as _ATTRIBUTE_MACRO_RE,
    _DECLARED_TYPE_RES as _DECLARED_TYPE_RES,
    _DECL_SHAPE_RE as _DECL_SHAPE_RE,
    _DTYPE_MACRO_RE as _DTYPE_MACRO_RE,
    _NAME_BEFORE_RE as _NAME_BEFORE_RE,
    _TYPEDEF_BLOCK_RE as _TYPEDEF_BLOCK_RE,
    _name_before as _name_before,
)
from frontend.parser_readings import AlikeReadings as _AlikeReadings
from frontend.parser_tokens import FastToken as _FastToken


MAX_ERRORS_PER_FILE = 20


class AstBuilder(DeclarationBuilder, FunctionBuilder, TypeBuilder, StatementBuilder, ExpressionBuilder):
    """Lark inline-transformer callbacks: one method per grammar rule or alias."""

    def __init__(self) -> None:
        self.origin: OriginFn = lambda offset: ("<input>", 1, offset + 1)
        self.file = "<input>"
        # What lazy spans resolve through; Parser.parse gives each parse a fresh memoised one.
        self._origin: OriginFn = _memoized(self.origin)
        # Ends of the commas that no argument follows in a call that is not a macro's (see call_args).
        self.missing_args: list[int] = []
        self._last_missing: tuple[list[Any], list[int]] | None = None

    # -- spans
    def _first(self, item: Any) -> int | None:
        if isinstance(item, Token):
            return item.start_pos
        span = getattr(item, "span", None)
        if span is not None:
            return span.start if isinstance(span, LazySpan) else None
        if isinstance(item, list):
            for sub in item:
                found = self._first(sub)
                if found is not None:
                    return found
        return None

    def _last(self, item: Any) -> int | None:
        if isinstance(item, Token):
            return item.end_pos
        span = getattr(item, "span", None)
        if span is not None:
            return span.end if isinstance(span, LazySpan) else None
        if isinstance(item, list):
            for sub in reversed(item):
                found = self._last(sub)
                if found is not None:
                    return found
        return None

    def span(self, children: Sequence[Any]) -> LazySpan:
        # _first/_last of the children, with the common cases (a token, a node with a lazy span, a
        # placeholder None) tested first: this runs for nearly every node the parser builds.
        if len(children) == 1:
            # About half the calls. A lone node's span object is shared rather than copied: the range is
            # the same, and spans are never changed in place (a node gets a new span object instead).
            c = children[0]
            if c.__class__ is FastToken:
                return LazySpan(c.start_pos, c.end_pos, self._origin)
            sp = getattr(c, "span", None)
            if sp.__class__ is LazySpan:
                return sp
        for c in children:
            cls = c.__class__
            if cls is FastToken or cls is Token:
                start = c.start_pos
                if start is not None:
                    break
                continue
            if c is None:
                continue
            sp = getattr(c, "span", None)
            if sp.__class__ is LazySpan:
                start = sp.start
                break
            if sp is None:
                start = self._first(c)
                if start is not None:
                    break
            # else a resolved Span: _first says None
        else:
            return LazySpan(0, 0, self._origin)  # nothing with a position
        end = None
        for c in reversed(children):
            cls = c.__class__
            if cls is FastToken or cls is Token:
                end = c.end_pos
                if end is not None:
                    break
                continue
            if c is None:
                continue
            sp = getattr(c, "span", None)
            if sp.__class__ is LazySpan:
                end = sp.end
                break
            if sp is None:
                end = self._last(c)
                if end is not None:
                    break
        if end is None or end < start:
            end = start + 1
        return LazySpan(start, end, self._origin)

    # -- top level
    def start(self, c: list[Any]) -> A.TranslationUnit:
        decls = nodes_of(c)
        return A.TranslationUnit(self.span(c) if decls else Span(self.file, 1, 1, 1, 1), self.file, decls)


class _Callbacks(AstBuilder):
    """Lark looks callbacks up by rule name; `lambda` is a Python keyword, hence the alias."""

    def __getattr__(self, name: str) -> Any:
        if name == "lambda":
            return self.lambda_
        raise AttributeError(name)


@dataclass
class ParseResult:
    unit: A.TranslationUnit
    diagnostics: list[Diagnostic]


class Parser:
    """A reusable parser (building the LALR tables is the expensive part: do it once per process)."""

    def __init__(self) -> None:
        self._retagger = IdentifierRetagger()
        self._builder = _Callbacks()
        self._lark = load_lark(self._builder, self._retagger)
        try:
            self._fast: FastPath | None = FastPath(self._lark, self._retagger)
        except Exception:  # noqa: BLE001 - _Unsupported, or a Lark whose internals differ: Lark alone parses
            self._fast = None

    def parse(self, text: str, file: str, origin: OriginFn | None = None) -> ParseResult:
        """Parse preprocessed `text`; `origin(offset)` maps an offset back to (file, line, col)."""
        if origin is None:
            origin = _line_origin(text, file)
        self._builder.origin = origin
        self._builder.file = file
        # Lazy spans call back into this parse's origin map; nested nodes share first and last tokens,
        # so each offset is mapped once per parse.
        self._builder._origin = _memoized(origin)
        builder = self._builder
        diags: list[Diagnostic] = []
        current = text
        retagger = self._retagger
        retagger.overrides = {}
        tried: set[int] = set()
        scanned: str | None = None
        pending: tuple[int, int, UnexpectedInput] | None = None
        attempts = 0
        logic_words = False
        alike = AlikeReadings(retagger)
        while attempts <= MAX_ERRORS_PER_FILE + MAX_RETAG_RETRIES:
            attempts += 1
            if scanned is not current:
                retagger.scan = prescan(current, logic_words)
                scanned = current
            unit = None
            if self._fast is not None:
                builder.missing_args, builder._last_missing = [], None
                try:
                    unit = self._fast.run(current)
                except FastPathUnsupported:
                    self._fast = None
                except Exception:  # noqa: BLE001, S110 - _Bail or any other: Lark parses the text and reports
                    pass
            try:
                if unit is None:
                    builder.missing_args, builder._last_missing = [], None
                    unit = self._lark.parse(current, on_error=retag_fallback)
                if not builder.missing_args:
                    return ParseResult(unit, diags)
                # `f(a, , b)`: the grammar takes empty arguments for macros' sake; in a call of a function they
                # are a syntax error, reported and recovered from as the parser's own are.
                diag, cut = missing_argument(min(builder.missing_args), current, origin)
                diags.append(diag)
                if len(diags) >= MAX_ERRORS_PER_FILE:
                    break
                start, end, replacement = cut
                current = current[:start] + replacement + current[end:]
                continue
            except UnexpectedInput as exc:
                if not logic_words and (" and " in current or " or " in current):
                    # `a < b or c > d` may have been read as a template argument list: scan again, minding
                    # `and` and `or` as the scan minds `&&` and `||`, and parse again.
                    logic_words = True
                    scanned = None
                    continue
                error_pos = error_offset(exc)
                blanked = blanked_object_macro(current, error_pos) if pending is None else None
                if blanked is not None:
                    # `END_TUNING_TILING_DEF` alone before `DECLARE_SCHEMA(...)`: parser_object_macros.py
                    current = blanked
                    continue
                if pending is not None:
                    flipped_at, before, before_exc = pending
                    pending = None
                    if error_pos <= before:
                        # The other reading got no further: undo it and report the first error.
                        del retagger.overrides[flipped_at]
                        exc = before_exc
                    elif alike.spread(current, flipped_at, error_pos):
                        continue
                elif alike.withdraw(current, error_pos):
                    continue
                candidates = [n for n in reversed(retagger.recent_names)
                              if n[0] not in tried and same_statement(current, n[0], error_pos)]
                if isinstance(exc, UnexpectedToken) and candidates and len(tried) < MAX_RETAG_RETRIES:
                    # Read a name just before the error the other way (type <-> variable) and try again.
                    name_pos, tag = candidates[0]
                    tried.add(name_pos)
                    retagger.overrides[name_pos] = FLIPS[tag]
                    pending = (name_pos, error_pos, exc)
                    continue
                diag, cut = describe_error(exc, current, origin, self._retagger.scan.types)
                if diag is not None:
                    diags.append(diag)
                if cut is None or len(diags) >= MAX_ERRORS_PER_FILE:
                    break
                start, end, replacement = cut
                current = current[:start] + replacement + current[end:]
            except RecursionError:
                diags.append(error(SYNTAX_ERROR, "expression nested too deeply", Span(file, 1, 1, 1, 2)))
                break
        return ParseResult(A.TranslationUnit(Span(file, 1, 1, 1, 1), file, []), diags)


def _memoized(origin: OriginFn) -> OriginFn:
    memo: dict[int, tuple[str, int, int]] = {}

    def lookup(offset: int) -> tuple[str, int, int]:
        hit = memo.get(offset)
        if hit is None:
            hit = memo[offset] = origin(offset)
        return hit

    return lookup


def _line_origin(text: str, file: str) -> OriginFn:
    import bisect

    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def origin(offset: int) -> tuple[str, int, int]:
        line = bisect.bisect_right(starts, offset)
        return (file, line, offset - starts[line - 1] + 1)

    return origin


_PARSER: Parser | None = None


def get_parser() -> Parser:
    global _PARSER
    if _PARSER is None:
        _PARSER = Parser()
    return _PARSER
