"""`ascendir run MAIN.cpp --source OTHER.cpp`: a host program built from several sources (team-written, in the shape
of catlass's 19_mla, whose CMakeLists compiles mla.cpp with mla_tiling.cpp: main calls the tiling function that
mla_tiling.cpp defines and mla_tiling.h declares). Without the other source the call stays opaque and the sizes it
computes do not fold (issue 29); with it, main's call is followed."""

from __future__ import annotations

import json

import numpy as np
from click.testing import CliRunner

from cli.run import main

HEADER = """\
#include "kernel_operator.h"

namespace Demo {
struct Params {
    GM_ADDR x;
    GM_ADDR y;
    uint32_t length;
};

__global__ __aicore__ void Double(Params p)
{
    uint32_t per = p.length / AscendC::GetBlockNum();
    uint32_t start = per * AscendC::GetBlockIdx();
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)p.x + start, per);
    yg.SetGlobalBuffer((__gm__ float *)p.y + start, per);
    for (uint32_t i = 0; i < per; ++i) {
        yg.SetValue(i, xg.GetValue(i) * 2.0f);
    }
}
}  // namespace Demo
"""

TILING_H = """\
#include <cstdint>
namespace Tiling {
uint32_t Length(uint32_t rows, uint32_t cols);
}
"""

TILING_CPP = """\
#include "tiling.h"
namespace Tiling {
uint32_t Length(uint32_t rows, uint32_t cols)
{
    return rows * cols;
}
}
"""

MAIN = """\
#include <cstdlib>
#include <vector>
#include <acl/acl.h>
#include "double_kernel.h"
#include "tiling.h"

int main(int argc, const char **argv)
{
    uint32_t length = Tiling::Length(std::atoi(argv[1]), std::atoi(argv[2]));
    size_t bytes = length * sizeof(float);
    std::vector<float> hostX(length);
    uint8_t *deviceX{nullptr};
    aclrtMalloc(reinterpret_cast<void **>(&deviceX), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(deviceX, bytes, hostX.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    uint8_t *deviceY{nullptr};
    aclrtMalloc(reinterpret_cast<void **>(&deviceY), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    Demo::Params params{deviceX, deviceY, length};
    Demo::Double<<<2, nullptr, nullptr>>>(params);
    std::vector<float> hostY(length);
    aclrtMemcpy(hostY.data(), bytes, deviceY, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    return 0;
}
"""


def _run(tmp_path, *extra: str):
    (tmp_path / "double_kernel.h").write_text(HEADER)
    (tmp_path / "tiling.h").write_text(TILING_H)
    (tmp_path / "tiling.cpp").write_text(TILING_CPP)
    (tmp_path / "main.cpp").write_text(MAIN)
    x = np.linspace(-1, 1, 4 * 8, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [str(tmp_path / "main.cpp"), "--args", "4 8", "--input",
                                       f"deviceX={tmp_path / 'x.npy'}", "--output-dir", str(out), "--format",
                                       "json", *extra])
    return result, x, out


def test_the_other_source_defines_what_main_calls(tmp_path) -> None:
    result, x, out = _run(tmp_path, "--source", str(tmp_path / "tiling.cpp"))
    assert result.exit_code == 0, result.output
    report = json.loads(result.output[result.output.index("{"):])
    assert not [f for f in report["findings"] if f["severity"] == "error"], report["findings"]
    np.testing.assert_array_equal(np.load(out / "deviceY.npy"), x * 2)


def test_without_it_the_sizes_do_not_fold(tmp_path) -> None:
    result, _, _ = _run(tmp_path)
    assert "does not fold" in result.output, result.output
