"""The C preprocessor for AscendC sources, with a map from every output character back to its origin.

`preprocess()` runs the translation phases a C++ compiler runs before parsing: line splicing,
comment removal, directives (`#include`, `#define`, `#if` ...) and macro expansion. It never
raises; problems become diagnostics. The output keeps one line per input line wherever it can
(comments become spaces, directives and skipped lines become empty lines, spliced lines are
followed by empty lines), so most offsets map back linearly and the text stays debuggable.

Diagnostic codes:
  ASC002 warning  a quoted `#include` could not be found; the directive is skipped
  ASC003 error    `#include` nested deeper than `max_include_depth` (usually an include cycle)
  ASC004 error    `#error` in a taken branch (`#warning` gives the same code as a warning)
  ASC005 error    conditional structure: unterminated `#if`, stray `#else`/`#elif`/`#endif`,
                  `#else`/`#elif` after `#else`
  ASC006 error    `#if`/`#elif` expression cannot be evaluated (syntax, division by zero, ...);
                  the branch is treated as false
  ASC007 error    malformed directive: unknown directive, bad `#define`/`#undef`/`#ifdef`/
                  `#include`/`#line` syntax, a bad `-D` style define
  ASC008 error    macro invocation: unterminated argument list, wrong argument count, `##`
                  giving an invalid token, runaway expansion; as a warning: a macro redefined
                  with a different body
  ASC009 error    lexical: unterminated block comment, string or character literal; an internal
                  preprocessor failure (never expected) is reported with this code too

Suppressions: `// ascendc-check: ignore[ASC301, ASC302]` (also in a `/* */` comment) is recorded
under the comment's (file, line); `ignore`, `ignore[*]` and `ignore-all` record an empty set
(everything); `ignore-next-line[...]` is recorded under the following line.

Limitations: `#line` is accepted but ignored (origins always point into the real file); lines
end at `\n`, `\r\n` or `\r` only (not form feeds or Unicode separators); raw string literals
must not span lines; a block comment that spans lines inside a directive ends
the directive; `#include` inside macro arguments ends the argument list; digraphs are not
recognised; `__DATE__`/`__TIME__` are not predefined.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from frontend import vendor
from frontend.readers import in_op_host
from frontend.diagnostics import Diagnostic, Note, Span, error, warning

__all__ = ["Macro", "Origin", "PreprocessResult", "preprocess"]


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
    _tokens: tuple[_Tok, ...] = field(default=(), repr=False)
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
_LINES = 0  # output line k of the segment is original line `line + k`; columns linear within a line
_LINEAR = 1  # columns advance with offsets on one original line
_POINT = 2  # every character maps to one place (a macro invocation)


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
        if kind == _POINT:
            return Origin(name, line, col, macro)
        if kind == _LINEAR:
            return Origin(name, line, col + offset - self._seg_starts[k], macro)
        starts = self._line_starts
        if starts is None:
            starts = self._line_starts = [0] + [m.end() for m in _NEWLINE_RE.finditer(self.text)]
            # Output line index where each segment starts; LINES segments count lines from there.
            self._seg_line0 = [bisect_right(starts, s) - 1 for s in self._seg_starts]
        here = bisect_right(starts, offset) - 1
        return Origin(name, line + here - self._seg_line0[k], offset - starts[here] + 1, macro)


# ----------------------------------------------------------------------------------------------
# Lexing

_NEWLINE_RE = re.compile(r"\n")

# Token kinds.
_ID, _NUM, _STR, _CHR, _PUNCT, _OTHER = range(6)

_TOKEN_BODY = r"""
  (?P<raw>(?:u8|[uUL])?R"(?P<delim>[^()\\\s"]{0,16})\(.*?\)(?P=delim)")
 |(?P<str>(?:u8|[uUL])?"(?:[^"\\\n]|\\[^\n])*(?:"(?:_\w*)?)?)
 |(?P<chr>(?:u8|[uUL])?'(?:[^'\\\n]|\\[^\n])*(?:'(?:_\w*)?)?)
 |(?P<id>[^\W\d][\w$]*|\$[\w$]*)
 |(?P<num>\.?\d(?:[eEpP][+-]|[\w.]|'(?=\w))*)
 |(?P<punct>\.\.\.|<<=|>>=|->\*|<=>|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\#\#|\.\*
           |[-+*/%&|^~!=<>?:;,.()\[\]{}\#])
 |(?P<other>\S)
"""
# finditer skips whitespace (no alternative starts with it); a token's leading whitespace is the gap.
_TOKEN_RE = re.compile(_TOKEN_BODY, re.VERBOSE | re.DOTALL)
_KIND = {"raw": _STR, "str": _STR, "chr": _CHR, "id": _ID, "num": _NUM, "punct": _PUNCT, "other": _OTHER}

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
_IDENT_RE = re.compile(r"\b[^\W\d]\w*")
_DIRECTIVE_RE = re.compile(r"\s*#\s*([^\W\d]\w*)?")
_INT_RE = re.compile(
    r"(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)((?:[uU](?:ll|LL|l|L|z|Z)?)|(?:(?:ll|LL|l|L|z|Z)[uU]?))?"
)

_EMPTY_HS: frozenset[str] = frozenset()
_BUILTINS = frozenset({"__LINE__", "__FILE__", "__COUNTER__", "_Pragma"})
_CONDITIONALS = frozenset({"if", "ifdef", "ifndef", "elif", "else", "endif", "elifdef", "elifndef"})
# Directives that may appear inside a macro's argument list (the common `#ifdef` inside a call).
_ARG_DIRECTIVES = _CONDITIONALS | {"pragma", "line", ""}
_EXPANSION_BUDGET = 100_000  # tokens produced while expanding one chunk; stops exponential macros
_MAX_SEARCH_REBUILDS = 64


class _Tok:
    """A preprocessing token: spelling, leading whitespace, hide set, origin and producing macro."""

    __slots__ = ("hs", "kind", "macro", "org", "text", "ws")

    def __init__(
        self, kind: int, text: str, ws: str, hs: frozenset[str], org: tuple[int, int, int], macro: str | None
    ) -> None:
        self.kind = kind
        self.text = text
        self.ws = ws
        self.hs = hs
        self.org = org
        self.macro = macro

    def __repr__(self) -> str:
        return f"_Tok({self.text!r})"


def _op_build_candidates(includer: str, name: str) -> list[str]:
    """Where `name` lies when the op build copies each op project's op_kernel/ folder to a folder named after
    the op (ops-nn: `#include "../quantize_add_layer_norm/quantize_add_layer_norm_base.h"` in
    norm/dua_quantize_add_layer_norm/op_kernel/ is norm/quantize_add_layer_norm/op_kernel/...)."""
    if not name.startswith("../"):
        return []
    parts = os.path.normpath(os.path.abspath(includer)).split(os.sep)[:-1]
    if "op_kernel" not in parts:
        return []
    at = len(parts) - 1 - parts[::-1].index("op_kernel")
    if at < 2:
        return []
    category = os.sep.join(parts[:at - 1])
    built = os.path.normpath(os.path.join(os.sep.join([*parts[:at], *parts[at + 1:]]), name))
    rest = os.path.relpath(built, category)
    if rest.startswith("..") or os.sep not in rest:
        return []
    op, inner = rest.split(os.sep, 1)
    return [os.path.join(category, op, "op_kernel", inner)]


class _PPError(Exception):
    """A problem inside one directive or expansion; becomes a diagnostic by the caller."""


class _Budget(Exception):
    """Expansion produced too many tokens."""


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


def _trie_pattern(words: list[str]) -> str:
    """A regex alternation shaped as a trie: matching cost stays flat as the macro count grows."""
    trie: dict[str, dict] = {}  # type: ignore[type-arg]
    for w in words:
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict) -> str:  # type: ignore[type-arg]
        alts = []
        for ch in sorted(k for k in node if k):
            # a chain of single children is one literal: recursion goes only as deep as the branch points
            prefix, child = ch, node[ch]
            while len(child) == 1 and "" not in child:
                (nxt,) = child
                prefix, child = prefix + nxt, child[nxt]
            alts.append(re.escape(prefix) + build(child))
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return "(?:" + body + ")?" if "" in node else body

    try:
        return build(trie)
    except RecursionError:  # thousands of nested prefixes (A, AA, AAA, ...): a plain alternation, longest first
        return "(?:" + "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True)) + ")"


# ----------------------------------------------------------------------------------------------
# Per-file state


class _Source:
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


class _Cond:
    __slots__ = ("active", "done", "kind", "parent", "seen_else", "span")

    def __init__(self, active: bool, done: bool, parent: bool, span: Span, kind: str) -> None:
        self.active = active
        self.done = done  # some branch of this group was taken (or the group is inside a skipped one)
        self.seen_else = False
        self.parent = parent
        self.span = span
        self.kind = kind


class _File:
    """One inclusion of a source: its conditional stack and the current chunk's line range."""

    __slots__ = ("active", "chunk_last", "chunk_tok_line", "cond", "fidx", "src")

    def __init__(self, src: _Source, fidx: int) -> None:
        self.src = src
        self.fidx = fidx
        self.cond: list[_Cond] = []
        self.active = True
        self.chunk_last = 0
        self.chunk_tok_line = 0


def _default_read(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as fh:
        return fh.read()


def _known_header(name: str) -> bool:
    if name in vendor.KNOWN_HEADERS or os.path.basename(name) in vendor.KNOWN_HEADERS:
        return True
    if os.path.basename(name).startswith(vendor.GENERATED_HEADER_PREFIXES):
        return True
    norm = name.replace("\\", "/")
    return any(norm.endswith("/" + h) for h in vendor.KNOWN_HEADERS)


# Compiled "does this line mention a macro" tests, by macro-name set: most runs share a few sets.
_SEARCH_CACHE: dict[frozenset[str], Callable[[str], object]] = {}
# Macros built from predefined / `defines` entries, by (key, value); Macro objects are immutable.
_OPTION_CACHE: dict[tuple[str, str], Macro] = {}

_KNOWN_BASENAMES = frozenset(os.path.basename(h) for h in vendor.KNOWN_HEADERS)


# ----------------------------------------------------------------------------------------------
# The preprocessor


class _Preprocessor:
    def __init__(
        self,
        include_dirs: Sequence[str],
        read_file: Callable[[str], str],
        max_include_depth: int,
        system_dirs: Sequence[str] = (),
        quote_dirs: Sequence[str] = (),
    ) -> None:
        self.include_dirs = list(include_dirs)
        self.system_dirs = list(system_dirs)
        self.quote_dirs = list(quote_dirs)
        self.read_file = read_file
        self.max_depth = max_include_depth
        self.diags: list[Diagnostic] = []
        self.includes: list[str] = []
        self.missing_includes: list[str] = []  # quoted includes found nowhere (each also an ASC002 warning)
        self.vendor_includes: list[str] = []  # vendor and system headers, not read (`lib/matmul_intf.h`, <cstdint>)
        self.macros: dict[str, Macro] = {}
        self.names: set[str] = set(_BUILTINS)  # macro names plus builtins: what sends a line to the slow path
        self.suppressions: dict[tuple[str, int], frozenset[str]] = {}
        self.files: list[str] = []
        self.file_index: dict[str, int] = {}
        self.parts: list[str] = []
        self.pos = 0
        self.seg_starts: list[int] = []
        # (file name, line, col, kind, macro) per segment; see PreprocessResult.origin.
        self.seg_info: list[tuple[str, int, int, int, str | None]] = []
        self.sources: dict[str, _Source] = {}
        self.texts: dict[str, str | None] = {}
        self.once: set[str] = set()
        self.stack: list[str] = []
        self.counter = 0
        self.budget = 0
        self.pulled: list[_Tok] = []
        self.search_dirty = True
        self.search_builds = 0
        self.search_fn: Callable[[str], object] = lambda line: None

    # -- diagnostics helpers ----------------------------------------------------------------

    def _span(self, f: _File, idx: int, c0: int, c1: int) -> Span:
        _, l0, col0 = self._org(f.src, f.fidx, idx, c0)
        _, l1, col1 = self._org(f.src, f.fidx, idx, max(c0, c1 - 1))
        return Span(f.src.name, l0, col0, l1, col1 + (1 if c1 > c0 else 0))

    def _tok_span(self, t: _Tok) -> Span | None:
        fi, line, col = t.org
        if not 0 <= fi < len(self.files):
            return None
        return Span(self.files[fi], line, col, line, col + (len(t.text) if t.macro is None else 1))

    @staticmethod
    def _org(src: _Source, fidx: int, idx: int, c0: int) -> tuple[int, int, int]:
        pcs = src.pieces.get(idx) if src.pieces else None
        if pcs is None:
            return (fidx, src.first_orig[idx], c0 + 1)
        starts, infos = pcs
        k = bisect_right(starts, c0) - 1
        line, col = infos[max(k, 0)]
        return (fidx, line, col + c0 - starts[max(k, 0)])

    # -- fast-path macro test --------------------------------------------------------------------

    def _search(self) -> Callable[[str], object]:
        if self.search_dirty:
            self.search_dirty = False
            self.search_builds += 1
            if self.search_builds > _MAX_SEARCH_REBUILDS:
                # Headers that interleave many #defines with code: stop recompiling, test word sets.
                names, findall = self.names, _IDENT_RE.findall
                self.search_fn = lambda line: None if names.isdisjoint(findall(line)) else True
            else:
                key = frozenset(self.names)
                fn = _SEARCH_CACHE.get(key)
                if fn is None:
                    if len(_SEARCH_CACHE) > 256:
                        _SEARCH_CACHE.clear()
                    fn = _SEARCH_CACHE[key] = re.compile(r"\b" + _trie_pattern(sorted(key)) + r"\b").search
                self.search_fn = fn
        return self.search_fn

    def _set_macro(self, m: Macro) -> None:
        self.macros[m.name] = m
        if m.name not in self.names:
            self.names.add(m.name)
            self.search_dirty = True

    def _del_macro(self, name: str) -> None:
        if self.macros.pop(name, None) is not None and name not in _BUILTINS:
            self.names.discard(name)
            self.search_dirty = True

    # -- reading and preparing sources -------------------------------------------------------

    def _fname(self, fidx: int) -> str:
        return self.files[fidx] if 0 <= fidx < len(self.files) else "<command line>"

    def _fidx(self, name: str) -> int:
        k = self.file_index.get(name)
        if k is None:
            k = self.file_index[name] = len(self.files)
            self.files.append(name)
        return k

    def _prepare(self, name: str, text: str, drop_last_empty: bool) -> _Source:
        """Splice lines, strip comments, collect suppressions; cached per file."""
        cached = self.sources.get(name)
        if cached is not None:
            return cached
        src = _Source(name)
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

    def _strip(self, src: _Source, text: str) -> str:
        """Replace comments by spaces (newlines kept); note unterminated literals and suppressions."""
        out: list[str] = []
        last = pos = 0
        starts: list[int] | None = None
        fidx = self._fidx(src.name)

        def where(off: int) -> tuple[int, int]:
            nonlocal starts
            if starts is None:
                starts = [0] + [m.end() for m in _NEWLINE_RE.finditer(text)]
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

    def _suppression(self, src: _Source, fidx: int, comment: str, idx: int, c0: int) -> None:
        m = _SUPPRESS_RE.search(comment)
        if m is None:
            return
        _, line, _ = self._org(src, fidx, idx, c0)
        what, codes_text = m.group(1), m.group(2)
        if what == "ignore-next-line":
            line += 1
        codes: frozenset[str] = _EMPTY_HS
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
            self.suppressions[key] = _EMPTY_HS

    # -- main loop -------------------------------------------------------------------------------

    def run_file(self, src: _Source) -> None:
        """Process one source (top level or included), appending output and segments."""
        f = _File(src, self._fidx(src.name))
        lines = src.lines
        n = len(lines)
        first_orig = src.first_orig
        pieces = src.pieces
        unterm = src.unterm
        parts = self.parts
        seg_starts = self.seg_starts
        seg_info = self.seg_info
        fname = src.name
        pos = self.pos
        seg_open = False
        ln_next = -1
        search: Callable[[str], object] | None = None
        i = 0
        while i < n:
            line = lines[i]
            orig = first_orig[i]
            if "#" in line and line.lstrip().startswith("#"):
                self.pos = pos
                if self._directive(f, i, line, False):
                    seg_open = False  # an #include emitted text of its own
                pos = self.pos
                search = None
                text = ""
            elif not f.active:
                text = ""
            else:
                if search is None:
                    search = self._search()
                if search(line) is None and not (pieces and i in pieces):
                    text = line
                    if unterm and i in unterm:
                        self._report_unterm(f, i)
                else:
                    self.pos = pos
                    i = self._chunk(f, i) + 1
                    pos = self.pos
                    seg_open = False
                    search = None
                    continue
            if not seg_open or ln_next != orig:
                seg_starts.append(pos)
                seg_info.append((fname, orig, 1, _LINES, None))
                seg_open = True
            nphys = first_orig[i + 1] - orig
            parts.append(text)
            pos += len(text) + 1
            if nphys > 1:
                parts.extend([""] * (nphys - 1))
                pos += nphys - 1
            ln_next = orig + nphys
            i += 1
        self.pos = pos
        for c in f.cond:
            self.diags.append(error("ASC005", f"unterminated #{c.kind}", c.span))

    def _report_unterm(self, f: _File, idx: int) -> None:
        c0, kind = f.src.unterm[idx]
        line = f.src.lines[idx]
        quote = '"' if kind == "string" else "'"
        span = self._span(f, idx, c0, len(line.rstrip()))
        self.diags.append(error("ASC009", f"missing terminating {quote} character", span))

    # -- tokens --------------------------------------------------------------------------------

    def _tokenize(self, f: _File, idx: int, line: str, start: int) -> list[_Tok]:
        src = f.src
        fidx = f.fidx
        pcs = src.pieces.get(idx) if src.pieces else None
        ln = src.first_orig[idx]
        out: list[_Tok] = []
        append = out.append
        kinds = _KIND
        prev = start
        for m in _TOKEN_RE.finditer(line, start):
            c0, end = m.span()
            org = (fidx, ln, c0 + 1) if pcs is None else self._org(src, fidx, idx, c0)
            append(_Tok(kinds[m.lastgroup], line[c0:end], line[prev:c0], _EMPTY_HS, org, None))  # type: ignore[index]
            prev = end
        return out

    @staticmethod
    def _lex(text: str) -> list[_Tok]:
        """Tokens of text that has no place in a file (command-line defines, pasted tokens)."""
        out = []
        prev = 0
        for m in _TOKEN_RE.finditer(text):
            c0, end = m.span()
            out.append(_Tok(_KIND[m.lastgroup], text[c0:end], text[prev:c0], _EMPTY_HS, (-1, 0, 0), None))  # type: ignore[index]
            prev = end
        return out

    # -- chunks: lines that need macro expansion --------------------------------------------

    def _chunk(self, f: _File, i: int) -> int:
        """Expand line i (and any following lines a macro invocation spans); return the last line used."""
        src = f.src
        f.chunk_last = f.chunk_tok_line = i
        self.pulled = []
        toks = self._tokenize(f, i, src.lines[i], 0)
        if src.unterm and i in src.unterm:
            self._report_unterm(f, i)
        self.budget = 0
        try:
            out = self._expand(toks, lambda peek: self._more(f, peek))
        except (_Budget, RecursionError) as exc:
            what = "too large" if isinstance(exc, _Budget) else "nested too deeply"
            sp = self._tok_span(toks[0]) if toks else None
            self.diags.append(error("ASC008", f"macro expansion {what}; line left unexpanded", sp))
            out = toks + self.pulled  # lines already pulled in stay as they were
        self._render(out, f, i, f.chunk_last)
        return f.chunk_last

    def _more(self, f: _File, peek: bool) -> list[_Tok] | None:
        """Tokens of the next text line, for a macro invocation that goes on past the line end."""
        src = f.src
        lines = src.lines
        j = f.chunk_last + 1
        while j < len(lines):
            line = lines[j]
            if "#" in line and line.lstrip().startswith("#"):
                if peek:
                    return None
                m = _DIRECTIVE_RE.match(line)
                name = (m.group(1) or "") if m else ""
                if name not in _ARG_DIRECTIVES:
                    return None
                f.chunk_last = j
                self._directive(f, j, line, True)
                j += 1
                continue
            f.chunk_last = j
            if not f.active:
                j += 1
                continue
            toks = self._tokenize(f, j, line, 0)
            if src.unterm and j in src.unterm:
                self._report_unterm(f, j)
            if toks:
                toks[0].ws = "\n" * (j - f.chunk_tok_line) + toks[0].ws
                f.chunk_tok_line = j
                self.pulled.extend(toks)
                return toks
            j += 1
        return None

    def _render(self, toks: list[_Tok], f: _File, first: int, last: int) -> None:
        buf: list[str] = []
        pos = self.pos
        seg_starts, seg_info = self.seg_starts, self.seg_info
        # Whatever the tokens do not cover (indentation before a macro, padding) maps line by line.
        seg_starts.append(pos)
        seg_info.append((f.src.name, f.src.first_orig[first], 1, _LINES, None))
        cur_kind = -1
        cur_start = cur_line = cur_col = cur_file = 0
        cur_key: tuple[tuple[int, int, int], str | None] | None = None
        prev: _Tok | None = None
        for t in toks:
            ws = t.ws
            text = t.text
            if prev is not None and not ws and self._needs_space(prev, t):
                ws = " "
            text_start = pos + len(ws)
            o = t.org
            if t.macro is None:
                if not (
                    cur_kind == _LINEAR
                    and cur_file == o[0]
                    and cur_line == o[1]
                    and cur_col + text_start - cur_start == o[2]
                ):
                    nl = ws.rfind("\n")
                    tail = len(ws) - nl - 1
                    start, col = text_start - tail, o[2] - tail
                    if col < 1:
                        start, col = text_start, o[2]
                    seg_starts.append(start)
                    seg_info.append((self._fname(o[0]), o[1], col, _LINEAR, None))
                    cur_kind, cur_start, cur_file, cur_line, cur_col = _LINEAR, start, o[0], o[1], col
            else:
                key = (o, t.macro)
                if cur_kind != _POINT or cur_key != key:
                    seg_starts.append(text_start)
                    seg_info.append((self._fname(o[0]), o[1], o[2], _POINT, t.macro))
                    cur_kind, cur_key = _POINT, key
            buf.append(ws)
            buf.append(text)
            pos = text_start + len(text)
            prev = t
        out = "".join(buf)
        first_orig = f.src.first_orig
        pad = first_orig[last + 1] - first_orig[first] - 1 - out.count("\n")
        if pad > 0:
            out += "\n" * pad
        self.parts.append(out)
        self.pos += len(out) + 1

    @staticmethod
    def _needs_space(prev: _Tok, t: _Tok) -> bool:
        """Whether printing t right after prev would lex differently (`-` `-` must not become `--`)."""
        if prev.macro is None and t.macro is None:
            po, to = prev.org, t.org
            if po[0] == to[0] and po[1] == to[1] and po[2] + len(prev.text) == to[2]:
                return False
        m = _TOKEN_RE.match(prev.text + t.text)
        return m is None or m.end() != len(prev.text)

    # -- macro expansion -------------------------------------------------------------------------

    def _expand(self, toks: list[_Tok], more: Callable[[bool], list[_Tok] | None] | None) -> list[_Tok]:
        """Expand macros in toks (rescanning, hide sets); `more` supplies following lines, if any."""
        stack = toks[::-1]
        out: list[_Tok] = []
        macros = self.macros
        while stack:
            t = stack.pop()
            if t.kind != _ID:
                out.append(t)
                continue
            name = t.text
            m = macros.get(name)
            if m is None or name in t.hs:
                if name in _BUILTINS and name not in macros:
                    self._builtin(t, stack, out)
                else:
                    out.append(t)
                continue
            if m.params is None:
                body = self._subst(m, None, t.hs | {name}, t)
                self._push_expansion(t, body, stack)
                continue
            # Function-like: only an invocation when '(' follows, possibly on a later line.
            while not stack and more is not None:
                got = more(True)
                if got is None:
                    break
                stack.extend(reversed(got))
            if not stack or stack[-1].text != "(" or stack[-1].kind != _PUNCT:
                out.append(t)
                continue
            collected = self._collect(t, m, stack, more)
            if collected is None:
                out.append(t)
                continue
            args, rparen = collected
            body = self._subst(m, args, (t.hs & rparen.hs) | {name}, t)
            self._push_expansion(t, body, stack)
        return out

    def _push_expansion(self, t: _Tok, body: list[_Tok], stack: list[_Tok]) -> None:
        self.budget += len(body) + 1
        if self.budget > _EXPANSION_BUDGET:
            raise _Budget()
        if body:
            first = body[0]
            body[0] = _Tok(first.kind, first.text, t.ws, first.hs, first.org, first.macro)
            stack.extend(reversed(body))
        elif stack and t.ws:
            # An empty expansion must not glue its neighbours together, nor lose a line break.
            nxt = stack[-1]
            stack[-1] = _Tok(nxt.kind, nxt.text, t.ws + nxt.ws, nxt.hs, nxt.org, nxt.macro)

    def _builtin(self, t: _Tok, stack: list[_Tok], out: list[_Tok]) -> None:
        name = t.text
        mac = t.macro or name
        if name == "_Pragma":
            # `_Pragma("...")` is an operator whose effect we ignore: drop it from the output.
            if len(stack) >= 3 and stack[-1].text == "(" and stack[-2].kind == _STR and stack[-3].text == ")":
                del stack[-3:]
                return
            out.append(t)
            return
        if name == "__LINE__":
            out.append(_Tok(_NUM, str(t.org[1]), t.ws, t.hs, t.org, mac))
        elif name == "__FILE__":
            fname = self._fname(t.org[0])
            out.append(
                _Tok(
                    _STR, '"' + fname.replace("\\", "\\\\").replace('"', '\\"') + '"', t.ws, t.hs, t.org, mac
                )
            )
        else:
            out.append(_Tok(_NUM, str(self.counter), t.ws, t.hs, t.org, mac))
            self.counter += 1

    def _collect(
        self, name: _Tok, m: Macro, stack: list[_Tok], more: Callable[[bool], list[_Tok] | None] | None
    ) -> tuple[list[list[_Tok]], _Tok] | None:
        """Pop `( args )` off the stack; None (stack restored, diagnostic given) when that fails."""
        assert m.params is not None
        nparams = len(m.params)
        variadic = m.variadic
        consumed = [stack.pop()]
        args: list[list[_Tok]] = [[]]
        depth = 0
        while True:
            if not stack:
                got = more(False) if more is not None else None
                if got is None:
                    stack.extend(reversed(consumed))
                    self.diags.append(
                        error(
                            "ASC008",
                            f"unterminated argument list invoking macro '{m.name}'",
                            self._tok_span(name),
                        )
                    )
                    return None
                stack.extend(reversed(got))
                continue
            t = stack.pop()
            consumed.append(t)
            if t.kind == _PUNCT:
                c = t.text
                if c == "(":
                    depth += 1
                elif c == ")":
                    if depth == 0:
                        break
                    depth -= 1
                elif c == "," and depth == 0 and not (variadic and len(args) >= nparams):
                    args.append([])
                    continue
            args[-1].append(t)
        rparen = consumed[-1]
        if nparams == 0:
            if len(args) == 1 and not args[0]:
                return [], rparen
            msg = f"macro '{m.name}' passed {len(args)} arguments, but takes just 0"
        elif len(args) == nparams or (variadic and len(args) == nparams - 1):
            if len(args) < nparams:
                args.append([])
            return args, rparen
        elif len(args) < nparams:
            msg = f"macro '{m.name}' requires {nparams} arguments, but only {len(args)} given"
        else:
            msg = f"macro '{m.name}' passed {len(args)} arguments, but takes just {nparams}"
        self.diags.append(error("ASC008", msg, self._tok_span(name)))
        stack.extend(reversed(consumed))
        return None

    def _subst(self, m: Macro, args: list[list[_Tok]] | None, hs: frozenset[str], inv: _Tok) -> list[_Tok]:
        """The replacement list with parameters substituted, `#` and `##` applied, and hide set hs."""
        org = inv.org
        mac = inv.macro or inv.text
        body: Sequence[_Tok] = m._tokens
        pidx: Sequence[int] = m._pidx
        if args is None:
            res = [_Tok(t.kind, t.text, " " if t.ws else "", hs, org, mac) for t in body]
            if any(t.kind == _PUNCT and t.text == "##" for t in body):
                res = self._paste_all(res, inv)
            return res
        if m._vaopt:
            body, pidx = self._resolve_vaopt(m, args)
        expanded: dict[int, list[_Tok]] = {}
        out: list[_Tok | None] = []  # None is a placemarker (an empty argument next to ##)
        n = len(body)
        i = 0
        while i < n:
            t = body[i]
            p = pidx[i]
            if t.kind == _PUNCT and t.text == "#" and i + 1 < n and pidx[i + 1] >= 0:
                out.append(self._stringize(args[pidx[i + 1]], " " if t.ws else "", hs, org, mac))
                i += 2
                continue
            if t.kind == _PUNCT and t.text == "##" and i + 1 < n:
                np_ = pidx[i + 1]
                skip = 2
                if np_ >= 0:
                    rhs = [self._copy(a, hs, org, mac) for a in args[np_]]
                elif body[i + 1].text == "#" and i + 2 < n and pidx[i + 2] >= 0:
                    rhs = [self._stringize(args[pidx[i + 2]], "", hs, org, mac)]
                    skip = 3
                else:
                    nb = body[i + 1]
                    rhs = [_Tok(nb.kind, nb.text, "", hs, org, mac)]
                lhs = out.pop() if out else None
                if lhs is not None and lhs.text == "," and np_ >= 0 and m.variadic and np_ == len(args) - 1:
                    # GNU `, ## __VA_ARGS__`: the comma disappears with an empty variadic argument.
                    if rhs:
                        out.append(lhs)
                        out.extend(rhs)
                    i += skip
                    continue
                if not rhs:
                    out.append(lhs)
                elif lhs is None:
                    rhs[0].ws = ""
                    out.extend(rhs)
                else:
                    out.extend(self._paste(lhs, rhs[0], inv))
                    out.extend(rhs[1:])
                i += skip
                continue
            if p >= 0:
                if i + 1 < n and body[i + 1].kind == _PUNCT and body[i + 1].text == "##":
                    arg = [self._copy(a, hs, org, mac) for a in args[p]]
                    if not arg:
                        out.append(None)
                        i += 1
                        continue
                else:
                    ex = expanded.get(p)
                    if ex is None:
                        ex = expanded[p] = self._expand(list(args[p]), None)
                    arg = [self._copy(a, hs, org, mac) for a in ex]
                if arg:
                    arg[0].ws = " " if t.ws else ""
                out.extend(arg)
                i += 1
                continue
            out.append(_Tok(t.kind, t.text, " " if t.ws else "", hs, org, mac))
            i += 1
        return [x for x in out if x is not None]

    @staticmethod
    def _copy(a: _Tok, hs: frozenset[str], org: tuple[int, int, int], mac: str) -> _Tok:
        return _Tok(a.kind, a.text, " " if a.ws else "", a.hs | hs if a.hs else hs, org, mac)

    def _paste_all(self, toks: list[_Tok], inv: _Tok) -> list[_Tok]:
        """`##` in an object-like macro: paste neighbours left to right."""
        out: list[_Tok] = []
        i = 0
        while i < len(toks):
            t = toks[i]
            if t.kind == _PUNCT and t.text == "##" and out and i + 1 < len(toks):
                out.extend(self._paste(out.pop(), toks[i + 1], inv))
                i += 2
                continue
            out.append(t)
            i += 1
        return out

    def _paste(self, a: _Tok, b: _Tok, inv: _Tok) -> list[_Tok]:
        text = a.text + b.text
        m = _TOKEN_RE.match(text)
        if m is not None and m.end() == len(text):
            return [_Tok(_KIND[m.lastgroup], text, a.ws, a.hs | b.hs, a.org, a.macro)]  # type: ignore[index]
        self.diags.append(
            error(
                "ASC008",
                f'pasting "{a.text}" and "{b.text}" does not give a valid preprocessing token',
                self._tok_span(inv),
            )
        )
        return [a, _Tok(b.kind, b.text, " ", b.hs, b.org, b.macro)]

    @staticmethod
    def _stringize(arg: list[_Tok], ws: str, hs: frozenset[str], org: tuple[int, int, int], mac: str) -> _Tok:
        pieces = []
        for k, a in enumerate(arg):
            if k and a.ws:
                pieces.append(" ")
            if a.kind in (_STR, _CHR):
                pieces.append(a.text.replace("\\", "\\\\").replace('"', '\\"'))
            else:
                pieces.append(a.text)
        return _Tok(_STR, '"' + "".join(pieces) + '"', ws, hs, org, mac)

    def _resolve_vaopt(self, m: Macro, args: list[list[_Tok]]) -> tuple[list[_Tok], list[int]]:
        """Replace `__VA_OPT__(x)` by x when the variadic argument expands to something, else drop it."""
        self.budget += len(args[-1])
        present = bool(self._expand(list(args[-1]), None)) if args else False
        body, pidx = list(m._tokens), list(m._pidx)
        rb: list[_Tok] = []
        rp: list[int] = []
        i = 0
        while i < len(body):
            t = body[i]
            if t.kind == _ID and t.text == "__VA_OPT__" and i + 1 < len(body) and body[i + 1].text == "(":
                depth, j = 0, i + 1
                while j < len(body):
                    if body[j].text == "(":
                        depth += 1
                    elif body[j].text == ")":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                if present:
                    rb.extend(body[i + 2 : j])
                    rp.extend(pidx[i + 2 : j])
                i = j + 1
                continue
            rb.append(t)
            rp.append(pidx[i])
            i += 1
        return rb, rp

    # -- macro definitions -----------------------------------------------------------------------

    def _make_macro(
        self,
        name: str,
        params: tuple[str, ...] | None,
        variadic: bool,
        body: list[_Tok],
        origin: Origin | None,
    ) -> Macro:
        if body:
            body[0] = _Tok(body[0].kind, body[0].text, "", body[0].hs, body[0].org, None)
        pidx: list[int] = []
        index = {p: k for k, p in enumerate(params or ())}
        for t in body:
            pidx.append(index.get(t.text, -1) if t.kind == _ID and params is not None else -1)
        text = "".join((" " if k and t.ws else "") + t.text for k, t in enumerate(body))
        vaopt = variadic and any(t.kind == _ID and t.text == "__VA_OPT__" for t in body)
        return Macro(name, params, variadic, text, origin, tuple(body), tuple(pidx), vaopt)

    def _parse_define(self, toks: list[_Tok], k: int, named_span: Span | None) -> Macro:
        """Parse `NAME[(params)] body` from toks[k:]; raise _PPError with a message on bad syntax."""
        if k >= len(toks):
            raise _PPError("no macro name given in #define directive")
        nt = toks[k]
        if nt.kind != _ID:
            raise _PPError("macro names must be identifiers")
        if nt.text in ("defined", "__VA_ARGS__", "__VA_OPT__", "__has_include"):
            raise _PPError(f"'{nt.text}' cannot be used as a macro name")
        k += 1
        params: tuple[str, ...] | None = None
        variadic = False
        if k < len(toks) and toks[k].text == "(" and not toks[k].ws:
            plist: list[str] = []
            k += 1
            while True:
                if k >= len(toks):
                    raise _PPError("missing ')' in macro parameter list")
                t = toks[k]
                if t.text == ")" and not plist and not variadic:
                    k += 1
                    break
                if t.text == "...":
                    variadic = True
                    plist.append("__VA_ARGS__")
                    k += 1
                elif t.kind == _ID:
                    if t.text in plist:
                        raise _PPError(f"duplicate macro parameter '{t.text}'")
                    if t.text == "__VA_ARGS__":
                        raise _PPError("__VA_ARGS__ can only appear in the expansion of a variadic macro")
                    plist.append(t.text)
                    k += 1
                    if k < len(toks) and toks[k].text == "...":
                        variadic = True  # GNU named variadic parameter `args...`
                        k += 1
                else:
                    raise _PPError(f"expected parameter name, found '{t.text}'")
                if k >= len(toks):
                    raise _PPError("missing ')' in macro parameter list")
                if toks[k].text == ")":
                    k += 1
                    break
                if toks[k].text != "," or variadic:
                    raise _PPError("expected ',' or ')' in macro parameter list")
                k += 1
            params = tuple(plist)
        body = toks[k:]
        if body and body[0].kind == _PUNCT and body[0].text == "##" or body and body[-1].text == "##":
            raise _PPError("'##' cannot appear at either end of a macro expansion")
        if params is not None:
            for j, t in enumerate(body):
                if t.kind == _PUNCT and t.text == "#":
                    nxt = body[j + 1] if j + 1 < len(body) else None
                    if (
                        nxt is None
                        or nxt.kind != _ID
                        or (nxt.text not in params and nxt.text != "__VA_OPT__")
                    ):
                        raise _PPError("'#' is not followed by a macro parameter")
        org = None
        if named_span is not None:
            org = Origin(named_span.file, nt.org[1], nt.org[2])
        return self._make_macro(nt.text, params, variadic, body, org)

    def define_from_option(self, key: str, value: str) -> None:
        """A `defines` entry: key `NAME` or `NAME(params)`, value the replacement text."""
        cached = _OPTION_CACHE.get((key, value))
        if cached is not None:
            self._set_macro(cached)
            return
        try:
            toks = self._lex(key)
            if len(toks) > 1 and toks[1].text == "(":
                toks[1].ws = ""
            m = self._parse_define(toks + self._lex(" " + value if value else ""), 0, None)
            if len(toks) > 1 and (m.params is None):
                raise _PPError(f"invalid macro name '{key}'")
            if len(_OPTION_CACHE) < 4096:
                _OPTION_CACHE[(key, value)] = m
            self._set_macro(m)
        except _PPError as exc:
            self.diags.append(error("ASC007", f"bad define '{key}': {exc}", None))

    # -- directives ------------------------------------------------------------------------------

    def _directive(self, f: _File, idx: int, line: str, in_args: bool) -> bool:
        """Handle one directive line; True when it emitted text (an #include)."""
        m = _DIRECTIVE_RE.match(line)
        if m is None:
            return False
        name = m.group(1) or ""
        rest = m.end()
        hash_c0 = line.index("#")
        name_span = self._span(f, idx, hash_c0, rest)
        if name in _CONDITIONALS:
            self._conditional(f, idx, line, name, rest, name_span)
            return False
        if not f.active:
            return False
        if not in_args:
            self.budget = 0
        try:
            if name == "define":
                toks = self._tokenize(f, idx, line, rest)
                mac = self._parse_define(toks, 0, name_span)
                old = self.macros.get(mac.name)
                if old is not None and old.origin is not None and old.same_definition(mac):
                    return False  # a benign redefinition: keep the first one's origin
                if old is not None and old.origin is not None:
                    o = old.origin
                    self.diags.append(
                        warning(
                            "ASC008",
                            f"'{mac.name}' redefined",
                            self._tok_span(toks[0]),
                            Note("previous definition is here", Span.point(o.file, o.line, o.col)),
                        )
                    )
                self._set_macro(mac)
            elif name == "undef":
                toks = self._tokenize(f, idx, line, rest)
                if not toks:
                    raise _PPError("no macro name given in #undef directive")
                if toks[0].kind != _ID:
                    raise _PPError("macro names must be identifiers")
                self._del_macro(toks[0].text)
            elif name in ("include", "include_next", "import"):
                if in_args:
                    raise _PPError("#include inside macro arguments is not supported")
                return self._include(f, idx, line, rest, name_span)
            elif name in ("error", "warning"):
                msg = line[rest:].strip() or f"#{name}"
                span = self._span(f, idx, hash_c0, len(line.rstrip()))
                make = error if name == "error" else warning
                self.diags.append(make("ASC004", msg, span))
            elif name == "pragma":
                toks = self._tokenize(f, idx, line, rest)
                if toks and toks[0].text == "once":
                    self.once.add(f.src.name)
            elif name == "line" or name == "":
                toks = self._tokenize(f, idx, line, rest)
                if name == "line" and (not toks or toks[0].kind != _NUM):
                    if toks:
                        toks = self._expand(toks, None)
                    if not toks or toks[0].kind != _NUM or not toks[0].text.isdigit():
                        raise _PPError("#line directive requires a positive integer argument")
                elif name == "" and toks and toks[0].kind != _NUM:
                    raise _PPError(f"invalid preprocessing directive #{toks[0].text}")
            elif name in ("ident", "sccs", "assert", "unassert"):
                pass
            else:
                raise _PPError(f"invalid preprocessing directive #{name}")
        except _PPError as exc:
            self.diags.append(error("ASC007", str(exc), name_span))
        except (_Budget, RecursionError):
            self.diags.append(error("ASC008", "macro expansion too large in directive", name_span))
        return False

    def _conditional(self, f: _File, idx: int, line: str, name: str, rest: int, span: Span) -> None:
        cond = f.cond
        if name in ("if", "ifdef", "ifndef"):
            if not f.active:
                cond.append(_Cond(False, True, False, span, name))
            else:
                val = self._cond_value(f, idx, line, name, rest, span)
                cond.append(_Cond(val, val, True, span, name))
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

    def _cond_value(self, f: _File, idx: int, line: str, name: str, rest: int, span: Span) -> bool:
        toks = self._tokenize(f, idx, line, rest)
        if name in ("ifdef", "ifndef", "elifdef", "elifndef"):
            if not toks or toks[0].kind != _ID:
                msg = (
                    f"no macro name given in #{name} directive"
                    if not toks
                    else "macro names must be identifiers"
                )
                self.diags.append(error("ASC007", msg, span))
                return False
            d = toks[0].text in self.macros or toks[0].text in _BUILTINS
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
        except _PPError as exc:
            self.diags.append(error("ASC006", f"#{name}: {exc}", espan))
        except (_Budget, RecursionError):
            self.diags.append(error("ASC006", f"#{name}: expression too large or too deeply nested", espan))
        return False

    def _resolve_defined(self, toks: list[_Tok], f: _File, has: bool) -> list[_Tok]:
        """Replace `defined X`, `defined(X)` (and with has=True, `__has_*(...)`) by 0 or 1."""
        out: list[_Tok] = []
        n = len(toks)
        i = 0
        while i < n:
            t = toks[i]
            if t.kind == _ID and t.text == "defined":
                j = i + 1
                paren = j < n and toks[j].text == "("
                if paren:
                    j += 1
                if j >= n or toks[j].kind != _ID:
                    raise _PPError("operator 'defined' requires an identifier")
                val = toks[j].text in self.macros or toks[j].text in _BUILTINS
                j += 1
                if paren:
                    if j >= n or toks[j].text != ")":
                        raise _PPError("missing ')' after 'defined'")
                    j += 1
                out.append(_Tok(_NUM, "1" if val else "0", t.ws, _EMPTY_HS, t.org, None))
                i = j
                continue
            if has and t.kind == _ID and t.text.startswith("__has_") and t.text not in self.macros:
                if i + 1 >= n or toks[i + 1].text != "(":
                    raise _PPError(f"missing '(' after '{t.text}'")
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
                    raise _PPError(f"missing ')' after '{t.text}'")
                val = False
                if t.text in ("__has_include", "__has_include_next"):
                    val = self._has_include(toks[i + 2 : j], f)
                out.append(_Tok(_NUM, "1" if val else "0", t.ws, _EMPTY_HS, t.org, None))
                i = j + 1
                continue
            out.append(t)
            i += 1
        return out

    def _header_name(self, toks: list[_Tok]) -> tuple[str, bool] | None:
        """(name, angled) from `"x"` or `<x>` tokens, expanding macros once if needed."""
        for attempt in range(2):
            if toks and toks[0].kind == _STR and toks[0].text.startswith('"'):
                text = toks[0].text
                if len(text) >= 2 and text.endswith('"'):
                    return text[1:-1], False
                return None
            if toks and toks[0].text == "<":
                parts: list[str] = []
                for k, t in enumerate(toks[1:]):
                    if t.text == ">":
                        return "".join(parts).strip(), True
                    parts.append((t.ws if k else "") + t.text)
                return None
            if attempt == 0:
                toks = self._expand(toks, None)
        return None

    def _has_include(self, toks: list[_Tok], f: _File) -> bool:
        hn = self._header_name(toks)
        if hn is None:
            raise _PPError("__has_include requires a header name")
        name, angled = hn
        if _known_header(name):
            return True
        return self._resolve(name, f, angled) is not None

    def _search_dirs(self, f: _File, angled: bool) -> list[str]:
        """The folders an include is looked up in, in order, as GCC and clang search them: a quoted one next to
        the including file, then in the -iquote folders; both kinds then in the -I and the -isystem folders."""
        quoted = [] if angled else [os.path.dirname(f.src.name) or ".", *self.quote_dirs]
        return [*quoted, *self.include_dirs, *self.system_dirs]

    def _resolve(self, name: str, f: _File, angled: bool = False) -> str | None:
        """Find an include along _search_dirs (and where the op build copies op_kernel folders to)."""
        if os.path.isabs(name):
            candidates = [name]
        else:
            candidates = [os.path.join(d, name) for d in self._search_dirs(f, angled)]
            if not angled:
                candidates += _op_build_candidates(f.src.name, name)
        return self._first_readable(candidates)

    def _first_readable(self, candidates: Sequence[str]) -> str | None:
        """The first of `candidates` that can be read (its text kept in self.texts), normalised."""
        for c in candidates:
            path = os.path.normpath(c)
            if path in self.texts:
                if self.texts[path] is not None:
                    return path
                continue
            try:
                text: str | None = self.read_file(path)
                if not isinstance(text, str):
                    text = None
            except Exception:  # noqa: BLE001 - any failure of a user-supplied reader means "not there"
                text = None
            self.texts[path] = text
            if text is not None:
                return path
        return None

    def force_include(self, name: str, main: str) -> None:
        """`-include name`: the header read as if `#include "name"` were the main file's first line, looked up
        from the working folder first (as GCC does), then along the include folders."""
        dirs = [os.getcwd(), *self.quote_dirs, *self.include_dirs, *self.system_dirs]
        candidates = [name] if os.path.isabs(name) else [os.path.join(d, name) for d in dirs]
        path = self._first_readable(candidates)
        if path is None:
            span = Span(main, 1, 1, 1, 2)
            searched = "the working folder" if os.path.isabs(name) else ", ".join(dirs)
            self.diags.append(warning("ASC002", f"cannot find forced include file '{name}' (-include); skipped",
                                      span, Note(f"searched: {searched}")))
            self.missing_includes.append(name)
            return
        self._enter(path, name, None)

    def in_system_dir(self, path: str) -> bool:
        """Whether `path` lies under an -isystem folder: a system header, whose warnings are not the user's."""
        return any(path.startswith(os.path.join(d, "")) for d in self.system_dirs)

    def _include(self, f: _File, idx: int, line: str, rest: int, name_span: Span) -> bool:
        toks = self._tokenize(f, idx, line, rest)
        hn = self._header_name(toks)
        line_span = self._span(f, idx, line.index("#"), len(line.rstrip()))
        if hn is None or not hn[0]:
            raise _PPError('#include expects "FILENAME" or <FILENAME>')
        name, angled = hn
        path = None
        if angled and not _known_header(name) and (self.include_dirs or self.system_dirs):
            path = self._resolve(name, f, True)  # a library's `<catlass/catlass.hpp>` under an -I folder
        if path is None and (angled or _known_header(name)):
            self.vendor_includes.append(name)
            # A `.asc` source is built by ascc, for which kernel_type.h declares these as enumerators instead;
            # an op_host source that reaches a kernel header (a tiling .cpp including the kernel's DAG header)
            # is built by the host compiler and writes `ge::DT_FLOAT16`, which the macros would turn into `ge::1`.
            main = self.stack[0] if self.stack else ""
            if os.path.basename(name) in vendor.KERNEL_TYPE_HEADERS and not (
                main.endswith(".asc") or in_op_host(main)
            ):
                for key, value in vendor.KERNEL_TYPE_MACROS.items():
                    if key not in self.macros:  # a project's own #define comes first
                        self.define_from_option(key, value)
            if os.path.basename(name) == vendor.TEMPLATE_ARGUMENT_HEADER and not (
                main.endswith(".asc") or in_op_host(main)
            ):
                for key in vendor.TEMPLATE_ARGUMENT_KERNEL_MACROS:
                    if key.split("(", 1)[0] not in self.macros:
                        self.define_from_option(key, "")
            return False
        if path is None:
            path = self._resolve(name, f)
        if path is None:
            if os.path.basename(name) not in _KNOWN_BASENAMES:
                searched = ", ".join(self._search_dirs(f, False))
                self.diags.append(warning("ASC002", f"cannot find include file '{name}'; skipped", line_span,
                                          Note(f"searched: {searched}")))
                self.missing_includes.append(name)
            return False
        return self._enter(path, name, line_span)

    def _enter(self, path: str, name: str, line_span: Span | None) -> bool:
        """Preprocess the found header `path` (written `name`) where it is included."""
        if path in self.once:
            return False
        if len(self.stack) - 1 >= self.max_depth:  # the main file is not an inclusion
            notes = []
            if path in self.stack:
                chain = " -> ".join(self.stack[self.stack.index(path) :] + [path])
                notes.append(Note(f"include cycle: {chain}"))
            self.diags.append(
                error(
                    "ASC003",
                    f"#include nested too deeply (limit {self.max_depth}); '{name}' skipped",
                    line_span,
                    *notes,
                )
            )
            return False
        if path not in self.includes:
            self.includes.append(path)
        text = self.texts.get(path) or ""
        src = self._prepare(path, text, True)
        self.stack.append(path)
        try:
            self.run_file(src)
        finally:
            self.stack.pop()
        return True


# ----------------------------------------------------------------------------------------------
# #if expressions

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

    def __init__(self, toks: list[_Tok]) -> None:
        self.toks = [
            _Tok(_PUNCT, _ALT_OPS[t.text], t.ws, t.hs, t.org, t.macro)
            if t.kind == _ID and t.text in _ALT_OPS
            else t
            for t in toks
        ]
        self.i = 0

    def parse(self) -> int:
        v, _ = self.expr(1, True)
        if self.i < len(self.toks):
            raise _PPError(f"missing binary operator before token '{self.toks[self.i].text}'")
        return v

    def peek(self) -> str | None:
        return self.toks[self.i].text if self.i < len(self.toks) else None

    def expr(self, min_prec: int, live: bool) -> _Val:
        lhs = self.unary(live)
        while True:
            op = self.peek()
            prec = _BINARY_PREC.get(op) if op is not None else None
            if prec is None or prec < min_prec or self.toks[self.i].kind != _PUNCT:
                return lhs
            self.i += 1
            assert op is not None
            if op == "?":
                cond = lhs[0] != 0
                a = self.expr(1, live and cond)
                if self.peek() != ":":
                    raise _PPError("'?' without following ':'")
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
                    raise _PPError("division by zero")
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
            raise _PPError("expected value in expression")
        t = self.toks[self.i]
        self.i += 1
        if t.kind == _PUNCT:
            if t.text == "(":
                inner = self.expr(1, live)
                if self.peek() != ")":
                    raise _PPError("missing ')' in expression")
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
            raise _PPError(f"token '{t.text}' is not valid in preprocessor expressions")
        if t.kind == _NUM:
            return _parse_int(t.text)
        if t.kind == _CHR:
            return (_char_value(t.text), False)
        if t.kind == _ID:
            # C: identifiers left after macro expansion are 0; C++ keywords true/false are not.
            return (1 if t.text == "true" else 0, False)
        raise _PPError(f"token '{t.text}' is not valid in preprocessor expressions")


def _parse_int(text: str) -> _Val:
    m = _INT_RE.fullmatch(text.replace("'", ""))
    if m is None:
        hexa = text[:2] in ("0x", "0X")
        if "." in text or any(c in text for c in ("pP" if hexa else "eE")):
            raise _PPError(f"floating constant '{text}' in preprocessor expression")
        raise _PPError(f"invalid integer constant '{text}'")
    digits, suffix = m.group(1), m.group(2) or ""
    if len(digits) > 40:  # no 64-bit value has this many digits (and int() refuses thousands of them)
        raise _PPError(f"integer constant '{text[:24]}...' is too large")
    if digits[:2] in ("0x", "0X", "0b", "0B"):
        v = int(digits, 0)
    elif digits.startswith("0") and len(digits) > 1:
        v = int(digits[1:], 8)
    else:
        v = int(digits)
    if v > _MASK:
        raise _PPError(f"integer constant '{text}' is too large")
    unsigned = "u" in suffix.lower() or v >= 1 << 63
    return (v, unsigned)


def _char_value(text: str) -> int:
    q = text.index("'")
    body = text[q + 1 : -1] if text.endswith("'") and len(text) > q + 1 else text[q + 1 :]
    if not body:
        raise _PPError("empty character constant")
    if body[0] != "\\":
        return ord(body[0])
    if len(body) < 2:
        raise _PPError("invalid character constant")
    c = body[1]
    if c in "xX":
        try:
            return int("0x" + body[2:], 0) & 0xFF
        except ValueError:
            raise _PPError("invalid hex escape in character constant") from None
    if c in "01234567":
        digits = re.match(r"[0-7]{1,3}", body[1:])
        assert digits is not None
        return int(digits.group(), 8) & 0xFF
    return _ESCAPES.get(c, ord(c))


# ----------------------------------------------------------------------------------------------
# Entry point


def _initial_macros(pp: _Preprocessor, defines: Mapping[str, str | None] | None) -> None:
    table: dict[str, str | None] = {}
    table.update(vendor.DEFAULT_DEFINES)
    table.update(vendor.PREDEFINED_MACROS)
    if defines:
        for key, value in defines.items():
            if value is None:
                base = key.split("(", 1)[0].strip()
                for k in [k for k in table if k.split("(", 1)[0].strip() == base]:
                    del table[k]
                table[base] = None
            else:
                table[key] = str(value)  # tolerate numbers from config files
    for key, value in table.items():
        if value is None:
            pp._del_macro(key.split("(", 1)[0].strip())
        else:
            pp.define_from_option(key.strip(), value)


def preprocess(
    text: str,
    filename: str,
    *,
    defines: Mapping[str, str | None] | None = None,
    include_dirs: Sequence[str] = (),
    read_file: Callable[[str], str] | None = None,
    max_include_depth: int = 32,
    system_dirs: Sequence[str] = (),
    quote_dirs: Sequence[str] = (),
    forced_includes: Sequence[str] = (),
) -> PreprocessResult:
    """Preprocess `text` (the contents of `filename`); never raises, problems become diagnostics.
    `include_dirs`, `system_dirs`, `quote_dirs`: -I, -isystem, -iquote folders (frontend.includes has the
    search order); `forced_includes`: -include files, read before the first line."""
    pp = _Preprocessor(include_dirs, read_file or _default_read, max_include_depth, system_dirs, quote_dirs)
    try:
        _initial_macros(pp, defines)
        pp.stack.append(os.path.normpath(filename) if filename else filename)
        for name in forced_includes:
            pp.force_include(name, filename)
        src = pp._prepare(filename, text if isinstance(text, str) else str(text), False)
        pp.run_file(src)
        if pp.system_dirs:  # as compilers do, no warnings from system headers
            pp.diags = [d for d in pp.diags if d.is_error or d.span is None or not pp.in_system_dir(d.span.file)]
        out = "\n".join(pp.parts)
        if not pp.seg_starts:
            pp._fidx(filename)
            pp.seg_starts.append(0)
            pp.seg_info.append((filename, 1, 1, _LINES, None))
    except Exception as exc:  # noqa: BLE001 - a bug here must not take the caller down: hand back the text
        pp.diags.append(error("ASC009", f"internal preprocessor error: {type(exc).__name__}: {exc}", None))
        out = text if isinstance(text, str) else ""
        pp.files = [filename]
        pp.seg_starts = [0]
        pp.seg_info = [(filename, 1, 1, _LINES, None)]
    return PreprocessResult(
        text=out,
        diagnostics=pp.diags,
        includes=pp.includes,
        macros=dict(pp.macros),
        missing_includes=pp.missing_includes,
        suppressions=pp.suppressions,
        vendor_includes=pp.vendor_includes,
        _seg_starts=pp.seg_starts,
        _seg_info=pp.seg_info,
        _files=pp.files,
    )
