"""Issue 29: two things catlass 19_mla's host tiling (mla_tiling.cpp, a second source of the executable) relies on,
in team-written host programs whose `main` is lowered as device code is (ascendir/lower/host_program.py):
- a namespace-scope `constexpr std::array<int32_t, N>` of constants indexed by a value known only when main runs
  (19's QN_TILE_LIST[ceil(log2(tokens))]): std::array<T, N> is the C array T[N] (lower_types.named_type); before,
  an unknown type, its read left out and the tile 0;
- a plain struct's default member initialisers (19's AddrOffsets, `uint64_t addrQSeqOffset = 0;` summed over the
  batch): a variable declared without an initialiser starts with them, and a brace list gives the members it leaves
  out theirs, else 0 (lower_tiling.member_defaults); before, every member read was 'the kernel reads tiling field
  ..., which the host tiling did not set' (ASC958) and read 0, whatever its initialiser said.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from click.testing import CliRunner

from cli.run import main

KERNEL = """\
#include "kernel_operator.h"

namespace Demo {
__global__ __aicore__ void Store(GM_ADDR y, GM_ADDR tiling, uint32_t length)
{
    AscendC::GlobalTensor<uint32_t> yg, tg;
    yg.SetGlobalBuffer((__gm__ uint32_t *)y, length);
    tg.SetGlobalBuffer((__gm__ uint32_t *)tiling, length);
    if (AscendC::GetBlockIdx() == 0) {
        for (uint32_t i = 0; i < length; ++i) {
            yg.SetValue(i, tg.GetValue(i));
        }
    }
}
}  // namespace Demo
"""

TABLES_H = """\
#include <array>
#include <cstdint>
namespace Tables {
const int32_t COUNT = 6;
constexpr std::array<int32_t, COUNT> TILE_LIST = {128, 64, 32, 16, 8, 1};

struct Offsets {
    uint64_t first = 3;
    uint64_t second = 0;
    uint32_t plain;
};

void Fill(uint32_t *out, int32_t tokens, int32_t groups);
}  // namespace Tables
"""

ARRAY_PART = """\
    int32_t listIdx = static_cast<int32_t>(std::ceil(std::log2(tokens)));
    listIdx = (listIdx > COUNT - 1) ? COUNT - 1 : listIdx;
    out[0] = static_cast<uint32_t>(TILE_LIST[listIdx]);
"""

STRUCT_PART = """\
    Offsets running;          // no initialiser: first 3, second 0 (plain stays unset, and is not read)
    Offsets listed{7};        // a brace list: first 7, second its default 0, plain 0
    Offsets empty{};          // value-initialised: the defaults, plain 0
    for (int32_t g = 0; g < groups; ++g) {
        running.first += 10;
        running.second += 2;
    }
    out[1] = static_cast<uint32_t>(running.first);
    out[2] = static_cast<uint32_t>(running.second);
    out[3] = static_cast<uint32_t>(listed.first + listed.second) + listed.plain;
    out[4] = static_cast<uint32_t>(empty.first) + empty.plain;
    out[5] = 0;
"""


def _tables_cpp(body: str) -> str:
    return f"""\
#include <cmath>
#include "tables.h"
using namespace std;
namespace Tables {{
void Fill(uint32_t *out, int32_t tokens, int32_t groups)
{{
    for (int32_t k = 0; k < 6; ++k) {{
        out[k] = 0;
    }}
{body}}}
}}  // namespace Tables
"""


MAIN = """\
#include <cstdlib>
#include <vector>
#include <acl/acl.h>
#include "store_kernel.h"
#include "tables.h"

int main(int argc, const char **argv)
{
    int32_t tokens = std::atoi(argv[1]);
    int32_t groups = std::atoi(argv[2]);
    uint32_t length = 6;
    size_t bytes = length * sizeof(uint32_t);
    void *tilingHost = nullptr;
    aclrtMallocHost(&tilingHost, bytes);
    Tables::Fill((uint32_t *)tilingHost, tokens, groups);
    uint32_t last = *((uint32_t *)tilingHost + 5);  // (main reads the memory as uint32_t: an array of them)
    uint8_t *tilingDevice{nullptr};
    aclrtMalloc(reinterpret_cast<void **>(&tilingDevice), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(tilingDevice, bytes, tilingHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    uint8_t *deviceY{nullptr};
    aclrtMalloc(reinterpret_cast<void **>(&deviceY), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    Demo::Store<<<last > 0 ? 2 : 1, nullptr, nullptr>>>(deviceY, tilingDevice, length);
    std::vector<uint32_t> hostY(length);
    aclrtMemcpy(hostY.data(), bytes, deviceY, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    return 0;
}
"""


def _run(tmp_path: Path, args: str, body: str) -> tuple[dict, np.ndarray]:
    (tmp_path / "store_kernel.h").write_text(KERNEL)
    (tmp_path / "tables.h").write_text(TABLES_H)
    (tmp_path / "tables.cpp").write_text(_tables_cpp(body))
    (tmp_path / "main.cpp").write_text(MAIN)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [str(tmp_path / "main.cpp"), "--source", str(tmp_path / "tables.cpp"),
                                       "--args", args, "--output-dir", str(out), "--format", "json"])
    assert "{" in result.output, result.output
    report = json.loads(result.output[result.output.index("{"):])
    return report, np.load(out / "deviceY.npy")


def test_a_namespace_scope_constexpr_std_array_indexed_at_run_time(tmp_path) -> None:
    """tokens 4: ceil(log2(4)) = 2, TILE_LIST[2] = 32; tokens 100: index 7 clamped to 5, TILE_LIST[5] = 1 (the
    index known only when main runs, so the read is of the array in memory, not a folded constant)."""
    for tokens, tile in ((4, 32), (100, 1)):
        report, y = _run(tmp_path, f"{tokens} 2", ARRAY_PART)
        assert not [f for f in report["findings"] if f["severity"] == "error"], report["findings"]
        assert y[0] == tile, (tokens, y)


def test_default_member_initialisers_of_a_struct_the_tiling_fills(tmp_path) -> None:
    """groups 3: running.first 3 + 3 * 10 = 33, running.second 6; listed{7}: 7 + 0 + 0; empty{}: 3 + 0."""
    report, y = _run(tmp_path, "4 3", STRUCT_PART)
    assert not [f for f in report["findings"] if f["severity"] == "error"], report["findings"]
    np.testing.assert_array_equal(y, [0, 33, 6, 7, 3, 0])


def test_bytes_main_computes_and_the_run_cannot_follow_are_named(tmp_path) -> None:
    """A member read before anything set it (`running.plain`: no initialiser of its own, C++ leaves it
    indeterminate) makes element 4 of the host tiling unknown to the run's evaluation of main: the device buffer
    it is copied to is then drawn at random, which used to pass without a word (the kernel of 19_mla ran away on
    such a tiling); now an error names the buffer and the host memory."""
    report, _ = _run(tmp_path, "4 3", STRUCT_PART.replace("out[4] = static_cast<uint32_t>(empty.first) + empty.plain;",
                                                            "out[4] = static_cast<uint32_t>(running.plain);"))
    messages = [f["message"] for f in report["findings"] if f["severity"] == "error"]
    assert "main computes the bytes it copies into device buffer 'tilingDevice' from 'tilingHost', and the run " \
           "could not follow them: they are drawn at random; give them with --input tilingDevice=FILE.npy" \
           in messages, report["findings"]


def test_a_float_stored_as_its_bits_and_elements_main_never_writes(tmp_path) -> None:
    """19_mla's tiling stores its scale 1 / sqrt(576) as `*reinterpret_cast<uint32_t *>(&tor)` and leaves spare
    words of its head unwritten. The bits of the float (1 / sqrt(4 * 16) = 0.125) reach the device; elements 2-4,
    which main never writes, are copied as 0 with a note (C++ leaves that host memory as it was); before, either
    made the whole tiling unknown and the device buffer random."""
    body = """\
    float tor = static_cast<float>(1.0 / sqrt(1.0 * (tokens * 16)));
    uint32_t *torPtr = reinterpret_cast<uint32_t *>(&tor);
    out[0] = *torPtr;
    out[1] = 1;
    out[5] = 0;
"""
    report, y = _run(tmp_path, "4 3", body)
    (tmp_path / "tables.cpp").write_text(_tables_cpp(body).replace(
        "    for (int32_t k = 0; k < 6; ++k) {\n        out[k] = 0;\n    }\n", ""))
    result = CliRunner().invoke(main, [str(tmp_path / "main.cpp"), "--source", str(tmp_path / "tables.cpp"),
                                       "--args", "4 3", "--output-dir", str(tmp_path / "out2"), "--format", "json"])
    unwritten = json.loads(result.output[result.output.index("{"):])
    assert not [f for f in report["findings"] if f["severity"] == "error"], report["findings"]
    np.testing.assert_array_equal(y, [np.float32(0.125).view(np.uint32), 1, 0, 0, 0, 0])
    assert not [f for f in unwritten["findings"] if f["severity"] == "error"], unwritten["findings"]
    assert [f["message"] for f in unwritten["findings"] if f["severity"] == "note"] == [
        "main never writes elements 2-4 of the host memory it copies into device buffer 'tilingDevice': copied as 0 "
        "(on the device, whatever that memory held)"], unwritten["findings"]
    np.testing.assert_array_equal(np.load(tmp_path / "out2" / "deviceY.npy"), y)
