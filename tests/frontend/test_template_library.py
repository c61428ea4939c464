"""The C++ of template libraries (catlass-style kernels, the vendor's lib/ headers).

Each construct family has a clean twin under tests/corpus/template_library/, a kernel that uses it the way such
libraries do and that `ascendc-check` must check with no diagnostic at all, and a syntax-error twin,
tests/corpus/syntax_errors/template_<family>_errors.cpp, whose inline expectations test_inline_expectations.py
checks. The tests below pin the AST each construct parses to and what the lowering makes of it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from xdsl.dialects import scf

from ascendir.dialects import ascendc as asc
from ascendir.lower import lower_program
from frontend import ast as A
from frontend.pipeline import load_text, read_input
from passes.verify import check_program, load_for_check

ROOT = Path(__file__).resolve().parents[2]
TWINS = ROOT / "tests" / "corpus" / "template_library"
SYNTAX = ROOT / "tests" / "corpus" / "syntax_errors"
CLEAN = sorted(TWINS.glob("*.cpp"))
sys.path.insert(0, str(Path(__file__).parent))
from test_inline_expectations import check_expectations  # noqa: E402

# clean twin -> its syntax-error twin
PAIRS = {"operator_templates": "template_operator_errors", "packs_and_folds": "template_pack_fold_errors",
         "dependent_templates": "template_dependent_errors"}


def parse(text: str) -> A.TranslationUnit:
    program = load_text(text, "k.cpp", "cpp")
    assert [d.message for d in program.diagnostics if d.code in ("ASC000", "ASC001")] == []
    return program.units[0].ast


def nodes(unit: A.Node, cls: type) -> list:
    return [n for n in unit.walk() if isinstance(n, cls)]


def test_every_clean_twin_has_its_syntax_error_twin() -> None:
    assert {p.stem for p in CLEAN} == set(PAIRS)
    for twin in PAIRS.values():
        assert (SYNTAX / f"{twin}.cpp").is_file(), twin


@pytest.mark.parametrize("path", CLEAN, ids=[p.stem for p in CLEAN])
def test_clean_twin_checks_with_no_diagnostic(path: Path) -> None:
    program, _ = load_for_check(read_input(str(path)))
    diagnostics = check_program(program)
    report = check_expectations(path, diagnostics)
    assert report.ok, report.table(path, diagnostics)
    assert not [d for d in diagnostics if d.severity.value in ("error", "warning")]


# ---------------------------------------------------------------------------------- what each construct parses to


def test_member_operator_template_specialisation_and_explicit_operator_calls() -> None:
    unit = parse("""
struct K {
    template <int32_t C = 1> __aicore__ void operator()(int const &p);
    template <> __aicore__ void operator()<AscendC::AIC>(int const &p) {}
    __aicore__ void Run(int p) { this->operator()(p); }
};
template <> int A::Get<float>(int x);
void f(K k, Coord c) { k.template operator()<AscendC::AIV>(1); c.operator[](0) = 2; }
""")
    fns = {f.name.text + ("<>" if f.name.parts[-1].template_args else ""): f for f in nodes(unit, A.FunctionDecl)}
    special = fns["operator()<>"]
    assert special.kind == "operator" and special.body is not None
    assert special.name.parts[-1].template_args[0].value.qname.text == "AscendC::AIC"  # type: ignore[index, union-attr]
    assert fns["A::Get<>"].name.parts[-1].template_args is not None
    members = [(m.member, m.arrow, m.template_args is not None) for m in nodes(unit, A.Member)]
    assert ("operator()", True, False) in members  # this->operator()(p)
    assert ("operator()", False, True) in members  # k.template operator()<AIV>(1)
    assert ("operator[]", False, False) in members


def test_pack_expansions_in_bases_mem_initialisers_and_template_arguments() -> None:
    unit = parse("""
template <size_t... I, class... T>
struct TupleBase<index_sequence<I...>, T...> : EBO<I, T>... {
    __aicore__ constexpr TupleBase(T const &... t) : EBO<I, T>(t)... {}
};
""")
    (cls,) = nodes(unit, A.ClassDecl)
    assert [b.pack for b in cls.bases] == [True]
    assert [a.pack for a in cls.specialization_args or []] == [False, True]
    (init,) = nodes(unit, A.MemberInit)
    assert init.target == "EBO" and init.pack
    (ctor,) = [f for f in nodes(unit, A.FunctionDecl) if f.kind == "constructor"]
    assert ctor.params[0].variadic


@pytest.mark.parametrize("text, op, lhs, rhs", [
    ("(... * v)", "*", None, "v"),
    ("(v + ...)", "+", "v", None),
    ("(0 + ... + v)", "+", "IntLit", "v"),
    ("(v && ...)", "&&", "v", None),
    ("(f(v), ...)", ",", "Call", None),
    ("(x = ...)", "=", "x", None),
])
def test_fold_expressions(text: str, op: str, lhs: str | None, rhs: str | None) -> None:
    unit = parse(f"template <class... T> auto g(T... v) {{ return {text}; }}")
    (fold,) = nodes(unit, A.Fold)

    def describe(e: A.Node | None) -> str | None:
        return None if e is None else e.name if isinstance(e, A.Name) else type(e).__name__

    assert (fold.op, describe(fold.lhs), describe(fold.rhs)) == (op, lhs, rhs)


def test_what_folds_share_their_tokens_with_still_reads_as_before() -> None:
    unit = parse("void f(int a, ...);\nvoid g() { x = (a, b); y = (a + b) * c; z = (a = b); }\n"
                 "template <class... Ts> void h(Ts&&...);")
    assert not nodes(unit, A.Fold)
    assert len(nodes(unit, A.Comma)) == 1
    f = next(fn for fn in nodes(unit, A.FunctionDecl) if fn.name.text == "f")
    assert f.params[-1].variadic


def test_sizeof_pack_alias_and_variable_templates() -> None:
    unit = parse("""
template <class... Ts> constexpr size_t count() { return sizeof...(Ts); }
template <class T> using RemoveRefT = typename RemoveRef<T>::type;
template <class T> constexpr bool IS_HALF = std::is_same<T, half>::value;
""")
    (size,) = nodes(unit, A.SizeOf)
    assert size.kind == "sizeof..."
    (alias,) = nodes(unit, A.AliasDecl)
    assert alias.type.dependent and [p.name for p in alias.type.base.parts] == ["RemoveRef", "type"]  # type: ignore[union-attr]
    assert any(d.name == "IS_HALF" for v in nodes(unit, A.VarDecl) for d in v.declarators)


def test_nested_dependent_template_and_template_template_parameter() -> None:
    unit = parse("""
template <class P, class T> struct Use {
    using A = typename P::template Tile<T>;
    using B = typename P::template Rebind<T>::type;
};
template <template <class> class Impl, template <class, class...> class... Rest> struct Holder { Impl<int> x; };
""")
    aliases = {a.name: a.type for a in nodes(unit, A.AliasDecl)}
    assert [(p.name, p.template_args is not None) for p in aliases["B"].base.parts] == [  # type: ignore[union-attr]
        ("P", False), ("Rebind", True), ("type", False)]
    assert aliases["A"].base.parts[-1].name == "Tile"  # type: ignore[union-attr]
    params = [p for t in nodes(unit, A.TemplateDecl) for p in t.params if p.name in ("Impl", "Rest")]
    assert [(p.kind, p.variadic) for p in params] == [("template", False), ("template", True)]


def test_return_types_trailing_deduced_and_noexcept() -> None:
    unit = parse("""
namespace detail {
template <class T> auto has_size(T*) -> bool_constant<(0 <= tuple_size<T>::value)>;
auto has_size(...) -> false_type;
}
template <class T> decltype(auto) fwd(T&& t) noexcept(noexcept(T(t))) { return static_cast<T&&>(t); }
template <class T> constexpr auto bytes(uint32_t n) -> decltype(n * sizeof(T)) { return n * sizeof(T); }
void h() { bool b = noexcept(g()); }
""")
    fns = {f.name.text + ("..." if f.params and f.params[0].variadic else ""): f
           for f in nodes(unit, A.FunctionDecl)}
    assert fns["has_size"].return_type.name == "bool_constant"  # type: ignore[union-attr]
    assert fns["has_size"].body is None
    assert fns["has_size..."].return_type.name == "false_type"  # type: ignore[union-attr]
    assert fns["bytes"].return_type.decltype_expr is not None  # type: ignore[union-attr]
    assert nodes(unit, A.Noexcept)


def test_init_statements_are_blocks_around_the_statement() -> None:
    unit = parse("void f() { if (auto it = g(); it != 0) { h(); } switch (int z = 1; z) { default: break; } }")
    (fn,) = nodes(unit, A.FunctionDecl)
    first, second = fn.body.body  # type: ignore[union-attr]
    assert isinstance(first, A.Compound) and [type(s) for s in first.body] == [A.VarDecl, A.If]
    assert isinstance(second, A.Compound) and [type(s) for s in second.body] == [A.VarDecl, A.Switch]


def test_explicit_instantiations_and_hidden_friends() -> None:
    unit = parse("""
template <int N> struct K { friend bool operator==(K, K) { return true; } };
extern template struct K<1>;
template struct K<2>;
""")
    inst = nodes(unit, A.ExplicitInstantiation)
    assert [i.decl.name for i in inst] == ["K", "K"]  # type: ignore[attr-defined]
    (friend,) = nodes(unit, A.FriendDecl)
    assert isinstance(friend.target, A.FunctionDecl) and friend.target.body is not None


# ---------------------------------------------------------------------------------- what the lowering makes of it


def lowered(path: Path) -> object:
    program, _ = load_for_check(read_input(str(path)))
    result = lower_program(program)  # type: ignore[arg-type]
    assert not result.diagnostics, [d.message for d in result.diagnostics]
    result.module.verify()
    return result.module


def test_the_specialisation_the_call_names_is_inlined() -> None:
    module = lowered(TWINS / "operator_templates.cpp")
    ops = list(module.walk())  # type: ignore[attr-defined]
    assert not [op for op in ops if isinstance(op, asc.CoreIsOp)]  # `operator()<AscendC::AIV>`: chosen outright
    assert [op for op in ops if isinstance(op, asc.DataCopyOp)]  # the AIV body, reached through operator[] too


def test_a_core_type_default_picks_each_cores_specialisation_at_run_time(tmp_path: Path) -> None:
    text = (TWINS / "operator_templates.cpp").read_text().replace("op.template operator()<AscendC::AIV>(params);",
                                                                  "op(params);")
    source = tmp_path / "k.cpp"
    source.write_text(text)
    module = lowered(source)
    cores = [op.core.data for op in module.walk() if isinstance(op, asc.CoreIsOp)]  # type: ignore[attr-defined]
    assert cores == ["AIC", "AIV"]
    assert [op for op in module.walk() if isinstance(op, scf.IfOp)]  # type: ignore[attr-defined]


def test_folds_and_sizeof_pack_fold_to_the_values_the_compiler_computes() -> None:
    module = lowered(TWINS / "packs_and_folds.cpp")
    (init,) = [op for op in module.walk() if isinstance(op, asc.InitBufferOp)]  # type: ignore[attr-defined]
    # TileShape::COUNT = (1u * ... * Dims) = 256 halves = 512 bytes
    assert init.length.owner.value.value.data == 512  # type: ignore[attr-defined]
    counts = [op.count.owner.value.value.data for op in module.walk()  # type: ignore[attr-defined]
              if isinstance(op, asc.SetGlobalBufferOp)]
    assert counts == [1024, 1024]  # Sum(tile, tile, tile, tile)


def test_member_aliases_of_dependent_templates_resolve() -> None:
    module = lowered(TWINS / "dependent_templates.cpp")
    tensors = [op for op in module.walk() if isinstance(op, asc.GlobalTensorOp)]  # type: ignore[attr-defined]
    types = {str(op.results[0].type) for op in tensors}
    assert types == {"!ascendc.global_tensor<f16>"}  # Block<VectorPolicy, half>::Element, through Tile's alias
