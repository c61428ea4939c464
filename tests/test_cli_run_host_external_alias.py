"""`ascendir run` on a host program whose header names CANN's host half type through an alias of the same name,
`using fp16_t = op::fp16_t;` (catlass 102_dynamic_optimized_matmul's do_tiling_b16.h, with op::fp16_t from
opdev/fp16_t.h, a CANN header the run does not read). Before (issue 29), `fp16_t` resolved to the alias, whose
target `op::fp16_t` (namespace op unknown) resolved to the alias again, until Python's recursion limit: 'expressions
or templates nested too deeply to follow' at main, and nothing ran. Now the alias stands for the host type of that
name (host_program.HOST_TYPE_ALIASES: half)."""

from __future__ import annotations

import numpy as np
from click.testing import CliRunner

from cli.run import main

HEADER = """\
#include "kernel_operator.h"
using fp16_t = op::fp16_t;
__global__ __aicore__ void Twice(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    AscendC::GlobalTensor<half> xg, yg;
    xg.SetGlobalBuffer((__gm__ half *)x, n);
    yg.SetGlobalBuffer((__gm__ half *)y, n);
    for (uint32_t i = 0; i < n; ++i) {
        yg.SetValue(i, static_cast<half>(static_cast<float>(xg.GetValue(i)) * 2.0f));
    }
}
template <class T>
size_t Bytes(uint32_t n) { return n * sizeof(T); }
"""

PROGRAM = """\
#include <cstdlib>
#include <vector>
#include <acl/acl.h>
#include "twice.h"
int main(int argc, const char **argv)
{
    uint32_t n = std::atoi(argv[1]);
    size_t bytes = Bytes<fp16_t>(n);
    std::vector<fp16_t> hostX(n);
    uint8_t *dX, *dY;
    aclrtMalloc((void **)&dX, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&dY, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dX, bytes, hostX.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    Twice<<<1, nullptr, nullptr>>>(dX, dY, n);
    std::vector<fp16_t> hostY(n);
    aclrtMemcpy(hostY.data(), bytes, dY, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    return 0;
}
"""


def test_an_alias_of_an_unread_header_type_is_the_host_type(tmp_path) -> None:
    (tmp_path / "twice.h").write_text(HEADER)
    (tmp_path / "main.cpp").write_text(PROGRAM)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [str(tmp_path / "main.cpp"), "--args", "8", "--output-dir", str(out)])
    assert result.exit_code == 0, result.output
    assert "0 errors" in result.output
    x, y = np.load(out / "dX.npy"), np.load(out / "dY.npy")
    assert x.dtype == y.dtype == np.float16 and y.shape == (8,)  # Bytes<fp16_t>: 2 bytes an element
    assert np.array_equal(y, x * 2)
