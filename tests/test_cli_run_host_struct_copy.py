"""`ascendir run` on a host program that copies one object of its own class to the device (issue 29, the idiom of
catlass 102_dynamic_optimized_matmul): main fills `TilingParams tilingParams{m, n}` (its constructor computes the
rest), allocates `sizeof(TilingParams)` bytes and copies `&tilingParams` there with aclrtMemcpy; the kernel reads
the fields back from GM as words at the offsets of the struct's C layout. Before, the device buffer was drawn at
random like any input main does not compute (only arrays had their bytes evaluated), so the kernel ran on garbage
sizes. Now the bytes are the object's, laid out as C does (ascendir/lower/object_layout.py): here 24 bytes, m and
n at 0 and 4, the uint64_t stride at 8, the uint16_t k1 at 16 and the uint8_t tag at 18, padding to 24."""

from __future__ import annotations

import numpy as np
from click.testing import CliRunner

from cli.run import main

HEADER = """\
#include "kernel_operator.h"
struct TilingParams {
    uint32_t m{0};
    uint32_t n{0};
    uint64_t stride{0};
    uint16_t k1{0};
    uint8_t tag;
    TilingParams() {}
    TilingParams(uint32_t m_, uint32_t n_) : m(m_), n(n_) { stride = n_ + 1; k1 = 3; tag = 1; }
};
__global__ __aicore__ void ScaleShift(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    uint32_t m = *(reinterpret_cast<__gm__ uint32_t *>(tiling));
    uint32_t n = *(reinterpret_cast<__gm__ uint32_t *>(tiling + 4));
    uint64_t stride = *(reinterpret_cast<__gm__ uint64_t *>(tiling + 8));
    uint16_t k1 = *(reinterpret_cast<__gm__ uint16_t *>(tiling + 16));
    uint32_t len = m * n;
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, len);
    yg.SetGlobalBuffer((__gm__ float *)y, len);
    for (uint32_t i = 0; i < len; ++i) {
        yg.SetValue(i, xg.GetValue(i) * static_cast<float>(k1) + static_cast<float>(stride));
    }
}
"""

PROGRAM = """\
#include <cstdlib>
#include <vector>
#include <acl/acl.h>
#include "shift_kernel.h"
int main(int argc, const char **argv)
{
    uint32_t m = std::atoi(argv[1]);
    uint32_t n = std::atoi(argv[2]);
    aclrtStream stream{nullptr};
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtCreateStream(&stream);
    TilingParams tilingParams{m, n};
    size_t bytes = static_cast<size_t>(m) * n * sizeof(float);
    std::vector<float> hostX(m * n);
    uint8_t *dX, *dY, *dT;
    aclrtMalloc((void **)&dX, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&dY, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&dT, sizeof(TilingParams), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dX, bytes, hostX.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dT, sizeof(TilingParams), &tilingParams, sizeof(TilingParams), ACL_MEMCPY_HOST_TO_DEVICE);
    ScaleShift<<<1, nullptr, stream>>>(dX, dY, dT);
    aclrtSynchronizeStream(stream);
    std::vector<float> hostY(m * n);
    aclrtMemcpy(hostY.data(), bytes, dY, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    return 0;
}
"""


def test_the_device_copy_of_a_host_object_holds_its_c_layout(tmp_path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "shift_kernel.h").write_text(HEADER)
    (tmp_path / "shift.cpp").write_text(PROGRAM)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [str(tmp_path / "shift.cpp"), "-I", str(tmp_path / "inc"), "--args", "2 4",
                                       "--output-dir", str(out)])
    assert result.exit_code == 0, result.output
    tiling = np.load(out / "dT.npy")
    assert tiling.dtype == np.uint8 and tiling.size == 24  # sizeof(TilingParams)
    assert tiling[:4].view(np.uint32)[0] == 2 and tiling[4:8].view(np.uint32)[0] == 4
    assert tiling[8:16].view(np.uint64)[0] == 5 and tiling[16:18].view(np.uint16)[0] == 3 and tiling[18] == 1
    x = np.load(out / "dX.npy")
    assert np.array_equal(np.load(out / "dY.npy"), x * 3 + 5)
