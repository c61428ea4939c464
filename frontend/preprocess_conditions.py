"""Conditional compilation in the preprocessor: `#if` / `#ifdef` / `#ifndef` / `#elif` / `#else` / `#endif`, and
the evaluation of `#if` expressions (`defined`, `__has_include`, C's integer arithmetic on 64 bits).
"""

from __future__ import annotations

import re

from frontend.diagnostics import Span, error
from frontend.preprocess_tokens import BUILTINS, CHR, EMPTY_HS, ID, NUM, PUNCT, Tok
from frontend.preprocess_types import Budget, Cond, File, PPError


_INT_RE = re.compile(
    r"(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)((?:[uU](?:ll|LL|l|L|z|Z)?)|(?:(?:ll|LL|l|L|z|Z)[uU]?))?"
)


class ConditionalCompilation:
    """Conditional compilation in the preprocessor: methods of _Preprocessor (preprocess.py), which inherits them."""

    def _conditional(self, f: File, idx: int, line: str, name: str, rest: int, span: Span) -> None:
        cond = f.cond
        if name in ("if", "ifdef", "ifndef"):
            if not f.active:
                cond.append(Cond(False, True, False, span, name))
            else:
                val = self._cond_value(f, idx, line, name, rest, span)
                cond.append(Cond(val, val, True, span, name))
        elif name in ("elif", "elifdef", "elifndef"):
            if not cond:
                self.diags.append(error("ASC005", f"#{name} without #if", span))
                return
            c = cond[-1]
            if c.seen_else:
                self.diags.append(error("ASC005", f"#{name} after #else", span))
                c.active = False
            elif not c.parent or c.done:
                c.active = False
            else:
                val = self._cond_value(f, idx, line, name, rest, span)
                c.active = c.done = val
        elif name == "else":
            if not cond:
                self.diags.append(error("ASC005", "#else without #if", span))
                return
            c = cond[-1]
            if c.seen_else:
                self.diags.append(error("ASC005", "#else after #else", span))
                c.active = False
            else:
                c.seen_else = True
                c.active = c.parent and not c.done
                c.done = True
        else:  # endif
            if not cond:
                self.diags.append(error("ASC005", "#endif without #if", span))
                return
            cond.pop()
        f.active = cond[-1].active if cond else True

    def _cond_value(self, f: File, idx: int, line: str, name: str, rest: int, span: Span) -> bool:
        toks = self._tokenize(f, idx, line, rest)
        if name in ("ifdef", "ifndef", "elifdef", "elifndef"):
            if not toks or toks[0].kind != ID:
                msg = (
                    f"no macro name given in #{name} directive"
                    if not toks
                    else "macro names must be identifiers"
                )
                self.diags.append(error("ASC007", msg, span))
                return False
            d = toks[0].text in self.macros or toks[0].text in BUILTINS
            return d if name in ("ifdef", "elifdef") else not d
        espan = self._span(f, idx, rest, len(line.rstrip())) if toks else span
        if not toks:
            self.diags.append(error("ASC006", f"#{name} with no expression", span))
            return False
        try:
            self.budget = 0
            toks = self._resolve_defined(toks, f, True)
            toks = self._expand(toks, None)
            toks = self._resolve_defined(toks, f, True)
            return _IfParser(toks).parse() != 0
        except PPError as exc:
            self.diags.append(error("ASC006", f"#{name}: {exc}", espan))
        except (Budget, RecursionError):
            self.diags.append(error("ASC006", f"#{name}: expression too large or too deeply nested", espan))
        return False

    def _resolve_defined(self, toks: list[Tok], f: File, has: bool) -> list[Tok]:
        """Replace `defined X`, `defined(X)` (and with has=True, `__has_*(...)`) by 0 or 1."""
        out: list[Tok] = []
        n = len(toks)
        i = 0
        while i < n:
            t = toks[i]
            if t.kind == ID and t.text == "defined":
                j = i + 1
                paren = j < n and toks[j].text == "("
                if paren:
                    j += 1
                if j >= n or toks[j].kind != ID:
                    raise PPError("operator 'defined' requires an identifier")
                val = toks[j].text in self.macros or toks[j].text in BUILTINS
                j += 1
                if paren:
                    if j >= n or toks[j].text != ")":
                        raise PPError("missing ')' after 'defined'")
                    j += 1
                out.append(Tok(NUM, "1" if val else "0", t.ws, EMPTY_HS, t.org, None))
                i = j
                continue
            if has and t.kind == ID and t.text.startswith("__has_") and t.text not in self.macros:
                if i + 1 >= n or toks[i + 1].text != "(":
                    raise PPError(f"missing '(' after '{t.text}'")
                depth, j = 0, i + 1
                while j < n:
                    if toks[j].text == "(":
                        depth += 1
                    elif toks[j].text == ")":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                if j >= n:
                    raise PPError(f"missing ')' after '{t.text}'")
                val = False
                if t.text in ("__has_include", "__has_include_next"):
                    val = self._has_include(toks[i + 2 : j], f)
                out.append(Tok(NUM, "1" if val else "0", t.ws, EMPTY_HS, t.org, None))
                i = j + 1
                continue
            out.append(t)
            i += 1
        return out


_MASK = (1 << 64) - 1
_BINARY_PREC = {
    "*": 12,
    "/": 12,
    "%": 12,
    "+": 11,
    "-": 11,
    "<<": 10,
    ">>": 10,
    "<": 9,
    ">": 9,
    "<=": 9,
    ">=": 9,
    "==": 8,
    "!=": 8,
    "&": 7,
    "^": 6,
    "|": 5,
    "&&": 4,
    "||": 3,
    "?": 2,
    ",": 1,
}
_ESCAPES = {
    "n": 10,
    "t": 9,
    "r": 13,
    "0": 0,
    "a": 7,
    "b": 8,
    "f": 12,
    "v": 11,
    "\\": 92,
    "'": 39,
    '"': 34,
    "?": 63,
}

_ALT_OPS = {
    "and": "&&",
    "or": "||",
    "not": "!",
    "bitand": "&",
    "bitor": "|",
    "xor": "^",
    "compl": "~",
    "not_eq": "!=",
}
_Val = tuple[int, bool]  # (value, unsigned)


def _wrap(v: int, unsigned: bool) -> _Val:
    v &= _MASK
    if not unsigned and v >= 1 << 63:
        v -= 1 << 64
    return (v, unsigned)


class _IfParser:
    """Precedence climbing over `#if` tokens with C's 64-bit signed/unsigned arithmetic."""

    def __init__(self, toks: list[Tok]) -> None:
        self.toks = [
            Tok(PUNCT, _ALT_OPS[t.text], t.ws, t.hs, t.org, t.macro)
            if t.kind == ID and t.text in _ALT_OPS
            else t
            for t in toks
        ]
        self.i = 0

    def parse(self) -> int:
        v, _ = self.expr(1, True)
        if self.i < len(self.toks):
            raise PPError(f"missing binary operator before token '{self.toks[self.i].text}'")
        return v

    def peek(self) -> str | None:
        return self.toks[self.i].text if self.i < len(self.toks) else None

    def expr(self, min_prec: int, live: bool) -> _Val:
        lhs = self.unary(live)
        while True:
            op = self.peek()
            prec = _BINARY_PREC.get(op) if op is not None else None
            if prec is None or prec < min_prec or self.toks[self.i].kind != PUNCT:
                return lhs
            self.i += 1
            assert op is not None
            if op == "?":
                cond = lhs[0] != 0
                a = self.expr(1, live and cond)
                if self.peek() != ":":
                    raise PPError("'?' without following ':'")
                self.i += 1
                b = self.expr(2, live and not cond)
                u = a[1] or b[1]
                lhs = _wrap(a[0] if cond else b[0], u)
            elif op == "&&":
                rhs = self.expr(prec + 1, live and lhs[0] != 0)
                lhs = (int(lhs[0] != 0 and rhs[0] != 0), False)
            elif op == "||":
                rhs = self.expr(prec + 1, live and lhs[0] == 0)
                lhs = (int(lhs[0] != 0 or rhs[0] != 0), False)
            else:
                rhs = self.expr(prec + 1, live)
                lhs = self.binary(op, lhs, rhs, live)

    @staticmethod
    def binary(op: str, lhs: _Val, rhs: _Val, live: bool) -> _Val:
        if op == ",":
            return rhs
        if op in ("<<", ">>"):
            a, u = lhs
            n = rhs[0] if not rhs[1] else rhs[0] & _MASK
            if op == ">>":
                n = -n
            if u:
                a &= _MASK
            if n >= 0:
                return _wrap(a << min(n, 64), u)
            return _wrap(a >> min(-n, 64), u)
        u = lhs[1] or rhs[1]
        a, b = (lhs[0] & _MASK, rhs[0] & _MASK) if u else (lhs[0], rhs[0])
        if op == "+":
            return _wrap(a + b, u)
        if op == "-":
            return _wrap(a - b, u)
        if op == "*":
            return _wrap(a * b, u)
        if op in ("/", "%"):
            if b == 0:
                if live:
                    raise PPError("division by zero")
                return (0, u)
            q = abs(a) // abs(b)
            if (a < 0) != (b < 0):
                q = -q
            return _wrap(q if op == "/" else a - b * q, u)
        if op == "&":
            return _wrap(a & b, u)
        if op == "|":
            return _wrap(a | b, u)
        if op == "^":
            return _wrap(a ^ b, u)
        result = {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b, "==": a == b, "!=": a != b}[op]
        return (int(result), False)

    def unary(self, live: bool) -> _Val:
        if self.i >= len(self.toks):
            raise PPError("expected value in expression")
        t = self.toks[self.i]
        self.i += 1
        if t.kind == PUNCT:
            if t.text == "(":
                inner = self.expr(1, live)
                if self.peek() != ")":
                    raise PPError("missing ')' in expression")
                self.i += 1
                return inner
            if t.text in ("-", "+", "~", "!"):
                v, u = self.unary(live)
                if t.text == "-":
                    return _wrap(-v, u)
                if t.text == "~":
                    return _wrap(~v, u)
                if t.text == "!":
                    return (int(v == 0), False)
                return (v, u)
            raise PPError(f"token '{t.text}' is not valid in preprocessor expressions")
        if t.kind == NUM:
            return _parse_int(t.text)
        if t.kind == CHR:
            return (char_value(t.text), False)
        if t.kind == ID:
            # C: identifiers left after macro expansion are 0; C++ keywords true/false are not.
            return (1 if t.text == "true" else 0, False)
        raise PPError(f"token '{t.text}' is not valid in preprocessor expressions")


def _parse_int(text: str) -> _Val:
    m = _INT_RE.fullmatch(text.replace("'", ""))
    if m is None:
        hexa = text[:2] in ("0x", "0X")
        if "." in text or any(c in text for c in ("pP" if hexa else "eE")):
            raise PPError(f"floating constant '{text}' in preprocessor expression")
        raise PPError(f"invalid integer constant '{text}'")
    digits, suffix = m.group(1), m.group(2) or ""
    if len(digits) > 40:  # no 64-bit value has this many digits (and int() refuses thousands of them)
        raise PPError(f"integer constant '{text[:24]}...' is too large")
    if digits[:2] in ("0x", "0X", "0b", "0B"):
        v = int(digits, 0)
    elif digits.startswith("0") and len(digits) > 1:
        v = int(digits[1:], 8)
    else:
        v = int(digits)
    if v > _MASK:
        raise PPError(f"integer constant '{text}' is too large")
    unsigned = "u" in suffix.lower() or v >= 1 << 63
    return (v, unsigned)


def char_value(text: str) -> int:
    """The value of a character constant (`'a'`, `'\\0'`, `'\\x1f'`, `u8'c'`): its first character, escapes decoded; the
    lowering reads the program's character literals with it too."""
    q = text.index("'")
    body = text[q + 1 : -1] if text.endswith("'") and len(text) > q + 1 else text[q + 1 :]
    if not body:
        raise PPError("empty character constant")
    if body[0] != "\\":
        return ord(body[0])
    if len(body) < 2:
        raise PPError("invalid character constant")
    c = body[1]
    if c in "xX":
        try:
            return int("0x" + body[2:], 0) & 0xFF
        except ValueError:
            raise PPError("invalid hex escape in character constant") from None
    if c in "01234567":
        digits = re.match(r"[0-7]{1,3}", body[1:])
        assert digits is not None
        return int(digits.group(), 8) & 0xFF
    return _ESCAPES.get(c, ord(c))
