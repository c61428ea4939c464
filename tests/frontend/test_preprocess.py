"""Tests for frontend.preprocess: directives, macro expansion, #if evaluation, origins, robustness."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from frontend.diagnostics import Severity
from frontend.preprocess import Macro, Origin, PreprocessResult, preprocess


def pp(text: str, **kw: object) -> PreprocessResult:
    return preprocess(text, "k.cpp", **kw)  # type: ignore[arg-type]


def codes(r: PreprocessResult) -> list[str]:
    return [d.code for d in r.diagnostics]


def words(r: PreprocessResult) -> list[str]:
    return r.text.split()


def fake_fs(files: dict[str, str]) -> Callable[[str], str]:
    def read(path: str) -> str:
        if path in files:
            return files[path]
        raise FileNotFoundError(path)

    return read


def at(r: PreprocessResult, needle: str, nth: int = 0) -> Origin:
    off = -1
    for _ in range(nth + 1):
        off = r.text.index(needle, off + 1)
    return r.origin(off)


# ---------------------------------------------------------------------------------- comments


def test_comments_become_spaces_and_keep_lines() -> None:
    src = "int a; // tail\nint /* mid */ b;\n/* one\n   two */ int c;\nint d;\n"
    r = pp(src)
    assert r.text.count("\n") == src.count("\n")
    assert r.text.splitlines() == [
        "int a;        ",
        "int           b;",
        "      ",
        "          int c;",
        "int d;",
    ]
    assert at(r, "b;") == Origin("k.cpp", 2, 15)
    assert at(r, "c;") == Origin("k.cpp", 4, 15)
    assert not r.diagnostics


def test_literals_are_not_touched() -> None:
    src = 'const char* s = "// not /* a comment"; char q = \'"\'; auto r = R"x(/* raw */ GM_ADDR)x"; // c\n'
    r = pp(src)
    assert '"// not /* a comment"' in r.text
    assert "'\"'" in r.text
    assert 'R"x(/* raw */ GM_ADDR)x"' in r.text
    assert "// c" not in r.text


def test_macro_name_inside_string_not_expanded() -> None:
    r = pp('printf("GM_ADDR %d", 1); GM_ADDR p;\n')
    assert r.text == 'printf("GM_ADDR %d", 1); __gm__ uint8_t* p;\n'


def test_digit_separator_is_not_a_char_literal() -> None:
    r = pp("int n = 1'000'000; // x\nint m;\n")
    assert r.text.startswith("int n = 1'000'000;")
    assert "// x" not in r.text and not r.diagnostics


def test_unterminated_block_comment_is_an_error_at_its_start() -> None:
    r = pp("int a;\nint b; /* never\nclosed\n")
    assert codes(r) == ["ASC009"]
    assert (r.diagnostics[0].span.line, r.diagnostics[0].span.col) == (2, 8)  # type: ignore[union-attr]
    assert r.text.count("\n") == 3 and "closed" not in r.text


def test_unterminated_string_reported_only_in_active_code() -> None:
    r = pp("#if 0\nit's fine \"here\n#endif\n#error don't\nchar* s = \"open;\n")
    assert sorted(codes(r)) == ["ASC004", "ASC009"]
    bad = next(d for d in r.diagnostics if d.code == "ASC009")
    assert bad.span is not None and (bad.span.line, bad.span.col) == (5, 11)


# ---------------------------------------------------------------------------- line splicing


def test_line_continuation_in_define_and_code() -> None:
    src = "#define ADD(a, b) \\\n    ((a) + \\\n     (b))\nint x = ADD(1, \\\n  2);\nint y;\n"
    r = pp(src)
    lines = r.text.split("\n")
    assert len(lines) == len(src.split("\n"))
    assert lines[3].split() == ["int", "x", "=", "((1)", "+", "(2));"]
    assert lines[5] == "int y;"
    assert at(r, "int y") == Origin("k.cpp", 6, 1)
    assert r.macros["ADD"].body == "((a) + (b))"


def test_spliced_plain_line_maps_pieces_to_their_lines() -> None:
    r = pp("int x = 1 + \\\n   2;\nint y;\n")
    assert r.text.startswith("int x = 1 +    2;\n\nint y;")
    assert at(r, "2;") == Origin("k.cpp", 2, 4)
    assert at(r, "int y") == Origin("k.cpp", 3, 1)


def test_backslash_newline_continues_line_comment() -> None:
    r = pp("// comment \\\nstill comment\nint z;\n")
    assert r.text.split() == ["int", "z;"]
    assert at(r, "int z") == Origin("k.cpp", 3, 1)


# ----------------------------------------------------------------------------- suppressions


def test_suppression_comments() -> None:
    src = (
        "a; // ascendc-check: ignore[ASC301, ASC302]\n"
        "b; // ascendc-check: ignore\n"
        "c; /* ascendc-check: ignore[*] */\n"
        "// ascendc-check: ignore-next-line[ASC9]\n"
        "d;\n"
        "e; // ascendc-check: ignore-all\n"
        "f; // ascendc-check: ignore[ASC1] // ascendc-check: ignore[ASC2]\n"
        "g; // an ordinary comment\n"
    )
    r = pp(src)
    assert r.suppressions == {
        ("k.cpp", 1): frozenset({"ASC301", "ASC302"}),
        ("k.cpp", 2): frozenset(),
        ("k.cpp", 3): frozenset(),
        ("k.cpp", 5): frozenset({"ASC9"}),
        ("k.cpp", 6): frozenset(),
        ("k.cpp", 7): frozenset({"ASC1"}),
    }


def test_suppressions_in_included_file_use_its_name() -> None:
    fs = fake_fs({"h.h": "int q; // ascendc-check: ignore[ASC7]\n"})
    r = pp('#include "h.h"\n', read_file=fs)
    assert r.suppressions == {("h.h", 1): frozenset({"ASC7"})}


# ---------------------------------------------------------------------------------- includes


def test_angle_and_known_headers_are_skipped_silently() -> None:
    src = (
        '#include <vector>\n#include "kernel_operator.h"\n#include "lib/matmul_intf.h"\n'
        '#include "../../op_kernel/kernel_operator.h"\n#include_next <x.h>\nint a;\n'
    )
    r = pp(src, read_file=fake_fs({}))
    assert not r.diagnostics and r.includes == []
    assert r.text == "\n" * 5 + "int a;\n"


def test_missing_include_is_a_warning_with_the_line_span() -> None:
    r = pp('int a;\n  #include "nope.h"  \nint b;\n', read_file=fake_fs({}))
    (d,) = r.diagnostics
    assert d.code == "ASC002" and d.severity is Severity.WARNING
    assert "nope.h" in d.message
    assert d.span is not None and (d.span.line, d.span.col, d.span.end_col) == (2, 3, 20)
    assert words(r) == ["int", "a;", "int", "b;"]


def test_local_include_is_spliced_with_origins_and_macros() -> None:
    files = {
        "proj/kernel/tiling.h": "#pragma once\n#define TILE 64\nstruct Tiling { int n; };\n",
        "proj/common/util.h": "inline int twice(int v) { return 2 * v; }\n",
    }
    src = 'int top;\n#include "tiling.h"\n#include "util.h"\nint t = TILE;\n'
    r = preprocess(src, "proj/kernel/k.cpp", include_dirs=["proj/common"], read_file=fake_fs(files))
    assert not r.diagnostics
    assert r.includes == ["proj/kernel/tiling.h", "proj/common/util.h"]
    assert "struct Tiling" in r.text and "inline int twice" in r.text and "int t = 64;" in r.text
    assert at(r, "struct") == Origin("proj/kernel/tiling.h", 3, 1)
    assert at(r, "twice") == Origin("proj/common/util.h", 1, 12)
    assert at(r, "int t =") == Origin("proj/kernel/k.cpp", 4, 1)
    assert at(r, "64") == Origin("proj/kernel/k.cpp", 4, 9, "TILE")
    assert at(r, "top") == Origin("proj/kernel/k.cpp", 1, 5)
    assert r.macros["TILE"].origin == Origin("proj/kernel/tiling.h", 2, 9)


def test_pragma_once_and_include_guards() -> None:
    files = {
        "once.h": "#pragma once\nint once_decl;\n",
        "guard.h": "#ifndef GUARD_H\n#define GUARD_H\nint guard_decl;\n#endif\n",
    }
    src = '#include "once.h"\n#include "once.h"\n#include "guard.h"\n#include "guard.h"\n'
    r = pp(src, read_file=fake_fs(files))
    assert words(r) == ["int", "once_decl;", "int", "guard_decl;"]
    assert r.includes == ["once.h", "guard.h"]


def test_include_cycle_is_an_error() -> None:
    files = {"a.h": '#include "b.h"\nint a;\n', "b.h": '#include "a.h"\nint b;\n'}
    r = pp('#include "a.h"\n', read_file=fake_fs(files), max_include_depth=6)
    assert codes(r) == ["ASC003"]
    assert r.diagnostics[0].severity is Severity.ERROR
    assert "cycle" in r.diagnostics[0].notes[0].message


def test_guarded_cycle_is_fine() -> None:
    files = {
        "a.h": '#ifndef A\n#define A\n#include "b.h"\nint a;\n#endif\n',
        "b.h": '#include "a.h"\nint b;\n',
    }
    r = pp('#include "a.h"\n', read_file=fake_fs(files))
    assert not r.diagnostics and words(r) == ["int", "b;", "int", "a;"]


def test_computed_include_and_reader_errors() -> None:
    def broken(path: str) -> str:
        raise PermissionError(path)

    r = pp('#define HDR "x.h"\n#include HDR\n', read_file=broken)
    assert codes(r) == ["ASC002"]
    r = pp("#include nonsense\n")
    assert codes(r) == ["ASC007"]


# ---------------------------------------------------------------------------- other directives


def test_error_only_in_taken_branch_and_warning() -> None:
    r = pp("#if 0\n#error hidden\n#endif\n#ifndef FOO\n#error FOO is required\n#endif\n#warning careful\n")
    assert [(d.code, d.severity, d.message) for d in r.diagnostics] == [
        ("ASC004", Severity.ERROR, "FOO is required"),
        ("ASC004", Severity.WARNING, "careful"),
    ]
    assert r.diagnostics[0].span is not None and r.diagnostics[0].span.line == 5


def test_misc_directives() -> None:
    src = '#pragma unroll\n#line 40 "x.cpp"\n#\n# 12 "y.cpp"\n#define X 1\n#undef X\n#undef NEVER\nX\n#ident "v"\n'
    r = pp(src)
    assert not r.diagnostics
    assert words(r) == ["X"]
    assert at(r, "X") == Origin("k.cpp", 8, 1)  # #line does not move origins
    assert "X" not in r.macros


@pytest.mark.parametrize(
    "src",
    [
        "#foo\n",
        "#define\n",
        "#define 3 x\n",
        "#define f(a, a) a\n",
        "#define g(a b\n",
        "#define h(x) #y\n",
        "#define i ## x\n",
        "#define j x ##\n",
        "#undef\n",
        "#ifdef\n#endif\n",
        "#line x\n",
        "#define defined 1\n",
        "#include\n",
        "#!bang\n",
    ],
)
def test_malformed_directives_are_asc007(src: str) -> None:
    assert codes(pp(src)) == ["ASC007"]


def test_directives_in_skipped_branch_are_not_checked() -> None:
    assert not pp('#if 0\n#foo\n#define\n#include "nope.h"\n#if garbage (\n#endif\n#endif\n').diagnostics


# ------------------------------------------------------------------------------------ macros


def test_object_and_function_like_macros() -> None:
    src = "#define N 8\n#define SQ(x) ((x) * (x))\nint a[N] = { SQ(N + 1) };\n"
    r = pp(src)
    assert r.text.split("\n")[2] == "int a[8] = { ((8 + 1) * (8 + 1)) };"
    assert r.macros["SQ"].params == ("x",) and r.macros["N"].params is None
    assert r.macros["SQ"].function_like and not r.macros["N"].function_like


def test_c_standard_example_3() -> None:
    src = (
        "#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n#define g f\n#define z z[0]\n"
        "#define h g(~\n#define m(a) a(w)\n#define w 0,1\n#define t(a) a\n#define p() int\n#define q(x) x\n"
        "#define r(x,y) x ## y\n#define str(x) # x\n"
        "f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\n"
        "g(x+(3,4)-w) | h 5) & m\n(f)^m(m);\n"
        "p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };\n"
        "char c[2][6] = { str(hello), str() };\n"
    )
    got = " ".join(pp(src).text.split())
    want = (
        "f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1); "
        "f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1); "
        'int i[] = { 1, 23, 4, 5, }; char c[2][6] = { "hello", "" };'
    )
    assert got == want


def test_c_standard_example_hash_hash() -> None:
    src = (
        "#define hash_hash # ## #\n#define mkstr(a) # a\n#define in_between(a) mkstr(a)\n"
        "#define join(c, d) in_between(c hash_hash d)\nchar p[] = join(x, y);\n"
    )
    assert 'char p[] = "x ## y";' in pp(src).text


def test_no_recursive_self_expansion() -> None:
    r = pp("#define foo foo + 1\n#define a b\n#define b a\nfoo a b\n")
    assert words(r) == ["foo", "+", "1", "a", "b"]


def test_function_like_name_without_paren_is_left_alone() -> None:
    r = pp("#define max(a, b) ((a) > (b) ? (a) : (b))\nint max = 3; auto f = max;\nstd::max\n;\n")
    assert "int max = 3; auto f = max;" in r.text
    assert words(r)[-2:] == ["std::max", ";"]


def test_arguments_span_lines_and_nest_parens() -> None:
    src = "#define CALL(f, a) f(a)\nint v = CALL(\n    foo,\n    (1, (2)));\nint w;\n"
    r = pp(src)
    lines = r.text.split("\n")
    assert lines[1].split() == ["int", "v", "=", "foo((1,", "(2)));"]
    assert lines[2] == lines[3] == ""
    assert lines[4] == "int w;"


def test_macro_name_and_paren_on_different_lines() -> None:
    r = pp("#define F(x) [x]\nF\n\n(1) F\n")
    assert words(r) == ["[1]", "F"]


def test_conditionals_inside_macro_arguments() -> None:
    src = "#define F(x) <x>\nF(\n#ifdef __CCE__\n  yes\n#else\n  no\n#endif\n)\nint z;\n"
    r = pp(src)
    assert words(r) == ["<yes>", "int", "z;"]
    assert r.text.count("\n") == src.count("\n")


def test_arguments_expanded_before_substitution_except_with_hash() -> None:
    src = (
        "#define N 4\n#define STR(x) #x\n#define XSTR(x) STR(x)\n#define CAT(a, b) a ## b\n"
        "#define ID(x) x\n"
        "STR(N) XSTR(N) CAT(N, 2) ID(N)\n"
    )
    assert words(pp(src)) == ['"N"', '"4"', "N2", "4"]


def test_stringize_escapes_and_collapses_whitespace() -> None:
    r = pp("#define S(x) #x\nS(  a   +  \"q\\n\"  '\\'' )\n")
    assert r.text.strip() == '"a + \\"q\\\\n\\" \'\\\\\'\'"'


def test_variadic_macros() -> None:
    src = (
        "#define LOG(fmt, ...) printf(fmt, ##__VA_ARGS__)\n"
        "#define ALL(...) f(__VA_ARGS__)\n"
        "#define OPT(a, ...) g(a __VA_OPT__(,) __VA_ARGS__)\n"
        "#define NAMED(args...) h(args)\n"
        'LOG("a"); LOG("b", 1, 2); ALL(); ALL(1, (2, 3)); OPT(0); OPT(0, 1, 2); NAMED(x, y);\n'
    )
    got = "".join(pp(src).text.split())
    assert got == 'printf("a");printf("b",1,2);f();f(1,(2,3));g(0);g(0,1,2);h(x,y);'


def test_paste_makes_new_tokens_and_rescans() -> None:
    src = "#define CAT(a, b) a ## b\n#define xy 42\nCAT(x, y) CAT(1, e5) CAT(<, <=) CAT(, z) CAT(w,)\n"
    assert words(pp(src)) == ["42", "1e5", "<<=", "z", "w"]


def test_invalid_paste_is_an_error() -> None:
    r = pp("#define CAT(a, b) a ## b\nCAT(+, /)\n")
    assert codes(r) == ["ASC008"]
    assert words(r) == ["+", "/"]


def test_no_accidental_token_pasting() -> None:
    r = pp("#define NEG -1\n#define E\nint a = -NEG; int b = +E+c;\n")
    assert r.text.split("\n")[2] == "int a = - -1; int b = + +c;"


def test_argument_count_errors() -> None:
    r = pp("#define F(a, b) a b\n#define G() g\nF(1) F(1, 2, 3) G(1) F(1, 2)\n")
    assert codes(r) == ["ASC008", "ASC008", "ASC008"]
    assert "requires 2 arguments, but only 1 given" in r.diagnostics[0].message
    assert words(r)[-2:] == ["1", "2"]


def test_unterminated_macro_arguments() -> None:
    r = pp("#define F(a) a\nint x = F(1, (2);\nint y;\n")
    assert codes(r) == ["ASC008"]
    assert "unterminated argument list" in r.diagnostics[0].message
    assert r.diagnostics[0].span is not None and r.diagnostics[0].span.line == 2
    assert "int y;" in r.text


def test_include_ends_macro_arguments() -> None:
    r = pp('#define F(a) a\nF(1,\n#include "x.h"\nint y;\n', read_file=fake_fs({"x.h": "int x;\n"}))
    assert "ASC008" in codes(r)
    assert "int x;" in r.text and "int y;" in r.text


def test_builtin_macros_and_pragma_operator() -> None:
    r = pp(
        'int l = __LINE__;\n#define HERE __LINE__\nint m = HERE; const char* f = __FILE__;\n_Pragma("once") int n;\n'
    )
    assert words(r) == [
        "int",
        "l",
        "=",
        "1;",
        "int",
        "m",
        "=",
        "3;",
        "const",
        "char*",
        "f",
        "=",
        '"k.cpp";',
        "int",
        "n;",
    ]


def test_redefinition_warning() -> None:
    r = pp("#define A 1\n#define A 1\n#define A  1 \n#define A 2\n")
    assert codes(r) == ["ASC008"]
    d = r.diagnostics[0]
    assert d.severity is Severity.WARNING and d.span is not None and d.span.line == 4
    assert d.notes[0].span is not None and d.notes[0].span.line == 1


def test_exponential_macros_are_stopped() -> None:
    defs = "".join(f"#define M{i} M{i + 1} M{i + 1}\n" for i in range(30))
    r = pp(defs + "M0\nint after;\n")
    assert codes(r) == ["ASC008"]
    assert "int after;" in r.text


# ---------------------------------------------------------------------------- predefined state


def test_vendor_macros_and_default_defines() -> None:
    src = (
        'extern "C" __global__ __aicore__ void k(GM_ADDR x) {\n'
        "    if ASCEND_IS_AIV { }\n"
        "#if __NPU_ARCH__ == 2201\n    taken();\n#endif\n"
        "#ifdef ASCENDC_CPU_DEBUG\n    cpu_only();\n#endif\n}\n"
    )
    r = pp(src)
    assert "void k(__gm__ uint8_t* x)" in r.text
    assert "if constexpr (g_coreType == AscendC::AIV) { }" in r.text
    assert "taken();" in r.text and "cpu_only" not in r.text
    assert {"GM_ADDR", "__NPU_ARCH__", "__CCE_AICORE__", "__cplusplus"} <= set(r.macros)
    assert r.macros["GM_ADDR"].origin is None


def test_defines_override_and_undefine() -> None:
    src = "#if __NPU_ARCH__ == 2002\nold\n#endif\n#ifdef ASCENDC_CPU_DEBUG\ncpu\n#endif\n#ifndef __CCE__\nnocce\n#endif\nSQ(3)\n"
    r = pp(src, defines={"__NPU_ARCH__": "2002", "ASCENDC_CPU_DEBUG": "1", "__CCE__": None, "SQ(x)": "x*x"})
    assert words(r) == ["old", "cpu", "nocce", "3*3"]
    assert r.macros["SQ"].params == ("x",)
    assert "__CCE__" not in r.macros


def test_bad_define_option_is_reported() -> None:
    r = pp("x\n", defines={"1BAD": "1"})
    assert codes(r) == ["ASC007"] and r.diagnostics[0].span is None


# ------------------------------------------------------------------------------- conditionals


@pytest.mark.parametrize(
    "expr, taken",
    [
        ("1", True),
        ("0", False),
        ("0x10 == 16", True),
        ("010 == 8", True),
        ("0b101 == 5", True),
        ("1000000000000ULL > 1", True),
        ("10ul == 10", True),
        ("-1 < 0", True),
        ("-1 > 0u", True),
        ("~0u == 0xffffffffffffffff", True),
        ("1 << 4 == 16", True),
        ("-16 >> 2 == -4", True),
        ("7 / 2 == 3 && -7 / 2 == -3 && -7 % 2 == -1", True),
        ("(3 & 5) == 1 && (3 | 5) == 7 && (3 ^ 5) == 6", True),
        ("1 ? 2 : 3", True),
        ("0 ? 2 : 0", False),
        ("1 ? 0 : 1 / 0", False),
        ("0 && 1 / 0", False),
        ("1 || 1 / 0", True),
        ("!0 && !!5", True),
        ("(1, 0)", False),
        ("'a' == 97 && '\\n' == 10", True),
        ("defined __CCE__ && defined(__NPU_ARCH__)", True),
        ("defined UNDEFINED_THING", False),
        ("UNDEFINED_THING == 0", True),
        ("true && !false", True),
        ("__CCE_AICORE__ >= 220", True),
        ("__cplusplus >= 201703L", True),
        ("defined(__LINE__)", True),
        ("1 + 2 * 3 == 7", True),
        ("(1 + 2) * 3 == 9", True),
        ("2 > 1 == 1", True),
        ("1 == 1 ? 5 : 6", True),
        ('__has_include("kernel_operator.h")', True),
        ("__has_include(<no_such_header.h>)", False),
        ('__has_include("local.h")', False),
        ("__has_builtin(__builtin_expect)", False),
        ("defined(A) and not defined(B)", False),
    ],
)
def test_if_expressions(expr: str, taken: bool) -> None:
    r = pp(f"#if {expr}\nyes\n#else\nno\n#endif\n")
    assert not r.diagnostics, r.diagnostics
    assert words(r) == (["yes"] if taken else ["no"])


def test_if_macros_are_expanded() -> None:
    src = "#define VER 3\n#define AT_LEAST(v) (VER >= (v))\n#if AT_LEAST(2) && !AT_LEAST(4)\nok\n#endif\n"
    assert words(pp(src)) == ["ok"]


def test_has_include_finds_local_files() -> None:
    r = pp('#if __has_include("here.h")\nyes\n#endif\n', read_file=fake_fs({"here.h": ""}))
    assert words(r) == ["yes"]


def test_elif_chain_and_nesting() -> None:
    src = (
        "#if __NPU_ARCH__ == 1001\na\n#elif __NPU_ARCH__ == 2201\nb\n"
        "#if 0\nc\n#elif 1\nd\n#else\ne\n#endif\n#elif 1\nf\n#else\ng\n#endif\n"
        "#ifdef NOPE\n#elifdef __CCE__\nh\n#endif\n#ifndef NOPE\ni\n#endif\n"
    )
    assert words(pp(src)) == ["b", "d", "h", "i"]


def test_elif_not_evaluated_after_taken_branch() -> None:
    assert not pp("#if 1\n#elif 1 / 0\n#elif (\n#endif\n").diagnostics


@pytest.mark.parametrize(
    "expr",
    [
        "",
        "1 +",
        "(1",
        "1 / 0",
        "2 3",
        "1.5 > 1",
        '"s"',
        "defined",
        "defined(",
        "F(1)",
        "1 ? 2",
        "08",
        "0x",
        "99999999999999999999999",
    ],
)
def test_bad_if_expression_is_asc006_and_false(expr: str) -> None:
    r = pp(f"#if {expr}\nyes\n#else\nno\n#endif\n")
    assert codes(r) == ["ASC006"]
    assert words(r) == ["no"]


def test_conditional_structure_errors() -> None:
    r = pp("#else\n#endif\n#elif 1\n#if 1\n#else\n#else\n#elif 1\n#endif\n#ifdef X\n")
    assert codes(r) == ["ASC005"] * 6
    msgs = [d.message for d in r.diagnostics]
    assert msgs == [
        "#else without #if",
        "#endif without #if",
        "#elif without #if",
        "#else after #else",
        "#elif after #else",
        "unterminated #ifdef",
    ]
    assert r.diagnostics[-1].span is not None and r.diagnostics[-1].span.line == 9


def test_unterminated_if_in_included_file() -> None:
    r = pp('#include "h.h"\nint after;\n', read_file=fake_fs({"h.h": "#if 1\nint x;\n"}))
    assert codes(r) == ["ASC005"]
    assert r.diagnostics[0].span is not None and r.diagnostics[0].span.file == "h.h"
    assert "int after;" in r.text


# ------------------------------------------------------------------------------------ origins


def test_origin_plain_text_is_linear() -> None:
    src = "int a;\n\n  float b = 1.0f;\n"
    r = pp(src)
    assert r.text == src
    for off in range(len(src)):
        line = src.count("\n", 0, off) + 1
        col = off - (src.rfind("\n", 0, off) + 1) + 1
        assert r.origin(off) == Origin("k.cpp", line, col)


def test_origin_through_macro_expansion() -> None:
    src = "#define INNER(x) (x + 1)\n#define OUTER(y) INNER(y) * 2\nint v =   OUTER(3); int w;\n"
    r = pp(src)
    line = r.text.split("\n")[2]
    assert line.split() == ["int", "v", "=", "(3", "+", "1)", "*", "2;", "int", "w;"]
    inv = Origin("k.cpp", 3, 11, "OUTER")
    start = r.text.index("(3")
    for off in range(start, r.text.index("2;")):
        if not r.text[off].isspace():
            assert r.origin(off) == inv
    assert at(r, "2;") == inv
    assert at(r, ";") == Origin("k.cpp", 3, 19)
    assert at(r, "int w") == Origin("k.cpp", 3, 21)
    assert at(r, "int v") == Origin("k.cpp", 3, 1)


def test_origin_at_end_and_out_of_range_offsets() -> None:
    r = pp("a\nb\n")
    assert r.origin(len(r.text)) == Origin("k.cpp", 3, 1)
    assert r.origin(-5) == Origin("k.cpp", 1, 1)
    assert r.origin(10**9) == r.origin(len(r.text))
    assert pp("").origin(0) == Origin("k.cpp", 1, 1)


def test_origin_after_directives_and_skipped_lines() -> None:
    r = pp("#define A 1\n#if 0\nskipped\n#endif\nint x = A;\n")
    assert at(r, "int x") == Origin("k.cpp", 5, 1)
    assert at(r, "1;") == Origin("k.cpp", 5, 9, "A")


def test_origin_of_every_offset_is_valid_for_a_kernel() -> None:
    src = KERNEL
    r = pp(src)
    assert not r.diagnostics
    assert r.text.count("\n") == src.count("\n")
    for off in range(len(r.text) + 1):
        o = r.origin(off)
        assert o.file == "k.cpp" and 1 <= o.line <= src.count("\n") + 1 and o.col >= 1
    # every plain character maps to the same character in the source
    src_lines = src.split("\n")
    for off, ch in enumerate(r.text):
        o = r.origin(off)
        if o.macro is None and not ch.isspace():
            assert src_lines[o.line - 1][o.col - 1] == ch


KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2; // double buffer
#define TILE_LEN 128
/* a class
   that adds */
class KernelAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t n)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x + TILE_LEN * GetBlockIdx(), TILE_LEN);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LEN * sizeof(half));
    }
    __aicore__ inline void Process()
    {
#if __NPU_ARCH__ == 2201
        for (int32_t i = 0; i < BUFFER_NUM; i++) { Compute(i); }
#else
        Legacy();
#endif
    }
private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
    GlobalTensor<half> xGm;
};
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    KernelAdd op;
    if ASCEND_IS_AIV { op.Process(); }
}
"""


# ------------------------------------------------------------------------------- robustness

GARBAGE_SEEDS = [
    KERNEL,
    (
        "#define A(x, ...) x ## __VA_ARGS__ # x\n#define B(...) __VA_OPT__(a ## __VA_ARGS__) #__VA_ARGS__\n"
        '#if defined(A) && (1 ? 2 : 3) << 2 >> 1 ? -1 : ~0u\nA(B(1,2), 3) B() "s" \'c\' R"x(raw)x" /* c */ // d\n'
        '#elif __has_include("x") || __has_include(<y>)\n#include "inc.h"\n#else\n#include MACRO\n#endif\n'
    ),
]
GARBAGE_PIECES = list("#()[],\"'\\/*\n _+-<>=!&|?:;{}0x9") + [
    "#define ",
    "#if ",
    "#endif\n",
    "#else\n",
    "#elif ",
    '#include "',
    "A(",
    "__VA_ARGS__",
    "defined",
    "/*",
    "*/",
    "//",
    "\\\n",
    'R"(',
    ')"',
    "##",
    "#x",
    "__LINE__",
    "_Pragma(",
    "GM_ADDR",
    "\r",
]


def test_garbage_never_raises() -> None:
    rng = random.Random(1234)
    fs = fake_fs({"inc.h": '#include "inc.h"\nA(\n', "x": "#if 1\n"})
    for _ in range(400):
        chars = list(rng.choice(GARBAGE_SEEDS))
        for _ in range(rng.randint(1, 25)):
            i = rng.randint(0, len(chars))
            op = rng.random()
            if op < 0.45:
                chars.insert(i, rng.choice(GARBAGE_PIECES))
            elif op < 0.8 and chars:
                del chars[min(i, len(chars) - 1)]
            else:
                j = rng.randint(0, len(chars))
                chars[i:i] = chars[j : j + rng.randint(0, 30)]
        text = "".join(chars)[: rng.randint(0, len(chars) + 1) if rng.random() < 0.3 else None]
        r = preprocess(text, "g.cpp", read_file=fs, max_include_depth=4)
        assert not any("internal" in d.message for d in r.diagnostics), (text, r.diagnostics)
        assert all(d.code in {f"ASC00{k}" for k in range(2, 10)} for d in r.diagnostics)
        assert r._seg_starts == sorted(r._seg_starts)
        for off in range(0, len(r.text) + 1, max(1, len(r.text) // 20)):
            o = r.origin(off)
            assert o.line >= 1 and o.col >= 1


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n",
        "#",
        "#if",
        "#define",
        "#define F(",
        "F(",
        "\\",
        "/*",
        '"',
        "'",
        'R"(',
        "\r\n#if 1\r\n",
        "\ufeffint a;",
        "#define F(x) F(x\nF(F(F(1)))",
        "#include",
        '#include "',
        "#if (((((",
        "\x00\x01",
        "#define A A B\n" + "A " * 50,
        "#define F(x) x\n" + "F(" * 2000 + ")" * 2000,
    ],
)
def test_truncated_inputs_never_raise(text: str) -> None:
    r = preprocess(text, "t.cpp", read_file=fake_fs({}))
    assert not any("internal" in d.message for d in r.diagnostics)
    r.origin(0)
    r.origin(len(r.text))


def test_crlf_input() -> None:
    r = pp("#define A 1\r\nint x = A;\r\n")
    assert r.text == "\nint x = 1;\n"
    assert at(r, "1;") == Origin("k.cpp", 2, 9, "A")


def test_macro_objects_are_public_data() -> None:
    r = pp("#define F(a, ...) g(a, __VA_ARGS__)\n")
    m = r.macros["F"]
    assert isinstance(m, Macro)
    assert (m.name, m.params, m.variadic, m.body) == ("F", ("a", "__VA_ARGS__"), True, "g(a, __VA_ARGS__)")
    assert m.origin == Origin("k.cpp", 1, 9)


def test_kernel_operator_h_brings_the_dtype_and_format_codes_except_to_asc_sources() -> None:
    # op projects compare the build's FORMAT_X / ORIG_DTYPE_X with kernel_type.h's codes in #if; a `.asc`
    # source (built by ascc) gets them as enumerators instead, so `DataType::DT_FLOAT16` must stay a name
    src = ('#include "kernel_operator.h"\n'
           "#ifndef FORMAT_FRACTAL_NZ\n#define FORMAT_FRACTAL_NZ\n#endif\n"
           "#if defined(FORMAT_X1) && FORMAT_X1 == FORMAT_FRACTAL_NZ\nint nz = 1;\n#else\nint nz = 0;\n#endif\n"
           "int t = matmul_tiling::DataType::DT_FLOAT16;\n")
    kernel = pp(src)
    assert codes(kernel) == [] and "nz = 0" in kernel.text and "DataType::1" in kernel.text.replace(" ", "")
    asc = preprocess(src, "k.asc")
    assert "DataType::DT_FLOAT16" in asc.text.replace(" ", "")
    # nor does host code that reaches kernel_operator.h through a kernel header (a tiling .cpp of ops-nn
    # including the kernel's DAG header): it writes ge::DT_FLOAT16 and is built by the host compiler
    host = preprocess(src, "ops/add/op_host/add_tiling.cpp")
    assert "DataType::DT_FLOAT16" in host.text.replace(" ", "")
    assert "nz = 0" in pp("#if FORMAT_ND == 0\nint nz = 0;\n#endif\n").text  # no include: FORMAT_ND is undefined


def test_template_argument_macros_vanish_from_device_code_only() -> None:
    # the device build of template_argument.h defines the selection macros to nothing (ops-nn's conv tiling keys
    # juxtapose two of them without a comma); the host build makes ParamStruct lists of them
    src = ('#include "ascendc/host_api/tiling/template_argument.h"\n'
           "ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(A, ASCENDC_TPL_UI_LIST, 1) "
           "ASCENDC_TPL_UINT_SEL(B, ASCENDC_TPL_UI_LIST, 2)));\nint k;\n")
    kernel = pp(src)
    assert codes(kernel) == [] and "ASCENDC_TPL" not in kernel.text
    host = preprocess(src, "ops/conv/op_host/conv_tiling.cpp")
    assert codes(host) == [] and "ASCENDC_TPL_SEL" in host.text


def test_an_include_of_another_ops_kernel_folder_resolves_as_the_op_build_lays_it_out(tmp_path) -> None:
    # ops-nn norm/dua_quantize_add_layer_norm/op_kernel includes "../quantize_add_layer_norm/..._base.h": the
    # build copies each op_kernel/ folder to one named after its op, so that is norm/<op>/op_kernel/<file>
    from frontend.readers import read_input
    from passes.verify import load_for_check

    kernel = tmp_path / "norm" / "dua_norm" / "op_kernel" / "dua_norm.cpp"
    base = tmp_path / "norm" / "base_norm" / "op_kernel" / "base_norm_base.h"
    kernel.parent.mkdir(parents=True)
    base.parent.mkdir(parents=True)
    base.write_text("#pragma once\n#define BASE_NORM_TILE 256\n")
    kernel.write_text('#include "../base_norm/base_norm_base.h"\nconstexpr int tile = BASE_NORM_TILE;\n')
    program, _ = load_for_check(read_input(str(kernel)))
    assert [d.code for u in program.units for d in u.diagnostics] == []
    # a name that leads nowhere is still an include out of reach
    kernel.write_text('#include "../other_norm/other_base.h"\n')
    program, _ = load_for_check(read_input(str(kernel)))
    assert [d.code for u in program.units for d in u.diagnostics] == ["ASC002"]
