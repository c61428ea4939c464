"""`ascendir run` on a host program that reads its sizes and data from files (a team-written program in the shape of
catlass's 19_mla and 23_flash_attention_infer; ascendir/lower/host_program_buffers.py).

main reads a shape from a file into aclrtMallocHost memory and sizes every buffer with it, allocates the data's
host and device memory through a helper taking `uint8_t **` (AllocMem), reads the data from a file and copies it
to the device, and computes its tiling into aclrtMallocHost memory it reads back as uint32_t, from a
struct pointing at the shape. The run reads no
files: a function opening one (a std::ifstream) is left out, and the host buffers
it fills are given by name (`--input shape=s.npy`), or, copied to the device, by the device buffer's name. Before
(issue 29): ReadFile's statements were errors ('fd', 'size' undeclared, ASC102) and AllocMem's buffer was named
'device', its size not folding (ASC958); the tiling's host memory was no array (the launch's length unknown), and the struct, a plain one, was held
as tiling data, its pointer member not settable to the shape."""

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
    float factor;
};

__global__ __aicore__ void Scale(Params p)
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
}  // namespace Demo
"""

PROGRAM = """\
#include <cstdlib>
#include <string>
#include <fstream>
#include <vector>
#include <acl/acl.h>
#include "scale_kernel.h"

#define CHECK(status) do { int error = status; if (error != 0) { return -1; } } while (0)

inline bool ReadFile(const std::string &filePath, void *buffer, size_t bufferSize)
{
    std::ifstream fd(filePath, std::ios::binary);
    if (!fd) {
        return false;
    }
    std::filebuf *buf = fd.rdbuf();
    size_t size = buf->pubseekoff(0, std::ios::end, std::ios::in);
    if (size > bufferSize) {
        return false;
    }
    buf->pubseekpos(0, std::ios::in);
    buf->sgetn(static_cast<char *>(buffer), size);
    return true;
}

struct ShapeInfo {
    int32_t dims = 2;
    int32_t *sizes{nullptr};
};

static void MakeTiling(const ShapeInfo &info, uint32_t *tiling)
{
    tiling[0] = 1;
    for (int32_t i = 0; i < info.dims; i++) {
        tiling[0] *= *(info.sizes + i);
    }
    tiling[1] = *(info.sizes + 1) / 16 - 1;
}

static void AllocHost(uint8_t **host, size_t size)
{
    aclrtMallocHost(reinterpret_cast<void **>(host), size);
}

static void AllocMem(uint8_t **host, uint8_t **device, size_t size)
{
    aclrtMallocHost(reinterpret_cast<void **>(host), size);
    aclrtMalloc(reinterpret_cast<void **>(device), size, ACL_MEM_MALLOC_HUGE_FIRST);
}

int main(int argc, const char **argv)
{
    std::string dataPath = "data";
    uint8_t *shape = nullptr;
    AllocHost(&shape, 2 * sizeof(int32_t));
    ReadFile(dataPath + "/shape.bin", shape, 2 * sizeof(int32_t));
    int32_t rows = reinterpret_cast<int32_t *>(shape)[0];
    int32_t cols = reinterpret_cast<int32_t *>(shape)[1];
    size_t bytes = rows * cols * sizeof(float);
    void *tilingHost = nullptr;
    CHECK(aclrtMallocHost(&tilingHost, (rows > 0 ? 2 : 1) * sizeof(uint32_t)));
    ShapeInfo info;
    info.sizes = reinterpret_cast<int32_t *>(shape);
    MakeTiling(info, (uint32_t *)tilingHost);
    uint32_t length = *((uint32_t *)tilingHost + 0);
    float factor = static_cast<float>(*((uint32_t *)tilingHost + 1));
    uint8_t *xHost;
    uint8_t *deviceX;
    AllocMem(&xHost, &deviceX, bytes);
    ReadFile(dataPath + "/x.bin", xHost, bytes);
    aclrtMemcpy(deviceX, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    uint8_t *deviceY{nullptr};
    aclrtMalloc(reinterpret_cast<void **>(&deviceY), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    Demo::Params params{deviceX, deviceY, length, factor};
    Demo::Scale<<<4, nullptr, nullptr>>>(params);
    std::vector<float> hostY(rows * cols);
    aclrtMemcpy(hostY.data(), bytes, deviceY, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtFreeHost(shape);
    return 0;
}
"""


def _run(tmp_path, *extra: str):
    (tmp_path / "inc").mkdir(exist_ok=True)
    (tmp_path / "inc" / "scale_kernel.h").write_text(HEADER)
    source = tmp_path / "scale.cpp"
    source.write_text(PROGRAM)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [str(source), "-I", str(tmp_path / "inc"), "--output-dir", str(out),
                                       "--format", "json", *extra])
    report = json.loads(result.output[result.output.index("{"):])
    return report["findings"], out


def test_buffers_read_from_files_are_given_by_name(tmp_path) -> None:
    """The shape (16 x 64, int32) given as the host buffer main reads, the data as the device buffer it is copied
    to: 1024 floats scaled by the tiling's 64 / 16 - 1 = 3, no finding."""
    x = np.linspace(-4, 4, 1024, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "shape.npy", np.array([16, 64], dtype=np.int32))
    findings, out = _run(tmp_path, "--input", f"shape={tmp_path / 'shape.npy'}", "--input",
                         f"deviceX={tmp_path / 'x.npy'}")
    assert not findings, findings
    np.testing.assert_array_equal(np.load(out / "deviceY.npy"), x * 3)


def test_a_buffer_read_from_a_file_and_not_given_is_named(tmp_path) -> None:
    """Without the shape the sizes cannot fold: the error names the host buffer and how to give it; the data's
    device buffer, not given either, is drawn (a note names it)."""
    findings, _ = _run(tmp_path)
    messages = [(f["severity"], f["message"]) for f in findings]
    assert ("error", "main reads host buffer 'shape' from a file (ReadFile), which the run does not: give its "
            "values with --input shape=FILE.npy") in messages, messages
    assert any(s == "note" and "'deviceX'" in m and "'xHost'" in m for s, m in messages), messages
