"""`ascendir run` on a host program that copies a plain struct of its own to the device through a `void *` (issue
29, the idiom of catlass 23_flash_attention_infer): main allocates host memory for the tiling with aclrtMallocHost,
fills a struct (default member initialisers, then a function taking it by reference, a nested struct's fields too), points the `void *` at it
(`tilingHost = reinterpret_cast<void *>(&td)`) and copies `tilingHost` to the device; the kernel reads the struct
back through `__gm__ TD *`. Before, the assignment stopped every core (ASC958 'moving a Struct into a str'), the
device buffer was drawn at random, and the kernel's field reads were 'tiling field ... not set' (ASC958, 0). Now
the pointer designates the struct (ascendir/lower/struct_pointer.py), its bytes are the struct's in C layout
(host_program_vectors.mark_content) and the kernel's reads are loads from GM at the fields' offsets
(passes/sim/host_struct_reads.py)."""

from __future__ import annotations

import numpy as np
from click.testing import CliRunner

from cli.run import main

HEADER = """\
#include "kernel_operator.h"
struct Inner {
    uint16_t k1;
    uint8_t tag;
};
struct TD {
    uint32_t m = 0;
    uint32_t n = 0;
    uint64_t stride = 0;
    Inner inner;
    float scale = 0.0;
};
__global__ __aicore__ void ScaleShift(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    __gm__ TD *td = reinterpret_cast<__gm__ TD *>(tiling);
    uint32_t len = td->m * td->n;
    float scale = td->scale * static_cast<float>(td->inner.k1);
    uint64_t stride = td->stride;
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, len);
    yg.SetGlobalBuffer((__gm__ float *)y, len);
    for (uint32_t i = 0; i < len; ++i) {
        yg.SetValue(i, xg.GetValue(i) * scale + static_cast<float>(stride));
    }
}
"""

PROGRAM = """\
#include <cstdlib>
#include <vector>
#include <acl/acl.h>
#include "shift_kernel.h"
void Fill(uint32_t m, uint32_t n, TD &td)
{
    td.m = m;
    td.n = n;
    td.stride = n + 1;
    td.inner.k1 = 3;
    td.inner.tag = 7;
    td.scale = static_cast<float>(1.0 / 4);
}
int main(int argc, const char **argv)
{
    uint32_t m = std::atoi(argv[1]);
    uint32_t n = std::atoi(argv[2]);
    aclrtStream stream{nullptr};
    aclInit(nullptr);
    aclrtCreateStream(&stream);
    size_t bytes = static_cast<size_t>(m) * n * sizeof(float);
    uint32_t tilingSize = sizeof(TD);
    std::vector<float> hostX(m * n);
    uint8_t *dX, *dY, *dT;
    aclrtMalloc((void **)&dX, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&dY, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&dT, tilingSize, ACL_MEM_MALLOC_HUGE_FIRST);
    void *tilingHost = nullptr;
    aclrtMallocHost(&tilingHost, tilingSize);
    TD td;
    Fill(m, n, td);
    tilingHost = reinterpret_cast<void *>(&td);
    aclrtMemcpy(dX, bytes, hostX.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dT, tilingSize, tilingHost, tilingSize, ACL_MEMCPY_HOST_TO_DEVICE);
    ScaleShift<<<1, nullptr, stream>>>(dX, dY, dT);
    aclrtSynchronizeStream(stream);
    std::vector<float> hostY(m * n);
    aclrtMemcpy(hostY.data(), bytes, dY, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtFreeHost(tilingHost);
    return 0;
}
"""


def _run(tmp_path, program: str):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "shift_kernel.h").write_text(HEADER)
    (tmp_path / "shift.cpp").write_text(program)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [str(tmp_path / "shift.cpp"), "-I", str(tmp_path / "inc"), "--args", "2 4",
                                       "--output-dir", str(out)])
    return result, out


def test_a_struct_copied_through_a_void_pointer_reaches_the_kernel(tmp_path) -> None:
    result, out = _run(tmp_path, PROGRAM)
    assert result.exit_code == 0, result.output
    assert "ASC958" not in result.output
    tiling = np.load(out / "dT.npy")
    assert tiling.dtype == np.uint8 and tiling.size == 24  # sizeof(TD): 4 + 4 + 8 + (2 + 1, padded to 4) + 4
    assert tiling[:4].view(np.uint32)[0] == 2 and tiling[4:8].view(np.uint32)[0] == 4
    assert tiling[8:16].view(np.uint64)[0] == 5
    assert tiling[16:18].view(np.uint16)[0] == 3 and tiling[18] == 7  # the nested struct's fields, in place
    assert tiling[20:24].view(np.float32)[0] == 0.25
    x = np.load(out / "dX.npy")
    assert np.array_equal(np.load(out / "dY.npy"), x * np.float32(0.75) + 5)


def test_the_struct_copied_by_its_own_address(tmp_path) -> None:
    """`aclrtMemcpy(dT, size, &td, size, ...)` of the plain struct itself: the same bytes."""
    result, out = _run(tmp_path, PROGRAM.replace("tilingHost, tilingSize, ACL_MEMCPY", "&td, tilingSize, ACL_MEMCPY"))
    assert result.exit_code == 0, result.output
    x = np.load(out / "dX.npy")
    assert np.array_equal(np.load(out / "dY.npy"), x * np.float32(0.75) + 5)
