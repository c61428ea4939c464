"""`ascendir run` on host programs that parse argv with a running index and keep strings (team-written programs in
the shape of catlass's 19_mla and 23_flash_attention_infer; ascendir/lower/host_program_args.py).

`rows = atoi(argv[argIndex++])` reads the argument the index holds when main runs, and a std::string (`string`
under `using namespace std` too) is the number of its text: `==` / `!=` with literals choose what main does. Before
(issue 29): `string` unqualified was an unknown type (ASC105), the strings were host data (main's `dtype == ...`
undeclared), and each `argv[argIndex++]` statement was left out with no finding (rows 0)."""

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
#include <iostream>
#include <acl/acl.h>
#include "scale_kernel.h"

using namespace std;

struct Options {
    uint32_t rows{0};
    uint32_t cols{0};
    string mode = "triple";

    int Parse(int argc, const char **argv)
    {
        uint32_t argIndex = 1;
        rows = atoi(argv[argIndex++]);
        cols = atoi(argv[argIndex++]);
        while (argIndex < argc) {
            string flag = string(argv[argIndex++]);
            if (flag == "--mode") {
                mode = string(argv[argIndex++]);
            } else {
                return -1;
            }
        }
        return 0;
    }
};

int main(int argc, const char **argv)
{
    Options options;
    if (options.Parse(argc, argv) != 0) {
        return -1;
    }
    string mode = options.mode;
    if ((mode != "triple") && (mode != "quintuple")) {
        cerr << "mode must be triple or quintuple" << endl;
        return -1;
    }
    float factor = (mode == "triple") ? 3.0f : 5.0f;
    uint32_t length = options.rows * options.cols * ((mode == "triple") ? 1 : 2);
    size_t bytes = length * sizeof(float);
    vector<float> hostX(length);
    uint8_t *deviceX{nullptr};
    aclrtMalloc(reinterpret_cast<void **>(&deviceX), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(deviceX, bytes, hostX.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    uint8_t *deviceY{nullptr};
    aclrtMalloc(reinterpret_cast<void **>(&deviceY), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    Demo::Params params{deviceX, deviceY, length, factor};
    Demo::Scale<<<4, nullptr, nullptr>>>(params);
    vector<float> hostY(length);
    aclrtMemcpy(hostY.data(), bytes, deviceY, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    return 0;
}
"""


def _run(tmp_path, args: str, *extra: str):
    (tmp_path / "inc").mkdir(exist_ok=True)
    (tmp_path / "inc" / "scale_kernel.h").write_text(HEADER)
    source = tmp_path / "scale.cpp"
    source.write_text(PROGRAM)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [str(source), "-I", str(tmp_path / "inc"), "--args", args, "--output-dir",
                                       str(out), "--format", "json", *extra])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output[result.output.index("{"):])
    return [f for f in report["findings"] if f["severity"] == "error"], out


def test_a_running_argument_index_and_a_string_default(tmp_path) -> None:
    """16 x 64 read with argv[argIndex++]; mode keeps its default "triple": y = 3x over 1024 elements."""
    x = np.linspace(-4, 4, 1024, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    errors, out = _run(tmp_path, "16 64", "--input", f"deviceX={tmp_path / 'x.npy'}")
    assert not errors, errors
    np.testing.assert_array_equal(np.load(out / "deviceY.npy"), x * 3)


def test_a_string_flag_parsed_in_the_loop_chooses(tmp_path) -> None:
    """`--mode quintuple` after the positional arguments: the flag loop runs when main does, the string it reads
    compares equal to the literal, the factor is 5 and the length doubles (a size main's evaluation reads after
    the loop: passes/sim/host_values.py follows scf.while)."""
    x = np.linspace(-1, 1, 2 * 8 * 32, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    errors, out = _run(tmp_path, "8 32 --mode quintuple", "--input", f"deviceX={tmp_path / 'x.npy'}")
    assert not errors, errors
    np.testing.assert_array_equal(np.load(out / "deviceY.npy"), x * 5)
