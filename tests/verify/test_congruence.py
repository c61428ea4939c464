"""Lengths read modulo 32: which sets of DataCopy lengths can all be whole 32-byte blocks."""

from __future__ import annotations

from frontend.pipeline import load_text
from passes.verify import check_program
from passes.verify.congruence import Form, Product, solvable

HEADER = '#include "kernel_operator.h"\nusing namespace AscendC;\n'


def form(constant: int, **coefficients: int) -> Form:
    return Form(tuple(coefficients.items()), constant, {k: k for k in coefficients})


def test_lengths_a_constant_apart_are_aligned_together_only_if_the_constant_is() -> None:
    n_halves = form(0, n=2)
    assert solvable([n_halves], 32)
    assert solvable([n_halves, form(2, n=2)], 32) is False  # n and n + 1 halves
    assert solvable([n_halves, form(32, n=2)], 32)  # n and n + 16 halves
    assert solvable([form(0, n=4), form(32, n=4)], 32)  # n and n + 8 floats


def test_a_length_alone_is_never_aligned_when_the_gcd_does_not_divide_its_constant() -> None:
    assert solvable([form(2, rows=4)], 32) is False  # 2 * rows + 1 halves
    assert solvable([form(2, rows=4, cols=6)], 32)  # gcd(4, 6, 32) = 2 divides 2
    assert solvable([form(16, rows=32)], 32) is False


def test_different_element_sizes_meet_through_the_unknown() -> None:
    # 4n bytes aligned means n = 0 mod 8, and then 2n + 2 bytes is 2 mod 16
    assert solvable([form(0, n=4), form(2, n=2)], 32) is False
    assert solvable([form(0, n=4), form(16, n=2)], 32)


def test_more_unknowns_than_searched_is_no_answer() -> None:
    assert solvable([form(0, a=2, b=2), form(1, c=2)], 32) is None


def test_a_product_is_a_multiple_of_what_each_factor_is_a_multiple_of() -> None:
    rows_times_cols = Product(("cols", "rows"))
    # cols floats aligned makes cols = 0 mod 8, so rows * cols floats is too, and rows * cols + 1 never is
    cols = form(0, cols=4)
    total_plus_one = Form(((rows_times_cols, 4),), 4, {rows_times_cols: "cols*rows"})
    assert solvable([total_plus_one], 32)  # alone, rows * cols = 7 mod 8 would do
    # (read as an unknown of its own, the product could be 7 mod 8: the search over the factors rules it out)
    assert solvable([cols, total_plus_one], 32) is False
    # cols halves and rows * cols + 16 halves: both whole blocks when cols = 0 mod 16
    assert solvable([form(0, cols=2), Form(((rows_times_cols, 2),), 32, {})], 32)


def test_form_text_reads_like_the_source() -> None:
    assert form(1, tileLength=1).text() == "tileLength + 1"
    assert form(-2, n=2, m=-1).text() == "2*n - m - 2"
    assert form(7).text() == "7"


def codes(text: str) -> list[str]:
    return [d.code for d in check_program(load_text(HEADER + text, "k.cpp"))]


def test_a_local_stored_after_a_copy_is_not_the_value_it_read() -> None:
    # len is stored again between the copies: they read different values, nothing to compare
    kernel = """
extern "C" __global__ __aicore__ void k(GM_ADDR x, uint32_t n, uint32_t m) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
    LocalTensor<half> t = buf.Get<half>();
    GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half*)x + GetBlockIdx() * 4096, 4096);
    uint32_t len = n;
    DataCopy(t, xGm, len);
    len = m;
    DataCopy(t, xGm, len + 1);
}
"""
    assert codes(kernel) == []
    assert codes(kernel.replace("len = m;", "")) == ["ASC408"]
