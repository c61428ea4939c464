"""The parser's fast path (frontend.parser._FastPath: lexer, retagger and LALR automaton in one loop) must
build exactly what Lark itself builds, spans and diagnostics included; and the pre-scan's hand-tuned
regexes must find exactly what the plain ones find."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from frontend import ast as A
from frontend import parser as P
from frontend.preprocess import preprocess

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(
    p
    for folder in ("tests/corpus", "examples", "tests/frontend/fuzz_reproducers")
    for p in (ROOT / folder).rglob("*")
    if p.is_file() and p.suffix in (".cpp", ".asc", ".h", ".hpp", ".cc")
)
CLEAN = [p for p in SOURCES if "corpus/clean" in p.as_posix()]

SNIPPETS = [
    "template <typename T> class A {}; A<A<int>> x; A<A<A<int>>> y; int z = 8 >> 2; int w = a >= b;",
    "void f() { x >>= 1; y = a<b>c; z = Get<T>(1) + (a < b) - (c > d); k<<<n, 0, s>>>(x, y); }",
    "extern \"C\" __global__ __aicore__ void k(GM_ADDR x) { KernelAdd op; op.Init(x); op.Process(); }",
    "__aicore__ inline void f() { float r = v * half; ns::T& y = z; const char* s = R\"(a\nb)\" \"c\"; }",
    "CATLASS_DEVICE void g(); FORCE_INLINE __aicore__ int h() { return sizeof (T) * 2; }",
    "__simt_vf__ LAUNCH_BOUND(128) inline void vf() { auto l = [&](int i) -> int { return i; }; }",
    "struct S { int a; } s = {.a = 1}; enum class E : int { A = 1 << 2, B }; typedef struct { int x; } P;",
    "int f() { return a ? b : c ? d : e; } void g() { x = (int)y; z = static_cast<float>(w); }",
    # syntax errors: the fast path gives up and Lark reports them
    "void f() { int x = 1 int y = 2; }",
    "void f() { Foo x; bar(; }",
    "void f() { if x > 1) {} } }",
    "int a = 'unterminated;\nint b = 1;",
    "template <typename T> void f() { A<T x; }",
    "void f() { y = a @ b; }",
    "",
    "   \n\t",
]


def _dump(result: P.ParseResult) -> str:
    unit = result.unit
    return "\n".join([A.dump(unit, with_spans=True), repr(unit), repr(result.diagnostics)])


def _fast_and_lark(text: str, file: str) -> tuple[str, str]:
    parser = P.get_parser()
    fast = parser._fast
    assert fast is not None, "the fast path is off: the parser runs at Lark's speed"
    try:
        with_fast = _dump(parser.parse(text, file))
        parser._fast = None
        lark_only = _dump(parser.parse(text, file))
    finally:
        parser._fast = fast
    return with_fast, lark_only


def test_fast_path_is_on_and_reproduces_every_rule() -> None:
    fast = P.get_parser()._fast
    assert fast is not None
    for rule in fast._callbacks:
        fast._reductions[rule]  # raises _Unsupported for a callback shape the fast path cannot reproduce


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_same_ast_as_lark(path: Path) -> None:
    raw = path.read_text(encoding="utf-8", errors="replace")
    text = preprocess(raw, str(path)).text
    with_fast, lark_only = _fast_and_lark(text, str(path))
    assert with_fast == lark_only
    # The text as written (directives and all) exercises the error paths too.
    with_fast, lark_only = _fast_and_lark(raw, str(path))
    assert with_fast == lark_only


@pytest.mark.parametrize("snippet", SNIPPETS)
def test_same_ast_as_lark_on_snippets(snippet: str) -> None:
    with_fast, lark_only = _fast_and_lark(snippet, "t.cpp")
    assert with_fast == lark_only


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: str(p.relative_to(ROOT)))
def test_clean_sources_need_no_lark_fallback(path: Path) -> None:
    parser = P.get_parser()
    text = preprocess(path.read_text(encoding="utf-8"), str(path)).text
    parser._retagger.scan = P.prescan(text)
    parser._retagger.overrides = {}
    assert parser._fast is not None
    assert isinstance(parser._fast.run(text), A.TranslationUnit)


def test_name_before_matches_the_regex() -> None:
    rng = random.Random(1)
    alphabet = list("aZ_9 \t\n\r<>;(é\u00a0\u2003\u0661ß²") + ["\x1c", "\x0b"]
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 120)))
        for lt in range(len(text) + 1):
            m = P._NAME_BEFORE_RE.search(text, max(0, lt - 80), lt)
            assert P._name_before(text, lt) == (None if m is None else (m.start(1), m.end(1))), (text, lt)


# The pre-scan's patterns as first written, with a leading `\b` (slow: tried at every offset).
WORD_BOUNDARY_PATTERNS = [
    r"\b(?:class|struct|union)(?:\s+|\s*\.\.\.\s*)(?:\[\[[^\]]*\]\]\s*)?([A-Za-z_]\w*)",  # `class... Ts` too
    r"\benum\s+(?:(?:class|struct)\s+)?([A-Za-z_]\w*)",
    r"\btypename(?:\s+|\s*\.\.\.\s*)([A-Za-z_]\w*)\b(?!\s*::)",
    r"\busing\s+([A-Za-z_]\w*)\s*=",
    r"\busing\s+[A-Za-z_]\w*\s*=\s*(?:typename\s+)?(?:const\s+)?(?:[A-Za-z_]\w*\s*::\s*)*([A-Za-z_]\w*)\s*[;*&<]",
    r"\btypedef\b[^;{}]*?\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*;",
    r"\bBEGIN_TILING_DATA_DEF\s*\(\s*([A-Za-z_]\w*)",
]


def test_literal_first_patterns_match_the_word_boundary_ones() -> None:
    pairs = list(zip(P._DECLARED_TYPE_RES, map(re.compile, WORD_BOUNDARY_PATTERNS)))
    pairs.append((P._DECLARED_TYPE_RES[-1], re.compile(  # a type parameter's default
        r"\b(?:class|typename)\s+[A-Za-z_]\w*\s*=\s*(?:typename\s+)?(?:::\s*)?(?:[A-Za-z_]\w*\s*::\s*)*([A-Za-z_]\w*)")))
    pairs.append((P._DTYPE_MACRO_RE, re.compile(r"(?<![A-Za-z0-9_])DTYPE_[A-Z0-9_]+\b")))
    pairs.append((P._TYPEDEF_BLOCK_RE, re.compile(r"\btypedef\s+(?:struct|union|enum|class)\b[^;{]*\{")))
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in SOURCES]
    texts.append("xclass A; _struct B; 9union C; class D; typedef int E; Atypedef int F; DTYPE_X; ADTYPE_Y; "
                 "\u00e9enum G; enum H; using I = J; typename K; BEGIN_TILING_DATA_DEF(L) typedef struct { } M; "
                 "template <class N = ns::O<int>, typename P = Q, xclass R = S>")
    for fast, slow in pairs:
        for text in texts:
            assert [(m.span(), m.groups()) for m in fast.finditer(text)] == \
                [(m.span(), m.groups()) for m in slow.finditer(text)], (fast.pattern, slow.pattern)


def test_attribute_macro_guards_are_necessary_conditions() -> None:
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in SOURCES]
    texts += ["FORCE_INLINE __aicore__ void f();", "__simt_vf__ LAUNCH_BOUND(8) inline void g();",
              "__simt_vf__ __aicore__ LAUNCH_BOUND((8)) inline void g2();",
              "template <class T> MY_API static int h();"]
    for text in texts:
        if P._ATTRIBUTE_MACRO_RE.search(text):
            assert P._ATTRIBUTE_MACRO_GUARD.search(text)
        if P._ATTRIBUTE_CALL_MACRO_RE.search(text):
            assert P._ATTRIBUTE_CALL_MACRO_GUARD.search(text)
