"""GM tensors live in allocations a little larger than they are, as on the device.

torch_npu's caching allocator gives a tensor of n bytes round_up(n + 32, 512) bytes, so a kernel that copies
whole 32-byte blocks of a 3-element tensor reads and writes inside its allocation without a fault (many
NPUKernelBench reference answers do, for their one-element cases). The simulator models the allocation: such an
access is a warning (ASC962), the padding holds no data of the tensor's (its bytes are never initialised), and an
access past the allocation is still ASC950.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run
from passes.sim.launch import allocation_size

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x);
    yGm.SetGlobalBuffer((__gm__ half *)y);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, td.n * sizeof(half));
    pipe.InitBuffer(outQ, 1, td.n * sizeof(half));
    LocalTensor<half> a = inQ.AllocTensor<half>();
    DataCopy(a, xGm, td.n);
    inQ.EnQue(a);
    a = inQ.DeQue<half>();
    LocalTensor<half> b = outQ.AllocTensor<half>();
    Muls(b, a, (half)2.0, td.n);
    outQ.EnQue(b);
    inQ.FreeTensor(a);
    b = outQ.DeQue<half>();
    DataCopy(yGm, b, td.n);
    outQ.FreeTensor(b);
}
"""


def simulate(elements: int, copied: int, out_elements: int | None = None) -> object:
    x = np.arange(1, elements + 1, dtype=np.float16)
    return run(KERNEL, {"x": x}, block_dim=1, tiling={"n": copied},
               outputs={"y": ((out_elements or elements,), "float16")})


def test_the_allocation_is_torch_npus() -> None:
    assert allocation_size(0) == 512
    assert allocation_size(6) == 512
    assert allocation_size(480) == 512
    assert allocation_size(481) == 1024
    assert allocation_size(6291456) == 6291456 + 512


def test_whole_blocks_of_a_short_tensor_stay_in_its_allocation() -> None:
    result = simulate(3, 16)  # one 32-byte block of a 6-byte tensor, both ways
    assert result.completed and not result.errors, [str(d) for d in result.findings]
    assert {d.code for d in result.findings} == {"ASC962"}
    assert all(not d.is_error for d in result.findings)
    assert np.array_equal(result.outputs["y"], np.array([2, 4, 6], dtype=np.float16))
    read = next(d for d in result.findings if "reads" in d.message)
    assert "whose tensor holds 6 bytes" in read.message and "26 bytes past its end" in read.message


def test_an_access_past_the_allocation_is_out_of_bounds() -> None:
    result = simulate(3, 512)  # 1024 bytes from a 6-byte tensor in a 512-byte allocation
    assert any(d.code == "ASC950" and d.is_error for d in result.findings), [str(d) for d in result.findings]


def test_padding_read_into_an_output_is_uninitialised_data() -> None:
    # 16 elements copied, 3 of them the tensor's: what comes from the padding lands in the output's padding,
    # so the output itself holds only initialised data; the count of unwritten output bytes ignores the padding
    result = simulate(3, 16)
    assert not any(d.code in ("ASC952", "ASC961") for d in result.findings)
    # a 16-element output filled from the 3-element input: 13 elements are the input's padding, not data
    wider = simulate(3, 16, out_elements=16)
    assert any(d.code == "ASC952" and d.is_error and "26 bytes" in d.message for d in wider.findings), \
        [str(d) for d in wider.findings]


def test_an_opdef_binds_the_dtypes_of_the_tensors_given(tmp_path: object) -> None:
    # a project without an op json (NPUKernelBench's answers): its OpDef's column for the inputs' dtypes binds
    # DTYPE_X, float ones included, when concrete tensors are given (a float16 add ran as float32 and read past x)
    import shutil
    from pathlib import Path

    project = Path(str(tmp_path)) / "add_custom"
    shutil.copytree(Path(__file__).resolve().parents[1] / "corpus/clean/projects/add_custom", project)
    (project / "add_custom.json").unlink()
    rng = np.random.default_rng(3)
    for dtype in (np.float16, np.float32, np.int32):
        x = (rng.uniform(-50, 50, (4, 300))).astype(dtype)
        y = (rng.uniform(-50, 50, (4, 300))).astype(dtype)
        result = run(str(project), [x, y])
        assert result.ok, [str(d) for d in result.findings]
        assert np.array_equal(result.outputs["z"], x + y), dtype


def test_the_caller_names_dtypes_an_array_cannot_carry() -> None:
    # numpy has no bfloat16: such tensors travel as uint16 bit patterns, and `dtypes=` says what they are (the
    # host tiling chose its path for uint16 and NPUKernelBench's bfloat16 cases ran the wrong one)
    project = str(Path(__file__).resolve().parents[1] / "corpus/clean/projects/add_custom")
    bits = np.zeros((4, 16), np.uint16)
    plain = run(project, [bits, bits])
    assert any("uint16, uint16" in d.message for d in plain.findings), [str(d) for d in plain.findings]
    named = run(project, [bits, bits], dtypes=["bfloat16", "bfloat16"])
    assert any("bfloat16, bfloat16" in d.message for d in named.findings), [str(d) for d in named.findings]
    by_name = run(project, {"x": bits, "y": bits}, dtypes={"x": "bfloat16", "y": "bfloat16"})
    assert any("bfloat16, bfloat16" in d.message for d in by_name.findings)
