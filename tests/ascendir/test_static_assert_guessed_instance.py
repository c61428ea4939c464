"""A static_assert fails the build only for an instantiation the program makes (ASC107,
tests/corpus/rules/api/static_assert_failed.cpp). A template kernel no launch instantiates is checked with guessed
template arguments (ASC104): a static_assert those arguments fail is the guess's, not the program's, and is not
reported; the same kernel instantiated with them is."""

from __future__ import annotations

from pathlib import Path

from frontend.pipeline import read_input
from passes.verify import check_program, load_for_check

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__global__ __aicore__ void only_float(GM_ADDR x)
{
    static_assert(sizeof(T) == 4, "float only");
    GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T *)x, 8);
    g.SetValue(0, (T)1);
}
"""


def codes(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "k.cpp"
    path.write_text(text, encoding="utf-8")
    return [d.code for d in check_program(load_for_check(read_input(str(path)))[0])]


def test_a_guessed_instantiation_reports_no_static_assert(tmp_path: Path) -> None:
    found = codes(tmp_path, KERNEL)  # guessed T = half, which the assertion rejects
    assert "ASC104" in found and "ASC107" not in found, found


LAUNCH = """
void launch(uint8_t *x, void *stream)
{
    only_float<TYPE><<<8, nullptr, stream>>>(x);
}
"""


def test_an_instantiation_the_program_launches_does(tmp_path: Path) -> None:
    assert "ASC107" in codes(tmp_path, KERNEL + LAUNCH.replace("TYPE", "half"))
    assert "ASC107" not in codes(tmp_path, KERNEL + LAUNCH.replace("TYPE", "float"))
