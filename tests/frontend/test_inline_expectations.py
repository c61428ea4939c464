"""Inline diagnostic expectations, MLIR `-verify-diagnostics` style, for folders of AscendC inputs.

Each input carries its expectations in `//` comments next to the code they are about:

    LocalTensor<half xLocal = inQueueX.AllocTensor<half>();  // expected-error {{expected '>'}} [ASC001]
    // expected-error@+1 {{expected ';' after expression}} [ASC001]
    // expected-warning@-2 {{cannot find include file}} [ASC002]
    // expected-error@7 {{unterminated #if}} [ASC005]
    // expected-note@+1 {{to match this '{'}}

`@+N` / `@-N` are relative to the comment's line, `@N` is an absolute line, no `@` is the comment's own
line. Lines are lines of the file on disk, so in a benchmark answer (.md) they count from the top of
the answer, not from the start of the embedded C++. The text inside `{{ }}` must be a substring of
the diagnostic's message; the code in `[...]` (required for errors and warnings) must be equal.
`expected-note` / `expected-help` match a `note:` / `help:` attached to any diagnostic; a note without
a location counts as being on its diagnostic's line.

A file passes when every expectation is met and no error or warning is left unexpected (notes that
nobody asked about are fine). To check a new folder of kernels, add it to CORPUS_DIRS.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import pytest

from frontend.diagnostics import Diagnostic, Note, Severity, Span
from frontend.pipeline import load

ROOT = Path(__file__).resolve().parents[2]

# Folders whose every input is checked against its inline expectations; `True` also requires each
# file to expect at least one error (a syntax-error corpus file that expects none tests nothing).
CORPUS_DIRS: dict[Path, bool] = {
    ROOT / "tests" / "corpus" / "syntax_errors": True,
}

INPUT_SUFFIXES = (".cpp", ".asc", ".cc", ".h", ".hpp", ".md", ".txt", ".py", ".answer")

_MENTION_RE = re.compile(r"\bexpected-(?:error|warning|note|help)\b")
_EXPECT_RE = re.compile(
    r"expected-(?P<kind>error|warning|note|help)"
    r"(?:@(?P<where>[+-]?\d+))?"
    r"[ \t]*\{\{(?P<text>.*?)\}\}"
    r"(?:[ \t]*\[(?P<code>[A-Z]+[0-9]+)\])?"
)


@dataclass(frozen=True)
class Expectation:
    kind: str  # "error", "warning", "note" or "help"
    line: int  # the line the diagnostic must be on
    text: str  # a substring of its message
    code: str | None  # its code (None for notes)
    written_at: int  # the line holding the comment

    def describe(self) -> str:
        code = f" [{self.code}]" if self.code else ""
        return f"{self.kind}: {{{{{self.text}}}}}{code}"


@dataclass
class Report:
    """What a file's diagnostics did not agree on with its expectations."""

    malformed: list[str]
    missing: list[Expectation]
    unexpected: list[Diagnostic]

    @property
    def ok(self) -> bool:
        return not (self.malformed or self.missing or self.unexpected)

    def table(self, path: Path, diagnostics: Sequence[Diagnostic]) -> str:
        rows: list[tuple[str, str, str, str, str]] = []
        for exp in self.missing:
            rows.append(("MISSING", f"{exp.line}", exp.kind, exp.code or "", f"{{{{{exp.text}}}}}"
                         f"  (comment on line {exp.written_at})"))
        for d in self.unexpected:
            where = _where(d, path)
            rows.append(("UNEXPECTED", where, d.severity.value, d.code, d.message))
        out = [f"{_rel(path)}: inline expectations not met"]
        out += [f"  malformed expectation: {m}" for m in self.malformed]
        if rows:
            widths = [max(len(r[i]) for r in [("", "line", "kind", "code", ""), *rows]) for i in range(4)]
            header = ("", "line", "kind", "code", "message")
            for r in [header, *rows]:
                out.append("  " + "  ".join(c.ljust(w) for c, w in zip(r[:4], widths)) + "  " + r[4])
        out.append("  all diagnostics produced:")
        out += [f"    {_where(d, path)}: {d.severity.value}: {d.message} [{d.code}]"
                + "".join(f"\n      {n.kind}: {n.message}" + (f" (line {n.span.line})" if n.span else "")
                          for n in d.notes)
                for d in diagnostics] or ["    (none)"]
        return "\n".join(out)


def _rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _same_file(a: str, b: Path) -> bool:
    return os.path.normpath(os.path.abspath(a)) == os.path.normpath(os.path.abspath(str(b)))


def _where(d: Diagnostic, path: Path) -> str:
    if d.span is None:
        return "?"
    loc = f"{d.span.line}:{d.span.col}"
    return loc if _same_file(d.span.file, path) else f"{d.span.file}:{loc}"


def parse_expectations(path: Path) -> tuple[list[Expectation], list[str]]:
    """The expectations written in `path`, and a description of each one that does not parse."""
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    found: list[Expectation] = []
    malformed: list[str] = []
    for number, line in enumerate(lines, start=1):
        for mention in _MENTION_RE.finditer(line):
            m = _EXPECT_RE.match(line, mention.start())
            if m is None:
                malformed.append(f"line {number}: cannot read {line[mention.start():].strip()!r}; "
                                 "write expected-<kind>[@+N|@-N|@N] {{message}} [CODE]")
                continue
            kind, where, text, code = m.group("kind"), m.group("where"), m.group("text"), m.group("code")
            if where is None:
                target = number
            elif where[0] in "+-":
                target = number + int(where)
            else:
                target = int(where)
            if not 1 <= target <= len(lines):
                malformed.append(f"line {number}: expected-{kind}@{where} points at line {target}, "
                                 f"outside the file's {len(lines)} lines")
                continue
            if not text.strip():
                malformed.append(f"line {number}: empty {{{{}}}} would match any message")
                continue
            if kind in ("error", "warning") and code is None:
                malformed.append(f"line {number}: expected-{kind} needs the diagnostic code, e.g. [ASC001]")
                continue
            if kind in ("note", "help") and code is not None:
                malformed.append(f"line {number}: notes have no code; drop [{code}]")
                continue
            found.append(Expectation(kind, target, text, code, number))
    return found, malformed


def _on_line(span_file: str | None, span_line: int | None, path: Path, line: int) -> bool:
    return span_file is not None and span_line == line and _same_file(span_file, path)


def compare(path: Path, expectations: Sequence[Expectation], diagnostics: Sequence[Diagnostic]) -> Report:
    """Match expectations to diagnostics one to one; whatever is left over on either side is reported."""
    report = Report([], [], [])
    unmatched = list(diagnostics)
    notes: list[tuple[Note, Diagnostic]] = [(n, d) for d in diagnostics for n in d.notes]
    for exp in expectations:
        if exp.kind in ("error", "warning"):
            severity = Severity(exp.kind)
            hit = next((d for d in unmatched
                        if d.severity is severity and d.code == exp.code and exp.text in d.message
                        and d.span is not None and _on_line(d.span.file, d.span.line, path, exp.line)), None)
            if hit is None:
                report.missing.append(exp)
            else:
                unmatched.remove(hit)
        else:
            hit_note = next(((n, d) for n, d in notes
                             if n.kind == exp.kind and exp.text in n.message
                             and _on_line(*_note_place(n, d), path, exp.line)), None)
            if hit_note is None:
                report.missing.append(exp)
            else:
                notes.remove(hit_note)
    report.unexpected = [d for d in unmatched if d.severity in (Severity.ERROR, Severity.WARNING)]
    return report


def _note_place(note: Note, parent: Diagnostic) -> tuple[str | None, int | None]:
    span = note.span or parent.span
    return (span.file, span.line) if span else (None, None)


def check_expectations(path: Path, diagnostics: Sequence[Diagnostic]) -> Report:
    """Read the inline expectations of `path` and compare them with `diagnostics` produced for it."""
    expectations, malformed = parse_expectations(path)
    report = compare(path, expectations, diagnostics)
    report.malformed = malformed
    return report


def corpus_files() -> list[Path]:
    files: list[Path] = []
    for folder in CORPUS_DIRS:
        files += sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in INPUT_SUFFIXES)
    return files


def _needs_error(path: Path) -> bool:
    return any(need and folder in path.parents for folder, need in CORPUS_DIRS.items())


_FILES = corpus_files()
_IDS = [_rel(p) for p in _FILES]


@pytest.mark.parametrize("path", _FILES, ids=_IDS)
def test_inline_expectations(path: Path) -> None:
    diagnostics = load(str(path)).diagnostics
    report = check_expectations(path, diagnostics)
    if not report.ok:
        pytest.fail(report.table(path, diagnostics), pytrace=False)


@pytest.mark.parametrize("path", [p for p in _FILES if _needs_error(p)],
                         ids=[_rel(p) for p in _FILES if _needs_error(p)])
def test_corpus_file_expects_an_error(path: Path) -> None:
    expectations, _ = parse_expectations(path)
    assert any(e.kind == "error" for e in expectations), f"{_rel(path)} has no expected-error"


_COMMENT_RE = re.compile(r"[ \t]*//[ \t]*expected-(?:error|warning|note|help)\b.*$", re.M)


def _signature(diagnostics: Sequence[Diagnostic]) -> list[tuple[object, ...]]:
    return [(d.severity.value, d.code, d.message, d.span and (os.path.basename(d.span.file), d.span.line, d.span.col))
            for d in diagnostics]


@pytest.mark.parametrize("path", _FILES, ids=_IDS)
def test_expectation_comments_do_not_change_diagnostics(path: Path, tmp_path: Path) -> None:
    """The tool must report the same with the expectation comments removed (a comment is blanks to the
    parser, and blanks can hide a recovery bug: `}` then a newline is not `}` then spaces)."""
    copy = tmp_path / path.parent.name
    shutil.copytree(path.parent, copy)
    stripped = copy / path.name
    stripped.write_text(_COMMENT_RE.sub("", path.read_text(encoding="utf-8")), encoding="utf-8")
    assert _signature(load(str(stripped)).diagnostics) == _signature(load(str(path)).diagnostics)


def test_corpus_folders_are_not_empty() -> None:
    for folder in CORPUS_DIRS:
        assert any(p.parent == folder or folder in p.parents for p in _FILES), f"no inputs under {folder}"


# ---------------------------------------------------------------------------------- the harness itself


def _diag(severity: Severity, line: int, message: str, code: str = "ASC001", file: str = "k.cpp",
          notes: tuple[Note, ...] = ()) -> Diagnostic:
    return Diagnostic(code, severity, message, Span(file, line, 1, line, 2), notes)


def test_harness_reads_offsets_and_absolute_lines(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text("int a\n// expected-error@-1 {{expected ';'}} [ASC001]\n"
                   "// expected-warning@+1 {{cannot find}} [ASC002]\n#include \"x.h\"\n"
                   "int b; // expected-error {{here}} [ASC001]\n// expected-error@1 {{again}} [ASC009]\n")
    exps, bad = parse_expectations(src)
    assert not bad
    assert [(e.kind, e.line, e.text, e.code) for e in exps] == [
        ("error", 1, "expected ';'", "ASC001"), ("warning", 4, "cannot find", "ASC002"),
        ("error", 5, "here", "ASC001"), ("error", 1, "again", "ASC009")]


def test_harness_reports_missing_unexpected_and_malformed(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text("int a // expected-error {{expected ';'}} [ASC001]\n"
                   "x; // expected-error {{unknown type}}\n"
                   "y; // expected-note@+9 {{far}}\n"
                   "z; // expected-note {{to match}}\n")
    f = str(src)
    note = Note("to match this '{'", Span(f, 4, 1, 4, 2))
    diags = [_diag(Severity.ERROR, 1, "expected ';' after expression", file=f),
             _diag(Severity.WARNING, 3, "cannot find include file 'x.h'; skipped", "ASC002", file=f),
             _diag(Severity.ERROR, 2, "expected '}' at end of input", file=f, notes=(note,))]
    report = check_expectations(src, diags)
    assert len(report.malformed) == 2  # no code on the error, note beyond the end of the file
    assert report.missing == []
    assert [d.code for d in report.unexpected] == ["ASC002", "ASC001"]
    table = report.table(src, diags)
    assert "UNEXPECTED" in table and "cannot find include file" in table


def test_harness_matches_each_diagnostic_once(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text("a b c // expected-error {{unknown type}} [ASC001] expected-error {{unknown type}} [ASC001]\n")
    f = str(src)
    one = [_diag(Severity.ERROR, 1, "unknown type name 'a'", file=f)]
    report = check_expectations(src, one)
    assert len(report.missing) == 1 and not report.unexpected
    wrong_code = [_diag(Severity.ERROR, 1, "unknown type name 'a'", "ASC002", file=f)] * 2
    report = check_expectations(src, wrong_code)
    assert len(report.missing) == 2 and len(report.unexpected) == 2
