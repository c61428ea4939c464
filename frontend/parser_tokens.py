"""The parser's identifier post-lexer: names tagged as types, templates or variables from the pre-scan, with
look-ahead for template argument lists, and the fast path's token.
"""

from __future__ import annotations

import re
from collections import deque
from typing import Any, Iterator

from lark import Token

from frontend.parser_keywords import KEYWORDS
from frontend.parser_prescan import ScanResult, after_scope
from frontend.vendor import KNOWN_TYPE_TEMPLATES, KNOWN_TYPES


class IdentifierRetagger:
    """Lark post-lexer: maps IDENTIFIER tokens to keywords, TYPE_NAME, TYPE_TEMPLATE and TEMPLATE_NAME."""

    always_accept = ("IDENTIFIER",)

    def __init__(self) -> None:
        self.scan = ScanResult(set(KNOWN_TYPES), set(KNOWN_TYPE_TEMPLATES), set())
        # Per-offset tags forced by the parser's retry after an error (see Parser.parse).
        self.overrides: dict[int, str] = {}
        # The last few identifier-like tokens handed to the parser: (offset, tag).
        self.recent_names: deque[tuple[int, str]] = deque(maxlen=3)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        scan = self.scan
        types, type_templates, starts = scan.types, scan.type_templates, scan.template_starts
        closers = scan.template_closers
        overrides = self.overrides
        attribute_macros = scan.attribute_macros
        trailing = scan.trailing_types
        member_types = scan.member_types
        params = scan.template_params
        source = scan.text

        def text_at(offset: int) -> str:
            while offset < len(source) and source[offset] in " \t\r\n":
                offset += 1
            return source[offset : offset + 1]

        previous = ""
        recent = self.recent_names
        recent.clear()
        for tok in stream:
            if tok.type in SPLITTABLE and tok.start_pos in closers:
                # `A<B<T>>`: LALR state merging can let the lexer take `>>` where `>` closes a list.
                yield from split_closer(tok, closers)
                previous = "GT"
                continue
            if tok.type == "IDENTIFIER":
                value = tok.value
                keyword = KEYWORDS.get(value)
                if keyword is not None:
                    tok.type = keyword
                elif tok.start_pos in starts:
                    is_member = previous in ("DOT", "ARROW")
                    tok.type = "TYPE_TEMPLATE" if value in type_templates and not is_member else "TEMPLATE_NAME"
                elif value in types and previous not in NOT_BEFORE_TYPE and not (
                        value in params and after_scope(source, tok.start_pos)):
                    tok.type = "TYPE_NAME"
                elif member_types and value in member_types and after_scope(source, tok.start_pos):
                    tok.type = "TYPE_NAME"
                elif value in attribute_macros:
                    tok.type = "MIX" if text_at(tok.end_pos) == "(" else "FN_SPECIFIER"
                if trailing and tok.start_pos in trailing:
                    tok.type = trailing[tok.start_pos]
                if overrides and tok.start_pos in overrides:
                    tok.type = overrides[tok.start_pos]
                if tok.type in FLIPS:
                    recent.append((tok.start_pos, tok.type))
            previous = tok.type
            yield tok


# Tokens after which a name the scan knows as a type is not one: a member (`x.Type`), or the name a
# declaration declares (`void SetFmap(`, `int DataType`; the class beside it may have `using SetFmap = ...`).
NOT_BEFORE_TYPE = frozenset({"DOT", "ARROW", "VOID", "BUILTIN_TYPE"})

# The other reading of a name, tried when the first one leads straight into a syntax error.
FLIPS = {"TYPE_NAME": "IDENTIFIER", "IDENTIFIER": "TYPE_NAME", "TYPE_TEMPLATE": "TEMPLATE_NAME",
          "TEMPLATE_NAME": "TYPE_TEMPLATE"}
MAX_RETAG_RETRIES = 64

SPLITTABLE = frozenset({"SHR", "LAUNCH_CLOSE", "GE", "COMPOUND_ASSIGN"})
_REST_TYPES = {">": "GT", ">>": "SHR", "=": "ASSIGN", ">=": "GE", ">>=": "COMPOUND_ASSIGN"}


def split_closer(tok: Token, closers: set[int]) -> Iterator[Token]:
    """Yield `>` tokens for each closing bracket at the front of `tok`, then the rest as one token."""
    value, pos, col = tok.value, tok.start_pos, tok.column
    i = 0
    while i < len(value) and value[i] == ">" and (pos + i) in closers:
        yield Token("GT", ">", pos + i, tok.line, col + i, tok.line, col + i + 1, pos + i + 1)
        i += 1
    rest = value[i:]
    if rest:
        yield Token(_REST_TYPES.get(rest, tok.type), rest, pos + i, tok.line, col + i, tok.end_line, tok.end_column,
                    tok.end_pos)


class FastToken(Token):
    """A token of the fast path. It keeps its offsets and the text, and works its line and column out
    only when asked: the AST builder reads offsets alone (spans are offsets until resolved), and
    counting lines for every token costs about a twentieth of a parse."""

    __slots__ = ("text",)

    def _line_at(self, offset: int) -> int:
        return self.text.count("\n", 0, offset) + 1

    def _column_at(self, offset: int) -> int:
        return offset - self.text.rfind("\n", 0, offset)

    @property  # type: ignore[override]
    def line(self) -> int:
        return self._line_at(self.start_pos)

    @property  # type: ignore[override]
    def column(self) -> int:
        return self._column_at(self.start_pos)

    @property  # type: ignore[override]
    def end_line(self) -> int:
        return self._line_at(self.end_pos)

    @property  # type: ignore[override]
    def end_column(self) -> int:
        return self._column_at(self.end_pos)

    def __reduce__(self) -> Any:  # copied or pickled, it is an ordinary Token (these properties have no setter)
        return (Token, (self.type, self.value, self.start_pos, self.line, self.column, self.end_line,
                        self.end_column, self.end_pos))


BLANKS = re.compile(r"[ \t\r\n]*")  # what IdentifierRetagger's text_at skips
