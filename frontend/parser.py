"""Preprocessed AscendC text in, AST out: Lark LALR with the contextual lexer and an identifier post-lexer.

The grammar (grammar.lark) cannot tell a type from a variable or `Foo<T>(x)` from `a < b > (x)` by
itself; C++ compilers know because they have read the declarations. We approximate that with a
pre-scan of the text (declared class/struct/enum/alias/typedef/template-parameter names, `X y;`
shapes, the vendor's known types) and a balanced look-ahead for template argument lists, and retag
identifiers before the parser sees them. The AST is built during parsing (Lark's inline transformer),
never as an intermediate Lark tree.

Lark builds the grammar's tables, lexers and callbacks; a text is then parsed by _FastPath, one loop
that does what Lark's contextual lexer, the retagger and Lark's LALR driver do, on Lark's own tables
but without the per-token generality of Lark's code. Only when that loop meets a syntax error does
Lark itself parse the text, so errors are reported and recovered from exactly as before. The loop and
the pre-scan's regexes keep the frontend well above 10,000 lines/s (bench/perf/frontend.py).

Syntax errors are diagnostics [ASC001]. After an error the failing statement or declaration is
blanked out (offsets stay exact) and the text is parsed again, so one file yields every independent
error up to a limit, and the AST of everything else.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field, replace
from functools import partial
from operator import itemgetter
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr
from lark.parse_tree_builder import (
    ChildFilter,
    ChildFilterLALR,
    ChildFilterLALR_NoPlaceholders,
    ExpandSingleChild,
)
from lark.parsers.lalr_analysis import Shift
from lark.tree import Tree

from frontend import ast as A
from frontend.diagnostics import Diagnostic, LazySpan, Note, Span, error
from frontend.vendor import KNOWN_TYPE_TEMPLATES, KNOWN_TYPES

SYNTAX_ERROR = "ASC001"
MAX_ERRORS_PER_FILE = 20

# ------------------------------------------------------------------ keywords and the post-lexer

_KEYWORD_GROUPS: dict[str, Iterable[str]] = {
    "BUILTIN_TYPE": "bool char short int long float double signed unsigned auto wchar_t char16_t char32_t __fp16".split(),
    "STORAGE": ("static inline register thread_local explicit consteval constinit __inline__ __forceinline__ "
                "__kfc_workspace__").split(),
    "CV": "const volatile __restrict__ __restrict".split(),
    "ADDRESS_SPACE": "__gm__ __ubuf__ __ca__ __cb__ __cc__ __cbuf__ __fbuf__ __ssbuf__ __biasbuf__".split(),
    "FN_SPECIFIER": ("__global__ __aicore__ __vector__ __cube__ __host__ __device__ __simt_vf__ __simd_vf__ "
                     "__simd_callee__ __simt_callee__ __host_aicore__ __sync_alias__ __noinline__ __always_inline__ "
                     "__aicore_host__ __inline_host__ __aicpu__").split(),
    # Qualifiers that take arguments: __mix__(1, 2), __schedmode__(1), __launch_bounds__(N).
    "MIX": "__mix__ __schedmode__ __launch_bounds__ __cluster_dims__".split(),
    "ACCESS": "public private protected".split(),
    "NULLPTR": ["nullptr", "NULL"],
    "BOOL": ["true", "false"],
    "CAST_KEYWORD": "static_cast reinterpret_cast const_cast dynamic_cast".split(),
}
_SINGLE_KEYWORDS = (
    "namespace extern template typename class struct union using typedef static_assert enum virtual final "
    "override friend default delete noexcept operator if else constexpr for while do switch case break "
    "continue return goto throw sizeof alignof alignas new this mutable decltype void try catch"
).split()
_VENDOR_KEYWORDS = {
    "__attribute__": "ATTRIBUTE",
    "BEGIN_TILING_DATA_DEF": "BEGIN_TILING_DATA_DEF",
    "END_TILING_DATA_DEF": "END_TILING_DATA_DEF",
    "TILING_DATA_FIELD_DEF": "TILING_DATA_FIELD_DEF",
    "TILING_DATA_FIELD_DEF_ARR": "TILING_DATA_FIELD_DEF_ARR",
    "TILING_DATA_FIELD_DEF_STRUCT": "TILING_DATA_FIELD_DEF_STRUCT",
    "REGISTER_TILING_DATA_CLASS": "REGISTER_TILING_DATA_CLASS",
}

# C++'s alternative tokens: `if (a and not b)` is `if (a && !b)`.
_ALTERNATIVE_TOKENS = {
    "and": "ANDAND", "or": "OROR", "not": "BANG", "not_eq": "NE", "bitand": "AMP", "bitor": "BAR", "xor": "CARET",
    "compl": "TILDE", "and_eq": "COMPOUND_ASSIGN", "or_eq": "COMPOUND_ASSIGN", "xor_eq": "COMPOUND_ASSIGN",
}

KEYWORDS: dict[str, str] = {w: group for group, words in _KEYWORD_GROUPS.items() for w in words}
KEYWORDS.update({w: w.upper() for w in _SINGLE_KEYWORDS})
KEYWORDS.update(_VENDOR_KEYWORDS)
KEYWORDS.update(_ALTERNATIVE_TOKENS)

_IDENT_RE = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def _word(word: str) -> str:
    r"""`\bword` for a word starting with a word character, spelled `word(?<!\wword)`: a pattern that starts
    with a literal lets the regex engine jump from one occurrence to the next, one that starts with `\b`
    is tried at every offset (about thirty times slower on a whole file)."""
    return f"{word}(?<!\\w{word})"


# Names declared as types in the file. One regex per shape, each starting with a literal or a character
# class, so the regex engine skips ahead instead of trying every alternative at every offset.
_TYPENAME_RE = re.compile(rf"{_word('typename')}(?:\s+|\s*\.\.\.\s*)([A-Za-z_]\w*)\b(?!\s*::)")  # `typename... Ts` too
# `template <BufferType Type>`: the shape right after a template header's `<` declares a value parameter
_TEMPLATE_BEFORE_RE = re.compile(r"\btemplate\s*<\Z")
_ALIAS_RES = (
    re.compile(rf"{_word('using')}\s+([A-Za-z_]\w*)\s*="),
    re.compile(rf"{_word('using')}\s+[A-Za-z_]\w*\s*=\s*(?:typename\s+)?(?:const\s+)?(?:[A-Za-z_]\w*\s*::\s*)*([A-Za-z_]\w*)\s*[;*&<]"),
)
_DECLARED_TYPE_RES = [
    re.compile(rf"(?:{_word('class')}|{_word('struct')}|{_word('union')})(?:\s+|\s*\.\.\.\s*)(?:\[\[[^\]]*\]\]\s*)?"
               r"([A-Za-z_]\w*)"),  # `class Foo`, `class... Ts`
    re.compile(rf"{_word('enum')}\s+(?:(?:class|struct)\s+)?([A-Za-z_]\w*)"),
    _TYPENAME_RE,
    *_ALIAS_RES,
    re.compile(rf"{_word('typedef')}\b[^;{{}}]*?\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*;"),
    re.compile(rf"{_word('BEGIN_TILING_DATA_DEF')}\s*\(\s*([A-Za-z_]\w*)"),
    # `(__gm__ HcclOpResParam *)ctx`: an address space qualifies a type (here one from a header out of reach)
    re.compile(r"__(?:gm|ubuf|ca|cb|cc|cbuf|fbuf|ssbuf|biasbuf)__\s+(?:(?:const|volatile)\s+)*"
               r"(?:[A-Za-z_]\w*\s*::\s*)*([A-Za-z_]\w*)"),
    re.compile(r"[:,]\s*(?:virtual\s+)?(?:public|private|protected)\s+(?:virtual\s+)?(?:::\s*)?(?:[A-Za-z_]\w*\s*::\s*)*([A-Za-z_]\w*)"),
    # a type parameter's default is a type: `class TileCopy = Gemm::Tile::TileCopy<typename P::ArchTag, A>`
    re.compile(rf"(?:{_word('class')}|{_word('typename')})\s+[A-Za-z_]\w*\s*=\s*(?:typename\s+)?(?:::\s*)?"
               r"(?:[A-Za-z_]\w*\s*::\s*)*([A-Za-z_]\w*)"),
]
# `X y;` / `X<...> y(` / `ns::X* p =`: two names in a row only happen in declarations. The shape starts
# after one of `;{}(,:<>` (`<uint8_t Mode>`, `template <...> Foo f(`) or a line break and ends before one
# of `;=,)([{:>` (left for the next match). Pointer qualifiers (`X* __restrict p`, `X* const p`) make it a
# declaration whatever `X` looks like: no expression has a qualifier after `*`; group 2 holds them.
# Nothing that may follow a name matches a word character, so a name never matches in part: the `\b`
# after each `\w*` says so, and spares the regex engine from trying each shorter name before it gives up
# on a start (a quarter of this regex's time; Python 3.10 has no possessive `\w*+`).
_DECL_SHAPE_RE = re.compile(
    r"(?:[;{}(,:<>]|\n(?=[ \t\r]*\S))\s*(?:(?:const|volatile|static|constexpr|inline|typename|mutable)\s+)*"
    r"(?:[A-Za-z_]\w*\b\s*::\s*)*([A-Za-z_]\w*\b)(?:\s*<[^;{}()|&?=]*?>)?"
    r"(?:\s+|\s*[*&]+\s*((?:(?:const|volatile|__restrict__|__restrict|restrict)\b\s*)*))([A-Za-z_]\w*\b)"
    r"\s*(?=[;,)(\[{>]|=(?!=)|:(?!:))"  # (`a<b> && ns::c` is no declaration of `ns`; nor `A::x && b == c` of b)
)
# msopgen defines DTYPE_<INPUT> / ORIG_DTYPE_<INPUT> per dtype combination at build time.
# (ORIG_DTYPE_<INPUT> is the ge::DataType enum value, not a type.)
_DTYPE_MACRO_RE = re.compile(r"DTYPE_(?<![A-Za-z0-9_]DTYPE_)[A-Z0-9_]+\b")
# `) -> T`, `) const noexcept -> T`: the first name of a trailing return type (or of a member after `f()->`)
_TRAILING_RETURN_RE = re.compile(r"\)\s*(?:(?:mutable|constexpr|const|noexcept|override|final)\b\s*)*->\s*"
                                 r"(?:[A-Za-z_]\w*\s*::\s*)*([A-Za-z_]\w*)\b")
# `auto name(`, `auto C::name(`, `auto operator()(`: a declaration whose trailing return type may end in `;` (a
# function declared without a body: `auto has_tuple_size(T*) -> bool_constant<...>;`), unlike `p()->x;`
_AUTO_DECLARATOR_RE = re.compile(r"\bauto\s+(?:[A-Za-z_]\w*\s*::\s*)*(?:[A-Za-z_]\w*|operator\s*[^\s\w]{1,3})\s*\(")
_TYPE_SUFFIX_RE = re.compile(r"[\s*&]*")  # what may stand between a return type's name (or `>`) and the body
# `__simt_vf__ LAUNCH_BOUND(N) inline void f()`: an ALL_CAPS macro call among function qualifiers.
_ATTRIBUTE_CALL_MACRO_RE = re.compile(
    r"\b((?:[A-Z][A-Z0-9]*_)+[A-Z0-9]+)\s*\((?:[^()]|\([^()]*\))*\)\s*"
    r"(?=(?:inline|static|void|constexpr|__aicore__|__global__)\b)")  # one level of parentheses: LAUNCH_BOUND((1024))
# An unknown ALL_CAPS word right before a declaration is an attribute-like macro from a header we do
# not read: `CATLASS_DEVICE void f()`, `FORCE_INLINE __aicore__ ...`, `__aicore__ FORCE_INLINE void f()`; one
# without an underscore (`AICORE void f()`, `DEVICE static T g()`) only before words no type name precedes.
_ATTRIBUTE_MACRO_RE = re.compile(
    r"^[ \t]*(?:template\s*<[^;{}]*>\s*)?(?:\[\[[^\]]*\]\]\s*)?(?:(?:__aicore__|\[aicore\]|inline|static)[ \t]+)*"
    r"(?:((?:[A-Z][A-Z0-9]*_)+[A-Z0-9]+)\s+(?=(?:inline|static|void|constexpr|__aicore__|"
    r"__global__|template|auto|bool|int|float|unsigned|u?int\d+_t|const|extern|class|struct)\b)"
    r"|([A-Z][A-Z0-9]{3,})[ \t]+(?=(?:inline|static|void|constexpr|__aicore__|__global__)\b))",
    re.M,
)
# An unknown ALL_CAPS word that starts a line and is followed by `Type name(` marks a function declaration
# of a header we do not read: `ACLNN_API aclnnStatus aclnnAdd(...)`, `ASCENDC_EXTERN_C ge::graphStatus F(...)`.
# (Three names in a row then `(` is a declaration whatever the first one expands to.)
_SIGNATURE_MACRO_RE = re.compile(
    r"^[ \t]*((?:[A-Z][A-Z0-9]*_)+[A-Z0-9]+)[ \t]+(?=(?:[A-Za-z_]\w*[ \t]*::[ \t]*)*([A-Za-z_]\w*)"
    r"[ \t]*[*&]*\s+[*&]*\s*[A-Za-z_]\w*[ \t]*\()",
    re.M,
)
# Cheap necessary conditions for the two patterns above (each starts with a literal, see _word): a text
# without a match for the guard has no match for the pattern, and most texts have none.
_ATTRIBUTE_CALL_MACRO_GUARD = re.compile(r"\)\s*(?:inline|static|void|constexpr|__aicore__|__global__)\b")
_ATTRIBUTE_MACRO_GUARD = re.compile(
    r"[A-Z0-9]\s+(?:inline|static|void|constexpr|__aicore__|__global__|template|auto|bool|int|float|unsigned|"
    r"u?int\d+_t|const|extern|class|struct)\b")
_LESS_RE = re.compile(r"<(?![<=])")
_MACRO_NAME_RE = re.compile(r"[A-Z][A-Z0-9_]*")  # a callee named so is taken for a macro
_NAME_BEFORE_RE = re.compile(r"([A-Za-z_]\w*)\s*$")  # what _name_before finds, without the regex's cost
_NOT_TYPE_WORDS = frozenset(KEYWORDS) | {"return", "case", "goto", "else", "new", "delete", "throw", "co_return"}
# Types whose name before another name makes that name a variable (or a parameter), never a type.
_SCALAR_TYPE_WORDS = frozenset({"int", "unsigned", "signed", "long", "short", "char", "bool", "float", "double",
                                "auto", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t",
                                "int64_t", "uint64_t", "size_t", "half", "bfloat16_t"})


_TYPEDEF_BLOCK_RE = re.compile(rf"{_word('typedef')}\s+(?:struct|union|enum|class)\b[^;{{]*\{{")


def _typedef_block_names(text: str) -> Iterator[str]:
    """Names given by `typedef struct { ... } Name;` (the name follows the matching brace)."""
    for m in _TYPEDEF_BLOCK_RE.finditer(text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        name = _IDENT_RE.match(text, i + len(text[i:]) - len(text[i:].lstrip()))
        if name:
            yield name.group(0)


def _name_before(text: str, lt: int) -> tuple[int, int] | None:
    """Where `_NAME_BEFORE_RE.search(text, max(0, lt - 80), lt)` finds its name, as (start, end), or None:
    the identifier that ends, give or take whitespace, right before offset `lt`. Scanning back from `lt`
    costs a few steps; the regex search tries every offset of the 80-character window."""
    lo = lt - 80 if lt > 80 else 0
    j = lt
    while j > lo and text[j - 1].isspace():  # str.isspace and isalnum are what `\s` and `\w` test
        j -= 1
    i = j
    while i > lo and (text[i - 1].isalnum() or text[i - 1] == "_"):
        i -= 1
    for k in range(i, j):  # the name starts at the first character that may start one ([A-Za-z_])
        c = text[k]
        if c == "_" or "a" <= c <= "z" or "A" <= c <= "Z":
            return k, j
    return None


def _template_close(text: str, lt: int, logic_ok: bool = False) -> int:
    """If text[lt] opens a template argument list, the offset just past its `>`; else -1. A top-level `&&` or
    `||` says `<` is a comparison (`a < b && c > d`) unless `logic_ok` (the name before `<` is a class template)."""
    # (a list may run over many lines: Ops::Base DAG aliases hold 600 characters of placeholders; a comparison
    # ends at the statement's `;` or the parenthesis around it, long before the limit)
    angle, paren, i, n = 1, 0, lt + 1, min(len(text), lt + 4000)
    while i < n:
        c = text[i]
        if c in "\"'":
            q, i = c, i + 1
            while i < n and text[i] != q:
                i += 2 if text[i] == "\\" else 1
        elif c in "([":
            paren += 1
        elif c in ")]":
            if paren == 0:
                return -1
            paren -= 1
        elif c in ";{}":
            return -1
        elif c == "-" and i + 1 < n and text[i + 1] == ">":
            i += 1  # `->` is member access, not a closing angle bracket
        elif paren == 0:
            nxt = text[i + 1] if i + 1 < n else ""
            if c == "<":
                if nxt == "=":
                    i += 1  # `sizeof(T) <= 2` is a comparison inside the list, as in C++
                elif nxt == "<":
                    return -1
                else:
                    angle += 1
            elif c == ">":
                if nxt == "=":
                    return -1
                angle -= 1
                if angle == 0:
                    return i + 1
            elif c in "&|" and nxt == c:
                if not logic_ok:
                    return -1
                i += 1
            elif c == "?":
                return -1
        i += 1
    return -1


class _FunctionTemplates:
    """The names the text declares as function templates (`template <...> __aicore__ void F(`), found on first
    use: only a list with a top-level `&&` or `||` asks (`F<T, A && !B>(x)` calls a template; `a < b && c > d`
    compares)."""

    def __init__(self) -> None:
        self._names: set[str] | None = None

    def __call__(self, text: str) -> set[str]:
        if self._names is None:
            self._names = set()
            for header in _TEMPLATE_HEADER_RE.finditer(text):
                end = _template_close(text, header.end() - 1, True)
                if end < 0:
                    continue
                stop = _DECLARATION_STOP_RE.search(text, end)
                if stop is not None and stop.group() == "(":
                    name = _name_before(text, stop.start())
                    if name is not None:
                        self._names.add(text[name[0] : name[1]])
        return self._names


_TEMPLATE_HEADER_RE = re.compile(r"\btemplate\s*<")
_DECLARATION_STOP_RE = re.compile(r"[(;{=]")


def _has_alternative_logic(text: str, lt: int, end: int) -> bool:
    """Is there an `and` or `or` in text[lt:end] (which _template_close takes for a list's `&&` / `||`)?"""
    segment = text[lt:end]
    return " and " in segment or " or " in segment


_AFTER_TEMPLATE_OK = frozenset("(),;:{}>*&[<.=]|?")


@dataclass
class ScanResult:
    """What the pre-scan learned about a text: type names and where template argument lists start."""

    types: set[str]
    type_templates: set[str]
    template_starts: set[int]
    template_closers: set[int] = field(default_factory=set)  # offsets of `>` that close argument lists
    attribute_macros: set[str] = field(default_factory=set)
    text: str = ""
    declared_types: set[str] = field(default_factory=set)  # declared so: `class X`, `typename X`, `using X =`
    variables: set[str] = field(default_factory=set)  # declared after a scalar type: `int64_t x`
    # offset -> tag of a type name after `->` that is a trailing return type, not a member (`[&](int i) ->
    # LocalTensor<T> {`), which the retagger otherwise reads as the member after `p->`
    trailing_types: dict[int, str] = field(default_factory=dict)
    member_types: set[str] = field(default_factory=set)  # type names only after `X::` (see prescan)
    # names declared only as template type parameters (`typename A`): never a type after `X::` (`Tag::A`)
    template_params: set[str] = field(default_factory=set)


def prescan(text: str, logic_words: bool = False) -> ScanResult:
    """What the parser needs to know of `text` before it parses. `logic_words`: look for `and` / `or` between
    `<` and `>` too (Parser.parse asks for that only after a syntax error: the search costs a few percent)."""
    types: set[str] = set()
    dtype_macros = set(_DTYPE_MACRO_RE.findall(text))
    types.update(dtype_macros)
    types.update(_typedef_block_names(text))
    aliases: set[str] = set()  # names declared only by `using X = ...` or named at the end of its target
    params: set[str] = set()  # names declared only by `typename X` (template parameters)
    for regex in _DECLARED_TYPE_RES:
        found = {name for name in regex.findall(text) if name not in KEYWORDS}
        (aliases if regex in _ALIAS_RES else params if regex is _TYPENAME_RE else types).update(found)
    declared_only_so = aliases | params
    aliases, params = aliases - types - params, params - types - aliases  # a name declared both ways is neither
    types |= declared_only_so
    declared_types = set(types)
    alternative_logic = logic_words and (" and " in text or " or " in text)
    shapes = list(_DECL_SHAPE_RE.finditer("\n" + text))
    # `int64_t AlignkW = ...` declares a variable: `(AlignkW * curkH)` elsewhere is a product, whatever its case
    variables = {m.group(3) for m in shapes if m.group(1) in _SCALAR_TYPE_WORDS
                 or (m.group(0)[0] == "<" and m.group(1) not in KEYWORDS  # (not `template <typename T>`)
                     and _TEMPLATE_BEFORE_RE.search(m.string, max(0, m.start() - 24), m.start() + 1))}
    # `constexpr static uint32_t DTYPE_FACTOR = ...;` (ops-transformer flash_attention_score_grad) is a constant
    # that only looks like a DTYPE_<NAME> macro: read as a type, each use was a syntax error and a re-parse
    types -= dtype_macros & variables
    qualified: set[str] = set()  # names the shapes read as types only after `X::`
    unqualified: set[str] = set()
    for m in shapes:
        first, second = m.group(1), m.group(3)
        if first in _NOT_TYPE_WORDS or second in _NOT_TYPE_WORDS or first in KEYWORDS:
            continue
        if alternative_logic and _has_alternative_logic(m.group(0), 0, len(m.group(0))):
            continue  # `(a < b or c > d)` is no `A<...> d` declaration (the regex leaves out `||` itself)
        between = m.string[m.end(1) : m.start(3)]
        if ("*" in between or "&" in between) and not m.group(2):
            qualified_ref = between.strip() == "&" and m.string[max(0, m.start(1) - 2) : m.start(1)] == "::"
            if not qualified_ref and (not (first[0].isupper() and not first.isupper()) or first in variables):
                continue  # `a * b` is an expression unless `a` looks like a class name (or `ns::x& y`)
        types.add(first)
        (qualified if _after_scope(m.string, m.start(1)) else unqualified).add(first)
    # A name the file uses as a type only after `X::` (`typename T::type F()`), or declares as a type only in a
    # class's alias (`using maskType = U;`, read as `PFAT::maskType`), and declares as a variable (`uint32_t
    # type`) is a member type of some class: unqualified, it is the variable (`if (type == 0)`).
    member_types = ((qualified | aliases) - unqualified - (declared_types - aliases)) & variables
    types -= member_types
    # a vendor type name the file declares as a variable and never as a type is a variable here
    # (`template <uint8_t DataType, ...>` in a kernel; ge::DataType is a host type)
    types.update(KNOWN_TYPES - (variables - types))
    starts: set[int] = set()
    closers: set[int] = set()
    type_templates = set(KNOWN_TYPE_TEMPLATES) | types
    function_templates = _FunctionTemplates()
    for less in _LESS_RE.finditer(text):
        lt = less.start()
        if lt and text[lt - 1] == "<":
            continue  # the second `<` of `<<`
        name = _name_before(text, lt)
        if name is None:
            continue
        name_start, name_end = name
        end = _template_close(text, lt)
        called_only = False  # a list with `&&` / `||` after a function template's name must be its call's
        if end < 0 and (text[name_start:name_end] in type_templates
                        or text[name_start:name_end] in function_templates(text)):
            end = _template_close(text, lt, True)  # `conditional_t<A && B, X, Y>`, `F<T, A && !B>(x)`
            called_only = text[name_start:name_end] not in type_templates
        if alternative_logic and end > 0 and _has_alternative_logic(text, lt, end):
            end = -1  # `a < b or c > d`: `or` ends a template argument list as `||` does
        if end < 0:
            if text[name_start:name_end] in KNOWN_TYPE_TEMPLATES:
                starts.add(name_start)  # a vendor class template with a broken list: let the parser say so
            continue
        j = end
        while j < len(text) and text[j] in " \t\r\n":
            j += 1
        follower = text[j] if j < len(text) else ";"
        if called_only and follower != "(":
            # `index < 0 || index > bound` in a file whose kernel entry is the function template `index`: a
            # comparison of a local that shadows it (ops-nn index_simd.h)
            continue
        if follower in _AFTER_TEMPLATE_OK or follower.isalnum() or follower == "_":
            starts.add(name_start)
            closers.add(end - 1)
            if follower == "{":
                type_templates.add(text[name_start:name_end])  # `Foo<T>{}` constructs: Foo is a class template
            elif follower.isalpha() or follower == "_":
                # `Foo<T> op(&pipe);`: a name after the list declares something of type Foo<T>, a class
                # template (whose header may be out of reach); `Foo<T> const&` and the like stay as they were.
                template = text[name_start:name_end]
                if template not in type_templates:
                    word = _IDENT_RE.match(text, j)
                    if word is not None and word.group() not in KEYWORDS:
                        type_templates.add(template)
    attribute_macros: set[str] = set()
    if _ATTRIBUTE_MACRO_GUARD.search(text):
        for m in _ATTRIBUTE_MACRO_RE.finditer(text):
            macro = m.group(1) or m.group(2)
            if macro not in types:
                attribute_macros.add(macro)
            elif not text.startswith("const", m.end()) and macro not in KNOWN_TYPES:
                # no type is followed by `void`, `inline` or `int`: the declaration-shape scan took the macro
                # for a type where it stands before a constructor (`FORCE_INLINE_AICORE DataCopyGM2GM() {}`)
                attribute_macros.add(macro)
                types.discard(macro)
    for macro, type_word in _SIGNATURE_MACRO_RE.findall(text):
        if type_word not in _NOT_TYPE_WORDS and macro not in KNOWN_TYPES:
            attribute_macros.add(macro)
            types.discard(macro)  # the declaration-shape scan takes `MACRO ge::` for a type
    if _ATTRIBUTE_CALL_MACRO_GUARD.search(text):
        attribute_macros.update(_ATTRIBUTE_CALL_MACRO_RE.findall(text))
    trailing = _trailing_types(text, types, type_templates, starts) if ")" in text and "->" in text else {}
    return ScanResult(types, type_templates, starts, closers, attribute_macros, text, declared_types, variables,
                      trailing, member_types, params)


def _after_scope(text: str, offset: int) -> bool:
    """Whether `::` stands right before offset (blanks between)."""
    k = offset
    while k and text[k - 1] in " \t\r\n":
        k -= 1
    return text.startswith("::", k - 2)


def _trailing_types(text: str, types: set[str], type_templates: set[str], starts: set[int]) -> dict[int, str]:
    """The type names of trailing return types: `) -> T {` and `) mutable -> ns::Tpl<...> {`, where a body follows
    (a member after `f()->` is never followed by one), and `auto f(T*) -> Tpl<...>;`, a declaration. Whatever the
    scan knows of the name, it is a type there (`bool_constant<...>` from a header out of reach)."""
    found: dict[int, str] = {}
    for m in _TRAILING_RETURN_RE.finditer(text):
        name, start = m.group(1), m.start(1)
        end = m.end(1)
        if name in KEYWORDS:
            continue  # `-> decltype(...)`, `-> typename T::type`, `-> void`: the grammar reads those itself
        if start in starts:
            lt = text.find("<", end)
            end = _template_close(text, lt, True) if lt >= 0 else -1
            if end < 0:
                continue
            tag = "TYPE_TEMPLATE"
        else:
            tag = "TYPE_NAME"
        follower = _TYPE_SUFFIX_RE.match(text, end)
        if follower is None:
            continue
        at = follower.end()
        if text.startswith("{", at) or (text.startswith(";", at) and _declares_function(text, m.start())):
            found[start] = tag
    return found


def _declares_function(text: str, close: int) -> bool:
    """Whether the statement whose parameter list closes at `close` declares a function with `auto` before its
    name (`template <class T> auto f(T*)`), rather than calling one (`p()->x;`)."""
    statement = _statement_start(text, close)
    return _AUTO_DECLARATOR_RE.search(text, statement, close) is not None


class IdentifierRetagger:
    """Lark post-lexer: maps IDENTIFIER tokens to keywords, TYPE_NAME, TYPE_TEMPLATE and TEMPLATE_NAME."""

    always_accept = ("IDENTIFIER",)

    def __init__(self) -> None:
        self.scan = ScanResult(set(KNOWN_TYPES), set(KNOWN_TYPE_TEMPLATES), set())
        # Per-offset tags forced by the parser's retry after an error (see Parser.parse).
        self.overrides: dict[int, str] = {}
        # The last few identifier-like tokens handed to the parser: (offset, tag).
        self.recent_names: deque[tuple[int, str]] = deque(maxlen=3)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        scan = self.scan
        types, type_templates, starts = scan.types, scan.type_templates, scan.template_starts
        closers = scan.template_closers
        overrides = self.overrides
        attribute_macros = scan.attribute_macros
        trailing = scan.trailing_types
        member_types = scan.member_types
        params = scan.template_params
        source = scan.text

        def text_at(offset: int) -> str:
            while offset < len(source) and source[offset] in " \t\r\n":
                offset += 1
            return source[offset : offset + 1]

        previous = ""
        recent = self.recent_names
        recent.clear()
        for tok in stream:
            if tok.type in _SPLITTABLE and tok.start_pos in closers:
                # `A<B<T>>`: LALR state merging can let the lexer take `>>` where `>` closes a list.
                yield from _split_closer(tok, closers)
                previous = "GT"
                continue
            if tok.type == "IDENTIFIER":
                value = tok.value
                keyword = KEYWORDS.get(value)
                if keyword is not None:
                    tok.type = keyword
                elif tok.start_pos in starts:
                    is_member = previous in ("DOT", "ARROW")
                    tok.type = "TYPE_TEMPLATE" if value in type_templates and not is_member else "TEMPLATE_NAME"
                elif value in types and previous not in _NOT_BEFORE_TYPE and not (
                        value in params and _after_scope(source, tok.start_pos)):
                    tok.type = "TYPE_NAME"
                elif member_types and value in member_types and _after_scope(source, tok.start_pos):
                    tok.type = "TYPE_NAME"
                elif value in attribute_macros:
                    tok.type = "MIX" if text_at(tok.end_pos) == "(" else "FN_SPECIFIER"
                if trailing and tok.start_pos in trailing:
                    tok.type = trailing[tok.start_pos]
                if overrides and tok.start_pos in overrides:
                    tok.type = overrides[tok.start_pos]
                if tok.type in _FLIPS:
                    recent.append((tok.start_pos, tok.type))
            previous = tok.type
            yield tok


# Tokens after which a name the scan knows as a type is not one: a member (`x.Type`), or the name a
# declaration declares (`void SetFmap(`, `int DataType`; the class beside it may have `using SetFmap = ...`).
_NOT_BEFORE_TYPE = frozenset({"DOT", "ARROW", "VOID", "BUILTIN_TYPE"})

# The other reading of a name, tried when the first one leads straight into a syntax error.
_FLIPS = {"TYPE_NAME": "IDENTIFIER", "IDENTIFIER": "TYPE_NAME", "TYPE_TEMPLATE": "TEMPLATE_NAME",
          "TEMPLATE_NAME": "TYPE_TEMPLATE"}
MAX_RETAG_RETRIES = 64

_SPLITTABLE = frozenset({"SHR", "LAUNCH_CLOSE", "GE", "COMPOUND_ASSIGN"})
_REST_TYPES = {">": "GT", ">>": "SHR", "=": "ASSIGN", ">=": "GE", ">>=": "COMPOUND_ASSIGN"}


def _split_closer(tok: Token, closers: set[int]) -> Iterator[Token]:
    """Yield `>` tokens for each closing bracket at the front of `tok`, then the rest as one token."""
    value, pos, col = tok.value, tok.start_pos, tok.column
    i = 0
    while i < len(value) and value[i] == ">" and (pos + i) in closers:
        yield Token("GT", ">", pos + i, tok.line, col + i, tok.line, col + i + 1, pos + i + 1)
        i += 1
    rest = value[i:]
    if rest:
        yield Token(_REST_TYPES.get(rest, tok.type), rest, pos + i, tok.line, col + i, tok.end_line, tok.end_column,
                    tok.end_pos)


class _FastToken(Token):
    """A token of the fast path. It keeps its offsets and the text, and works its line and column out
    only when asked: the AST builder reads offsets alone (spans are offsets until resolved), and
    counting lines for every token costs about a twentieth of a parse."""

    __slots__ = ("text",)

    def _line_at(self, offset: int) -> int:
        return self.text.count("\n", 0, offset) + 1

    def _column_at(self, offset: int) -> int:
        return offset - self.text.rfind("\n", 0, offset)

    @property  # type: ignore[override]
    def line(self) -> int:
        return self._line_at(self.start_pos)

    @property  # type: ignore[override]
    def column(self) -> int:
        return self._column_at(self.start_pos)

    @property  # type: ignore[override]
    def end_line(self) -> int:
        return self._line_at(self.end_pos)

    @property  # type: ignore[override]
    def end_column(self) -> int:
        return self._column_at(self.end_pos)

    def __reduce__(self) -> Any:  # copied or pickled, it is an ordinary Token (these properties have no setter)
        return (Token, (self.type, self.value, self.start_pos, self.line, self.column, self.end_line,
                        self.end_column, self.end_pos))


# ------------------------------------------------------------------ AST construction

OriginFn = Callable[[int], tuple[str, int, int]]


@dataclass
class _Prefixes:
    words: list[str]
    span: Span


@dataclass
class _ClassHead:
    key: str
    name: str | None
    spec_args: list[A.TemplateArg] | None
    bases: list[A.TypeRef]
    span: Span


@dataclass
class _DeclSpec:
    specifiers: list[str]
    type: A.TypeRef
    span: Span


@dataclass
class _Declarator:
    name: str
    pointers: list[str]
    pointer_quals: list[str]
    dims: list[Any]
    init: Any
    style: str
    span: Span
    ctor_args: list[Any] = field(default_factory=list)


@dataclass
class _InitStatement:
    """The init-statement of `if (init; cond)` / `switch (init; cond)`, told apart from the condition. The AST
    holds such a statement as C++ defines it: `{ init; if (cond) ... }`, a block around the two."""

    statement: Any


@dataclass
class _FnDeclarator:
    name: A.QualifiedName
    pointers: list[str]
    params: list[A.Param]
    qualifiers: list[str]
    trailing_return: A.TypeRef | None
    span: Span
    kind: str = "function"


def _toks(children: Sequence[Any], *types: str) -> list[Token]:
    return [c for c in children if isinstance(c, Token) and c.type in types]


def _tok(children: Sequence[Any], *types: str) -> Token | None:
    for c in children:
        if isinstance(c, Token) and c.type in types:
            return c
    return None


def _nodes(children: Sequence[Any], cls: type = A.Node) -> list[Any]:
    return [c for c in children if isinstance(c, cls)]


def _parse_int(text: str) -> int:
    digits = text.replace("'", "").rstrip("uUlLzZ")
    try:
        if digits[:2] in ("0x", "0X"):
            return int(digits[2:], 16)
        if digits[:2] in ("0b", "0B"):
            return int(digits[2:], 2)
        if len(digits) > 1 and digits[0] == "0":
            return int(digits, 8)
        return int(digits)
    except ValueError:
        return 0


def _parse_float(text: str) -> float:
    t = text.rstrip("fFlL") if not text.lower().startswith("0x") else text.rstrip("lL")
    try:
        return float.fromhex(t) if t.lower().startswith("0x") else float(t)
    except (ValueError, OverflowError):
        return float("inf")  # `0x1p1024` overflows double; the verifier can flag the literal


class AstBuilder:
    """Lark inline-transformer callbacks: one method per grammar rule or alias."""

    def __init__(self) -> None:
        self.origin: OriginFn = lambda offset: ("<input>", 1, offset + 1)
        self.file = "<input>"
        # What lazy spans resolve through; Parser.parse gives each parse a fresh memoised one.
        self._origin: OriginFn = _memoized(self.origin)
        # Ends of the commas that no argument follows in a call that is not a macro's (see call_args).
        self.missing_args: list[int] = []
        self._last_missing: tuple[list[Any], list[int]] | None = None

    # -- spans
    def _first(self, item: Any) -> int | None:
        if isinstance(item, Token):
            return item.start_pos
        span = getattr(item, "span", None)
        if span is not None:
            return span.start if isinstance(span, LazySpan) else None
        if isinstance(item, list):
            for sub in item:
                found = self._first(sub)
                if found is not None:
                    return found
        return None

    def _last(self, item: Any) -> int | None:
        if isinstance(item, Token):
            return item.end_pos
        span = getattr(item, "span", None)
        if span is not None:
            return span.end if isinstance(span, LazySpan) else None
        if isinstance(item, list):
            for sub in reversed(item):
                found = self._last(sub)
                if found is not None:
                    return found
        return None

    def span(self, children: Sequence[Any]) -> LazySpan:
        # _first/_last of the children, with the common cases (a token, a node with a lazy span, a
        # placeholder None) tested first: this runs for nearly every node the parser builds.
        if len(children) == 1:
            # About half the calls. A lone node's span object is shared rather than copied: the range is
            # the same, and spans are never changed in place (a node gets a new span object instead).
            c = children[0]
            if c.__class__ is _FastToken:
                return LazySpan(c.start_pos, c.end_pos, self._origin)
            sp = getattr(c, "span", None)
            if sp.__class__ is LazySpan:
                return sp
        for c in children:
            cls = c.__class__
            if cls is _FastToken or cls is Token:
                start = c.start_pos
                if start is not None:
                    break
                continue
            if c is None:
                continue
            sp = getattr(c, "span", None)
            if sp.__class__ is LazySpan:
                start = sp.start
                break
            if sp is None:
                start = self._first(c)
                if start is not None:
                    break
            # else a resolved Span: _first says None
        else:
            return LazySpan(0, 0, self._origin)  # nothing with a position
        end = None
        for c in reversed(children):
            cls = c.__class__
            if cls is _FastToken or cls is Token:
                end = c.end_pos
                if end is not None:
                    break
                continue
            if c is None:
                continue
            sp = getattr(c, "span", None)
            if sp.__class__ is LazySpan:
                end = sp.end
                break
            if sp is None:
                end = self._last(c)
                if end is not None:
                    break
        if end is None or end < start:
            end = start + 1
        return LazySpan(start, end, self._origin)

    # -- top level
    def start(self, c: list[Any]) -> A.TranslationUnit:
        decls = _nodes(c)
        return A.TranslationUnit(self.span(c) if decls else Span(self.file, 1, 1, 1, 1), self.file, decls)

    def empty_decl(self, c: list[Any]) -> A.EmptyDecl:
        return A.EmptyDecl(self.span(c))

    def namespace_def(self, c: list[Any]) -> A.NamespaceDecl:
        outer = [p.name for p in c[1]] if isinstance(c[1], list) else []
        names = _toks(c[1:3], "IDENTIFIER", "TYPE_NAME")
        name = "::".join([*outer, names[0].value]) if names else None
        return A.NamespaceDecl(self.span(c), name, _nodes(c))

    def namespace_alias(self, c: list[Any]) -> A.NamespaceAlias:
        return A.NamespaceAlias(self.span(c), str(c[1]), c[2])

    def linkage_spec(self, c: list[Any]) -> A.LinkageSpec:
        language = str(c[1]).strip('"')
        decls = _nodes(c)
        for d in decls:
            if isinstance(d, A.FunctionDecl):
                d.linkage = language
        return A.LinkageSpec(self.span(c), language, decls)

    def template_decl(self, c: list[Any]) -> A.TemplateDecl:
        params = _nodes(c, A.TemplateParam)
        decl = c[-1]
        if isinstance(decl, A.FunctionDecl):
            decl.template_params = params
        return A.TemplateDecl(self.span(c), params, decl)

    member_template = template_decl

    def explicit_instantiation(self, c: list[Any]) -> A.ExplicitInstantiation:
        return A.ExplicitInstantiation(self.span(c), c[-1])

    def explicit_class_instantiation(self, c: list[Any]) -> A.ExplicitInstantiation:
        # `template struct K<2>;`: the class the instantiation names, as a declaration of it (no members)
        key = next(x for x in c if isinstance(x, Token) and x.type in ("CLASS", "STRUCT", "UNION"))
        type_ref, _ = self._elaborated_type(c[c.index(key):])
        return A.ExplicitInstantiation(self.span(c), A.ClassDecl(type_ref.span, str(key), type_ref.name, [], [], False,
                                                                 type_ref.base.parts[-1].template_args))

    def type_template_param(self, c: list[Any]) -> A.TemplateParam:
        names = _toks(c[1:], "IDENTIFIER", "TYPE_NAME")
        default = next((x for x in c if isinstance(x, A.TypeRef)), None)
        kind = "template" if c[0].type == "TEMPLATE" else "type"  # template <typename> class Impl
        return A.TemplateParam(self.span(c), kind, names[0].value if names else None, None, default,
                               _tok(c, "ELLIPSIS") is not None)

    def value_template_param(self, c: list[Any]) -> A.TemplateParam:
        spec: _DeclSpec = c[0]
        if len(c) > 1 and isinstance(c[1], _Declarator):  # `void (C::*fn)(int)`
            decl = self._declarator(spec, c[1])
            default = c[2] if len(c) > 2 and isinstance(c[2], A.Node) else None
            return A.TemplateParam(self.span(c), "value", decl.name or None, decl.type, default, False)
        names = _toks(c[1:], "IDENTIFIER", "TYPE_NAME")
        default = next((x for x in c[1:] if isinstance(x, A.Node)), None)
        return A.TemplateParam(self.span(c), "value", names[0].value if names else None, spec.type, default,
                               _tok(c, "ELLIPSIS") is not None)

    def using_directive(self, c: list[Any]) -> A.UsingDirective:
        return A.UsingDirective(self.span(c), c[-1])

    def using_decl(self, c: list[Any]) -> A.UsingDecl:
        return A.UsingDecl(self.span(c), [x for x in c if isinstance(x, A.QualifiedName)])

    def access_decl(self, c: list[Any]) -> A.UsingDecl:
        return A.UsingDecl(self.span(c), [self.using_target(c)])

    def using_target(self, c: list[Any]) -> A.QualifiedName:
        nested = next((x for x in c if isinstance(x, list)), [])
        last = c[-1]
        return A.QualifiedName(self.span(c), [*nested, A.NamePart(self.span([last]), str(last))])

    def alias_decl(self, c: list[Any]) -> A.AliasDecl:
        return A.AliasDecl(self.span(c), str(c[1]), c[-1])

    def typedef_decl(self, c: list[Any]) -> A.Node:
        if isinstance(c[1], (A.ClassDecl, A.EnumDecl)):
            # `typedef struct {...} Name;`: the struct is the declaration; it takes the typedef's name.
            decl = c[1]
            if isinstance(decl, A.ClassDecl) and decl.declarators:
                decl.name = decl.name or decl.declarators[0].name
                decl.declarators = []
            decl.span = self.span(c)
            return decl
        spec: _DeclSpec = c[1]
        decls = [self._declarator(spec, d) for d in c[2:] if isinstance(d, _Declarator)]
        if len(decls) == 1:
            return A.AliasDecl(self.span(c), decls[0].name, decls[0].type)
        return A.VarDecl(self.span(c), ["typedef"], decls)

    def static_assert(self, c: list[Any]) -> A.StaticAssert:
        strings = _toks(c, "STRING")
        message = "".join(s.value.strip('"') for s in strings) if strings else None
        return A.StaticAssert(self.span(c), c[1], message)

    # -- classes and enums
    def class_key(self, c: list[Any]) -> Token:
        return c[0]

    def class_head(self, c: list[Any]) -> _ClassHead:
        names = _toks(c[1:], "IDENTIFIER", "TYPE_NAME", "TYPE_TEMPLATE")
        spec_args = next((x for x in c if isinstance(x, list) and x and isinstance(x[0], A.TemplateArg)), None)
        bases = next((x for x in c if isinstance(x, tuple)), ())
        return _ClassHead(str(c[0]), names[0].value if names else None, spec_args, list(bases), self.span(c))

    def base_clause(self, c: list[Any]) -> tuple[A.TypeRef, ...]:
        return tuple(_nodes(c, A.TypeRef))

    def base_spec(self, c: list[Any]) -> A.TypeRef:
        if isinstance(c[-1], Token) and c[-1].type == "ELLIPSIS":
            return replace(c[-2], pack=True, span=self.span(c))
        return c[-1]

    def class_def(self, c: list[Any]) -> A.ClassDecl:
        head: _ClassHead = c[0]
        members = [m for m in c[1:] if isinstance(m, A.Node)]
        own_type = A.TypeRef(head.span, A.QualifiedName(head.span, [A.NamePart(head.span, head.name or "")]))
        spec = _DeclSpec([], own_type, head.span)
        declarators = [self._declarator(spec, d) for d in c[1:] if isinstance(d, _Declarator)]
        return A.ClassDecl(self.span(c), head.key, head.name, members, head.bases, True, head.spec_args, declarators)

    def class_forward(self, c: list[Any]) -> A.ClassDecl:
        return A.ClassDecl(self.span(c), str(c[0]), str(c[1]), [], [], False)

    def enum_def(self, c: list[Any]) -> A.EnumDecl:
        scoped = _tok(c[1:2], "CLASS", "STRUCT") is not None
        names = [t for t in c[1:] if isinstance(t, Token) and t.type in ("IDENTIFIER", "TYPE_NAME")]
        underlying = next((x for x in c if isinstance(x, A.TypeRef)), None)
        return A.EnumDecl(self.span(c), names[0].value if names else None, scoped, underlying,
                          _nodes(c, A.Enumerator))

    def enum_forward(self, c: list[Any]) -> A.EnumDecl:
        names = _toks(c[1:], "IDENTIFIER", "TYPE_NAME")
        return A.EnumDecl(self.span(c), names[0].value, _tok(c, "CLASS", "STRUCT") is not None, c[-1], [])

    def enumerator(self, c: list[Any]) -> A.Enumerator:
        return A.Enumerator(self.span(c), str(c[0]), c[1] if len(c) > 1 else None)

    def access_spec(self, c: list[Any]) -> A.AccessSpec:
        return A.AccessSpec(self.span(c), str(c[0]))

    def friend_decl(self, c: list[Any]) -> A.FriendDecl:
        return A.FriendDecl(self.span(c), c[-1])

    # -- functions
    def function_def(self, c: list[Any]) -> A.FunctionDecl:
        spec: _DeclSpec = c[0]
        fn: _FnDeclarator = c[1]
        inits = next((x for x in c if isinstance(x, tuple)), ())
        body = c[-1]
        return self._function(c, spec, fn, body, list(inits))

    def function_decl(self, c: list[Any]) -> A.FunctionDecl:
        return self._function(c, c[0], c[1], None, [])

    def _function(self, c: list[Any], spec: _DeclSpec, fn: _FnDeclarator, body: Any, inits: list[Any]) -> A.FunctionDecl:
        ret = spec.type
        if fn.pointers:
            ret = replace(ret, pointers=ret.pointers + fn.pointers)
        if fn.trailing_return is not None:
            ret = fn.trailing_return
        return A.FunctionDecl(self.span(c), fn.name, ret, fn.params, body, spec.specifiers, fn.kind,
                              inits, fn.qualifiers)

    def fn_declarator(self, c: list[Any]) -> _FnDeclarator:
        ptrs = next((x for x in c if isinstance(x, tuple) and x and x[0] == "ptrs"), None)
        name: A.QualifiedName = next(x for x in c if isinstance(x, A.QualifiedName))
        params = next((x for x in c if isinstance(x, list)), [])
        quals = [str(x) for x in c if isinstance(x, Token) and x.type in ("CV", "NOEXCEPT", "OVERRIDE", "FINAL")]
        trailing = next((x for x in c if isinstance(x, A.TypeRef)), None)
        kind = "operator" if name.name.startswith("operator") else "function"
        return _FnDeclarator(name, list(ptrs[1]) if ptrs else [], params, quals, trailing, self.span(c), kind)

    def fn_suffix(self, c: list[Any]) -> Token:
        return c[0]

    def _ctor(self, c: list[Any], kind: str) -> A.FunctionDecl:
        prefixes = next((x for x in c if isinstance(x, _Prefixes)), None)
        name = next(x for x in c if isinstance(x, A.QualifiedName))
        params = next((x for x in c if isinstance(x, list)), [])
        inits = next((list(x) for x in c if isinstance(x, tuple) and (not x or isinstance(x[0], A.MemberInit))), [])
        body = c[-1] if isinstance(c[-1], A.Compound) else None
        return A.FunctionDecl(self.span(c), name, None, params, body, prefixes.words if prefixes else [], kind, inits)

    def ctor_def(self, c: list[Any]) -> A.FunctionDecl:
        return self._ctor(c, "constructor")

    ctor_decl = ctor_def

    def dtor_def(self, c: list[Any]) -> A.FunctionDecl:
        return self._ctor(c, "destructor")

    def ctor_name(self, c: list[Any]) -> A.QualifiedName:
        nested = c[0] if isinstance(c[0], list) else []
        if isinstance(c[-1], list):  # the class's template arguments, which name the class itself
            return A.QualifiedName(self.span(c), [*nested, A.NamePart(self.span(c[-2:-1]), str(c[-2]))])
        return A.QualifiedName(self.span(c), [*nested, A.NamePart(self.span(c[-1:]), str(c[-1]))])

    def dtor_name(self, c: list[Any]) -> A.QualifiedName:
        nested = c[0] if isinstance(c[0], list) else []
        return A.QualifiedName(self.span(c), [*nested, A.NamePart(self.span(c[-2:]), "~" + str(c[-1]))])

    def ctor_initializer(self, c: list[Any]) -> tuple[A.MemberInit, ...]:
        return tuple(c)

    def mem_initializer(self, c: list[Any]) -> A.MemberInit:
        target = c[0]
        name = target.value if isinstance(target, Token) else target.name
        pack = isinstance(c[-1], Token) and c[-1].type == "ELLIPSIS"
        if pack:
            c = c[:-1]
        args = c[1] if len(c) > 1 and isinstance(c[1], list) else ([c[1]] if len(c) > 1 and c[1] is not None else [])
        return A.MemberInit(self.span(c), name, args, pack)

    def params(self, c: list[Any]) -> list[A.Param]:
        out = _nodes(c, A.Param)
        if _tok(c, "ELLIPSIS") is not None:
            out.append(A.Param(self.span(c[-1:]), A.TypeRef(self.span(c[-1:]), "..."), None, None, True))
        return out

    def param(self, c: list[Any]) -> A.Param:
        spec: _DeclSpec = c[0]
        decl = next((x for x in c[1:] if isinstance(x, _Declarator)), None)
        default = c[-1] if len(c) > 1 and isinstance(c[-1], A.Node) else None
        if decl is None:
            return A.Param(self.span(c), spec.type, None, default)
        full = self._declarator(spec, decl)
        return A.Param(self.span(c), full.type, decl.name or None, default, decl.style == "...")

    def param_declarator(self, c: list[Any]) -> _Declarator:
        if len(c) == 1 and isinstance(c[0], _Declarator):
            return c[0]
        ptrs = next((x for x in c if isinstance(x, tuple) and x and x[0] == "ptrs"), None)
        names = _toks(c, "IDENTIFIER", "TYPE_NAME")
        dims = next((x for x in c if isinstance(x, tuple) and x and x[0] == "dims"), ("dims", []))
        style = "..." if _tok(c, "ELLIPSIS") is not None else ""
        return _Declarator(names[0].value if names else "", list(ptrs[1]) if ptrs else [],
                           list(ptrs[2]) if ptrs else [], list(dims[1]), None, style, self.span(c))

    def abstract_declarator(self, c: list[Any]) -> _Declarator:
        ptrs = next((x for x in c if isinstance(x, tuple) and x[0] == "ptrs"), None)
        dims = next((x for x in c if isinstance(x, tuple) and x[0] == "dims"), ("dims", []))
        return _Declarator("", list(ptrs[1]) if ptrs else [], list(ptrs[2]) if ptrs else [], list(dims[1]),
                           None, "", self.span(c))

    def declarator_name(self, c: list[Any]) -> A.QualifiedName:
        nested: list[A.NamePart] = c[0] if isinstance(c[0], list) else []
        rest = c[1:] if nested else c
        if rest and isinstance(rest[0], Token) and rest[0].type == "OPERATOR":
            targs = rest[2] if len(rest) > 2 and isinstance(rest[2], list) else None
            part = A.NamePart(self.span(rest), "operator" + str(rest[1]), targs)
        else:
            targs = rest[1] if len(rest) > 1 and isinstance(rest[1], list) else None
            part = A.NamePart(self.span(rest), str(rest[0]), targs)
        return A.QualifiedName(self.span(c), [*nested, part])

    def conversion_fn(self, c: list[Any]) -> A.FunctionDecl:
        prefixes = next((x for x in c if isinstance(x, _Prefixes)), None)
        target: A.TypeRef = next(x for x in c if isinstance(x, A.TypeRef))
        keyword = next(x for x in c if isinstance(x, Token) and x.type == "OPERATOR")
        name = A.QualifiedName(self.span([keyword]), [A.NamePart(self.span([keyword]), "operator" + target.name)])
        quals = [str(x) for x in c if isinstance(x, Token) and x.type in ("CV", "NOEXCEPT", "OVERRIDE", "FINAL")]
        body = c[-1] if isinstance(c[-1], A.Compound) else None
        return A.FunctionDecl(self.span(c), name, target, [], body, prefixes.words if prefixes else [], "operator",
                              [], quals)

    def operator_symbol(self, c: list[Any]) -> str:
        return "".join(x.name if isinstance(x, A.TypeRef) else str(x) for x in c)

    # -- vendor tiling macros
    def tiling_data_def(self, c: list[Any]) -> A.TilingDataDef:
        return A.TilingDataDef(self.span(c), str(c[1]), _nodes(c, A.TilingField))

    def tiling_field(self, c: list[Any]) -> A.TilingField:
        return A.TilingField(self.span(c), "scalar", c[1], str(c[-1]))

    def tiling_field_arr(self, c: list[Any]) -> A.TilingField:
        return A.TilingField(self.span(c), "array", c[1], str(c[-1]), c[2])

    def tiling_field_struct(self, c: list[Any]) -> A.TilingField:
        return A.TilingField(self.span(c), "struct", c[1], str(c[-1]))

    def register_tiling_class(self, c: list[Any]) -> A.RegisterTilingData:
        names = _toks(c, "IDENTIFIER", "TYPE_NAME")
        return A.RegisterTilingData(self.span(c), names[0].value, names[1].value)

    def macro_decl(self, c: list[Any]) -> A.MacroDecl:
        args = c[1] if isinstance(c[1], list) else []
        self._forgive_missing_args(args)
        body = c[-1] if isinstance(c[-1], A.Compound) else None
        return A.MacroDecl(self.span(c), str(c[0]), args, body, _nodes(c, A.Call))

    def macro_chain(self, c: list[Any]) -> A.Call:
        name, targs = c[1]
        callee = A.Name(self.span(c[1:2] or c), A.QualifiedName(self.span(c), [A.NamePart(self.span(c), name, targs)]))
        return A.Call(self.span(c), callee, c[2] if len(c) > 2 and isinstance(c[2], list) else [])

    def return_arg(self, c: list[Any]) -> A.ReturnArg:
        return A.ReturnArg(self.span(c), c[1] if len(c) > 1 else None)

    def _elaborated_type(self, c: list[Any]) -> tuple[A.TypeRef, int]:
        """`struct ns::Name` (or `struct ns::Name<T>`, a template's type) at c[0:]: the type and the index just
        after it."""
        nested = c[1] if isinstance(c[1], list) else []
        i = 2 if nested else 1
        targs = c[i + 1] if i + 1 < len(c) and isinstance(c[i + 1], list) else None
        end = i + 2 if targs is not None else i + 1
        head = c[:end]
        qn = A.QualifiedName(self.span(head), [*nested, A.NamePart(self.span(c[i:end]), str(c[i]), targs)])
        return A.TypeRef(self.span(head), qn), end

    def elaborated_var_decl(self, c: list[Any]) -> A.VarDecl:
        type_ref, after = self._elaborated_type(c)
        spec = _DeclSpec([str(c[0])], type_ref, type_ref.span)  # type: ignore[arg-type]
        return A.VarDecl(self.span(c), spec.specifiers, [self._declarator(spec, d) for d in c[after:] if isinstance(d, _Declarator)])

    def alias_function_type(self, c: list[Any]) -> A.AliasDecl:
        # `using Op = void (const LocalTensor<T>&, int32_t);`: a function type; kept as its return type with
        # a "(...)" marker, which is all later stages need of these callback aliases.
        spec: _DeclSpec = c[2]
        return A.AliasDecl(self.span(c), str(c[1]), replace(spec.type, pointers=[*spec.type.pointers, "()"]))

    def alias_elaborated(self, c: list[Any]) -> A.AliasDecl:
        type_ref, _ = self._elaborated_type(c[2:])
        return A.AliasDecl(self.span(c), str(c[1]), type_ref)

    def alias_class(self, c: list[Any]) -> A.ClassDecl:
        # `using X = struct _ {...};`: the struct is the declaration, under the alias's name (a `const` before
        # it only qualifies the alias).
        decl: A.ClassDecl = c[-1]
        decl.name = str(c[1])
        decl.span = self.span(c)
        return decl

    def placement_new_expr(self, c: list[Any]) -> A.New:
        placement = c[1]
        node = self.new_expr([c[0], *c[2:]])
        node.args = [*placement, *node.args]
        node.span = self.span(c)
        return node

    # -- types
    def decl_specifiers(self, c: list[Any]) -> _DeclSpec:
        specs: list[str] = []
        quals: list[str] = []
        space: str | None = None
        base: A.TypeRef | None = None
        for item in c:
            if isinstance(item, A.TypeRef):
                base = item
            elif isinstance(item, _Prefixes):
                for p in item.words:
                    if p in ("const", "volatile", "__restrict__", "__restrict"):
                        quals.append(p)
                    elif p.startswith("__") and p.endswith("__") and p in _ADDRESS_SPACES:
                        space = p
                    else:
                        specs.append(p)
            elif isinstance(item, Token):
                if item.type == "ADDRESS_SPACE":
                    space = item.value
                elif item.type in ("STORAGE", "CONSTEXPR", "FN_SPECIFIER"):
                    specs.append(item.value)
                else:
                    quals.append(item.value)
        assert base is not None
        if quals or space:
            base = replace(base, qualifiers=base.qualifiers + quals, address_space=space or base.address_space)
        if "constexpr" in specs and "const" not in base.qualifiers:
            base = replace(base, qualifiers=[*base.qualifiers, "const"])
        return _DeclSpec(specs, base, self.span(c))

    def elaborated_specifiers(self, c: list[Any]) -> _DeclSpec:
        # `__gm__ struct KernelInfo::TilingInfo*`: rebuild as ordinary specifiers around the named type.
        type_ref, after = self._elaborated_type(c[1:])
        return self.decl_specifiers([c[0], type_ref, *c[1 + after :]])

    def enum_specifiers(self, c: list[Any]) -> _DeclSpec:
        # C-style `enum Mode mode`: the enum type itself.
        type_ref, after = self._elaborated_type(c)
        return self.decl_specifiers([None, type_ref, *c[after:]])

    def param_elaborated_specifiers(self, c: list[Any]) -> _DeclSpec:
        return self.enum_specifiers(c)  # `struct TensorInfo& info`: the key word adds nothing to the type

    def decl_prefixes(self, c: list[Any]) -> _Prefixes:
        return _Prefixes([str(x) for x in c if x is not None], self.span(c))

    def decl_suffix(self, c: list[Any]) -> Token:
        return c[0]

    def fn_specifier(self, c: list[Any]) -> Token:
        if len(c) == 1:
            if c[0].value.startswith("["):  # the checks know the compiler's `[aicore]` by its macro's name
                return Token.new_borrow_pos("FN_SPECIFIER", "__aicore__", c[0])
            return c[0]
        # `__mix__(1, 2)` becomes one specifier word, keeping the keyword's position for spans.
        args = c[1] if len(c) > 1 and isinstance(c[1], list) else []
        text = f"{c[0]}({','.join(_arg_text(a) for a in args)})"
        return Token.new_borrow_pos("FN_SPECIFIER", text, c[0])

    def attribute(self, c: list[Any]) -> None:
        return None

    def attribute_gnu(self, c: list[Any]) -> None:
        return None

    def member_macro(self, c: list[Any]) -> A.MacroDecl:
        args = next((x for x in c if isinstance(x, list)), [])
        self._forgive_missing_args(args)
        return A.MacroDecl(self.span(c), str(c[0]), args)

    def attribute_item(self, c: list[Any]) -> None:
        return None

    def simple_type(self, c: list[Any]) -> A.TypeRef:
        return c[0]

    def builtin_type(self, c: list[Any]) -> A.TypeRef:
        return A.TypeRef(self.span(c), " ".join(str(t) for t in c))

    def named_type(self, c: list[Any]) -> A.TypeRef:
        if len(c) == 1:  # a plain type name: one span for the type, its name and the name's part
            name = c[0]
            span = LazySpan(name.start_pos, name.end_pos, self._origin)
            return A.TypeRef(span, A.QualifiedName(span, [A.NamePart(span, str(name))]))
        span = self.span(c)
        qn = A.QualifiedName(span, [*c[0], A.NamePart(self.span(c[-1:]), str(c[-1]))])
        return A.TypeRef(span, qn)

    def template_type(self, c: list[Any]) -> A.TypeRef:
        nested = c[0] if isinstance(c[0], list) else []
        rest = c[1:] if nested else c
        qn = A.QualifiedName(self.span(c), [*nested, A.NamePart(self.span(rest), str(rest[0]), rest[1])])
        return A.TypeRef(self.span(c), qn)

    def dependent_type(self, c: list[Any]) -> A.TypeRef:
        nested = next(x for x in c if isinstance(x, list) and (not x or isinstance(x[0], A.NamePart)))
        targs = c[-1] if isinstance(c[-1], list) and c[-1] is not nested else None
        name_tok = [t for t in c if isinstance(t, Token) and t.type in ("IDENTIFIER", "TYPE_NAME", "TYPE_TEMPLATE", "TEMPLATE_NAME")][-1]
        qn = A.QualifiedName(self.span(c), [*nested, A.NamePart(self.span([name_tok]), name_tok.value, targs)])
        return A.TypeRef(self.span(c), qn, dependent=True)

    def decltype_type(self, c: list[Any]) -> A.TypeRef:
        if isinstance(c[1], Token):
            return A.TypeRef(self.span(c), f"decltype({c[1]})")
        return A.TypeRef(self.span(c), "decltype", decltype_expr=c[1])

    def type_id(self, c: list[Any]) -> A.TypeRef:
        spec: _DeclSpec = c[0]
        if len(c) > 1 and isinstance(c[1], _Declarator):
            return self._declarator(spec, c[1]).type
        return replace(spec.type, span=self.span(c))

    def ptr_ops(self, c: list[Any]) -> tuple[str, list[str], list[str]]:
        return ("ptrs", [p[0] for p in c], [q for p in c for q in p[1]])

    def pointer(self, c: list[Any]) -> tuple[str, list[str]]:
        return ("*", [str(x) for x in c[1:]])

    def reference(self, c: list[Any]) -> tuple[str, list[str]]:
        return ("&", [])

    def rvalue_reference(self, c: list[Any]) -> tuple[str, list[str]]:
        return ("&&", [])

    def _raw_declarator(self, c: list[Any]) -> _Declarator:
        ptrs = next((x for x in c if isinstance(x, tuple) and x and x[0] == "ptrs"), None)
        name = next(x for x in c if isinstance(x, Token) and x.type in ("IDENTIFIER", "TYPE_NAME"))
        dims = next((x for x in c if isinstance(x, tuple) and x and x[0] == "dims"), ("dims", []))
        init = next((x for x in c if isinstance(x, tuple) and x and x[0] == "init"), None)
        return _Declarator(name.value, list(ptrs[1]) if ptrs else [], list(ptrs[2]) if ptrs else [], list(dims[1]),
                           init[2] if init else None, init[1] if init else "", self.span(c),
                           list(init[3]) if init and len(init) > 3 else [])

    declarator = _raw_declarator
    block_declarator = _raw_declarator

    def paren_declarator(self, c: list[Any]) -> _Declarator:
        # `T (*p)[N]` keeps the pointer after the dims, which is how types are read (dims first, then
        # pointers: a pointer to an array); `T (*fn)(A)` is a pointer to a function, marked "()" as in
        # alias_function_type. A member pointer `(C::*fn)` is kept as a plain pointer.
        ptrs = next(x for x in c if isinstance(x, tuple) and x and x[0] == "ptrs")
        name = next((x for x in c if isinstance(x, Token) and x.type in ("IDENTIFIER", "TYPE_NAME")), None)
        dims = next((x for x in c if isinstance(x, tuple) and x and x[0] == "dims"), None)
        pointers = list(ptrs[1]) if dims is not None else ["()", *ptrs[1]]
        return _Declarator(name.value if name is not None else "", pointers, list(ptrs[2]),
                           list(dims[1]) if dims is not None else [], None, "", self.span(c))

    def paren_abstract_declarator(self, c: list[Any]) -> _Declarator:
        return c[0]

    def paren_declarator_init(self, c: list[Any]) -> _Declarator:
        d: _Declarator = c[0]
        init = c[1] if len(c) > 1 else None
        if init is None:
            return d
        return replace(d, init=init[2], style=init[1], span=self.span(c))

    def array_dims(self, c: list[Any]) -> tuple[str, list[Any]]:
        return ("dims", list(c))

    def array_dim(self, c: list[Any]) -> Any:
        return c[0] if c else None

    def initializer(self, c: list[Any]) -> tuple[Any, ...]:
        if isinstance(c[0], Token) and c[0].type == "ASSIGN":
            return ("init", "=", c[1])
        return ("init", "{}", c[0])

    def paren_initializer(self, c: list[Any]) -> tuple[Any, ...]:
        args = c[0] if c and isinstance(c[0], list) else []
        return ("init", "()", None, args)

    def _declarator(self, spec: _DeclSpec, d: _Declarator) -> A.Declarator:
        t = spec.type
        if d.pointers or d.dims or d.pointer_quals:
            t = replace(t, pointers=t.pointers + d.pointers, array_dims=t.array_dims + d.dims,
                        qualifiers=t.qualifiers + [q for q in d.pointer_quals if q not in _ADDRESS_SPACES],
                        address_space=next((q for q in d.pointer_quals if q in _ADDRESS_SPACES), t.address_space))
        return A.Declarator(d.span, d.name, t, d.init, d.style, d.ctor_args)

    def var_decl(self, c: list[Any]) -> A.VarDecl:
        spec: _DeclSpec = c[0]
        return A.VarDecl(self.span(c), spec.specifiers, [self._declarator(spec, d) for d in c[1:] if isinstance(d, _Declarator)])

    block_var_decl = var_decl

    def bit_field(self, c: list[Any]) -> A.VarDecl:
        spec: _DeclSpec = c[0]
        names = [x for x in c[1:] if isinstance(x, Token) and x.type == "IDENTIFIER"]
        declarators = [_Declarator(names[0].value, [], [], [], None, "", self.span(names))] if names else []
        return A.VarDecl(self.span(c), spec.specifiers, [self._declarator(spec, d) for d in declarators])

    def binding_name(self, c: list[Any]) -> _Declarator:
        return _Declarator(c[0].value, [], [], [], None, "", self.span(c))

    def structured_binding(self, c: list[Any]) -> A.VarDecl:
        # As C++ has it: an unnamed object holds the initializer, and each name is one of its elements
        # (whose values the AST does not say).
        spec: _DeclSpec = c[0]
        ptrs = next((x for x in c if isinstance(x, tuple) and x and x[0] == "ptrs"), None)
        _, style, init = next(x for x in c if isinstance(x, tuple) and x and x[0] == "init")
        names = [d for d in c if isinstance(d, _Declarator)]
        hidden = _Declarator("", list(ptrs[1]) if ptrs else [], [], [], init, style, self.span(c))
        return A.VarDecl(self.span(c), spec.specifiers, [self._declarator(spec, d) for d in (hidden, *names)])

    # -- names
    def nested(self, c: list[Any]) -> list[A.NamePart]:
        if isinstance(c[0], list):
            return [*c[0], c[1]]
        return [c[0]]

    def nested_template(self, c: list[Any]) -> list[A.NamePart]:
        # `P::template Rebind<T>::`: the keyword only says that a template's name follows
        return [*c[0], A.NamePart(self.span(c[2:]), str(c[2]), c[3])]

    def nested_part(self, c: list[Any]) -> A.NamePart:
        if isinstance(c[0], Token) and c[0].type == "DECLTYPE":
            return A.NamePart(self.span(c), "decltype", [A.TemplateArg(c[1].span, c[1])])
        targs = c[1] if len(c) > 1 else None
        return A.NamePart(self.span(c), str(c[0]), targs)

    def qualified_name(self, c: list[Any]) -> A.QualifiedName:
        nested = c[0] if isinstance(c[0], list) else []
        return A.QualifiedName(self.span(c), [*nested, A.NamePart(self.span(c[-1:]), str(c[-1]))])

    def template_args(self, c: list[Any]) -> list[A.TemplateArg]:
        return [x for x in c if isinstance(x, A.TemplateArg)]

    def template_arg(self, c: list[Any]) -> A.TemplateArg:
        return A.TemplateArg(self.span(c), c[0], len(c) > 1 and c[1] is not None)

    # -- statements
    def compound(self, c: list[Any]) -> A.Compound:
        return A.Compound(self.span(c), _nodes(c))

    def if_stmt(self, c: list[Any]) -> A.If:
        is_constexpr = _tok(c[:2], "CONSTEXPR") is not None
        parts = [x for x in c if isinstance(x, A.Node)]
        cond, then = parts[0], parts[1]
        otherwise = parts[2] if len(parts) > 2 else None
        node = A.If(self.span(c), cond, then, otherwise, is_constexpr)
        init = next((x.statement for x in c if isinstance(x, _InitStatement)), None)
        return node if init is None else A.Compound(node.span, [init, node])

    def init_statement(self, c: list[Any]) -> _InitStatement:
        return _InitStatement(c[0])

    def condition(self, c: list[Any]) -> Any:
        return c[0]

    def macro_condition(self, c: list[Any]) -> A.Call:
        return self.call([self.id_expr(c[:1]), c[1], c[2]])

    def macro_flag(self, c: list[Any]) -> A.MacroFlag:
        name = self.id_expr(c[:1])
        return A.MacroFlag(name.span, name.qname)

    def decl_condition(self, c: list[Any]) -> A.VarDecl:
        spec: _DeclSpec = c[0]
        ptrs = next((x for x in c if isinstance(x, tuple) and x and x[0] == "ptrs"), None)
        name = next(x for x in c[1:] if isinstance(x, Token) and x.type in ("IDENTIFIER", "TYPE_NAME"))
        d = _Declarator(name.value, list(ptrs[1]) if ptrs else [], [], [], c[-1], "=", self.span(c[1:]))
        return A.VarDecl(self.span(c), spec.specifiers, [self._declarator(spec, d)])

    def for_stmt(self, c: list[Any]) -> A.For:
        # c = [FOR, init, cond|None, step|None, body]
        return A.For(self.span(c), c[1], c[2], c[3], c[4])

    def range_for_stmt(self, c: list[Any]) -> A.RangeFor:
        spec: _DeclSpec = c[1]
        ptrs = next((x for x in c if isinstance(x, tuple) and x and x[0] == "ptrs"), None)
        name = next((x for x in c[2:] if isinstance(x, Token) and x.type in ("IDENTIFIER", "TYPE_NAME")), None)
        if name is None:  # `for (auto& [key, value] : table)`: the loop variable is the unnamed element
            bound = [x for x in c if isinstance(x, _Declarator)]
            d = _Declarator("", list(ptrs[1]) if ptrs else [], [], [], None, "", self.span(bound))
        else:
            d = _Declarator(name.value, list(ptrs[1]) if ptrs else [], [], [], None, "", self.span([name]))
        return A.RangeFor(self.span(c), self._declarator(spec, d), c[-2], c[-1])

    def while_stmt(self, c: list[Any]) -> A.While:
        return A.While(self.span(c), c[1], c[2])

    def do_stmt(self, c: list[Any]) -> A.DoWhile:
        return A.DoWhile(self.span(c), c[1], c[3])

    def switch_stmt(self, c: list[Any]) -> A.Switch:
        if isinstance(c[1], _InitStatement):
            return A.Compound(self.span(c), [c[1].statement, A.Switch(self.span(c), c[2], c[3])])
        return A.Switch(self.span(c), c[1], c[2])

    def case_label(self, c: list[Any]) -> A.Case:
        return A.Case(self.span(c), c[1])

    def default_label(self, c: list[Any]) -> A.Case:
        return A.Case(self.span(c), None)

    def break_stmt(self, c: list[Any]) -> A.Break:
        return A.Break(self.span(c))

    def continue_stmt(self, c: list[Any]) -> A.Continue:
        return A.Continue(self.span(c))

    def return_stmt(self, c: list[Any]) -> A.Return:
        return A.Return(self.span(c), c[1] if len(c) > 1 else None)

    def goto_stmt(self, c: list[Any]) -> A.Goto:
        return A.Goto(self.span(c), str(c[1]))

    def label_stmt(self, c: list[Any]) -> A.Label:
        return A.Label(self.span(c), str(c[0]))

    def expr_stmt(self, c: list[Any]) -> A.ExprStmt:
        return A.ExprStmt(self.span(c), c[0])

    def null_stmt(self, c: list[Any]) -> A.NullStmt:
        return A.NullStmt(self.span(c))

    def attributed_stmt(self, c: list[Any]) -> A.Node:
        return c[-1]  # `[[likely]]` and the like say nothing the checks use

    # -- expressions
    def comma_expr(self, c: list[Any]) -> A.Comma:
        return A.Comma(self.span(c), c[0], c[1])

    def assign(self, c: list[Any]) -> A.Assign:
        op = str(c[1])
        return A.Assign(self.span(c), _ALTERNATIVE_ASSIGN.get(op, op), c[0], c[2])

    def throw_expr(self, c: list[Any]) -> A.Throw:
        return A.Throw(self.span(c), c[1] if len(c) > 1 else None)

    def conditional(self, c: list[Any]) -> A.Conditional:
        return A.Conditional(self.span(c), c[0], c[1], c[2])

    def binary_expr(self, c: list[Any]) -> A.Expr:
        """Group `a op b op c ...` by C++ precedence (all binary operators here associate to the left)."""
        operands: list[A.Expr] = c[0::2]
        # Spelled by token type, so that `and` is `&&` (and no slower than str(op)).
        operators: list[str] = [_OPERATOR_TEXT[op.type] for op in c[1::2]]
        position = 0

        def climb(min_prec: int) -> A.Expr:
            nonlocal position
            lhs = operands[position]
            while position < len(operators) and _PRECEDENCE[operators[position]] >= min_prec:
                op = operators[position]
                position += 1
                rhs = climb(_PRECEDENCE[op] + 1)
                lhs = A.Binary(lhs.span.cover(rhs.span), op, lhs, rhs)
            return lhs

        return climb(0)

    targ_binary = binary_expr

    def c_cast(self, c: list[Any]) -> A.Cast:
        return A.Cast(self.span(c), "c", c[1], c[2])

    def compound_literal(self, c: list[Any]) -> A.Cast:
        # `(T){0}` builds a T from the braces, as `T{0}` does: the same node.
        return A.Cast(self.span(c), "functional", c[1], c[2], [c[2]])

    def pre_incdec(self, c: list[Any]) -> A.IncDec:
        return A.IncDec(self.span(c), str(c[0]), c[1], True)

    def post_incdec(self, c: list[Any]) -> A.IncDec:
        return A.IncDec(self.span(c), str(c[1]), c[0], False)

    def unary(self, c: list[Any]) -> A.Unary:
        return A.Unary(self.span(c), _OPERATOR_TEXT[c[0].type], c[1])

    def sizeof_expr(self, c: list[Any]) -> A.SizeOf:
        return A.SizeOf(self.span(c), c[1])

    def sizeof_type(self, c: list[Any]) -> A.SizeOf:
        return A.SizeOf(self.span(c), c[1], str(c[0]))

    def sizeof_elaborated(self, c: list[Any]) -> A.SizeOf:
        type_ref, _ = self._elaborated_type(c[1:])  # `sizeof(struct Name)`
        return A.SizeOf(self.span(c), type_ref, str(c[0]))

    def noexcept_expr(self, c: list[Any]) -> A.Noexcept:
        return A.Noexcept(self.span(c), c[1])

    def sizeof_pack(self, c: list[Any]) -> A.SizeOf:
        return A.SizeOf(self.span(c), A.Name(self.span(c[-1:]), A.QualifiedName(self.span(c[-1:]), [A.NamePart(self.span(c[-1:]), str(c[-1]))])), "sizeof...")

    def new_expr(self, c: list[Any]) -> A.New:
        t: A.TypeRef = c[1]
        d = next((x for x in c if isinstance(x, _Declarator)), None)
        if d is not None:
            t = replace(t, pointers=t.pointers + d.pointers, array_dims=t.array_dims + d.dims)
        args = next((x for x in c[2:] if isinstance(x, list)), [])
        init = next((x for x in c[2:] if isinstance(x, A.InitList)), None)
        return A.New(self.span(c), t, [init] if init else args)

    def delete_expr(self, c: list[Any]) -> A.Delete:
        return A.Delete(self.span(c), c[-1], len(c) > 2)

    def index(self, c: list[Any]) -> A.Index:
        return A.Index(self.span(c), c[0], c[1])

    def call(self, c: list[Any]) -> A.Call:
        args = c[1] if isinstance(c[1], list) else []
        callee = c[0]
        if isinstance(callee, A.Name) and _MACRO_NAME_RE.fullmatch(callee.name):
            self._forgive_missing_args(args)
        return A.Call(self.span(c), callee, args)

    def kernel_launch(self, c: list[Any]) -> A.KernelLaunch:
        config = c[2]
        args = c[4] if isinstance(c[4], list) else []
        return A.KernelLaunch(self.span(c), c[0], config, args)

    def member(self, c: list[Any]) -> A.Member:
        name, targs = c[2]
        return A.Member(self.span(c), c[0], name, str(c[1]) == "->", targs)

    def qualified_member(self, c: list[Any]) -> A.Node:
        # `this->Base<T>::Init(a)` calls the base's Init, as `Base<T>::Init(a)` does; on another object the
        # qualifier only picks the base whose member is meant, which later stages do not tell apart
        name, targs = c[3]
        if isinstance(c[0], A.This):
            span = self.span(c)
            return A.Name(span, A.QualifiedName(span, [*c[2], A.NamePart(span, name, targs)]))
        return A.Member(self.span(c), c[0], name, str(c[1]) == "->", targs)

    def member_name(self, c: list[Any]) -> tuple[str, list[A.TemplateArg] | None]:
        if isinstance(c[0], Token) and c[0].type == "TILDE":
            return ("~" + str(c[1]), None)
        toks = [x for x in c if isinstance(x, Token) and x.type != "TEMPLATE"]
        targs = next((x for x in c if isinstance(x, list)), None)
        if toks[0].type == "OPERATOR":  # `x.operator[](0)`: the operator's name, as its declaration has it
            return ("operator" + next(x for x in c if isinstance(x, str) and not isinstance(x, Token)), targs)
        return (str(toks[0]), targs)

    def named_cast(self, c: list[Any]) -> A.Cast:
        return A.Cast(self.span(c), str(c[0]), c[2], c[4])

    def functional_cast(self, c: list[Any]) -> A.Cast:
        t: A.TypeRef = c[0]
        if isinstance(c[1], A.InitList):
            return A.Cast(self.span(c), "functional", t, c[1], [c[1]])
        args = c[1] if isinstance(c[1], list) else []
        return A.Cast(self.span(c), "functional", t, args[0] if len(args) == 1 else None, args)

    def call_args(self, c: list[Any]) -> list[Any]:
        args = [x for x in c if not isinstance(x, Token)]
        if len(args) * 2 - 1 != len(c):
            # A comma with no argument after it, or a lone `;` (an empty statement handed to a macro).
            missing = [tok.start_pos if tok.type == "EMPTY_STATEMENT_ARG" else tok.end_pos for i, tok in enumerate(c)
                       if isinstance(tok, Token) and (tok.type == "EMPTY_STATEMENT_ARG" or i + 1 == len(c)
                                                      or (isinstance(c[i + 1], Token) and c[i + 1].type == "COMMA"))]
            self.missing_args.extend(missing)
            self._last_missing = (args, missing)
        return args

    def _forgive_missing_args(self, args: Any) -> None:
        """A macro's arguments may be empty: take back what call_args reported for `args`. (The LALR parser
        reduces an argument list right before the call or macro that holds it, so the last list call_args
        built is this one's when it is `args`.)"""
        if self._last_missing is not None and self._last_missing[0] is args:
            for offset in self._last_missing[1]:
                self.missing_args.remove(offset)
            self._last_missing = None

    def fold_expr(self, c: list[Any]) -> A.Fold:
        # c: LPAR, then `... op e` or `e op ... [op e]`, then RPAR
        inner = c[1:-1]
        if isinstance(inner[0], Token) and inner[0].type == "ELLIPSIS":
            return A.Fold(self.span(c), _fold_operator(inner[1]), None, inner[2])
        rhs = inner[4] if len(inner) > 4 else None
        return A.Fold(self.span(c), _fold_operator(inner[1]), inner[0], rhs)

    def pack_expansion(self, c: list[Any]) -> A.PackExpansion:
        return A.PackExpansion(self.span(c), c[0])

    def type_arg(self, c: list[Any]) -> A.TypeArgExpr:
        return A.TypeArgExpr(self.span(c), c[0])

    def int_lit(self, c: list[Any]) -> A.IntLit:
        return A.IntLit(self.span(c), c[0].value, _parse_int(c[0].value))

    def float_lit(self, c: list[Any]) -> A.FloatLit:
        return A.FloatLit(self.span(c), c[0].value, _parse_float(c[0].value))

    def string_lit(self, c: list[Any]) -> A.StringLit:
        return A.StringLit(self.span(c), "".join(_unquote(t.value) for t in c))

    def char_lit(self, c: list[Any]) -> A.CharLit:
        return A.CharLit(self.span(c), c[0].value)

    def bool_lit(self, c: list[Any]) -> A.BoolLit:
        return A.BoolLit(self.span(c), c[0].value == "true")

    def nullptr_lit(self, c: list[Any]) -> A.NullLit:
        return A.NullLit(self.span(c))

    def this_expr(self, c: list[Any]) -> A.This:
        return A.This(self.span(c))

    def paren(self, c: list[Any]) -> Any:
        return c[1]

    def global_id_expr(self, c: list[Any]) -> A.Name:
        nested = c[0] if isinstance(c[0], list) else []
        if isinstance(c[-1], list):  # a template's name and its arguments
            last = A.NamePart(self.span(c[-2:]), str(c[-2]), c[-1])
        else:
            last = A.NamePart(self.span(c[-1:]), str(c[-1]))
        parts = [A.NamePart(self.span(c), "", None), *nested, last]
        return A.Name(self.span(c), A.QualifiedName(self.span(c), parts))

    def try_stmt(self, c: list[Any]) -> A.Try:
        return A.Try(self.span(c), c[1], _nodes(c[2:], A.Catch))

    def handler(self, c: list[Any]) -> A.Catch:
        return A.Catch(self.span(c), c[1] if isinstance(c[1], A.Param) else None, c[-1])

    def id_expr(self, c: list[Any]) -> A.Name:
        if len(c) == 1:
            # A plain name, most expressions' leaves: the name, its one part and the expression share
            # one span (spans are never changed in place, so nodes may share them).
            name = c[0]
            span = LazySpan(name.start_pos, name.end_pos, self._origin)
            return A.Name(span, A.QualifiedName(span, [A.NamePart(span, str(name), None)]))
        nested: list[A.NamePart] = c[0] if isinstance(c[0], list) else []
        rest = [x for x in (c[1:] if nested else c) if not (isinstance(x, Token) and x.type == "TEMPLATE")]
        if isinstance(rest[0], Token) and rest[0].type == "OPERATOR":
            targs = rest[2] if len(rest) > 2 and isinstance(rest[2], list) else None
            part = A.NamePart(self.span(rest), "operator" + str(rest[1]), targs)
        else:
            targs = rest[1] if len(rest) > 1 else None
            part = A.NamePart(self.span(rest), str(rest[0]), targs)
        span = self.span(c)
        return A.Name(span, A.QualifiedName(span, [*nested, part]))

    def lambda_(self, c: list[Any]) -> A.Lambda:
        captures = [x for x in c if isinstance(x, str) and not isinstance(x, Token)]
        return A.Lambda(self.span(c), captures, _nodes(c, A.Param), c[-1])

    def lambda_param(self, c: list[Any]) -> A.Param:
        variadic = _tok(c, "ELLIPSIS") is not None
        name = next((x for x in c[1:] if isinstance(x, Token) and x.type != "ELLIPSIS"), None)
        return A.Param(self.span(c), c[0], str(name) if name is not None else None, None, variadic)

    def lambda_capture(self, c: list[Any]) -> str:
        return "".join(str(x) for x in c if isinstance(x, Token)) or "="

    def braced_init(self, c: list[Any]) -> A.InitList:
        return A.InitList(self.span(c), [x for x in c if isinstance(x, A.Node)])

    def designated_init(self, c: list[Any]) -> A.DesignatedInit:
        return A.DesignatedInit(self.span(c), str(c[0]), c[-1])


_ADDRESS_SPACES = frozenset(_KEYWORD_GROUPS["ADDRESS_SPACE"])
# The operator tokens by terminal name: C++'s alternative spellings (`and`, `not` ...) are keywords that
# the post-lexer gives the same terminals (see _ALTERNATIVE_TOKENS), and the AST spells them as usual.
_OPERATOR_TEXT = {"OROR": "||", "ANDAND": "&&", "BAR": "|", "CARET": "^", "AMP": "&", "EQEQ": "==", "NE": "!=",
                  "LT": "<", "GT": ">", "LE": "<=", "GE": ">=", "SHL": "<<", "SHR": ">>", "PLUS": "+", "MINUS": "-",
                  "STAR": "*", "SLASH": "/", "PERCENT": "%", "BANG": "!", "TILDE": "~", "ARROW_STAR": "->*",
                  "DOT_STAR": ".*"}
_ALTERNATIVE_ASSIGN = {"and_eq": "&=", "or_eq": "|=", "xor_eq": "^="}
_PRECEDENCE = {"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7,
               "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10, "->*": 11, ".*": 11}


def _fold_operator(tok: Token) -> str:
    """A fold's operator as written (FOLD_COMMA and FOLD_ASSIGN are the operator's text)."""
    return _OPERATOR_TEXT.get(tok.type) or _ALTERNATIVE_ASSIGN.get(tok.value, tok.value)


def _arg_text(node: Any) -> str:
    """Short text of a qualifier argument (`__mix__(1, 2)` -> "1"), for the specifier string."""
    if isinstance(node, A.IntLit):
        return node.text
    if isinstance(node, A.Name):
        return node.qname.text
    return type(node).__name__


def _unquote(literal: str) -> str:
    start = literal.index('"')
    body = literal[start + 1 : -1]
    if literal[:start].endswith("R"):
        return body[body.index("(") + 1 : body.rindex(")")]
    return body


# ------------------------------------------------------------------ the parser object

_GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")


def _missing_argument(comma_end: int, text: str, origin: OriginFn) -> tuple[Diagnostic, tuple[int, int, str]]:
    """The error for a call argument missing after the comma that ends at `comma_end` (or before the
    `;` there), and the cut that blanks its statement."""
    at = _BLANKS.match(text, comma_end).end()
    what = f"'{text[at]}'" if at < len(text) else "end of input"
    cut = _recovery_region(text, at)
    assert cut is not None
    if text[at : at + 1] == ";":  # `g(a, ;);`: the statement goes on after the argument's `;`
        rest = _recovery_region(text, at + 1)
        if rest is not None:
            cut = (cut[0], rest[1], _blank(text[cut[0] : rest[1]]))
    return error(SYNTAX_ERROR, f"expected expression before {what}", _span_at(origin, at)), cut


class _Callbacks(AstBuilder):
    """Lark looks callbacks up by rule name; `lambda` is a Python keyword, hence the alias."""

    def __getattr__(self, name: str) -> Any:
        if name == "lambda":
            return self.lambda_
        raise AttributeError(name)


@dataclass
class ParseResult:
    unit: A.TranslationUnit
    diagnostics: list[Diagnostic]


class Parser:
    """A reusable parser (building the LALR tables is the expensive part: do it once per process)."""

    def __init__(self) -> None:
        self._retagger = IdentifierRetagger()
        self._builder = _Callbacks()
        self._lark = _load_lark(self._builder, self._retagger)
        try:
            self._fast: _FastPath | None = _FastPath(self._lark, self._retagger)
        except Exception:  # noqa: BLE001 - _Unsupported, or a Lark whose internals differ: Lark alone parses
            self._fast = None

    def parse(self, text: str, file: str, origin: OriginFn | None = None) -> ParseResult:
        """Parse preprocessed `text`; `origin(offset)` maps an offset back to (file, line, col)."""
        if origin is None:
            origin = _line_origin(text, file)
        self._builder.origin = origin
        self._builder.file = file
        # Lazy spans call back into this parse's origin map; nested nodes share first and last tokens,
        # so each offset is mapped once per parse.
        self._builder._origin = _memoized(origin)
        builder = self._builder
        diags: list[Diagnostic] = []
        current = text
        retagger = self._retagger
        retagger.overrides = {}
        tried: set[int] = set()
        scanned: str | None = None
        pending: tuple[int, int, UnexpectedInput] | None = None
        attempts = 0
        logic_words = False
        alike = _AlikeReadings(retagger)
        while attempts <= MAX_ERRORS_PER_FILE + MAX_RETAG_RETRIES:
            attempts += 1
            if scanned is not current:
                retagger.scan = prescan(current, logic_words)
                scanned = current
            unit = None
            if self._fast is not None:
                builder.missing_args, builder._last_missing = [], None
                try:
                    unit = self._fast.run(current)
                except _Unsupported:
                    self._fast = None
                except Exception:  # noqa: BLE001, S110 - _Bail or any other: Lark parses the text and reports
                    pass
            try:
                if unit is None:
                    builder.missing_args, builder._last_missing = [], None
                    unit = self._lark.parse(current, on_error=_retag_fallback)
                if not builder.missing_args:
                    return ParseResult(unit, diags)
                # `f(a, , b)`: the grammar takes empty arguments for macros' sake; in a call of a function they
                # are a syntax error, reported and recovered from as the parser's own are.
                diag, cut = _missing_argument(min(builder.missing_args), current, origin)
                diags.append(diag)
                if len(diags) >= MAX_ERRORS_PER_FILE:
                    break
                start, end, replacement = cut
                current = current[:start] + replacement + current[end:]
                continue
            except UnexpectedInput as exc:
                if not logic_words and (" and " in current or " or " in current):
                    # `a < b or c > d` may have been read as a template argument list: scan again, minding
                    # `and` and `or` as the scan minds `&&` and `||`, and parse again.
                    logic_words = True
                    scanned = None
                    continue
                error_pos = _error_offset(exc)
                if pending is not None:
                    flipped_at, before, before_exc = pending
                    pending = None
                    if error_pos <= before:
                        # The other reading got no further: undo it and report the first error.
                        del retagger.overrides[flipped_at]
                        exc = before_exc
                    elif alike.spread(current, flipped_at, error_pos):
                        continue
                elif alike.withdraw(current, error_pos):
                    continue
                candidates = [n for n in reversed(retagger.recent_names)
                              if n[0] not in tried and _same_statement(current, n[0], error_pos)]
                if isinstance(exc, UnexpectedToken) and candidates and len(tried) < MAX_RETAG_RETRIES:
                    # Read a name just before the error the other way (type <-> variable) and try again.
                    name_pos, tag = candidates[0]
                    tried.add(name_pos)
                    retagger.overrides[name_pos] = _FLIPS[tag]
                    pending = (name_pos, error_pos, exc)
                    continue
                diag, cut = _describe(exc, current, origin, self._retagger.scan.types)
                if diag is not None:
                    diags.append(diag)
                if cut is None or len(diags) >= MAX_ERRORS_PER_FILE:
                    break
                start, end, replacement = cut
                current = current[:start] + replacement + current[end:]
            except RecursionError:
                diags.append(error(SYNTAX_ERROR, "expression nested too deeply", Span(file, 1, 1, 1, 2)))
                break
        return ParseResult(A.TranslationUnit(Span(file, 1, 1, 1, 1), file, []), diags)


# ------------------------------------------------------------------ the fast path: one loop for lexer, retagger and LALR

class _Bail(Exception):
    """The fast path met something it does not handle (a syntax error, say): let Lark parse the text."""


class _Unsupported(Exception):
    """The grammar or Lark build has something the fast path does not reproduce: use Lark alone."""


_WS_RUN = re.compile(r"\s*")
_BLANKS = re.compile(r"[ \t\r\n]*")  # what IdentifierRetagger's text_at skips
_new_str = str.__new__


class _FastPath:
    """What Lark does for a text that parses without errors, in one loop: the contextual lexer (the same
    per-state terminal sets in the same regex alternation order, see _regex; whitespace skipped by a `\\s*`
    prefix instead of a separate ignored match; lines and columns counted only if read, see _FastToken),
    the IdentifierRetagger, and the LALR automaton on Lark's own parse table, calling the AstBuilder with
    the same children Lark's tree builder would pass (see _reduction). Same tokens, same reductions, same
    callback arguments: the same AST, in half the time.

    Anything unusual (a syntax error, an unexpected character, an exception in a callback) raises and the
    caller parses the same text with Lark itself, which reports the error the usual way.
    """

    def __init__(self, lark: Lark, retagger: IdentifierRetagger) -> None:
        frontend = lark.parser
        lalr = frontend.parser.parser
        table = lalr.parse_table
        contextual = frontend.lexer.lexer
        root = contextual.root_lexer
        if lark.lexer_conf.callbacks or lark.options.keep_all_tokens or not _no_unless(root):
            raise _Unsupported("lexer callbacks or kept tokens")
        self.retagger = retagger
        self.start_state = table.start_states["start"]
        self.end_state = table.end_states["start"]
        self.ignore = frozenset(lark.lexer_conf.ignore)
        self._table = table.states
        self._callbacks = lalr.callbacks
        self._reductions = _Rows(self._reduction)  # rule -> (size, callback, nonterminal), built on first use
        self._factories: dict[Any, Any] = {}
        if sorted(self._table) != list(range(len(self._table))):
            raise _Unsupported("parser states are not numbered 0..n-1")
        # Per state, built on first use: symbol -> shift/goto target (an int) or a reduction
        # (size, callback or None to keep the single child, nonterminal). Terminal names are upper case
        # and nonterminal names are not, so one dict holds actions and gotos.
        self.rows: list[dict[str, Any] | None] = [None] * len(self._table)
        # Per state, the lexer's regex (one per distinct terminal set, as Lark's contextual lexer has).
        self.regexes: list[Any] = [None] * len(self._table)
        self.lexer_of = contextual.lexers
        self._regex_by_lexer: dict[int, Any] = {}
        self.literal_groups: set[str] = set()  # the regexes' groups of plain strings (see _regex) ...
        self.literal_names: dict[str, str] = {}  # ... and the terminal each string is

    def _row(self, state: int) -> dict[str, Any]:
        acts: dict[str, Any] = {}
        reductions = self._reductions
        for sym, (action, arg) in self._table[state].items():
            # Lark names nonterminals with Token objects: as plain str keys (and plain str names in the
            # reductions, see _reduction) the goto lookups compare in C, not through Token.__eq__.
            acts[str(sym)] = arg if action is Shift else reductions[arg]
        self.rows[state] = acts
        return acts

    def _reduction(self, rule: Any) -> tuple[int, Any, str]:
        """Lark wraps each rule's callback in a child filter (drops punctuation, splices `_rule` and
        `__rule_star` children in, inserts None for missing `[optional]` parts) and ExpandSingleChild
        (`?rule` with one child is that child). Here the same is one small generated function per rule
        shape, and spliced rules produce plain lists where Lark builds Tree objects only to take their
        children."""
        f = self._callbacks[rule]
        size, name = len(rule.expansion), str(rule.origin.name)
        items: tuple[tuple[int, bool, int], ...]
        append = 0
        if isinstance(f, ChildFilterLALR_NoPlaceholders):
            items, f = tuple((i, bool(e), 0) for i, e in f.to_include), f.node_builder
        elif type(f) is ChildFilterLALR:
            items, append, f = tuple((i, bool(e), int(k)) for i, e, k in f.to_include), int(f.append_none), f.node_builder
        else:
            items = tuple((i, False, 0) for i in range(size))
        expand1 = isinstance(f, ExpandSingleChild)
        if expand1:
            f = f.node_builder
        if isinstance(f, (ChildFilter, ExpandSingleChild)):
            raise _Unsupported(f"unexpected callback chain for {rule}")
        tree = isinstance(f, partial) and f.func is Tree
        if name.startswith("_"):
            if not tree or expand1:
                raise _Unsupported(f"unexpected callback for inlined rule {rule}")
        elif tree and not (expand1 and len(items) == 1 and not items[0][1] and not items[0][2] and not append):
            raise _Unsupported(f"rule {rule} would build a Tree")
        static = not any(e for _, e, _ in items)
        width = len(items) + sum(k for _, _, k in items) + append
        if expand1 and static and width == 1:
            pick = items[0][0]
            if size == 1:
                return (1, None, name)  # `?a: b`: the value stays on the stack
            callback: Any = itemgetter(pick)
        elif not tree and not expand1 and not append and items == tuple((i, False, 0) for i in range(size)):
            callback = f  # the children as they are: Lark calls the builder with the popped list itself
        else:
            kind = "tree" if tree else ("expand1" if expand1 else "call")
            key = (items, append, kind)
            factory = self._factories.get(key)
            if factory is None:
                factory = self._factories[key] = _callback_factory(items, append, kind)
            callback = factory(f)
        return (size, callback, name)

    def _regex(self, state: int) -> Any:
        """The state's lexer as one regex: its terminals in Lark's order, each a named group, except that
        each run of consecutive plain strings (the punctuators) is one group of plain alternatives, in the
        same order. The first alternative that matches wins either way, so the tokens are the same; but
        the regex engine skips an alternative that starts with a literal character at the cost of one
        comparison, and one that starts with a named group only after entering it."""
        lexer = self.lexer_of[state]
        rx = self._regex_by_lexer.get(id(lexer))
        if rx is None:
            alternatives: list[str] = []
            run: list[str] = []

            def flush() -> None:
                if run:
                    name = f"literal_{len(self.literal_groups)}"  # lower case: no terminal is named so
                    self.literal_groups.add(name)
                    alternatives.append(f"(?P<{name}>{'|'.join(run)})")
                    run.clear()

            for t in lexer.terminals:
                if t.name in self.ignore:
                    continue
                if isinstance(t.pattern, PatternStr) and not t.pattern.flags:
                    if self.literal_names.setdefault(t.pattern.value, t.name) != t.name:
                        raise _Unsupported(f"two terminals for {t.pattern.value!r}")
                    run.append(t.pattern.to_regexp())
                else:
                    flush()
                    alternatives.append(f"(?P<{t.name}>{t.pattern.to_regexp()})")
            flush()
            rx = self._regex_by_lexer[id(lexer)] = re.compile(r"\s*(?:" + "|".join(alternatives) + ")",
                                                               lexer.g_regex_flags)
        self.regexes[state] = rx
        return rx

    def run(self, text: str) -> Any:
        scan = self.retagger.scan
        types, type_templates, starts = scan.types, scan.type_templates, scan.template_starts
        closers = scan.template_closers
        overrides = self.retagger.overrides
        attribute_macros = scan.attribute_macros
        trailing = scan.trailing_types
        member_types = scan.member_types
        params = scan.template_params
        source = scan.text
        keywords = KEYWORDS
        not_before_type = _NOT_BEFORE_TYPE
        splittable = _SPLITTABLE
        rows, regexes = self.rows, self.regexes
        literal_groups, literal_names = self.literal_groups, self.literal_names
        state = self.start_state  # the top of state_stack
        state_stack = [state]
        value_stack: list[Any] = []
        push_state, push_value = state_stack.append, value_stack.append
        pop_state, pop_value = state_stack.pop, value_stack.pop
        pos, n = 0, len(text)
        previous = ""
        pending: list[Token] = []
        while True:
            # -- lex one token in the current parser state (Lark's contextual lexer)
            if pending:
                tok = pending.pop()
                ttype = tok.type
            else:
                if pos >= n:
                    break
                rx = regexes[state]
                if rx is None:
                    rx = self._regex(state)
                m = rx.match(text, pos)
                if m is None:
                    if _WS_RUN.match(text, pos).end() == n:
                        break
                    raise _Bail
                type_ = m.lastgroup
                start = m.start(type_)
                pos = m.end()
                value = text[start:pos]
                if type_ in literal_groups:
                    type_ = literal_names[value]
                tok = _new_str(_FastToken, value)
                tok.start_pos = start
                tok.value = value
                tok.end_pos = pos
                tok.text = text
                # -- the post-lexer (IdentifierRetagger.process, less its error-recovery bookkeeping)
                if type_ == "IDENTIFIER":
                    keyword = keywords.get(value)
                    if keyword is not None:
                        type_ = keyword
                    elif start in starts:
                        is_member = previous == "DOT" or previous == "ARROW"
                        type_ = "TYPE_TEMPLATE" if value in type_templates and not is_member else "TEMPLATE_NAME"
                    elif value in types and previous not in not_before_type and not (
                            value in params and _after_scope(source, start)):
                        type_ = "TYPE_NAME"
                    elif member_types and value in member_types and _after_scope(source, start):
                        type_ = "TYPE_NAME"
                    elif value in attribute_macros:
                        k = _BLANKS.match(source, pos).end()
                        type_ = "MIX" if source[k : k + 1] == "(" else "FN_SPECIFIER"
                    if trailing and start in trailing:
                        type_ = trailing[start]
                    if overrides and start in overrides:
                        type_ = overrides[start]
                elif type_ in splittable and start in closers:
                    tok.type = type_
                    pending = list(_split_closer(tok, closers))
                    pending.reverse()
                    previous = "GT"
                    continue
                tok.type = previous = ttype = type_
            # -- feed it to the LALR automaton (Lark's ParserState.feed_token)
            while True:
                # Every state below the top has had its row built (it was the top once), so only the
                # top's row may still be None.
                row = rows[state]
                if row is None:
                    row = self._row(state)
                try:
                    act = row[ttype]
                except KeyError:
                    raise _Bail from None
                if act.__class__ is int:
                    push_state(act)
                    push_value(tok)
                    state = act
                    break
                size, callback, origin = act
                if callback is None:
                    state = state_stack[-1] = rows[state_stack[-2]][origin]
                    continue
                if size == 1:  # the commonest reduction: popping beats slicing and deleting
                    s = [pop_value()]
                    pop_state()
                elif size:
                    s = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    s = []
                push_value(callback(s))
                state = rows[state_stack[-1]][origin]
                push_state(state)
        # -- end of input
        end_state = self.end_state
        while True:
            row = rows[state_stack[-1]]
            if row is None:
                row = self._row(state_stack[-1])
            act = row.get("$END")
            if act is None or act.__class__ is int:
                raise _Bail
            size, callback, origin = act
            if callback is None:
                state_stack[-1] = rows[state_stack[-2]][origin]
            else:
                if size:
                    s = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    s = []
                push_value(callback(s))
                push_state(rows[state_stack[-1]][origin])
            if state_stack[-1] == end_state:
                return value_stack[-1]


class _Rows(dict):  # type: ignore[type-arg]
    """A table whose entries are built on first use."""

    def __init__(self, build: Callable[[Any], Any]) -> None:
        super().__init__()
        self._build = build

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self._build(key)
        return value


def _callback_factory(items: tuple[tuple[int, bool, int], ...], append: int, kind: str) -> Callable[[Any], Any]:
    """Source for one shape of Lark's ChildFilterLALR (+ ExpandSingleChild), compiled once per shape.
    `items`: (child index, splice it in, Nones to insert before it); `append`: Nones at the end."""
    body: list[str] = []
    static: list[str] = []  # elements not yet added to `c`
    started = False

    def flush() -> None:
        nonlocal started
        if static:
            body.append(f"    c += ({', '.join(static)},)" if started else f"    c = [{', '.join(static)}]")
            static.clear()
            started = True

    for i, expand, nones in items:
        static.extend(["None"] * nones)
        if expand:
            if not started and not static:
                body.append(f"    c = s[{i}]")  # Lark reuses the first spliced child's list (left recursion)
                started = True
            else:
                flush()
                body.append(f"    c += s[{i}]")
        else:
            static.append(f"s[{i}]")
    static.extend(["None"] * append)
    if static or not started:
        flush() if static else body.append("    c = []")
    if kind == "tree":
        body.append("    return c")
    elif kind == "expand1":
        body.append("    return c[0] if len(c) == 1 else b(c)")
    else:
        body.append("    return b(c)")
    src = "def factory(b):\n  def cb(s):\n" + "\n".join("  " + line for line in body) + "\n  return cb\n"
    scope: dict[str, Any] = {}
    exec(compile(src, "<parser child filter>", "exec"), scope)  # noqa: S102 - our own template, no input text
    return scope["factory"]


def _no_unless(root: Any) -> bool:
    """Lark turns a string terminal that a regex terminal of the same priority also matches into a
    callback on the regex terminal; our grammar has none, and the fast lexer relies on that."""
    from lark.lexer import PatternRE, PatternStr

    regexes = [t for t in root.terminals if isinstance(t.pattern, PatternRE)]
    strings = [t for t in root.terminals if isinstance(t.pattern, PatternStr)]
    for r in regexes:
        rx = re.compile(r.pattern.to_regexp(), root.g_regex_flags)
        for s in strings:
            if s.priority == r.priority and rx.fullmatch(s.pattern.value):
                return False
    return True


# When a retagged token does not fit, the other reading may: a vendor type name used as a variable
# (`r * half`), or a type from a header we never see (`const nlohmann::json& j`, `ge::char_t* p`).
_RETAG_ALTERNATIVES = {
    "TYPE_NAME": ("IDENTIFIER",),
    "TYPE_TEMPLATE": ("TEMPLATE_NAME",),
    "TEMPLATE_NAME": ("TYPE_TEMPLATE",),
    "IDENTIFIER": ("TYPE_NAME",),
}


def _retag_fallback(exc: UnexpectedInput) -> bool:
    """Lark on_error hook: feed the token again with another identifier tag if the parser accepts it."""
    if not isinstance(exc, UnexpectedToken):
        return False
    tok = exc.token
    alternatives = _RETAG_ALTERNATIVES.get(tok.type)
    if not alternatives:
        return False
    parser = exc.interactive_parser
    try:
        accepted = parser.accepts()
    except Exception:
        return False
    for alt in alternatives:
        if alt in accepted:
            parser.feed_token(Token.new_borrow_pos(alt, tok.value, tok))
            return True
    return False


def _memoized(origin: OriginFn) -> OriginFn:
    memo: dict[int, tuple[str, int, int]] = {}

    def lookup(offset: int) -> tuple[str, int, int]:
        hit = memo.get(offset)
        if hit is None:
            hit = memo[offset] = origin(offset)
        return hit

    return lookup


def _error_offset(exc: UnexpectedInput) -> int:
    if isinstance(exc, UnexpectedToken):
        return exc.token.start_pos if exc.token.start_pos is not None else 1 << 62
    return getattr(exc, "pos_in_stream", None) or 0


class _AlikeReadings:
    """After reading the name at one place the other way (type <-> variable) took the parse further, read its
    later uses the same way: a type the scan missed (`const FooTilingData* __restrict t`), or a variable it
    took for one (`(AlignkW * curkH)`), is usually so everywhere, and a retry per use costs a parse of the
    whole text per use. Not always: a template parameter `T` is a value in one template and a type in the
    next. So a use the spread made fail takes the spread back from its statement on, and a name the text
    declares the other way somewhere is not spread at all."""

    def __init__(self, retagger: IdentifierRetagger) -> None:
        self.retagger = retagger
        self.spread_to: dict[str, tuple[str, list[int]]] = {}  # name -> its other tag, the offsets given it

    def spread(self, text: str, flipped_at: int, error_pos: int) -> bool:
        """From the start of the statement that now fails at `error_pos` on, give every use of the name at
        `flipped_at` its flipped tag, except members (`.x`, `->x`) and uses that differ in starting a template
        argument list; uses before that statement parsed as they were and keep their tags. Each name once;
        True if some use changed, and the text should be parsed again."""
        match = _IDENT_RE.match(text, flipped_at)
        if match is None or match.group() in self.spread_to:
            return False
        overrides = self.retagger.overrides
        tag = overrides[flipped_at]
        scan = self.retagger.scan
        if match.group() in (scan.variables if tag in ("TYPE_NAME", "TYPE_TEMPLATE") else scan.declared_types):
            # declared the other way somewhere (`const uint32_t N = 1024;`, `class Tuple`): in an ambiguous
            # place (`Dim3(N)`, `f<Tuple>`) that reading is the likelier one, so only this use is flipped
            return False
        starts = scan.template_starts
        at_template = flipped_at in starts
        statement = _statement_start(text, error_pos)
        offsets: list[int] = []
        self.spread_to[match.group()] = (tag, offsets)
        for use in re.finditer(rf"(?<![\w.]){re.escape(match.group())}\b", text[statement:]):
            offset = statement + use.start()
            if offset in overrides or (offset in starts) != at_template:
                continue
            if text[max(0, offset - 8) : offset].rstrip().endswith(("->", ".")):
                continue
            overrides[offset] = tag
            offsets.append(offset)
        return bool(offsets)

    def withdraw(self, text: str, error_pos: int) -> bool:
        """Take back every spread that reached the statement failing at `error_pos`, from that statement on.
        True if one was: the text should be parsed again."""
        statement = _statement_start(text, error_pos)
        overrides = self.retagger.overrides
        withdrawn = False
        for tag, offsets in self.spread_to.values():
            if any(statement <= offset <= error_pos for offset in offsets):
                for offset in offsets:
                    if offset >= statement and overrides.get(offset) == tag:  # not flipped again since
                        del overrides[offset]
                offsets[:] = [o for o in offsets if o < statement]
                withdrawn = True
        return withdrawn


def _statement_start(text: str, offset: int) -> int:
    return max(text.rfind(";", 0, offset), text.rfind("{", 0, offset), text.rfind("}", 0, offset)) + 1


def _same_statement(text: str, name_pos: int, error_pos: int) -> bool:
    """Is the name at `name_pos` in the statement that fails at `error_pos` (no `;`, `{`, `}` between)?"""
    if error_pos <= name_pos:
        return False
    between = text[name_pos:error_pos]
    return ";" not in between and "{" not in between and "}" not in between


def _build_lark(builder: AstBuilder, retagger: IdentifierRetagger) -> Lark:
    return Lark(
        _GRAMMAR_PATH.read_text(),
        parser="lalr",
        lexer="contextual",
        postlex=retagger,
        transformer=builder,
        maybe_placeholders=True,
        cache=_cache_path(),
    )


# The built Lark object, pickled: loading it takes a fraction of the time Lark needs to rebuild its
# tables from its own cache format. The snapshot holds the builder's bound methods as callbacks and the
# retagger as post-lexer; both are stored as persistent ids and bound to this Parser's own on loading, as
# are modules and the lark singletons compared by identity (Shift, Reduce, ...). Keyed by the grammar,
# this file (the builder's methods decide which rules get a callback), the lark version and the Python.
_SNAPSHOT_NAME = "parser.pickle"


def _lark_singletons() -> dict[str, Any]:
    from lark import utils, visitors
    from lark.parsers import lalr_analysis

    return {"Shift": lalr_analysis.Shift, "Reduce": lalr_analysis.Reduce, "NO_VALUE": utils.NO_VALUE,
            "Discard": visitors.Discard}


def _snapshot_key() -> bytes:
    import lark

    from frontend import cache

    return cache.key_of(_GRAMMAR_PATH.read_bytes(), Path(__file__).read_bytes(), lark.__version__)


def _load_lark(builder: AstBuilder, retagger: IdentifierRetagger) -> Lark:
    import pickle
    import sys

    from frontend import cache

    try:
        key = _snapshot_key()
    except OSError:
        return _build_lark(builder, retagger)
    singletons = _lark_singletons()
    fixed: dict[Any, Any] = {"builder": builder, "retagger": retagger}
    fixed.update({("lark", name): obj for name, obj in singletons.items()})

    class Unpickler(pickle.Unpickler):
        def persistent_load(self, pid: Any) -> Any:
            if isinstance(pid, tuple) and len(pid) == 2 and pid[0] == "module":
                return sys.modules[pid[1]]  # only modules already imported
            return fixed[pid]

    lark = cache.load(_SNAPSHOT_NAME, key, Unpickler)
    if (isinstance(lark, Lark) and lark.options.transformer is builder and lark.options.postlex is retagger
            and lark.lexer_conf.postlex is retagger):
        return lark
    lark = _build_lark(builder, retagger)
    ids: dict[int, Any] = {id(builder): "builder", id(retagger): "retagger"}
    ids.update({id(obj): ("lark", name) for name, obj in singletons.items()})
    module_type = type(sys)

    class Pickler(pickle.Pickler):
        def persistent_id(self, obj: Any) -> Any:
            if isinstance(obj, module_type):
                return ("module", obj.__name__)
            return ids.get(id(obj))

    cache.store(_SNAPSHOT_NAME, key, lark, lambda f: Pickler(f, pickle.HIGHEST_PROTOCOL))
    return lark


def _cache_path() -> str | bool:
    import os
    import tempfile

    base = os.environ.get("ASCENDIR_CACHE_DIR") or os.path.join(tempfile.gettempdir(), "ascendir-cache")
    try:
        os.makedirs(base, exist_ok=True)
    except OSError:
        return False
    return os.path.join(base, "grammar.lark.cache")


def _line_origin(text: str, file: str) -> OriginFn:
    import bisect

    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def origin(offset: int) -> tuple[str, int, int]:
        line = bisect.bisect_right(starts, offset)
        return (file, line, offset - starts[line - 1] + 1)

    return origin


def _blank(segment: str) -> str:
    return "".join(ch if ch == "\n" else " " for ch in segment)


# ------------------------------------------------------------------ syntax error messages and recovery

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


def _describe(exc: UnexpectedInput, text: str, origin: OriginFn,
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


_PARSER: Parser | None = None


def get_parser() -> Parser:
    global _PARSER
    if _PARSER is None:
        _PARSER = Parser()
    return _PARSER
