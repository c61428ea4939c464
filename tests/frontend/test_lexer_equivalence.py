"""The load stage's speed-ups change no result: the fast path's lexer regexes (punctuators grouped) find the
same tokens as one named group per terminal, its tokens report Lark's lines and columns, and the pre-scan's
declaration-shape regex finds what the pattern without its `\\b`s finds."""

from __future__ import annotations

import random
import re
from pathlib import Path

from lark.exceptions import UnexpectedInput

from frontend import parser as P
from frontend.preprocess import preprocess

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(
    p
    for folder in ("tests/corpus", "examples", "tests/frontend/fuzz_reproducers")
    for p in (ROOT / folder).rglob("*")
    if p.is_file() and p.suffix in (".cpp", ".asc", ".h", ".hpp", ".cc")
)
# Every punctuator and literal shape, glued and spaced, with odd characters in between.
PUNCTUATION = ("a<<=b>>=c...d->e++f--g&&h||i==j!=k<=l>=m<<<n>>>o::p?q:r;s,t{u}v(w)x[y]z~!%^&*+-/=|. "
               "1.5e3f 0x1p3 0x1F 1'000u 'c' u8\"s\" R\"d(x)d\" L'w' .5 5. @ $id é \\ `")


def _texts() -> list[str]:
    texts = [PUNCTUATION]
    for path in SOURCES:
        raw = path.read_text(encoding="utf-8", errors="replace")
        texts += [raw, preprocess(raw, str(path)).text]
    return texts


def test_grouped_punctuators_lex_like_one_group_per_terminal() -> None:
    fast = P.get_parser()._fast
    assert fast is not None
    texts = [PUNCTUATION] + [p.read_text(encoding="utf-8", errors="replace") for p in SOURCES[::40]]
    seen: set[int] = set()
    for state, lexer in fast.lexer_of.items():
        if id(lexer) in seen:
            continue
        seen.add(id(lexer))
        grouped = fast._regex(state)
        plain = re.compile(r"\s*(?:" + "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in lexer.terminals
                                                 if t.name not in fast.ignore) + ")", lexer.g_regex_flags)
        for text in texts:
            for pos in range(len(text)):
                a, b = grouped.match(text, pos), plain.match(text, pos)
                if b is None:
                    assert a is None
                    continue
                assert a is not None and a.span() == b.span()
                kind = a.lastgroup
                if kind in fast.literal_groups:
                    kind = fast.literal_names[a.group(kind)]
                assert (kind, a.start(a.lastgroup)) == (b.lastgroup, b.start(b.lastgroup)), (text[pos:pos + 20],)


def test_fast_tokens_report_larks_lines_and_columns() -> None:
    lark = P.get_parser()._lark
    checked = 0
    for text in [PUNCTUATION, "\n\n  a\n\tb R\"x(\n\n)x\" c\r\nd", *_texts()[:40]]:
        tokens = []
        try:
            for tok in lark.lex(text, dont_ignore=True):  # whitespace tokens too: they hold the line breaks
                tokens.append(tok)  # noqa: PERF402 - a loop keeps the tokens lexed before an error
        except UnexpectedInput:
            pass  # a character no terminal matches (`#`, `@`): the tokens before it still count
        for tok in tokens:
            fast = str.__new__(P._FastToken, tok.value)
            fast.start_pos, fast.end_pos, fast.text = tok.start_pos, tok.end_pos, text
            assert (fast.line, fast.column, fast.end_line, fast.end_column) == \
                (tok.line, tok.column, tok.end_line, tok.end_column), (tok, text[:40])
        checked += len(tokens)
    assert checked > 10_000


# _DECL_SHAPE_RE as first written, without the `\b` after each `\w*`.
PLAIN_DECL_SHAPE = re.compile(
    r"(?:[;{}(,:<>]|\n(?=[ \t\r]*\S))\s*(?:(?:const|volatile|static|constexpr|inline|typename|mutable)\s+)*"
    r"(?:[A-Za-z_]\w*\s*::\s*)*([A-Za-z_]\w*)(?:\s*<[^;{}()|&?=]*?>)?"
    r"(?:\s+|\s*[*&]+\s*((?:(?:const|volatile|__restrict__|__restrict|restrict)\b\s*)*))([A-Za-z_]\w*)"
    r"\s*(?=[;,)(\[{>]|=(?!=)|:(?!:))"
)


def test_decl_shape_regex_matches_the_plain_one() -> None:
    rng = random.Random(7)
    alphabet = list("aZ_9 \t\n:;,(){}<>*&=[é\u00a0ß²") + ["const ", "ns::", "T<int>", "x", "\n  ", "__restrict "]
    texts = ["\n" + t for t in _texts()]
    texts += ["\n" + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80))) for _ in range(3000)]
    for text in texts:
        assert [(m.span(), m.span(1), m.span(2), m.span(3)) for m in P._DECL_SHAPE_RE.finditer(text)] == \
            [(m.span(), m.span(1), m.span(2), m.span(3)) for m in PLAIN_DECL_SHAPE.finditer(text)], text[:80]
