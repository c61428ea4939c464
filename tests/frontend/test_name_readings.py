"""Whether a name is a type or a variable: what the pre-scan reads from the text, and how few whole-text
parses the parser's retries take when the scan reads a name the wrong way.

Each retry parses the whole preprocessed text again, and vendor kernels preprocess to 300-800 KB: a name
misread at twenty places cost twenty parses, a minute for one file, before the retries spread a confirmed
reading to the name's later uses."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest

from frontend import ast as A
from frontend import parser as P
from frontend.pipeline import load_text


@pytest.fixture
def lark_parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many times the parser falls back to Lark (once per retry: the fast path bails on any error)."""
    parser = P.get_parser()
    count = [0]
    lark_parse = parser._lark.parse

    def counting(text: str, **kwargs: object) -> object:
        count[0] += 1
        return lark_parse(text, **kwargs)

    monkeypatch.setattr(parser._lark, "parse", counting)
    yield count


def _parse(src: str) -> A.TranslationUnit:
    program = load_text(textwrap.dedent(src), "t.cpp")
    assert [f"{d.span}: {d.message}" for d in program.diagnostics] == []
    return program.units[0].ast


@pytest.mark.parametrize(("src", "name"), [
    # a tiling struct from a header out of reach, behind pointer qualifiers
    ("struct K { __aicore__ K(const PoolSplitDTilingData* __restrict t) : t_(t) {} };", "PoolSplitDTilingData"),
    ("void f(const lower_case_t * const p);", "lower_case_t"),
    # a return type right after a template header
    ("template <typename C> static NoMatch check(...);", "NoMatch"),
    # an address space qualifies a type: an HCCL struct in a cast
    ("void f(GM_ADDR c) { auto id = ((__gm__ HcclRmaInfo*)c)->rank; }", "HcclRmaInfo"),
    ("void f(GM_ADDR c) { w_ = (__gm__ const ns::HcclOpParam *)c; }", "HcclOpParam"),
    # parameter packs
    ("template <class... Ts> void call(Ts... args);", "Ts"),
    ("template <typename... Args> void call(Args... args);", "Args"),
])
def test_the_scan_reads_these_names_as_types(src: str, name: str) -> None:
    assert name in P.prescan(src).types


@pytest.mark.parametrize(("src", "name"), [
    # a capitalised variable in a product that looks like a parameter `(Foo * bar)`
    ("void f(int64_t w) { int64_t AlignkW = w; int64_t d = m / (AlignkW * curkH); }", "AlignkW"),
    # a vendor type name (ge::DataType) that this kernel declares as a template value parameter
    ("template <uint8_t DataType> struct S { void f() { if constexpr (DataType == 1) {} } };", "DataType"),
    # ops-transformer flash_attention_score_grad: a constant that looks like a DTYPE_<NAME> macro, and an
    # enumerator before `&&` in a comparison (`A::x && b == c` declares no reference `b`); each was read as a
    # type, and every use cost a re-parse of the whole translation unit (97 s)
    ("struct V { constexpr static uint32_t DTYPE_FACTOR = 2; void f() { g(a * DTYPE_FACTOR); } };", "DTYPE_FACTOR"),
    ("void f() { if (s1 == S1Type::Aligned48 && s2 == S2Type::Aligned48) {} }", "Aligned48"),
    # a variable template inside a return type's argument list: `is_void_v<U>, void> Run(` is no declaration of
    # Run with type is_void_v<...> (the list of `<U>` closes before the comma)
    ("template <class T, class U> std::enable_if_t<std::is_void_v<T> && !std::is_void_v<U>, void> Run(int x);",
     "is_void_v"),
])
def test_the_scan_reads_these_names_as_variables(src: str, name: str) -> None:
    assert name not in P.prescan(src).types


def test_a_variable_template_in_a_return_type_stays_a_value_in_a_type_argument() -> None:
    """catlass's BlockMmad returns `std::enable_if_t<std::is_void_v<T> && ..., void>`: the scan took is_void_v for a
    class template there, and then read `conditional_t<std::is_void_v<P>, A, B>`'s condition as a type; it is the
    expression it is in a unit without that return type. A nested argument list still makes a declaration."""
    unit = _parse("""
        template <class P, class B> struct K {
            using L = std::conditional_t<std::is_void_v<P>, B, int>;
            template <class T = P> std::enable_if_t<!std::is_void_v<T> && std::is_void_v<B>, void> Run(int x) {}
        };
    """)
    alias = next(d for d in unit.walk() if isinstance(d, A.AliasDecl))
    assert isinstance(alias.type.base.parts[-1].template_args[0].value, A.Name)
    assert "Outer" in P.prescan("void f() { Outer<Inner<int>> x; }").types


def test_declared_type_names_stay_types_where_another_class_declares_a_method() -> None:
    """`using SetFmap = ...` in one class, `void SetFmap(...)` in the next: after `void` a name is what the
    declaration declares, so the method needs no retry."""
    unit = _parse("""
        struct Impl { using SetFmap = typename Fn::SetFmap; };
        struct Intf { __aicore__ inline void SetFmap(const GlobalTensor<float> &fmap) { g(fmap); } };
    """)
    assert "SetFmap" in [f.name.text for f in unit.functions()]


def test_a_misread_name_costs_a_few_parses_not_one_per_use(lark_parses: list[int]) -> None:
    """TSCM is a class template (`TSCM<...> a;`) and an enumerator (`TPosition::TSCM`). The scan reads it
    as a type; the first use that fails is flipped, and once that gets the parse further the other uses
    follow, until one (`TSCM x;`) fails that way and gets its type reading back."""
    uses = "\n".join(f"    if (p == TPosition::TSCM) {{ p = {i}; }}" for i in range(8))
    unit = _parse(f"TSCM<TPosition::GM, 1> a;\nvoid f(int p) {{\n{uses}\n}}\nvoid g() {{ TSCM x; }}\n")
    assert lark_parses[0] <= 3
    declared = {d.name: d for d in unit.walk() if isinstance(d, A.Declarator)}
    assert "x" in declared
    compared = [n for n in unit.walk() if isinstance(n, A.Binary) and n.op == "=="]
    assert len(compared) == 8


def _spread(text: str, name_at: int, tag: str) -> tuple[bool, dict[int, str]]:
    retagger = P.IdentifierRetagger()
    retagger.scan = P.prescan(text)
    retagger.overrides = {name_at: tag}
    error_at = text.index(";", name_at)
    return P._AlikeReadings(retagger).spread(text, name_at, error_at), retagger.overrides


def test_a_confirmed_reading_spreads_to_later_uses_but_not_members_or_earlier_statements() -> None:
    text = "void f() { Mode a; x = 1; g(Mode); y = s.Mode; z = p->Mode; h(Mode, Mode); }"
    at = text.index("g(Mode)") + 2
    spread, overrides = _spread(text, at, "IDENTIFIER")
    later = [i for i in range(at + 1, len(text)) if text.startswith("Mode", i) and text[i - 1] in "(, "]
    assert spread and sorted(overrides) == [at, *later] and set(overrides.values()) == {"IDENTIFIER"}
    assert text.index("Mode a") not in overrides


def test_a_name_declared_the_other_way_is_not_spread() -> None:
    """`const uint32_t THREADS = 1024;` declares a variable: a retry that once reads it as a type does not
    spread that to its other uses (`Dim3(THREADS)` parses either way, and the variable is likelier)."""
    text = "const uint32_t THREADS = 1024; void f() { auto d = Dim3(THREADS); auto e = Dim3(THREADS); }"
    at = text.index("THREADS)")
    assert _spread(text, at, "TYPE_NAME") == (False, {at: "TYPE_NAME"})
    text = "template <class Tuple> void f() { g<Tuple>(); x = (Tuple); y = (Tuple); }"
    at = text.index("(Tuple)") + 1
    assert _spread(text, at, "IDENTIFIER") == (False, {at: "IDENTIFIER"})


def test_trailing_return_types_and_member_only_types_parse_without_retries(lark_parses: list[int]) -> None:
    """prompt_flash_attention: lambdas `[&](...) -> LocalTensor<INPUT_T> {` (the type after `->` was read as the
    member after `p->`), and `typename T::type F()` beside a variable `uint32_t type` (`if (type == 0)`); each
    cost two whole-text parses per use."""
    unit = _parse("""
        template <typename INPUT_T>
        struct K {
            LocalTensor<INPUT_T> Get(uint32_t i);
            typename INPUT_T::type Offset();
            int32_t Size() const;
            void Run(uint32_t type) {
                auto copy = [&](uint32_t start) -> LocalTensor<INPUT_T> { return this->Get(start); };
                auto size = [this]() mutable -> int32_t { return this->Size(); };
                auto next = [&](uint32_t start) -> LocalTensor<INPUT_T> & { return this->Get(start + 1); };
                if (type == 0) { copy(0); }
                int32_t n = this->Get(0)->Size();
            }
        };
    """)
    assert lark_parses[0] == 0
    lambdas = [n for n in unit.walk() if isinstance(n, A.Lambda)]
    assert len(lambdas) == 3
    assert any(isinstance(n, A.Binary) and n.op == "==" for n in unit.walk())
    scan = P.prescan("void f(uint32_t type) { if (type == 0) {} }\ntypename T::type g();")
    assert "type" not in scan.types and scan.member_types == {"type"}


def test_member_aliases_and_function_template_lists_with_logic_parse_without_retries(lark_parses: list[int]) -> None:
    """prompt_flash_attention: `using maskType = U;` in a traits struct (read as `PFAT::maskType`) beside a
    variable `uint8_t maskType`, and `SoftmaxFlashV3_VF<T, PFAT::mla && !(PFAT::bnsd)>(x)`, a function template
    whose argument list holds `&&` (a comparison `a < b && c > d` otherwise)."""
    unit = _parse("""
        template <typename T, typename U>
        struct PFAType { using inputType = T; using maskType = U; };
        template <typename PFAT>
        struct Attn {
            using M = typename PFAT::maskType;
            void Run(uint8_t maskType, int32_t s) {
                if (maskType != 0 && s > 0) { maskType = 1; }
                Softmax<float, PFAT::mla && !(PFAT::layout == 1)>(s);
            }
        };
        template <typename T, bool MLA>
        void Softmax(int32_t s) {}
    """)
    assert lark_parses[0] == 0
    calls = [n for n in unit.walk() if isinstance(n, A.Call) and n.callee_name == "Softmax"]
    assert len(calls) == 1


def test_template_parameters_are_no_types_after_a_scope_nor_value_parameters_where_they_compare(
        lark_parses: list[int]) -> None:
    """prompt_flash_attention_apt: `InputTypeTag::A` beside `template <typename A, ...>` (a template parameter is
    never named after `X::`), and `template <BufferType Type>` compared (`Type == BufferType::L1`) beside a
    traits struct's `using Type = ...` read as `Sel<T>::Type`."""
    _parse("""
        enum class InputTypeTag { A, B };
        template <typename A, typename B>
        struct Pair { static constexpr bool isA = true; };
        template <typename T>
        struct Sel { using Type = T; };
        enum class BufferType { L1, L0A };
        template <BufferType Type>
        int Size(int tag) {
            typename Sel<float>::Type bufs;
            if constexpr (Type == BufferType::L1) { return 1; }
            return tag == static_cast<int>(InputTypeTag::A) ? 2 : 3;
        }
    """)
    assert lark_parses[0] == 0


def test_a_name_declared_by_typename_and_by_an_alias_is_an_ordinary_type() -> None:
    scan = P.prescan("template <typename T> struct A {};\nstruct B { using T = float; };\ntemplate <typename U> void f();")
    assert "T" in scan.types and "T" not in scan.template_params
    assert scan.template_params == {"U"}
    assert not {"T", "U"} & scan.variables  # a template header's `typename T` declares no value
