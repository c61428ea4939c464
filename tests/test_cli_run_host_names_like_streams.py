"""`ascendir run` on a host program whose code names a variable like a library stream (issue 29: catlass's
Conv2dParams constructor takes the output channels as a parameter `cout` and sets `postIm2colShape =
MakeCoord(batch, ho, wo, cout, cin1)` with it). The host lowering leaves out the statements that only print
(`std::cout << ...`, ACL_CHECK's `std::cerr`), found by the names they use; a local, parameter or member named
`cout` hides the library's (C++ [basic.lookup.unqual]/1), so a statement naming it is code like any other.
Before: both assignments were left out silently, the kernel read 0 for the channels and the shape, and catlass
33_basic_conv2d's kernel ran no loop (its output never written)."""

from __future__ import annotations

import numpy as np
from click.testing import CliRunner

from cli.run import main

HEADER = """\
#include "kernel_operator.h"
struct Shape {
    uint32_t rows{0};
    uint32_t channels{0};
    uint32_t total{0};
    Shape() {}
    Shape(uint32_t hi, uint32_t cout)
    {
        rows = hi + 2;
        channels = cout;
        total = rows * cout;
    }
};
struct Params {
    Shape shape;
    uint32_t endl;
    GM_ADDR y;
};
__global__ __aicore__ void Probe(Params params)
{
    AscendC::GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)params.y, 4);
    yg.SetValue(0, params.shape.rows);
    yg.SetValue(1, params.shape.channels);
    yg.SetValue(2, params.shape.total);
    yg.SetValue(3, params.endl);
}
"""

PROGRAM = """\
#include <cstdlib>
#include <iostream>
#include <vector>
#include <acl/acl.h>
#include "probe.h"
int main(int argc, const char **argv)
{
    aclrtStream stream{nullptr};
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtCreateStream(&stream);
    uint32_t hi = std::atoi(argv[1]);
    uint8_t *dY{nullptr};
    aclrtMalloc((void **)&dY, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    Params params{Shape(hi, 80), 0, dY};
    uint32_t endl = 7;
    params.endl = endl;
    std::cout << "channels " << params.shape.channels << std::endl;
    Probe<<<1, nullptr, stream>>>(params);
    aclrtSynchronizeStream(stream);
    std::vector<int32_t> hostY(4);
    aclrtMemcpy(hostY.data(), 16, dY, 16, ACL_MEMCPY_DEVICE_TO_HOST);
    aclFinalize();
    return 0;
}
"""


def test_a_parameter_named_cout_is_no_stream(tmp_path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "probe.h").write_text(HEADER)
    (tmp_path / "probe.cpp").write_text(PROGRAM)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [str(tmp_path / "probe.cpp"), "-I", str(tmp_path / "inc"), "--args", "33",
                                       "--output-dir", str(out)])
    assert result.exit_code == 0, result.output
    # the constructor's `channels = cout` and `total = rows * cout`, and main's `params.endl = endl` (a local
    # named like std::endl) are code; the `std::cout << ...` line still only prints (no gap reported for it)
    assert np.load(out / "dY.npy").view(np.int32).tolist() == [35, 80, 35 * 80, 7]
    assert "0 errors" in result.output
