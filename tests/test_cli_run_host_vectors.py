"""`ascendir run` on host programs whose launch is made of values main keeps in std::vectors (team-written programs
in the shape of catlass's convolution and grouped examples; ascendir/lower/host_program_vectors.py).

A vector of numbers whose elements the code lists (an options struct's defaults, overwritten from argv) is lowered
as the array of those elements: indexing, `data()` passed where a pointer is taken, `size()`. Before, every
std::vector of main was host data: the statements using it were left out and the buffer sizes computed from it
were undeclared or did not fold (catlass 24_conv_bias: `options.fmapRelated.data()`)."""

from __future__ import annotations

import json

import numpy as np
from click.testing import CliRunner

from cli.run import main

HEADER = """\
#include "kernel_operator.h"

namespace Demo {
struct ScaleOp {
    struct Params {
        GM_ADDR x;
        GM_ADDR y;
        uint32_t length;
        float factor;
    };
    __aicore__ inline void operator()(const Params &p)
    {
        uint32_t per = p.length / AscendC::GetBlockNum();
        uint32_t start = per * AscendC::GetBlockIdx();
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, per * sizeof(float));
        AscendC::GlobalTensor<float> xg, yg;
        xg.SetGlobalBuffer((__gm__ float *)p.x + start, per);
        yg.SetGlobalBuffer((__gm__ float *)p.y + start, per);
        AscendC::LocalTensor<float> t = buf.Get<float>();
        AscendC::DataCopy(t, xg, per);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Muls(t, t, p.factor, per);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(yg, t, per);
    }
};

__global__ __aicore__ void Launch(ScaleOp::Params params)
{
    ScaleOp op;
    op(params);
}
}  // namespace Demo
"""

PROGRAM = """\
#include <cstdlib>
#include <string>
#include <vector>
#include <iostream>
#include <acl/acl.h>
#include "scale_kernel.h"

struct Options {
    const std::string HELPER = "scale rows cols";
    std::vector<uint32_t> dims = {8, 32};  // {rows, cols}
    uint32_t blocks = 4;

    int Parse(int argc, const char **argv)
    {
        if (argc < 3) {
            std::cerr << HELPER << std::endl;
            return 0;
        }
        dims[0] = std::atoi(argv[1]);
        dims[1] = std::atoi(argv[2]);
        return 0;
    }
};

static uint32_t Product(const uint32_t *values, size_t count)
{
    uint32_t p = 1;
    for (size_t i = 0; i < count; ++i) {
        p *= values[i];
    }
    return p;
}

int main(int argc, const char **argv)
{
    Options options;
    options.Parse(argc, argv);
    std::vector<float> factor{3.0f, 5.0f};
    uint32_t length = Product(options.dims.data(), options.dims.size());
    size_t bytes = length * sizeof(float);
    std::vector<float> hostX(length);
    uint8_t *deviceX{nullptr};
    aclrtMalloc(reinterpret_cast<void **>(&deviceX), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(deviceX, bytes, hostX.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    uint8_t *deviceY{nullptr};
    aclrtMalloc(reinterpret_cast<void **>(&deviceY), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    Demo::ScaleOp::Params params{deviceX, deviceY, length, factor[factor.size() - 2]};
    Demo::Launch<<<options.blocks, nullptr, nullptr>>>(params);
    std::vector<float> hostY(length);
    aclrtMemcpy(hostY.data(), bytes, deviceY, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    return 0;
}
"""


def _run(tmp_path, *extra: str, program: str = PROGRAM):
    (tmp_path / "inc").mkdir(exist_ok=True)
    (tmp_path / "inc" / "scale_kernel.h").write_text(HEADER)
    source = tmp_path / "scale.cpp"
    source.write_text(program)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [str(source), "-I", str(tmp_path / "inc"), "--output-dir", str(out),
                                       "--format", "json", *extra])
    return result, out


def test_a_listed_vector_of_an_options_struct_sizes_the_buffers(tmp_path) -> None:
    """dims = {8, 32} overwritten from argv (16 x 64), read through data() and size() by a helper taking a
    pointer: the buffers hold 1024 floats and the kernel scales each by factor[0] (a listed local vector)."""
    x = np.linspace(-4, 4, 1024, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    result, out = _run(tmp_path, "--args", "16 64", "--input", f"deviceX={tmp_path / 'x.npy'}")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output[result.output.index("{"):])
    assert not [f for f in report["findings"] if f["severity"] == "error"], report["findings"]
    assert np.array_equal(np.load(out / "deviceY.npy"), x * 3)


def test_the_listed_defaults_hold_without_arguments(tmp_path) -> None:
    result, out = _run(tmp_path)
    assert result.exit_code == 0, result.output
    assert np.load(out / "deviceY.npy").shape == (256,)  # 8 x 32


def test_growing_a_listed_vector_is_a_gap_not_a_wrong_size(tmp_path) -> None:
    """Its length is fixed here: push_back is a gap at the call, not a silent size of 2."""
    program = PROGRAM.replace("dims[1] = std::atoi(argv[2]);", "dims[1] = std::atoi(argv[2]);\n"
                              "        dims.push_back(2);")
    result, _ = _run(tmp_path, "--args", "16 64", program=program)
    assert "push_back" in result.output and "fixed" in result.output, result.output


GROUPED_HEADER = """\
#include "kernel_operator.h"

namespace Demo {
struct Group {
    __aicore__ Group() {}
    __aicore__ Group(uint32_t rows_, uint32_t offset_) : rows(rows_), offset(offset_) {}
    uint32_t rows;
    uint32_t offset;
};

template <class T>
__aicore__ inline void Unpack(T *const dst, GM_ADDR src, uint32_t len)
{
    for (uint32_t i = 0; i * sizeof(uint64_t) < len * sizeof(T); ++i) {
        reinterpret_cast<uint64_t *>(dst)[i] = reinterpret_cast<__gm__ uint64_t *>(src)[i];
    }
}

struct Params {
    uint32_t count;
    GM_ADDR groups;
    GM_ADDR x;
    GM_ADDR y;
};

__global__ __aicore__ void Launch(Params p)
{
    Group list[16];
    Unpack(list, p.groups, p.count);
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)p.x);
    yg.SetGlobalBuffer((__gm__ float *)p.y);
    for (uint32_t g = 0; g < p.count; ++g) {
        for (uint32_t r = 0; r < list[g].rows; ++r) {
            uint32_t at = list[g].offset + r;
            yg.SetValue(at, xg.GetValue(at) * static_cast<float>(g + 1));
        }
    }
}
}  // namespace Demo
"""

GROUPED = """\
#include <cstdlib>
#include <ctime>
#include <vector>
#include <acl/acl.h>
#include "grouped_kernel.h"

template <class T>
std::vector<T> MakeEnds(uint32_t total, uint32_t count)
{
    std::vector<T> ends(count);
    std::srand(std::time(nullptr));
    for (uint32_t i = 0; i < count; ++i) {
        ends[i] = rand() % (total + 1);
    }
    return ends;
}

int main(int argc, const char **argv)
{
    uint32_t count = 2;
    uint32_t total = 64;
    if (argc > 1) {
        count = std::atoi(argv[1]);
    }
    auto ends = MakeEnds<int64_t>(total, count);
    std::vector<Demo::Group> groups(count);
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t start = (i == 0) ? 0 : ends[i - 1];
        groups[i] = Demo::Group{static_cast<uint32_t>(ends[i] - start), start};
    }
    size_t groupBytes = groups.size() * sizeof(Demo::Group);
    uint8_t *deviceGroups{nullptr};
    aclrtMalloc(reinterpret_cast<void **>(&deviceGroups), groupBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(deviceGroups, groupBytes, groups.data(), groupBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    size_t bytes = total * sizeof(float);
    std::vector<float> hostX(total);
    uint8_t *deviceX{nullptr};
    aclrtMalloc(reinterpret_cast<void **>(&deviceX), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(deviceX, bytes, hostX.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    uint8_t *deviceY{nullptr};
    aclrtMalloc(reinterpret_cast<void **>(&deviceY), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    Demo::Params params{count, deviceGroups, deviceX, deviceY};
    Demo::Launch<<<1, nullptr, nullptr>>>(params);
    std::vector<float> hostY(total);
    aclrtMemcpy(hostY.data(), bytes, deviceY, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    return 0;
}
"""


def test_a_vector_of_objects_main_fills_is_the_bytes_of_the_buffer_it_copies_to(tmp_path) -> None:
    """catlass's grouped examples (08, 16): `std::vector<GemmCoord> problemShapeList(problemCount)` filled in a
    loop from the group list, its size() * sizeof(GemmCoord) bytes copied to a device buffer the kernel unpacks.
    The count comes from argv (main is lowered again once it is known), the group list (drawn with rand() in a
    loop: the lowering cannot follow it) is given by name, and the buffer holds what main computed, not random
    bytes. Before: the vector was host data, `groupBytes` undeclared (ASC102) and the run had no group sizes."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "grouped_kernel.h").write_text(GROUPED_HEADER)
    source = tmp_path / "grouped.cpp"
    source.write_text(GROUPED)
    x = np.linspace(-2, 2, 64, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "ends.npy", np.array([10, 40, 64], dtype=np.int64))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [str(source), "-I", str(tmp_path / "inc"), "--args", "3", "--output-dir",
                                       str(out), "--format", "json", "--input", f"deviceX={tmp_path / 'x.npy'}",
                                       "--input", f"ends={tmp_path / 'ends.npy'}"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output[result.output.index("{"):])
    assert not [f for f in report["findings"] if f["severity"] == "error"], report["findings"]
    groups = np.load(out / "deviceGroups.npy")
    assert groups.view(np.uint32).tolist() == [10, 0, 30, 10, 24, 40]  # {rows, offset} per group
    want = np.concatenate([x[:10], x[10:40] * 2, x[40:] * 3])
    np.testing.assert_array_equal(np.load(out / "deviceY.npy"), want)


def test_a_size_read_past_an_array_says_where(tmp_path) -> None:
    """catlass's 33_basic_conv2d passes `strides[2]`, `strides[3]` of a `uint8_t strides[2]` as the dilations (on
    the host the next member's bytes; C++ leaves them undefined): the output's size does not fold, and the run
    now says which read made it unknown instead of only that it does not fold."""
    program = PROGRAM.replace("Product(options.dims.data(), options.dims.size())", "Product(options.dims.data(), 3)")
    result, _ = _run(tmp_path, "--args", "16 64", program=program)
    assert "does not fold" in result.output, result.output
    assert "reads past the end of an array" in result.output and "element 2 of 2" in result.output, result.output


def test_a_member_vector_main_parses_can_be_given(tmp_path) -> None:
    """catlass's 16_group_gemm parses its per-group m, n, k lists from argv with strdup / strtok into member
    vectors (push_back): code the lowering cannot follow. Given by name, the member is the array of those values
    and the code building it (push_back) is left out; before, it was host data and no size folded."""
    program = PROGRAM.replace("std::vector<uint32_t> dims = {8, 32};", "std::vector<uint32_t> dims;").replace(
        "dims[0] = std::atoi(argv[1]);\n        dims[1] = std::atoi(argv[2]);",
        "dims.push_back(std::atoi(argv[1]));\n        dims.push_back(std::atoi(argv[2]));")
    np.save(tmp_path / "dims.npy", np.array([16, 64], dtype=np.uint32))
    result, out = _run(tmp_path, "--args", "16 64", "--input", f"dims={tmp_path / 'dims.npy'}", program=program)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output[result.output.index("{"):])
    assert not [f for f in report["findings"] if f["severity"] == "error"], report["findings"]
    assert np.load(out / "deviceY.npy").shape == (1024,)


def test_a_host_array_of_an_aliased_element_type_has_its_dtype(tmp_path) -> None:
    """`using ScalarType = float; std::vector<ScalarType> hostAlpha(n);` (16_group_gemm): the buffer main copies
    it into holds floats. Before, the alias was not resolved: the buffer was bytes, drawn as random uint8 (alpha
    and beta of about 1e-30 when read as the kernel's floats)."""
    program = PROGRAM.replace("struct Options {", "using Real = float;\n\nstruct Options {").replace(
        "std::vector<float> hostX(length);", "std::vector<Real> hostX(length);")
    result, out = _run(tmp_path, "--args", "16 64", program=program)
    assert result.exit_code == 0, result.output
    assert np.load(out / "deviceX.npy").dtype == np.float32
