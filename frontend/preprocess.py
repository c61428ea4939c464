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

Layout: this module keeps `preprocess()`, the preprocessor's state (_Preprocessor: diagnostics' spans,
the macro table and its fast-path search, the per-file main loop). _Preprocessor's other methods are grouped
by purpose into mixin classes it inherits:

- preprocess_lexing.py (SourceReading): line splicing, comments and suppressions, tokens;
- preprocess_expand.py (MacroExpansion): lines that need expansion, macro expansion, `#`, `##`, __VA_OPT__;
- preprocess_directives.py (Directives): the directive dispatch, `#define` / `#undef` and -D options;
- preprocess_conditions.py (ConditionalCompilation): `#if` / `#ifdef` / `#elif` ... and `#if` expressions;
- preprocess_includes.py (IncludeResolution): `#include` / `__has_include`: header names, search order,
  vendor headers not read, -include files.

Module-level parts: preprocess_types.py (Origin, Macro, PreprocessResult and the per-file state).
Other modules import Origin, Macro, PreprocessResult and preprocess from here as before.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence

from frontend import vendor
from frontend.diagnostics import Diagnostic, Span, error
from frontend.preprocess_conditions import ConditionalCompilation
from frontend.preprocess_directives import Directives
from frontend.preprocess_expand import MacroExpansion
from frontend.preprocess_includes import IncludeResolution
from frontend.preprocess_lexing import SourceReading
from frontend.preprocess_tokens import BUILTINS, Tok
from frontend.preprocess_types import (
    LINES,
    File,
    Macro as Macro,
    PreprocessResult as PreprocessResult,
    Source,
)

# Defined in the modules this one was split into; other modules import them from here.
from frontend.preprocess_types import Origin as Origin


__all__ = ["Macro", "Origin", "PreprocessResult", "preprocess"]
_IDENT_RE = re.compile(r"\b[^\W\d]\w*")
_MAX_SEARCH_REBUILDS = 64


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


def _default_read(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as fh:
        return fh.read()


# Compiled "does this line mention a macro" tests, by macro-name set: most runs share a few sets.
_SEARCH_CACHE: dict[frozenset[str], Callable[[str], object]] = {}


class _Preprocessor(SourceReading, MacroExpansion, Directives, ConditionalCompilation, IncludeResolution):

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
        self.names: set[str] = set(BUILTINS)  # macro names plus builtins: what sends a line to the slow path
        self.suppressions: dict[tuple[str, int], frozenset[str]] = {}
        self.files: list[str] = []
        self.file_index: dict[str, int] = {}
        self.parts: list[str] = []
        self.pos = 0
        self.seg_starts: list[int] = []
        # (file name, line, col, kind, macro) per segment; see PreprocessResult.origin.
        self.seg_info: list[tuple[str, int, int, int, str | None]] = []
        self.sources: dict[str, Source] = {}
        self.texts: dict[str, str | None] = {}
        self.once: set[str] = set()
        self.stack: list[str] = []
        self.counter = 0
        self.budget = 0
        self.pulled: list[Tok] = []
        self.search_dirty = True
        self.search_builds = 0
        self.search_fn: Callable[[str], object] = lambda line: None

    def _span(self, f: File, idx: int, c0: int, c1: int) -> Span:
        _, l0, col0 = self._org(f.src, f.fidx, idx, c0)
        _, l1, col1 = self._org(f.src, f.fidx, idx, max(c0, c1 - 1))
        return Span(f.src.name, l0, col0, l1, col1 + (1 if c1 > c0 else 0))

    def _tok_span(self, t: Tok) -> Span | None:
        fi, line, col = t.org
        if not 0 <= fi < len(self.files):
            return None
        return Span(self.files[fi], line, col, line, col + (len(t.text) if t.macro is None else 1))

    @staticmethod
    def _org(src: Source, fidx: int, idx: int, c0: int) -> tuple[int, int, int]:
        pcs = src.pieces.get(idx) if src.pieces else None
        if pcs is None:
            return (fidx, src.first_orig[idx], c0 + 1)
        starts, infos = pcs
        k = bisect_right(starts, c0) - 1
        line, col = infos[max(k, 0)]
        return (fidx, line, col + c0 - starts[max(k, 0)])

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
        if self.macros.pop(name, None) is not None and name not in BUILTINS:
            self.names.discard(name)
            self.search_dirty = True

    def _fname(self, fidx: int) -> str:
        return self.files[fidx] if 0 <= fidx < len(self.files) else "<command line>"

    def _fidx(self, name: str) -> int:
        k = self.file_index.get(name)
        if k is None:
            k = self.file_index[name] = len(self.files)
            self.files.append(name)
        return k

    def run_file(self, src: Source) -> None:
        """Process one source (top level or included), appending output and segments."""
        f = File(src, self._fidx(src.name))
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
                seg_info.append((fname, orig, 1, LINES, None))
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
            pp.seg_info.append((filename, 1, 1, LINES, None))
    except Exception as exc:  # noqa: BLE001 - a bug here must not take the caller down: hand back the text
        pp.diags.append(error("ASC009", f"internal preprocessor error: {type(exc).__name__}: {exc}", None))
        out = text if isinstance(text, str) else ""
        pp.files = [filename]
        pp.seg_starts = [0]
        pp.seg_info = [(filename, 1, 1, LINES, None)]
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
