"""Fuzzing the frontend: mutated corpus text must never raise and must give well-formed diagnostics.

Inputs are clean corpus files broken at the token level (delete, duplicate, swap, replace or insert a
token, truncate; one to four mutations). To keep 10,000 inputs within CI time the mutations go into a
10-40 line window of a file (sometimes a whole small file), and answers are first shrunk to their
structure plus a slice of each long code region. Three streams:

  * C++ windows, preprocessed and parsed directly (a parser exception surfaces with its traceback);
  * preprocessor-heavy inputs: generated directive soup around corpus lines, then mutated;
  * NPUKernelBench / MultiKernelBench answers held in memory, through `pipeline.load_text` (readers,
    then `load_bundle`).

The C++ streams give the preprocessor a file reader that finds nothing, so no input reads the disk; the
answers' includes go through the pipeline's reader (the answer's own sections, else a path under the
nonexistent `fuzz/`). `preprocess()` and `load_bundle()` turn their own bugs into diagnostics (`internal
preprocessor error` [ASC009], [ASC000]); both count as crashes here, and an [ASC000] is re-raised with its
traceback. Everything is derandomized (no example database), so CI runs are repeatable; inputs that once
crashed the frontend live in fuzz_reproducers/ and are checked on every run.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from frontend.diagnostics import Diagnostic, Severity, Span, render_text
from frontend.parser import get_parser
from frontend.pipeline import INTERNAL_ERROR, load_text, parse_unit
from frontend.preprocess import preprocess

ROOT = Path(__file__).resolve().parents[2]
CLEAN = ROOT / "tests" / "corpus" / "clean"

# 10,000 inputs in about 100 s on one core. ASCENDIR_FUZZ_SCALE scales all three (0.1 for a quick local run,
# 10 for a nightly soak); each scale is its own deterministic run.
SCALE = float(os.environ.get("ASCENDIR_FUZZ_SCALE", "1"))
CPP_EXAMPLES = max(1, round(6000 * SCALE))
DIRECTIVE_EXAMPLES = max(1, round(2000 * SCALE))
ANSWER_EXAMPLES = max(1, round(2000 * SCALE))

# ------------------------------------------------------------------ corpus


def _load(suffixes: tuple[str, ...], under: Path) -> list[tuple[str, str]]:
    return [(p.name, p.read_text(encoding="utf-8")) for p in sorted(under.rglob("*"))
            if p.is_file() and p.suffix in suffixes]


CPP_FILES = _load((".cpp", ".asc", ".h"), CLEAN)
ANSWER_FILES = _load((".md", ".py"), CLEAN / "answers")
# Lines of the corpus that are directives or use macros, for the preprocessor-heavy stream.
DIRECTIVE_LINES = sorted({line for _, text in CPP_FILES for line in text.splitlines()
                          if line.lstrip().startswith("#") or "(" in line and line.strip().isupper()})

assert len(CPP_FILES) >= 40 and len(ANSWER_FILES) >= 10, "the clean corpus went missing"

# ------------------------------------------------------------------ token-level mutation

TOKEN_RE = re.compile(
    r"""\s+
    | [A-Za-z_]\w*
    | \.?\d(?:[eEpP][+-]|[\w.'])*
    | "(?:[^"\\\n]|\\.)*"
    | '(?:[^'\\\n]|\\.)*'
    | >>= | <<= | -> | :: | >> | << | \+\+ | -- | && | \|\| | \#\# | \.\.\. | [-+*/%&|^!=<>]=
    | .""",
    re.VERBOSE | re.DOTALL,
)

REPLACEMENTS = (
    ";", "{", "}", "(", ")", "<", ">", ">>", "::", "template", "class", "#if", "\n#if ", "#define X(",
    "\n#define X(", '"', "/*", "\\\n", "@", "\n#endif\n", "\n#else\n", "'", "*/", "//", ",", "...", "#", "##",
    "typename", "struct", "__aicore__", "\n", "0x", "1e", 'R"(', "<<", "=", "[", "]", "operator",
    "\n#include ",
    # literals at the edges of what the AST builder converts
    "0x1p1024", "1e99999", "0x" + "f" * 40, "9" * 5000, "0b", "0x.p1", "'\\777'", "u8'a'", ".5e-",
)
OPS = ("delete", "duplicate", "swap", "replace", "insert", "truncate")


def tokenize(text: str) -> list[str]:
    return TOKEN_RE.findall(text)


# Strategies are built once: building one per draw costs Hypothesis more than drawing from it.
ints = lru_cache(maxsize=None)(st.integers)
_OPS, _REPLACEMENTS = st.sampled_from(OPS), st.sampled_from(REPLACEMENTS)
_CPP_FILES, _ANSWER_FILES = st.sampled_from(CPP_FILES), st.sampled_from(ANSWER_FILES)


def mutate(draw: st.DrawFn, text: str) -> str:
    """`text` with one to four token-level mutations applied in turn."""
    toks = tokenize(text)
    for _ in range(draw(ints(1, 4))):
        sig = [i for i, t in enumerate(toks) if not t.isspace()]
        op = draw(_OPS)
        if not sig:
            toks.append(draw(_REPLACEMENTS))
            continue
        k = draw(ints(0, len(sig) - 1))
        i = sig[k]
        if op == "delete":
            del toks[i]
        elif op == "duplicate":
            toks[i + 1 : i + 1] = [" ", toks[i]]
        elif op == "swap":
            if k + 1 < len(sig):
                j = sig[k + 1]
                toks[i], toks[j] = toks[j], toks[i]
        elif op == "replace":
            toks[i] = draw(_REPLACEMENTS)
        elif op == "insert":
            toks.insert(i, draw(_REPLACEMENTS))
        else:  # truncate, possibly inside the token
            cut = draw(ints(0, len(toks[i])))
            toks[i] = toks[i][:cut]
            del toks[i + 1 :]
    return "".join(toks)


def _window(draw: st.DrawFn, text: str, lo: int = 10, hi: int = 40) -> str:
    lines = text.splitlines(keepends=True)
    if len(lines) <= hi:
        return text
    size = draw(ints(lo, hi))
    start = draw(ints(0, len(lines) - size))
    return "".join(lines[start : start + size])


@st.composite
def cpp_inputs(draw: st.DrawFn) -> tuple[str, str]:
    name, text = draw(_CPP_FILES)
    small = len(text.splitlines()) <= 100
    if not (small and draw(ints(0, 19)) == 0):  # a whole small file one time in twenty
        text = _window(draw, text)
    return f"fuzz/{name}", mutate(draw, text)


_MACROS = ("A", "B", "F", "G", "CAT", "STR", "X", "DTYPE_X", "__LINE__", "__FILE__", "defined", "GM_ADDR")
_EXPRS = ("defined({m})", "defined {m}", "!defined({m}) && {m} > 1", "{m} + 1 == 2", "1 / 0", "1 % 0",
          "(1 << 63) >> 62", "-1 < 0u", "{m}(1, 2) == 3", "__has_include(\"x.h\")", "1 ? {m} : 3",
          "0x7fffffffffffffff * 4", "'a' == 97", "(", "{m} ||", "9999999999999999999999", "1.5", "\"s\"")
_DIRECTIVES = (
    "#define {m} {m}", "#define {m} 1", "#define {m}(a, b) a ## b", "#define {m}(x) #x",
    "#define {m}(x) {m}(x) + G(x)", "#define {m}(...) __VA_ARGS__",
    "#define {m}(a, ...) a __VA_OPT__(,) __VA_ARGS__", "#define {m}(a) {m}", "#define {m}() ",
    "#define {m} {m}(", "#undef {m}", "#ifdef {m}", "#ifndef {m}", "#if {e}", "#elif {e}", "#else", "#endif",
    "#endif", '#include "{m}.h"', "#include <{m}>", "#include {m}", "#include", "#error {m}",
    "#warning {m} x", "#pragma once", '#pragma message("{m}")', '#line 10 "x.cpp"', "#line {m}", "#",
    "#bogus", "#if", "#elif", "#define", "#define 1x", "#undef", "{m}({m}, {m});", "int v = {m}({m}(1));",
    "CAT(x, y) z;", "STR(a \"b\" 'c')", "{m}(", "{m})", "__VA_ARGS__", "#define {m}(x, x) x",
    "#define {m}(x) # y", "#define {m}(x) ## x", "{m}(1,\n 2)", "#  define {m} \\\n 2",
    "#if {e} /* c */\n#endif",
)


# Every directive template with every macro name and #if expression, plus the corpus's own directive
# lines: one draw per line keeps Hypothesis's overhead below the frontend's time.
DIRECTIVE_POOL = sorted({t.format(m=m, e=e.format(m=m2)) for t in _DIRECTIVES for m in _MACROS for e in _EXPRS
                         for m2 in ("A", "F")})
DIRECTIVE_POOL += DIRECTIVE_LINES * max(1, len(DIRECTIVE_POOL) // (3 * len(DIRECTIVE_LINES)))
_DIRECTIVE_LISTS = st.lists(st.sampled_from(DIRECTIVE_POOL), min_size=3, max_size=25)


@st.composite
def directive_inputs(draw: st.DrawFn) -> tuple[str, str]:
    lines = draw(_DIRECTIVE_LISTS)
    if draw(st.booleans()):  # some real code the macros can land in
        _, text = draw(_CPP_FILES)
        at = draw(ints(0, len(lines)))
        lines[at:at] = _window(draw, text, 5, 15).splitlines()
    text = "\n".join(lines) + "\n"
    if draw(ints(0, 3)):
        text = mutate(draw, text)
    return "fuzz/directives.cpp", text


# Lines that hold an answer together: fences, tags, `=== file ===` sections, Python string quotes.
_STRUCTURE_RE = re.compile(r"^\s*```|</?kernel_impl>|^\s*={3,}|'''|\"\"\"")


@st.composite
def answer_inputs(draw: st.DrawFn) -> tuple[str, str]:
    """A corpus answer cut down to its structure plus a slice of each long region, then mutated."""
    name, text = draw(_ANSWER_FILES)
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    region: list[str] = []
    keep_whole = False

    def flush() -> None:
        if len(region) > 25 and not keep_whole:
            size = draw(ints(5, 25))
            start = draw(ints(0, len(region) - size))
            out.extend(region[start : start + size])
        else:
            out.extend(region)
        region.clear()

    for line in lines:
        if _STRUCTURE_RE.search(line):
            flush()
            out.append(line)
            keep_whole = "json" in line  # the op description stays valid JSON
        else:
            region.append(line)
    flush()
    return f"fuzz/{name}", mutate(draw, "".join(out))


# ------------------------------------------------------------------ checks

CODE_RE = re.compile(r"ASC\d{3}")


def _no_files(path: str) -> str:
    raise FileNotFoundError(path)


def _check_span(span: Span | None, name: str, diag: Diagnostic) -> None:
    if span is None:
        return
    assert span.file == name, f"diagnostic points into {span.file!r}, not the input: {diag}"
    assert all(isinstance(v, int) for v in (span.line, span.col, span.end_line, span.end_col)), diag
    assert span.line >= 1 and span.col >= 1, f"span starts before 1:1: {diag}"
    assert (span.end_line, span.end_col) >= (span.line, span.col), f"span ends before it starts: {diag}"


def check_diagnostics(diags: Sequence[Diagnostic], name: str, text: str) -> None:
    lines = text.splitlines()
    lookup: Callable[[str, int], str | None] = lambda f, n: lines[n - 1] if 0 < n <= len(lines) else None
    for d in diags:
        assert isinstance(d, Diagnostic), d
        assert CODE_RE.fullmatch(d.code), f"bad code: {d}"
        assert d.code != INTERNAL_ERROR, f"internal error: {d.message}"
        assert not d.message.startswith("internal preprocessor error"), d.message
        assert isinstance(d.message, str) and d.message.strip(), f"empty message: {d}"
        assert isinstance(d.severity, Severity), d
        _check_span(d.span, name, d)
        for note in d.notes:
            assert note.message.strip(), f"empty note: {d}"
            _check_span(note.span, name, d)
        render_text(d, lookup)


def run_cpp(name: str, text: str) -> list[Diagnostic]:
    """What `pipeline.parse_unit` does for a plain source, without its safety net."""
    pp = preprocess(text, name, read_file=_no_files)

    def origin(offset: int) -> tuple[str, int, int]:
        o = pp.origin(offset)
        return (o.file, o.line, o.col)

    result = get_parser().parse(pp.text, name, origin)
    assert result.unit is not None
    return [*pp.diagnostics, *result.diagnostics]


def run_answer(name: str, text: str) -> list[Diagnostic]:
    """An answer held in memory, through the readers and the pipeline (`load_text`, as LLM answers go)."""
    program = load_text(text, name)
    if any(d.code == INTERNAL_ERROR for d in program.diagnostics):
        # load_bundle caught an exception and made it [ASC000]: raise it again, with its traceback
        for unit in program.bundle.units:
            parse_unit(unit, program.bundle)
    return program.diagnostics


FUZZ = settings(deadline=None, derandomize=True, database=None, print_blob=True,
                phases=(Phase.explicit, Phase.generate, Phase.shrink),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.large_base_example, HealthCheck.filter_too_much])


@settings(FUZZ, max_examples=CPP_EXAMPLES)
@given(cpp_inputs())
def test_mutated_cpp_windows(case: tuple[str, str]) -> None:
    name, text = case
    check_diagnostics(run_cpp(name, text), name, text)


@settings(FUZZ, max_examples=DIRECTIVE_EXAMPLES)
@given(directive_inputs())
def test_mutated_directive_soup(case: tuple[str, str]) -> None:
    name, text = case
    check_diagnostics(run_cpp(name, text), name, text)


@settings(FUZZ, max_examples=ANSWER_EXAMPLES)
@given(answer_inputs())
def test_mutated_answers(case: tuple[str, str]) -> None:
    name, text = case
    check_diagnostics(run_answer(name, text), name, text)


def test_mutation_helpers() -> None:
    text = 'int a = b >> 2; // "x"\n#define F(x) x##y\n'
    assert "".join(tokenize(text)) == text
    assert [t for t in tokenize(text) if not t.isspace()][:6] == ["int", "a", "=", "b", ">>", "2"]


# Inputs the fuzzer once broke the frontend with, minimised: each must now pass the same checks.
REPRODUCERS = sorted((Path(__file__).parent / "fuzz_reproducers").glob("*"))


@pytest.mark.parametrize("path", REPRODUCERS, ids=lambda p: p.name)
def test_fuzz_reproducers(path: Path) -> None:
    name, text = f"fuzz/{path.name}", path.read_text(encoding="utf-8")
    run = run_answer if path.suffix in (".md", ".py") else run_cpp
    check_diagnostics(run(name, text), name, text)
