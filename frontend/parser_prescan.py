"""The parser's pre-scan: the names a text declares as types, templates and variables (classes, aliases,
typedefs, template parameters, `X y;` shapes, the vendor's types) and where template argument lists start,
found with regexes before parsing, so the post-lexer can tell `Foo<T>(x)` from `a < b > (x)`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from frontend.parser_keywords import KEYWORDS
from frontend.vendor import KNOWN_TYPE_TEMPLATES, KNOWN_TYPES


IDENT_RE = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


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
        name = IDENT_RE.match(text, i + len(text[i:]) - len(text[i:].lstrip()))
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


def _one_argument_list(m: re.Match[str]) -> bool:
    """Whether a `X<...> y` shape's `<...>` is one template argument list, closed by its last `>`. The regex
    cannot count brackets: in `enable_if_t<!is_void_v<T> && is_void_v<U>, void> Prologue(` (catlass's
    BlockMmad) it takes `is_void_v<U>, void> Prologue` for a declaration, which made the variable template
    is_void_v a class template everywhere in the unit (then `conditional_t<is_void_v<P>, A, B>` read its
    condition as a type, whose value the lowering never knows)."""
    between = m.string[m.end(1) : m.start(3)]
    lt = between.find("<")
    if lt < 0:
        return True
    depth = 0
    for i in range(lt, len(between)):
        c = between[i]
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
            if depth == 0:
                return not any(ch in "<>," for ch in between[i + 1 :])
    return True


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
    shapes = [m for m in _DECL_SHAPE_RE.finditer("\n" + text) if _one_argument_list(m)]
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
        (qualified if after_scope(m.string, m.start(1)) else unqualified).add(first)
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
                    word = IDENT_RE.match(text, j)
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


def after_scope(text: str, offset: int) -> bool:
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
    statement = statement_start(text, close)
    return _AUTO_DECLARATOR_RE.search(text, statement, close) is not None


def statement_start(text: str, offset: int) -> int:
    return max(text.rfind(";", 0, offset), text.rfind("{", 0, offset), text.rfind("}", 0, offset)) + 1
