"""A host program's calls of the C++ library's number functions (ascendir/lower/host_program_math.py): catlass
19_mla's tiling picks a tile with `std::ceil(std::log2(tokenNum))` and splits its work with `std::lcm(batch,
blockDim)`. main is lowered as device code, which has no libm: before (issue 29) each was an undeclared identifier
(ASC102) and the sizes computed from them did not fold."""

from __future__ import annotations

import json

import numpy as np
from click.testing import CliRunner

from cli.run import main

HEADER = """\
#include "kernel_operator.h"

namespace Demo {
__global__ __aicore__ void Double(GM_ADDR x, GM_ADDR y, uint32_t length)
{
    uint32_t per = length / AscendC::GetBlockNum();
    uint32_t start = per * AscendC::GetBlockIdx();
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x + start, per);
    yg.SetGlobalBuffer((__gm__ float *)y + start, per);
    for (uint32_t i = 0; i < per; ++i) {
        yg.SetValue(i, xg.GetValue(i) * 2.0f);
    }
}
}  // namespace Demo
"""

MAIN = """\
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <vector>
#include <acl/acl.h>
#include "double_kernel.h"

int main(int argc, const char **argv)
{
    uint32_t argIndex = 1;
    uint32_t rows = std::atoi(argv[argIndex++]);
    uint32_t cols = std::atoi(argv[argIndex++]);
    uint32_t tiles = static_cast<uint32_t>(std::ceil(std::log2(rows)));
    uint32_t length = std::lcm(rows, cols) * tiles + static_cast<uint32_t>(std::pow(2, 3)) - 8;
    bool wide = (cols >= rows * 1.5f);  // a float comparison deciding a size, as 19_mla's isKVSplit
    length = wide ? length : length * 2;
    size_t bytes = length * sizeof(float);
    std::vector<float> hostX(length);
    uint8_t *deviceX{nullptr};
    aclrtMalloc(reinterpret_cast<void **>(&deviceX), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(deviceX, bytes, hostX.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    uint8_t *deviceY{nullptr};
    aclrtMalloc(reinterpret_cast<void **>(&deviceY), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    Demo::Double<<<2, nullptr, nullptr>>>(deviceX, deviceY, length);
    std::vector<float> hostY(length);
    aclrtMemcpy(hostY.data(), bytes, deviceY, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    return 0;
}
"""


def test_lcm_ceil_log2_and_pow_size_the_buffers(tmp_path) -> None:
    """rows 4, cols 6: lcm 12, ceil(log2(4)) = 2, pow(2, 3) - 8 = 0, 6 >= 4 * 1.5: 24 floats (the argv index
    known only when main runs, so none of them folds while lowering: the run's evaluation of main computes them)."""
    (tmp_path / "double_kernel.h").write_text(HEADER)
    (tmp_path / "main.cpp").write_text(MAIN)
    x = np.linspace(-1, 1, 24, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [str(tmp_path / "main.cpp"), "--args", "4 6", "--input",
                                       f"deviceX={tmp_path / 'x.npy'}", "--output-dir", str(out), "--format",
                                       "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output[result.output.index("{"):])
    assert not [f for f in report["findings"] if f["severity"] == "error"], report["findings"]
    np.testing.assert_array_equal(np.load(out / "deviceY.npy"), x * 2)
