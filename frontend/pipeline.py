"""The frontend end to end: read an input, preprocess and parse every source in it, map spans back.

`load(path)` is what the CLI, the lowering and the benchmark call. It never raises on user input:
unreadable files, bad answers, preprocessor and syntax errors all come back as diagnostics.
"""

from __future__ import annotations

import gc
import os
import weakref
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping

from frontend import ast as A
from frontend import parse_cache
from frontend.diagnostics import Diagnostic, Note, Span, error, sort_key
from frontend.parser import get_parser
from frontend.preprocess import PreprocessResult, preprocess
from frontend.readers import Bundle, SourceUnit, collect_inputs, read_input

INTERNAL_ERROR = "ASC000"


@dataclass
class ParsedUnit:
    unit: SourceUnit
    ast: A.TranslationUnit
    preprocessed: PreprocessResult | None
    diagnostics: list[Diagnostic]
    # The chip this source was preprocessed for, where it differs from the rest of its program's (an op
    # project holding 910B kernels and, in arch35 folders, Ascend 950 ones); None: the program's.
    target: str | None = None


@dataclass
class Program:
    """One input (file, project or answer) after the frontend."""

    bundle: Bundle
    units: list[ParsedUnit] = field(default_factory=list)
    # the bundle's context_units parsed: what the build puts before a kernel file read alone (its tiling
    # headers); the lowering reads their tiling structs, nothing checks them
    context: list[ParsedUnit] = field(default_factory=list)
    _lines: dict[str, list[str]] = field(default_factory=dict, repr=False)  # split once per file, for rendering

    @property
    def diagnostics(self) -> list[Diagnostic]:
        seen: set[tuple[object, ...]] = set()
        out: list[Diagnostic] = []
        for d in [*self.bundle.diagnostics, *(d for u in self.units for d in u.diagnostics)]:
            key = (d.code, d.message, d.span)
            if key not in seen:
                seen.add(key)
                out.append(d)
        return sorted(out, key=sort_key)

    def line(self, file: str, line: int) -> str | None:
        """Source line `line` of `file` as the user wrote it (for carets under diagnostics)."""
        lines = self._lines.get(file)
        if lines is None:
            text = self.bundle.texts.get(file)
            if text is None:
                try:
                    with open(file, encoding="utf-8", errors="replace") as fh:
                        text = fh.read()
                except OSError:
                    return None
                self.bundle.texts[file] = text
            lines = self._lines[file] = text.splitlines()
        return lines[line - 1] if 0 < line <= len(lines) else None


class _Placement:
    """Maps preprocessor origins (file, line, col) to where the text lives for the user."""

    def __init__(self, units: Iterable[SourceUnit]) -> None:
        self.offsets = {os.path.normpath(u.path): (u.file, u.line_offset, u.col_offset) for u in units if u.embedded}
        # Origins name few distinct files: normalise each name once, not on every lookup.
        self._normalised: dict[str, str] = {}

    def place(self, file: str, line: int, col: int) -> tuple[str, int, int]:
        if not self.offsets:
            return (file, line, col)
        key = self._normalised.get(file)
        if key is None:
            key = self._normalised[file] = os.path.normpath(file)
        hit = self.offsets.get(key)
        if hit is None:
            return (file, line, col)
        real, line_off, col_off = hit
        return (real, line + line_off, col + (col_off if line == 1 else 0))

    def span(self, span: Span | None) -> Span | None:
        if span is None or not self.offsets:
            return span
        f, l, c = self.place(span.file, span.line, span.col)
        _, el, ec = self.place(span.file, span.end_line, span.end_col)
        return Span(f, l, c, el, ec)

    def diagnostic(self, d: Diagnostic) -> Diagnostic:
        if not self.offsets:
            return d
        notes = tuple(replace(n, span=self.span(n.span)) for n in d.notes)
        return replace(d, span=self.span(d.span), notes=notes)


# Syntax trees of the last bundles' sources, by the preprocessed text that was parsed (with its map back to the
# original lines and the preprocessor's findings). A launch reads a project a second time with other macros
# (the ORIG_DTYPE_<NAME> codes of its dtypes, passes/sim/launch.py), and most of its sources (every host file,
# the headers that test no dtype) preprocess to the same text: parsing is a function of that text and its map,
# so the tree parsed the first time is the one a second parse would build. ops-nn mat_mul_v3's 107 sources
# took 48 s to parse again. Kept per bundle object (weakly: a bundle no one holds drops its trees), for the
# last few bundles only.
_PARSED_BUNDLES = 4
_parsed: OrderedDict[int, tuple[weakref.ref[Bundle], dict[tuple[object, ...], ParsedUnit]]] = OrderedDict()


def _parsed_table(bundle: Bundle) -> dict[tuple[object, ...], ParsedUnit]:
    entry = _parsed.get(id(bundle))
    if entry is None or entry[0]() is not bundle:  # (a new bundle, or another one at a freed bundle's id)
        key = id(bundle)
        entry = (weakref.ref(bundle, lambda _ref: _parsed.pop(key, None)), {})
        _parsed[key] = entry
        while len(_parsed) > _PARSED_BUNDLES:
            _parsed.popitem(last=False)
    _parsed.move_to_end(id(bundle))
    return entry[1]


def _parse_key(unit: SourceUnit, pp: PreprocessResult) -> tuple[object, ...]:
    return (unit.path, unit.file, unit.line_offset, unit.col_offset, pp.text, tuple(pp._seg_starts),
            tuple(pp._seg_info), tuple(pp._files), tuple(repr(d) for d in pp.diagnostics))


def parse_unit(unit: SourceUnit, bundle: Bundle, defines: Mapping[str, str | None] | None = None,
               include_dirs: tuple[str, ...] = (), placement: _Placement | None = None,
               virtual: dict[str, str] | None = None) -> ParsedUnit:
    """Preprocess and parse one source of `bundle`; `placement` and `virtual` are per-bundle tables
    (built here when not given) so that load_bundle builds them once for all its units. A source that
    preprocesses to a text of this bundle parsed before (the same map, the same findings) gets that parse."""
    if placement is None:
        placement = _Placement(bundle.units)
    if virtual is None:
        virtual = _virtual_files(bundle)

    def read_file(path: str) -> str:
        hit = virtual.get(os.path.normpath(path))
        if hit is not None:
            return hit
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read()

    flags = bundle.flags_for(unit.path)
    if flags:  # the source's compile settings: its macros over the chip's, its folders after the caller's
        defines = {**(defines or {}), **flags.define_map()}
        include_dirs = (*include_dirs, *flags.include_dirs)
    pp = preprocess(unit.text, unit.path, defines=defines, include_dirs=include_dirs, read_file=read_file,
                    system_dirs=flags.system_dirs, quote_dirs=flags.quote_dirs, forced_includes=flags.forced_includes)
    table = _parsed_table(bundle)
    key = _parse_key(unit, pp)
    known = table.get(key)
    if known is not None:
        return ParsedUnit(unit, known.ast, pp, list(known.diagnostics))

    def origin(offset: int) -> tuple[str, int, int]:
        o = pp.origin(offset)
        return placement.place(o.file, o.line, o.col)

    # An earlier process may have parsed this very text (frontend/parse_cache.py): its tree, spans bound to
    # this process's map of the text.
    disk_key = parse_cache.unit_key((unit.path, unit.file, unit.line_offset, unit.col_offset), pp.text,
                                    pp._seg_starts, pp._seg_info, pp._files, (repr(d) for d in pp.diagnostics),
                                    placement.offsets.items())
    hit = parse_cache.load(disk_key, origin)
    if hit is not None:
        parsed = ParsedUnit(unit, hit[0], pp, hit[1])
    else:
        diags = [placement.diagnostic(d) for d in pp.diagnostics]
        result = get_parser().parse(pp.text, unit.file, origin)
        diags += _without_echoes(result.diagnostics, diags)
        parsed = ParsedUnit(unit, result.unit, pp, diags)
        parse_cache.store(disk_key, result.unit, diags)
    table[key] = parsed
    return parsed


def _without_echoes(parse_diags: list[Diagnostic], pp_diags: list[Diagnostic]) -> list[Diagnostic]:
    """Parser errors that only repeat a preprocessor error (same line, or the end of input after an
    unterminated comment or literal) add nothing: the preprocessor's message is the precise one."""
    pp_errors = [d for d in pp_diags if d.is_error and d.span is not None]
    if not pp_errors:
        return parse_diags
    lines = {(d.span.file, d.span.line) for d in pp_errors}  # type: ignore[union-attr]
    lexical = any(d.code == "ASC009" for d in pp_errors)
    return [d for d in parse_diags
            if d.span is None or ((d.span.file, d.span.line) not in lines
                                  and not (lexical and "end of input" in d.message))]


def _virtual_files(bundle: Bundle) -> dict[str, str]:
    return {os.path.normpath(k): v for k, v in bundle.virtual_files.items()}


@contextmanager
def collected_once() -> Iterator[None]:
    """Runs a phase that builds one large structure (a program's syntax trees; a module's IR and the rules'
    tables over it) with the cyclic garbage collector paused, and collects the young generation once at its
    end. While such a phase runs nearly everything it allocates stays alive, so each automatic collection
    (one per 700 allocations) only scans and promotes the growing structure again: about a tenth of a
    150-line kernel's check. What the phase leaves as cyclic garbage (a module's ops, blocks and values point
    at each other) is bounded by that structure and freed at its end."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect(0)


def load_bundle(bundle: Bundle, defines: Mapping[str, str | None] | None = None,
                include_dirs: tuple[str, ...] = (),
                unit_targets: Mapping[str, tuple[str, Mapping[str, str | None]]] | None = None) -> Program:
    """Preprocess and parse every source of `bundle` with `defines`, except those `unit_targets` names (by
    unit path): they get that target's name and defines."""
    with collected_once():
        return _load_bundle(bundle, defines, include_dirs, unit_targets)


def _load_bundle(bundle: Bundle, defines: Mapping[str, str | None] | None, include_dirs: tuple[str, ...],
                 unit_targets: Mapping[str, tuple[str, Mapping[str, str | None]]] | None) -> Program:
    program = Program(bundle)
    placement = _Placement(bundle.units)
    virtual = _virtual_files(bundle)
    for unit in bundle.units:
        target, unit_defines = (unit_targets or {}).get(unit.path, (None, defines))
        try:
            parsed = parse_unit(unit, bundle, unit_defines, include_dirs, placement, virtual)
            parsed.target = target
            program.units.append(parsed)
        except Exception as exc:  # a bug of ours must not become a traceback for the user
            span = Span.point(unit.file, unit.line_offset + 1, 1)
            diag = error(INTERNAL_ERROR, f"internal error while parsing this file: {type(exc).__name__}: {exc}", span,
                         Note("please report this with the input file", kind="help"))
            empty = A.TranslationUnit(span, unit.file, [])
            program.units.append(ParsedUnit(unit, empty, None, [diag]))
    for unit in bundle.context_units:
        try:
            program.context.append(parse_unit(unit, bundle, defines, include_dirs, placement, virtual))
        except Exception:  # noqa: S112  (context only: a header that does not parse leaves the struct unknown)
            continue
    return program


def load(path: str, fmt: str = "auto", defines: Mapping[str, str | None] | None = None) -> Program:
    """Read and parse one file, project folder or benchmark answer."""
    return load_bundle(read_input(path, fmt), defines)


def load_all(paths: Iterable[str], fmt: str = "auto", defines: Mapping[str, str | None] | None = None) -> list[Program]:
    """Read and parse every input under `paths` (folders are searched for sources, projects and answers)."""
    return [load_bundle(b, defines) for b in collect_inputs(paths, fmt)]


def load_text(text: str, name: str = "<input>.cpp", fmt: str = "auto",
              defines: Mapping[str, str | None] | None = None) -> Program:
    """Read and parse text held in memory (an LLM answer, a test snippet); `name` picks the format on auto."""
    return load_bundle(read_text(text, name, fmt), defines)


def read_text(text: str, name: str = "<input>.cpp", fmt: str = "auto") -> Bundle:
    """The bundle of text held in memory, as load_text reads it, before preprocessing."""
    from frontend.readers import detect_format, read_cpp, read_multikernelbench, read_npukernelbench

    chosen = detect_format(name, text) if fmt == "auto" else fmt
    reader = {"npukernelbench": read_npukernelbench, "multikernelbench": read_multikernelbench}.get(chosen, read_cpp)
    bundle = reader(name, text)
    bundle.texts.setdefault(name, text)
    return bundle
