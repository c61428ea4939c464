"""`ascendir run` on a host program that launches its kernel through a namespace-scope table of functions (issue 29,
the idiom of catlass 102_dynamic_optimized_matmul, whose build generates launch_map.h: a std::unordered_map from
a tiling key to launch functions that other sources of the program define, and a std::array of tiling functions
by layout). Before, the call `launchMap[key](...)` stopped main: 'global variable 'launchMap' is not a constant'
(ASC958), and no kernel ran. Now the call reaches the entry its key selects (ascendir/lower/function_tables.py):
directly when the key folds, else after the run evaluated main's code for the key and lowered main again with it.
Team-written programs in the shape of catlass's."""

from __future__ import annotations

import sys

import numpy as np
from click.testing import CliRunner

from cli.run import main

KERNEL_H = """\
#include "kernel_operator.h"
struct Tiling {
    uint32_t n{0};
    uint16_t scale{0};
    uint8_t blockDim{0};
};
template <int Mul>
__global__ __aicore__ void Scale(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    uint32_t n = *(reinterpret_cast<__gm__ uint32_t *>(tiling));
    uint16_t s = *(reinterpret_cast<__gm__ uint16_t *>(tiling + 4));
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, n);
    yg.SetGlobalBuffer((__gm__ float *)y, n);
    for (uint32_t i = 0; i < n; ++i) {
        yg.SetValue(i, xg.GetValue(i) * static_cast<float>(s * Mul));
    }
}
template <int Mul>
void LaunchScale(uint8_t *dX, uint8_t *dY, uint8_t *dT, Tiling &t)
{
    Scale<Mul><<<t.blockDim, nullptr, nullptr>>>(dX, dY, dT);
}
"""

# what a build step generates: declarations of functions other sources define, and the tables of them
MAP_H = """\
#include <array>
#include <unordered_map>
void LaunchTwo(uint8_t *, uint8_t *, uint8_t *, Tiling &);
void LaunchThree(uint8_t *, uint8_t *, uint8_t *, Tiling &);
std::unordered_map<uint64_t, void (*)(uint8_t *, uint8_t *, uint8_t *, Tiling &)> launchMap = {
    { 0x0000000000000102, LaunchTwo },
    { 0x0000000000000103, LaunchThree }
};
void ScaleBy1(Tiling &t) { t.scale = 1; }
void ScaleBy4(Tiling &t) { t.scale = 4; }
void ScaleBy5(Tiling &t) { t.scale = 5; }
void ScaleBy7(Tiling &t) { t.scale = 7; }
using TilingFunc = void (*)(Tiling &t);
std::array<std::array<TilingFunc, 2>, 2> tilings = {{{{ScaleBy1, ScaleBy4}}, {{ScaleBy5, ScaleBy7}}}};
"""

TWO_CPP = """\
#include "k.h"
void LaunchTwo(uint8_t *x, uint8_t *y, uint8_t *t, Tiling &p) { LaunchScale<2>(x, y, t, p); }
"""
THREE_CPP = """\
#include "k.h"
void LaunchThree(uint8_t *x, uint8_t *y, uint8_t *t, Tiling &p) { LaunchScale<3>(x, y, t, p); }
"""

# the key: 0x100 | argv[2], made in a loop (a value the lowering does not fold: known after main's code is
# evaluated) or straight from the argument (folds); the tiling function by argv[3], argv[4]
MAIN = """\
#include <cstdlib>
#include <vector>
#include <acl/acl.h>
#include "k.h"
#include "map.h"
int main(int argc, const char **argv)
{
    uint32_t n = std::atoi(argv[1]);
    uint64_t key = 0x100;
    KEY
    Tiling t;
    t.n = n;
    t.blockDim = 1;
    tilings[std::atoi(argv[3])][std::atoi(argv[4])](t);
    size_t bytes = n * sizeof(float);
    std::vector<float> hostX(n);
    uint8_t *dX, *dY, *dT;
    aclrtMalloc((void **)&dX, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&dY, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&dT, sizeof(Tiling), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dX, bytes, hostX.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dT, sizeof(Tiling), &t, sizeof(Tiling), ACL_MEMCPY_HOST_TO_DEVICE);
    launchMap[key](dX, dY, dT, t);
    std::vector<float> hostY(n);
    aclrtMemcpy(hostY.data(), bytes, dY, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    return 0;
}
"""
FOLDS = "key |= std::atoi(argv[2]);"
IN_A_LOOP = "for (int i = 0; i < std::atoi(argv[2]); ++i) { key += 1; }"


def _run(tmp_path, key_code: str, args: str):
    (tmp_path / "inc").mkdir(exist_ok=True)
    (tmp_path / "inc" / "k.h").write_text(KERNEL_H)
    (tmp_path / "inc" / "map.h").write_text(MAP_H)
    (tmp_path / "two.cpp").write_text(TWO_CPP)
    (tmp_path / "three.cpp").write_text(THREE_CPP)
    (tmp_path / "main.cpp").write_text(MAIN.replace("KEY", key_code))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [str(tmp_path / "main.cpp"), "-I", str(tmp_path / "inc"), "--source",
                                       str(tmp_path / "two.cpp"), "--source", str(tmp_path / "three.cpp"),
                                       "--args", args, "--output-dir", str(out)])
    return result, out


def _factor(out) -> float:
    x, y = np.load(out / "dX.npy"), np.load(out / "dY.npy")
    assert y.shape == (8,)
    ratio = y / x
    assert np.allclose(ratio, ratio[0])
    return float(ratio[0])


def test_a_key_that_folds_reaches_its_entry(tmp_path) -> None:
    result, out = _run(tmp_path, FOLDS, "8 3 0 1")
    assert result.exit_code == 0, result.output
    assert "0 errors" in result.output
    assert _factor(out) == 3 * 4  # LaunchThree, ScaleBy4 (tilings[0][1])


def test_a_key_main_computes_is_evaluated_then_followed(tmp_path) -> None:
    result, out = _run(tmp_path, IN_A_LOOP, "8 2 1 1")
    assert result.exit_code == 0, result.output
    assert "0 errors" in result.output
    assert _factor(out) == 2 * 7  # LaunchTwo, ScaleBy7 (tilings[1][1])


def test_a_key_no_entry_has_is_reported_where_called(tmp_path) -> None:
    result, _ = _run(tmp_path, IN_A_LOOP, "8 4 0 0")
    assert "'launchMap' has no entry of key 0x104" in result.output, result.output
    assert "0 instructions" in result.output  # (operator[] would insert a null pointer, and call it)


def test_a_table_main_changes_is_not_read_as_its_list(tmp_path) -> None:
    # the entry of key 0x102 is replaced before the call: its initial function would be the wrong one
    result, _ = _run(tmp_path, FOLDS + " launchMap[0x102] = LaunchThree;", "8 2 0 0")
    assert result.exit_code != 0 and "launchMap" in result.output, result.output


DEVICE_TABLE = """\
#include "kernel_operator.h"
#include <unordered_map>
__aicore__ inline float Twice(float v) { return v * 2.0f; }
__aicore__ inline float Thrice(float v) { return v * 3.0f; }
std::unordered_map<uint32_t, float (*)(float)> scales = {{7, Twice}, {9, Thrice}};
extern "C" __global__ __aicore__ void scale_by_mode(GM_ADDR x, GM_ADDR mode, GM_ADDR y)
{
    AscendC::GlobalTensor<float> xg, yg;
    AscendC::GlobalTensor<uint32_t> mg;
    xg.SetGlobalBuffer((__gm__ float *)x, 4);
    mg.SetGlobalBuffer((__gm__ uint32_t *)mode, 4);
    yg.SetGlobalBuffer((__gm__ float *)y, 4);
    for (uint32_t i = 0; i < 4; ++i) {
        yg.SetValue(i, scales[mg.GetValue(i)](xg.GetValue(i)));
    }
}
"""


def _run_device(tmp_path, text: str, mode: list[int]):
    """The device kernel `text` run on x = 1, 2, 3, 4 with these keys, one per element."""
    from passes.sim import run

    (tmp_path / "k.cpp").write_text(text)
    x = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    return run(str(tmp_path / "k.cpp"), {"x": x, "mode": np.array(mode, np.uint32)}, block_dim=1,
               outputs={"y": ((4,), "float32")})


def test_in_device_code_a_key_known_at_run_time_tests_each_entry(tmp_path) -> None:
    # the key is read from GM: the call dispatches over both functions on the key (code_pointer.py's numbers)
    result = _run_device(tmp_path, DEVICE_TABLE, [7, 9, 9, 7])
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == [2.0, 6.0, 9.0, 8.0]


def test_in_device_code_a_run_time_key_no_entry_has_is_a_gap_where_reached(tmp_path) -> None:
    # key 5 is in neither entry: C++ calls the null pointer operator[] inserted (undefined); the dispatch used to
    # run its last case for it silently (y[2] == 6.0, Twice's), now the run reports the call where it is reached
    result = _run_device(tmp_path, DEVICE_TABLE, [7, 9, 5, 7])
    messages = [f.message for f in result.findings if f.code == "ASC958"]
    assert not result.ok and any("'scales' has no entry of the key" in m for m in messages), messages
    assert all(f.span is not None and f.span.line == 14 for f in result.findings if f.code == "ASC958")


def test_a_call_main_reaches_with_two_keys_is_not_lowered_with_the_first(tmp_path, monkeypatch) -> None:
    # keys 0x102 then 0x103 in a loop: C++ runs LaunchTwo, then LaunchThree (y = 3 * 4 * x last); main was
    # lowered again with the first key the run met for every pass, LaunchTwo's 8 * x with 0 errors
    monkeypatch.setattr(sys.modules[__name__], "MAIN", MAIN.replace(
        "    launchMap[key](dX, dY, dT, t);", "    for (int j = 0; j < 2; ++j) { launchMap[key + j](dX, dY, dT, t); }"))
    result, _ = _run(tmp_path, IN_A_LOOP, "8 2 0 1")
    assert result.exit_code != 0, result.output
    assert "takes more than one value there" in result.output, result.output


NAMESPACE_TABLES = """\
#include "kernel_operator.h"
#include <unordered_map>
namespace N {
__aicore__ inline float Twice(float v) { return v * 2.0f; }
__aicore__ inline float Thrice(float v) { return v * 3.0f; }
std::unordered_map<uint32_t, float (*)(float)> scales = {{7, Twice}, {9, Thrice}};
__aicore__ inline float Apply(uint32_t m, float v) { return scales[m](v); }
}
namespace M {
__aicore__ inline float Once(float v) { return v; }
std::unordered_map<uint32_t, float (*)(float)> scales = {{7, Once}, {9, Once}};
}
extern "C" __global__ __aicore__ void scale_by_mode(GM_ADDR x, GM_ADDR mode, GM_ADDR y)
{
    AscendC::GlobalTensor<float> xg, yg;
    AscendC::GlobalTensor<uint32_t> mg;
    xg.SetGlobalBuffer((__gm__ float *)x, 4);
    mg.SetGlobalBuffer((__gm__ uint32_t *)mode, 4);
    yg.SetGlobalBuffer((__gm__ float *)y, 4);
    for (uint32_t i = 0; i < 4; ++i) {
        yg.SetValue(i, N::Apply(mg.GetValue(i), xg.GetValue(i)) + M::scales[7](0.0f));
    }
}
"""


def test_a_table_in_a_namespace_is_found_by_the_lookup_rules(tmp_path) -> None:
    # 'scales' in N's code is N::scales ([basic.lookup.unqual]), M::scales another table of that name; before,
    # the table was looked up by the bare name only (Scope.constants keys qualified names): 'global variable
    # 'scales' is not a constant', nothing written
    result = _run_device(tmp_path, NAMESPACE_TABLES, [7, 9, 9, 7])
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == [2.0, 6.0, 9.0, 8.0]
