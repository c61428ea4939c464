"""`ascendir run` on a host program: a lone source whose main allocates device memory with ACL, fills a
parameter struct through a host-side runner class and launches `Launch<Op><<<blocks, nullptr, stream>>>(params)`,
a kernel template defined in the header it includes (the shape of catlass's examples; this one is ours). main is
lowered as the entry (ascendir/lower/host_program.py) and its device buffers are the run's tensors
(passes/sim/host_run.py). Before: the source was a host file with no kernel, and `run` said there was nothing to
run; `--args` and `-I` did not exist."""

from __future__ import annotations

import json

import numpy as np
from click.testing import CliRunner

from cli.run import main

HEADER = """\
#include "kernel_operator.h"

namespace Demo {
template <class T>
struct ScaleOp {
    struct Params {
        GM_ADDR x;
        GM_ADDR y;
        uint32_t length;
        T factor;
    };
    struct Arguments {
        uint32_t length;
        GM_ADDR x;
        GM_ADDR y;
    };
    static Params ToParams(const Arguments &args)
    {
        Params p{args.x, args.y, args.length, static_cast<T>(3)};
        return p;
    }
    __aicore__ inline void operator()(const Params &p)
    {
        uint32_t per = p.length / AscendC::GetBlockNum();
        uint32_t start = per * AscendC::GetBlockIdx();
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, per * sizeof(T));
        AscendC::GlobalTensor<T> xg, yg;
        xg.SetGlobalBuffer((__gm__ T *)p.x + start, per);
        yg.SetGlobalBuffer((__gm__ T *)p.y + start, per);
        AscendC::LocalTensor<T> t = buf.Get<T>();
        AscendC::DataCopy(t, xg, per);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Muls(t, t, p.factor, per);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(yg, t, per);
    }
};

template <class Op>
__global__ __aicore__ void Launch(typename Op::Params params)
{
    Op op;
    op(params);
}

template <class Op>
class Runner {
public:
    void Init(const typename Op::Arguments &args) { params_ = Op::ToParams(args); }
    void Run(aclrtStream stream, uint32_t blocks) { Launch<Op><<<blocks, nullptr, stream>>>(params_); }
private:
    typename Op::Params params_;
};
}  // namespace Demo
"""

PROGRAM = """\
#include <cstdlib>
#include <vector>
#include <iostream>
#include <acl/acl.h>
#include "scale_kernel.h"

static void Run(uint32_t length)
{
    aclrtStream stream{nullptr};
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtCreateStream(&stream);
    size_t bytes = length * sizeof(float);
    std::vector<float> hostX(length);
    for (uint32_t i = 0; i < length; ++i) {
        hostX[i] = static_cast<float>(rand() % 7);
    }
    uint8_t *deviceX{nullptr};
    aclrtMalloc(reinterpret_cast<void **>(&deviceX), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(deviceX, bytes, hostX.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    uint8_t *deviceY{nullptr};
    aclrtMalloc(reinterpret_cast<void **>(&deviceY), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    uint8_t *deviceSpare{nullptr};
    if (length > 100000) {
        aclrtMalloc(reinterpret_cast<void **>(&deviceSpare), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    }

    using Op = Demo::ScaleOp<float>;
    Op::Arguments args{length, deviceX, deviceY};
    Demo::Runner<Op> runner;
    runner.Init(args);
    runner.Run(stream, 4);
    aclrtSynchronizeStream(stream);

    std::vector<float> hostY(length);
    aclrtMemcpy(hostY.data(), bytes, deviceY, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    for (uint32_t i = 0; i < length; ++i) {
        if (hostY[i] != hostX[i] * 3) {
            std::cerr << "mismatch at " << i << std::endl;
        }
    }
    aclrtFree(deviceX);
    aclrtFree(deviceY);
    aclFinalize();
}

int main(int argc, const char **argv)
{
    uint32_t length = 256;
    if (argc > 1) {
        length = std::atoi(argv[1]);
    }
    Run(length);
    return 0;
}
"""


def _write(tmp_path, program: str = PROGRAM) -> str:
    (tmp_path / "inc").mkdir(exist_ok=True)
    (tmp_path / "inc" / "scale_kernel.h").write_text(HEADER)
    source = tmp_path / "scale.cpp"
    source.write_text(program)
    return str(source)


def _run(tmp_path, *extra: str, program: str = PROGRAM):
    source = _write(tmp_path, program)
    out = tmp_path / "out"
    return CliRunner().invoke(main, [source, "-I", str(tmp_path / "inc"), "--output-dir", str(out),
                                     "--format", "json", *extra]), out


def test_main_runs_the_kernel_it_launches_on_its_own_buffers(tmp_path) -> None:
    x = np.linspace(-4, 4, 512, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    result, out = _run(tmp_path, "--args", "512", "--input", f"deviceX={tmp_path / 'x.npy'}")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output[result.output.index("{"):])
    assert report["block_dim"] == 4  # the launch's <<<4, ...>>>
    assert list(report["outputs"]) == ["deviceY"]  # copied back to the host: the output; deviceSpare is never
    # allocated for 512 (its aclrtMalloc is under `length > 100000`): no memory, and no error
    y = np.load(out / "deviceY.npy")
    assert y.dtype == np.float32 and y.shape == (512,)  # std::vector<float>, the bytes aclrtMalloc took
    assert np.array_equal(y, x * 3)


def test_program_arguments_default_to_what_main_does_without_them(tmp_path) -> None:
    result, out = _run(tmp_path)  # argc == 1: main keeps its length 256
    assert result.exit_code == 0, result.output
    y = np.load(out / "deviceY.npy")
    assert y.shape == (256,)
    # an input no --input gives is drawn at random, and written beside the outputs
    assert np.array_equal(y, np.load(out / "deviceX.npy") * 3)


def test_an_input_of_the_wrong_size_is_refused(tmp_path) -> None:
    np.save(tmp_path / "x.npy", np.zeros(100, dtype=np.float32))
    result, _ = _run(tmp_path, "--input", str(tmp_path / "x.npy"))
    assert result.exit_code == 2
    assert "input 'deviceX' has 400 bytes; the program allocates 1024" in result.output


def test_a_main_that_launches_nothing_is_a_finding_not_a_traceback(tmp_path) -> None:
    program = PROGRAM.replace("runner.Run(stream, 4);", "")
    result, _ = _run(tmp_path, program=program)
    assert result.exit_code == 1, result.output
    assert "main launches no kernel" in result.output and "Traceback" not in result.output


def test_a_launch_in_each_branch_runs_the_one_main_takes(tmp_path) -> None:
    """`if (length > 300)` is decided at run time here (length is a cell until the run): each branch launches its
    own instance, and the run takes the launch, and the blockDim, of the branch main's values choose. Each branch
    allocates its own `scratch` (two buffers of one variable name; the one main does not reach gets no memory)."""
    branch = ("uint8_t *scratch{{nullptr}};\n        aclrtMalloc(reinterpret_cast<void **>(&scratch), 64, "
              "ACL_MEM_MALLOC_HUGE_FIRST);\n        runner.Run(stream, {});")
    program = PROGRAM.replace("runner.Run(stream, 4);", "if (length > 300) {\n        " + branch.format(4)
                              + "\n    } else {\n        " + branch.format(2) + "\n    }")
    for args, blocks in (("512", 4), ("256", 2)):
        result, out = _run(tmp_path, "--args", args, program=program)
        assert result.exit_code == 0, result.output
        assert json.loads(result.output[result.output.index("{"):])["block_dim"] == blocks
        assert np.array_equal(np.load(out / "deviceY.npy"), np.load(out / "deviceX.npy") * 3)


def test_pointer_arithmetic_in_host_code_stays_in_device_memory(tmp_path) -> None:
    """`deviceX + bytes` in main (catlass's ToUnderlyingArguments: `workspace + sizeWA`): an offset into the
    buffer. Before, host pointers were not GM pointers (ASC103 'arithmetic on a non-GM pointer') and the kernel
    read through a tensor with no memory (ASC950)."""
    program = PROGRAM.replace("aclrtMalloc(reinterpret_cast<void **>(&deviceX), bytes,",
                              "aclrtMalloc(reinterpret_cast<void **>(&deviceX), 2 * bytes,")
    program = program.replace("aclrtMemcpy(deviceX, bytes, hostX.data(), bytes,",
                              "aclrtMemcpy(deviceX, 2 * bytes, hostX.data(), 2 * bytes,")
    program = program.replace("Op::Arguments args{length, deviceX, deviceY};",
                              "uint8_t *upper = deviceX + bytes;\n    Op::Arguments args{length, upper, deviceY};")
    x = np.arange(512, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    result, out = _run(tmp_path, "--input", str(tmp_path / "x.npy"), program=program)  # length 256
    assert result.exit_code == 0, result.output
    assert np.array_equal(np.load(out / "deviceY.npy"), x[256:] * 3)


def test_lowering_main_leaves_the_host_data_out(tmp_path) -> None:
    """The random fill of hostX (rand() over a std::vector) and the check after the launch are host code: not in
    the entry; the aclrtMalloc'd pointers are its parameters, in allocation order (deviceSpare's allocation sits in
    a branch main never takes for these lengths: the run gives it no memory)."""
    from ascendir.lower import LoweringOptions, lower_program
    from passes.sim.host_run import read_bundle
    from passes.sim.launch import load_source

    program, chip = load_source(read_bundle(_write(tmp_path), include_dirs=[str(tmp_path / "inc")]))
    lowered = lower_program(program, LoweringOptions(chip=chip, host_args=("64",)))
    [kernel] = lowered.kernels
    assert [a.name_hint for a in kernel.body.block.args] == ["deviceX", "deviceY", "deviceSpare"]
    text = str(kernel)
    assert "rand" not in text and "hostX" not in text and "mismatch" not in text
    described = json.loads(kernel.attributes["ascendc.host_program"].data)
    assert [(b["name"], b["role"], b["dtype"]) for b in described["buffers"]] == [
        ("deviceX", "input", "float32"), ("deviceY", "output", "float32"), ("deviceSpare", "workspace", None)]


def test_a_buffer_copied_both_ways_is_in_place(tmp_path) -> None:
    """catlass's matmul_add copies X into deviceD, the kernel writes D = A * B + X there, and main copies deviceD
    back: the buffer is an input and the output. Before, it stayed an input: the run had no output at all and the
    kernel's writes were ASC963 (an input the op does not update in place). The input it started from is written
    as deviceX.in.npy, beside the output deviceX.npy."""
    program = PROGRAM.replace("Op::Arguments args{length, deviceX, deviceY};",
                              "Op::Arguments args{length, deviceX, deviceX};")
    program = program.replace("aclrtMemcpy(hostY.data(), bytes, deviceY,", "aclrtMemcpy(hostY.data(), bytes, deviceX,")
    x = np.linspace(-4, 4, 256, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    result, out = _run(tmp_path, "--input", f"deviceX={tmp_path / 'x.npy'}", program=program)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output[result.output.index("{"):])
    assert list(report["outputs"]) == ["deviceX"] and not report["findings"]
    assert np.array_equal(np.load(out / "deviceX.npy"), x * 3)
    assert np.array_equal(np.load(out / "deviceX.in.npy"), x)
    assert np.array_equal(x, np.linspace(-4, 4, 256, dtype=np.float32))  # the caller's array is not written


def test_rand_draws_glibcs_values_and_the_run_reports_them(tmp_path) -> None:
    """catlass's 15_gemm draws alpha and beta with `low + rand() / RAND_MAX * (high - low)` on the host and passes
    them to the kernel. rand() is glibc's generator seeded 1 (host_random.py: 1804289383 first, as a program that
    never calls srand gets on Linux), srand(time(nullptr)) reseeds it with time() = 0, which glibc takes as 1: the
    same values. The run says what it drew (a note) and writes them as rand.npy. Before: ASC102 rand, RAND_MAX, and
    the scale never reached the kernel."""
    header = HEADER.replace("uint32_t length;\n        GM_ADDR x;", "uint32_t length;\n        T scale;\n        GM_ADDR x;")
    header = header.replace("static_cast<T>(3)", "args.scale")
    assert header != HEADER
    program = PROGRAM.replace(
        "Op::Arguments args{length, deviceX, deviceY};",
        "SEED\n    float scale = 1.0f + static_cast<float>(rand()) / static_cast<float>(RAND_MAX) * 4.0f;\n"
        "    Op::Arguments args{length, scale, deviceX, deviceY};")
    x = np.linspace(-4, 4, 256, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    want = np.float32(1) + np.float32(1804289383) / np.float32(2147483647) * np.float32(4)
    for seed in ("", "srand(time(nullptr));"):
        source = _write(tmp_path, program.replace("SEED", seed))
        (tmp_path / "inc" / "scale_kernel.h").write_text(header)
        out = tmp_path / "out"
        result = CliRunner().invoke(main, [source, "-I", str(tmp_path / "inc"), "--output-dir", str(out),
                                           "--input", f"deviceX={tmp_path / 'x.npy'}"])
        assert result.exit_code == 0, result.output
        assert "main drew 1 value (1804289383) from glibc's generator seeded 1" in result.output
        assert np.load(out / "rand.npy").tolist() == [1804289383]
        assert np.allclose(np.load(out / "deviceY.npy"), x * want, rtol=1e-6)


def test_rand_in_a_loop_of_main_is_a_gap_not_a_wrong_value(tmp_path) -> None:
    """A loop's body is lowered once for all its iterations, so rand() there cannot be one constant: named."""
    program = PROGRAM.replace("Op::Arguments args{length, deviceX, deviceY};",
                              "uint32_t drawn = 0;\n    for (uint32_t i = 0; i < 3; ++i) {\n        drawn += rand() % 2;"
                              "\n    }\n    Op::Arguments args{length + 0 * drawn, deviceX, deviceY};")
    result, _ = _run(tmp_path, program=program)
    assert "rand() in a loop" in result.output, result.output
    assert "Traceback" not in result.output


def test_auto_from_a_function_returning_a_host_vector_is_host_data(tmp_path) -> None:
    """`auto groupList = golden::GenerateGroupList<int64_t>(m, problemCount);` (catlass's 02_grouped_matmul_slice_m):
    a std::vector made by a helper that seeds with srand(time(nullptr)) and draws in a loop. The variable is host
    data as one declared std::vector<int64_t> is: its copy to the device is an input of that element type (given
    with --input, or drawn). Before, the helper was inlined into main and its loop's rand() left the run with
    gaps."""
    helper = ("template <typename T>\nstd::vector<T> MakeList(uint32_t n)\n{\n    std::vector<T> v(n);\n"
              "    std::srand(std::time(nullptr));\n    for (uint32_t i = 0; i < n; ++i) {\n"
              "        v[i] = static_cast<T>(rand() % 7);\n    }\n    return v;\n}\n\nstatic void Run(")
    program = PROGRAM.replace("static void Run(", helper)
    program = program.replace("std::vector<float> hostX(length);", "auto hostX = MakeList<float>(length);")
    result, out = _run(tmp_path, program=program)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output[result.output.index("{"):])
    assert not report["findings"], report["findings"]
    x = np.load(out / "deviceX.npy")
    assert x.dtype == np.float32 and np.array_equal(np.load(out / "deviceY.npy"), x * 3)


def test_a_kernel_variable_named_like_a_host_vector_is_kept(tmp_path) -> None:
    """Host data is left out by name, but only in the function that declares it: the kernel inlined into main
    may have a variable of that name (catlass's grouped matmul kernels call their GlobalTensor `groupList`, as
    02_grouped_matmul_slice_m's main calls its host vector). Before, every statement of the kernel naming it was
    left out: here the kernel's LocalTensor `t` was never copied in, scaled or copied out."""
    program = PROGRAM.replace("hostX", "t")
    x = np.linspace(-4, 4, 256, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    result, out = _run(tmp_path, "--input", f"deviceX={tmp_path / 'x.npy'}", program=program)
    assert result.exit_code == 0, result.output
    assert np.array_equal(np.load(out / "deviceY.npy"), x * 3)
