"""Reading sources in the preprocessor: line splicing, comment stripping, `ascendc-check: ignore[...]`
suppressions, and the tokens of a line.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from frontend.diagnostics import Span, error
from frontend.preprocess_tokens import EMPTY_HS, KIND, NEWLINE_RE, TOKEN_RE, Tok
from frontend.preprocess_types import File, Source


# Comment stripping: everything that can start a comment or a literal, found by one search loop.
# The leading lookahead lets the regex engine skip to candidate characters quickly.
_STRIP_RE = re.compile(
    r"""(?=[/"'])(?:
        (?P<line>//[^\n]*)
       |(?P<block>/\*.*?\*/)
       |(?P<open>/\*)
       |(?P<str>"(?:[^"\\\n]|\\[^\n])*"?)
       |(?P<chr>'(?:[^'\\\n]|\\[^\n])*'?))""",
    re.VERBOSE | re.DOTALL,
)
_RAW_OPEN_RE = re.compile(r'"([^()\\\s"]{0,16})\(')
_SUPPRESS_RE = re.compile(r"ascendc-check:\s*(ignore-next-line|ignore-all|ignore)\b(?:\s*\[([^\]]*)\])?")
_BS_END_RE = re.compile(r"\\[ \t]*$")
_SPLICE_RE = re.compile(r"\\[ \t]*\n")


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _terminated(lit: str) -> bool:
    """Whether a string/char literal match ends in its quote (an even run of backslashes before it)."""
    if len(lit) < 2 or lit[-1] != lit[0]:
        return False
    k = len(lit) - 2
    while k > 0 and lit[k] == "\\":
        k -= 1
    return (len(lit) - 2 - k) % 2 == 0


def _valid_literal_prefix(src: str, s: int) -> bool:
    """True when the literal starting at `s` is not glued to an identifier (an encoding prefix is fine)."""
    if s == 0 or not _is_word(src[s - 1]):
        return True
    if src[s - 1] in "uUL" and (s == 1 or not _is_word(src[s - 2])):
        return True
    return src[s - 2 : s] == "u8" and (s == 2 or not _is_word(src[s - 3]))


class SourceReading:
    """Reading sources in the preprocessor: methods of _Preprocessor (preprocess.py), which inherits them."""

    def _prepare(self, name: str, text: str, drop_last_empty: bool) -> Source:
        """Splice lines, strip comments, collect suppressions; cached per file."""
        cached = self.sources.get(name)
        if cached is not None:
            return cached
        src = Source(name)
        self.sources[name] = src
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        text = text.removeprefix("\ufeff")
        phys = text.split("\n")
        if drop_last_empty and len(phys) > 1 and phys[-1] == "":
            phys.pop()
        if "\\" in text and _SPLICE_RE.search(text):
            logical: list[str] = []
            first: list[int] = []
            i, n = 0, len(phys)
            while i < n:
                line = phys[i]
                m = _BS_END_RE.search(line)
                if m is None or i == n - 1:
                    logical.append(line)
                    first.append(i + 1)
                    i += 1
                    continue
                first.append(i + 1)
                buf = [line[: m.start()]]
                starts, infos = [0], [(i + 1, 1)]
                c = m.start()
                i += 1
                while True:
                    line = phys[i]
                    starts.append(c)
                    infos.append((i + 1, 1))
                    m = _BS_END_RE.search(line)
                    if m is None or i == n - 1:
                        buf.append(line)
                        i += 1
                        break
                    buf.append(line[: m.start()])
                    c += m.start()
                    i += 1
                src.pieces[len(logical)] = (starts, infos)
                logical.append("".join(buf))
            first.append(n + 1)
            src.first_orig = first
        else:
            logical = phys
            src.first_orig = range(1, len(phys) + 2)
        joined = "\n".join(logical)
        if "/" in joined or '"' in joined or "'" in joined:
            joined = self._strip(src, joined)
            src.lines = joined.split("\n")
        else:
            src.lines = logical
        return src

    def _strip(self, src: Source, text: str) -> str:
        """Replace comments by spaces (newlines kept); note unterminated literals and suppressions."""
        out: list[str] = []
        last = pos = 0
        starts: list[int] | None = None
        fidx = self._fidx(src.name)

        def where(off: int) -> tuple[int, int]:
            nonlocal starts
            if starts is None:
                starts = [0] + [m.end() for m in NEWLINE_RE.finditer(text)]
            idx = bisect_right(starts, off) - 1
            return idx, off - starts[idx]

        search = _STRIP_RE.search
        while True:
            m = search(text, pos)
            if m is None:
                break
            kind = m.lastgroup
            s, e = m.start(), m.end()
            if kind == "line" or kind == "block":
                body = m.group()
                out.append(text[last:s])
                if kind == "line":
                    out.append(" " * (e - s))
                else:
                    out.append("\n".join(" " * len(p) for p in body.split("\n")))
                last = pos = e
                if "ascendc-check" in body:
                    self._suppression(src, fidx, body, *where(s))
            elif kind == "open":
                idx, c0 = where(s)
                _, line, col = self._org(src, fidx, idx, c0)
                self.diags.append(
                    error("ASC009", "unterminated comment", Span(src.name, line, col, line, col + 2))
                )
                rest = text[s:]
                out.append(text[last:s])
                out.append("\n".join(" " * len(p) for p in rest.split("\n")))
                last = pos = len(text)
                break
            else:  # string or character literal
                if kind == "str" and s and text[s - 1] == "R" and _valid_literal_prefix(text, s - 1):
                    raw = _RAW_OPEN_RE.match(text, s)
                    if raw is not None:
                        end = text.find(")" + raw.group(1) + '"', raw.end())
                        if end >= 0:  # else: not a complete raw string, lex it as a plain one
                            pos = end + len(raw.group(1)) + 2
                            continue
                if kind == "chr" and not _valid_literal_prefix(text, s):
                    pos = s + 1  # a digit separator (1'000) or garbage, not a literal
                    continue
                lit = m.group()
                if not _terminated(lit):
                    idx, c0 = where(s)
                    src.unterm.setdefault(idx, (c0, "string" if kind == "str" else "character"))
                pos = e
        if not out:
            return text
        out.append(text[last:])
        return "".join(out)

    def _suppression(self, src: Source, fidx: int, comment: str, idx: int, c0: int) -> None:
        m = _SUPPRESS_RE.search(comment)
        if m is None:
            return
        _, line, _ = self._org(src, fidx, idx, c0)
        what, codes_text = m.group(1), m.group(2)
        if what == "ignore-next-line":
            line += 1
        codes: frozenset[str] = EMPTY_HS
        if codes_text is not None and what != "ignore-all":
            items = [c.strip() for c in codes_text.split(",")]
            if "*" not in items:
                codes = frozenset(c for c in items if c)
        key = (src.name, line)
        old = self.suppressions.get(key)
        if old is None:
            self.suppressions[key] = codes
        elif old and codes:
            self.suppressions[key] = old | codes
        else:
            self.suppressions[key] = EMPTY_HS

    def _report_unterm(self, f: File, idx: int) -> None:
        c0, kind = f.src.unterm[idx]
        line = f.src.lines[idx]
        quote = '"' if kind == "string" else "'"
        span = self._span(f, idx, c0, len(line.rstrip()))
        self.diags.append(error("ASC009", f"missing terminating {quote} character", span))

    def _tokenize(self, f: File, idx: int, line: str, start: int) -> list[Tok]:
        src = f.src
        fidx = f.fidx
        pcs = src.pieces.get(idx) if src.pieces else None
        ln = src.first_orig[idx]
        out: list[Tok] = []
        append = out.append
        kinds = KIND
        prev = start
        for m in TOKEN_RE.finditer(line, start):
            c0, end = m.span()
            org = (fidx, ln, c0 + 1) if pcs is None else self._org(src, fidx, idx, c0)
            append(Tok(kinds[m.lastgroup], line[c0:end], line[prev:c0], EMPTY_HS, org, None))  # type: ignore[index]
            prev = end
        return out

    @staticmethod
    def _lex(text: str) -> list[Tok]:
        """Tokens of text that has no place in a file (command-line defines, pasted tokens)."""
        out = []
        prev = 0
        for m in TOKEN_RE.finditer(text):
            c0, end = m.span()
            out.append(Tok(KIND[m.lastgroup], text[c0:end], text[prev:c0], EMPTY_HS, (-1, 0, 0), None))  # type: ignore[index]
            prev = end
        return out
