"""Syntax errors [ASC001]: the message for an unexpected token or end of input, and the region (a statement,
a declaration) blanked so the text can be parsed again for the next error.
"""

from __future__ import annotations

import re

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from frontend.diagnostics import Diagnostic, Note, Span, error
from frontend.parser_keywords import KEYWORDS
from frontend.parser_parts import OriginFn
from frontend.parser_tokens import BLANKS


SYNTAX_ERROR = "ASC001"


def missing_argument(comma_end: int, text: str, origin: OriginFn) -> tuple[Diagnostic, tuple[int, int, str]]:
    """The error for a call argument missing after the comma that ends at `comma_end` (or before the
    `;` there), and the cut that blanks its statement."""
    at = BLANKS.match(text, comma_end).end()
    what = f"'{text[at]}'" if at < len(text) else "end of input"
    cut = _recovery_region(text, at)
    assert cut is not None
    if text[at : at + 1] == ";":  # `g(a, ;);`: the statement goes on after the argument's `;`
        rest = _recovery_region(text, at + 1)
        if rest is not None:
            cut = (cut[0], rest[1], _blank(text[cut[0] : rest[1]]))
    return error(SYNTAX_ERROR, f"expected expression before {what}", _span_at(origin, at)), cut


def _blank(segment: str) -> str:
    return "".join(ch if ch == "\n" else " " for ch in segment)


_TOKEN_NAMES = {
    "SEMI": "';'", "RPAR": "')'", "LPAR": "'('", "RBRACE": "'}'", "LBRACE": "'{'", "RSQB": "']'", "LSQB": "'['",
    "COMMA": "','", "COLON": "':'", "GT": "'>'", "LT": "'<'", "ASSIGN": "'='", "__ANON_2": "'::'",
}
_EXPR_END = frozenset({"IDENTIFIER", "INT", "FLOAT", "STRING", "CHAR", "RPAR", "RSQB", "BOOL", "NULLPTR", "THIS",
                       "GT", "INC", "DEC", "TYPE_NAME"})


def _token_desc(tok: Token) -> str:
    if tok.type == "$END":
        return "end of input"
    if tok.type in ("IDENTIFIER", "TYPE_NAME", "TYPE_TEMPLATE", "TEMPLATE_NAME"):
        return f"identifier '{tok.value}'"
    return f"'{tok.value}'"


def _previous_token(text: str, pos: int) -> str:
    i = pos - 1
    while i >= 0 and text[i].isspace():
        i -= 1
    if i < 0:
        return ""
    if text[i].isalnum() or text[i] == "_":
        j = i
        while j >= 0 and (text[j].isalnum() or text[j] == "_"):
            j -= 1
        return text[j + 1 : i + 1]
    return text[i]


def _span_at(origin: OriginFn, pos: int, length: int = 1) -> Span:
    file, line, col = origin(pos)
    return Span(file, line, col, line, col + max(1, length))


def _unclosed_brace(text: str, upto: int) -> int | None:
    """Offset of the innermost `{` still open at `upto` (strings skipped), for 'to match this' notes."""
    stack: list[int] = []
    i = 0
    while i < upto:
        c = text[i]
        if c in "\"'":
            q, i = c, i + 1
            while i < upto and text[i] != q and text[i] != "\n":
                i += 2 if text[i] == "\\" else 1
        elif c == "{":
            stack.append(i)
        elif c == "}" and stack:
            stack.pop()
        i += 1
    return stack[-1] if stack else None


Edit = tuple[int, int, str]


def describe_error(exc: UnexpectedInput, text: str, origin: OriginFn,
              types: frozenset[str] | set[str] = frozenset()) -> tuple[Diagnostic | None, Edit | None]:
    """A compiler-style message for a Lark error, and the edit (same length) to make before trying again."""
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream
        ch = text[pos] if pos < len(text) else ""
        if ch in "\"'":
            msg = "missing terminating " + ('"' if ch == '"' else "'") + " character"
        else:
            msg = f"invalid character {ch!r} in source"
        return error(SYNTAX_ERROR, msg, _span_at(origin, pos)), _recovery_region(text, pos)
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        pos = len(text.rstrip())
        brace = _unclosed_brace(text, len(text))
        if brace is not None:
            note = Note("to match this '{'", _span_at(origin, brace))
            return error(SYNTAX_ERROR, "expected '}' at end of input", _span_at(origin, max(pos - 1, 0)), note), None
        expected = getattr(exc, "expected", set()) or set()
        want = "';'" if "SEMI" in expected else "declaration"
        return error(SYNTAX_ERROR, f"expected {want} at end of input", _span_at(origin, max(pos - 1, 0))), None
    assert isinstance(exc, UnexpectedToken)
    tok = exc.token
    pos = tok.start_pos if tok.start_pos is not None else 0
    try:
        # LALR state merging makes `exc.expected` too generous; accepts() simulates the reductions.
        expected = set(exc.interactive_parser.accepts())
    except Exception:
        expected = set(exc.expected or ())
    prev = _previous_token(text, pos)
    prev_end = pos - 1
    while prev_end > 0 and text[prev_end].isspace():
        prev_end -= 1
    length = len(tok.value) if tok.value else 1
    here = _span_at(origin, pos, length)
    in_parens = _open_parens(text, pos) > 0
    if prev in ("if", "while", "switch", "for") and "LPAR" in expected and tok.type != "LPAR":
        return error(SYNTAX_ERROR, f"expected '(' after '{prev}'", here), _recovery_region(text, pos)
    prev_start = prev_end - len(prev) + 1
    if expected <= {"LPAR", "LBRACE"} and prev.isidentifier() and _previous_token(text, prev_start) == "if":
        # `if x == 1 {`: the grammar read `x` as a macro that brings its own parentheses (`if TILING_KEY_IS(1)`)
        # or its own whole condition (`if ASCEND_IS_AIC_CONV {`)
        return (error(SYNTAX_ERROR, "expected '(' after 'if'", _span_at(origin, prev_start, len(prev))),
                _recovery_region(text, pos))
    if "LAUNCH_CLOSE" in expected and "SEMI" not in expected:
        return (error(SYNTAX_ERROR, f"expected '>>>' to close the kernel launch configuration before {_token_desc(tok)}",
                      here), _recovery_region(text, pos))
    if "GT" in expected and "SEMI" not in expected and "RPAR" not in expected and "COMMA" in expected:
        return (error(SYNTAX_ERROR, f"expected '>' to close the template argument list before {_token_desc(tok)}",
                      here), _recovery_region(text, pos))
    if tok.type in ("RPAR", "RSQB") and tok.type not in expected and not _expects_operand(expected):
        # An extra closing bracket: drop just that token and go on. (Where an operand is missing, `(a + )`, the
        # bracket is not extra: the message below says what is.)
        return (error(SYNTAX_ERROR, f"extraneous '{tok.value}' before {_next_desc(text, pos + 1)}", here),
                (pos, pos + 1, " "))
    if "COLON" in expected and "SEMI" not in expected and tok.type == "SEMI":
        return error(SYNTAX_ERROR, "expected ':' after 'case' label", here), (pos, pos + 1, ":")
    if "SEMI" in expected and tok.type != "SEMI" and (prev[-1:].isalnum() or prev in (")", "]", "_", "}")):
        header = _header_keyword(text, pos) if in_parens else None
        if header == "for":
            return error(SYNTAX_ERROR, "expected ';' in 'for' statement specifier", here), _recovery_region(text, pos)
        if header in ("if", "switch") and "RPAR" in expected:
            # `if ((x == 0) {`: a `;` would make `(x == 0)` the init-statement of a C++17 `if (init; cond)`, but a
            # missing `)` is what was meant
            return error(SYNTAX_ERROR, f"expected ')' before {_token_desc(tok)}", here), _recovery_region(text, pos)
        if tok.type == "IDENTIFIER" and prev and (prev[0].isalpha() or prev[0] == "_") and prev not in types \
                and _looks_like_type_use(text, pos, prev):
            return (error(SYNTAX_ERROR, f"unknown type name '{prev}'", _span_at(origin, prev_end - len(prev) + 1, len(prev))),
                    _recovery_region(text, pos))
        what = {"}": "declaration", "END_TILING_DATA_DEF": "END_TILING_DATA_DEF"}.get(prev, "expression")
        diag = error(SYNTAX_ERROR, f"expected ';' after {what}", _span_at(origin, prev_end + 1),
                     Note(f"found {_token_desc(tok)} instead", here))
        gap = range(prev_end + 1, pos)
        blank = next((i for i in gap if text[i] in " \t\r\n"), None)
        if blank is not None and not in_parens:
            # Supply the missing ';' in place of a blank. Spans come from offsets, which stay put.
            return diag, (blank, blank + 1, ";")
        return diag, _recovery_region(text, pos)
    if tok.type == "RBRACE" and "RBRACE" not in expected:
        msg = "expected expression before '}'" if _expects_operand(expected) else "unexpected '}'"
        return error(SYNTAX_ERROR, msg, here), _recovery_region(text, pos)
    if _expects_operand(expected) and tok.type in ("RPAR", "SEMI", "COMMA", "RSQB"):
        return error(SYNTAX_ERROR, f"expected expression before {_token_desc(tok)}", here), _recovery_region(text, pos)
    if "RPAR" in expected and ("COMMA" in expected or len(expected) <= 12):
        return error(SYNTAX_ERROR, f"expected ')' before {_token_desc(tok)}", here), _recovery_region(text, pos)
    if "COMMA" in expected and "RPAR" not in expected and tok.type == "IDENTIFIER":
        return error(SYNTAX_ERROR, f"expected ',' before {_token_desc(tok)}", here), _recovery_region(text, pos)
    if tok.type == "IDENTIFIER" and prev and (prev[0].isalpha() or prev[0] == "_") and prev not in KEYWORDS \
            and prev not in types:
        start = prev_end - len(prev) + 1
        return error(SYNTAX_ERROR, f"unknown type name '{prev}'", _span_at(origin, start, len(prev))), \
            _recovery_region(text, pos)
    if tok.type == "ELSE":
        return error(SYNTAX_ERROR, "'else' without a previous 'if'", here), _recovery_region(text, pos)
    return error(SYNTAX_ERROR, f"unexpected {_token_desc(tok)}", here), _recovery_region(text, pos)


def _next_desc(text: str, pos: int) -> str:
    nxt = text[pos:].lstrip()[:1]
    return f"'{nxt}'" if nxt else "end of input"


def _open_parens(text: str, pos: int) -> int:
    """How many `(` are open at `pos` within the current statement (back to the last `;{}` outside parens)."""
    depth, i = 0, pos - 1
    while i >= 0:
        c = text[i]
        if c == ")":
            depth -= 1
        elif c == "(":
            depth += 1
        elif c in "{}" or (c == ";" and depth <= 0):
            break
        i -= 1
    return max(depth, 0)


def _header_keyword(text: str, pos: int) -> str | None:
    """The keyword (`for`, `if`, `switch`, `while`, or another word) before the parenthesis open at `pos`, if any."""
    depth, i = 0, pos - 1
    while i >= 0 and text[i] not in "{}":
        if text[i] == ")":
            depth -= 1
        elif text[i] == "(":
            depth += 1
            if depth > 0:
                j = i - 1
                while j >= 0 and text[j].isspace():
                    j -= 1
                k = j
                while k >= 0 and (text[k].isalnum() or text[k] == "_"):
                    k -= 1
                return text[k + 1 : j + 1] or None
        i -= 1
    return None


def _looks_like_type_use(text: str, pos: int, prev: str) -> bool:
    """`Foo x` at the start of a statement: two names in a row, the first unknown."""
    if prev in KEYWORDS:
        return False
    i = pos - len(prev) - 1
    while i >= 0 and text[i].isspace():
        i -= 1
    return i < 0 or text[i] in ";{}(,"


def _expects_operand(expected: set[str]) -> bool:
    return "IDENTIFIER" in expected and ("INT" in expected or "LPAR" in expected)


def _statement_end(text: str, i: int, floor: int) -> int:
    """End of the statement running through offset `i`: after the next `;` at brace depth 0, after the
    first block that opens, or before a `}` that closes the enclosing block (never before `floor`)."""
    depth, paren, n = 0, 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            q, i = c, i + 1
            while i < n and text[i] != q and text[i] != "\n":
                i += 2 if text[i] == "\\" else 1
        elif c == "(":
            paren += 1
        elif c == ")":
            paren = max(0, paren - 1)
        elif c == "{":
            depth += 1
        elif c == "}":
            if depth == 0:
                return i if i > floor else i + 1
            depth -= 1
            if depth == 0 and paren == 0:  # a braced initialiser inside a call is not a block
                j = i + 1
                while j < n and text[j] in " \t\r\n":
                    j += 1
                return j + 1 if j < n and text[j] == ";" else i + 1
        elif c == ";" and depth == 0:
            # `;` ends the statement even inside unbalanced parentheses: a missing `)` must not run on.
            return i + 1
        i += 1
    return n


_ELSE_RE = re.compile(r"\s*else\b")


def _inside_parens(text: str, at: int) -> bool:
    """Whether offset `at` lies inside parentheses opened since the last brace before it."""
    block = max(text.rfind("{", 0, at), text.rfind("}", 0, at)) + 1
    segment = text[block:at]
    return segment.count("(") > segment.count(")")


def _recovery_region(text: str, pos: int) -> Edit | None:
    """The statement or declaration around `pos`, balanced in braces, to blank out before reparsing.

    It starts after the last `;`, `{` or `}` before the error and ends where _statement_end says; an
    `if` statement takes its `else` branches with it, so they do not turn into errors of their own.
    """
    start = pos
    while True:
        while start > 0 and text[start - 1] not in ";{}":
            start -= 1
        # a `;` inside the statement's parentheses (`for (i = 0; ...`, `if (auto x = f(); ...`) does not end it
        if start > 0 and text[start - 1] == ";" and _inside_parens(text, start - 1):
            start -= 1
            continue
        break
    end = _statement_end(text, pos, start)
    while end < len(text) and text[end - 1] == "}":
        m = _ELSE_RE.match(text, end)
        if not m:
            break
        end = _statement_end(text, m.end(), m.end())
    n = len(text)
    if end <= start or not text[start:end].strip():
        # Nothing to blank before the error: drop the offending token's character so parsing progresses.
        end = min(n, pos + 1)
        start = pos
        if start >= n:
            return None
    return (start, end, _blank(text[start:end]))
