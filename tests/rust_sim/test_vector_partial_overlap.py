"""A vector instruction whose destination overlaps a source without being that source (asc-devkit, 通用说明和约束.md,
通用地址重叠约束: only a 100% overlap is supported). Where the writes run ahead onto what a later repeat reads, the
documents leave the result open. Session 14 computed such a call repeat by repeat, each repeat reading what the one
before wrote; NPUKernelBench's MulSigmoidMulAddCustom reference, which passed on the device, contradicts that: its
Sigmoid(calBuffer2, calBuffer1) has the destination tileLen bytes (1 to 4 repeats) ahead of the source in calls of 2 to
8 repeats, and the device gave the outputs of a call that reads every source first. So the sources are read first (a
snapshot), with an ASC959 warning at the line. (The session-14 muls mutant that motivated the repeat order, an
input buffer too small for its copy-in, is an ASC304 capacity error since 590cacf.)"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
using namespace AscendC;
extern "C" __global__ __aicore__ void shift_add(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 256);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> xQ;
    pipe.InitBuffer(xQ, 1, 256 * sizeof(float));
    LocalTensor<float> xLocal = xQ.AllocTensor<float>();
    DataCopy(xLocal, xGm, 256);
    xQ.EnQue(xLocal);
    xLocal = xQ.DeQue<float>();
    CALL;
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, xLocal, 256);
    xQ.FreeTensor(xLocal);
}
"""


def _run(tmp_path: Path, call: str):  # type: ignore[no-untyped-def]
    src = tmp_path / "shift_add.cpp"
    src.write_text(KERNEL.replace("CALL", call), encoding="utf-8")
    x = np.arange(256, dtype=np.float32)
    return x, run(str(src), {"x": x}, block_dim=1, tiling={"n": 256}, outputs={"y": ((256,), "float32")})


def test_a_destination_one_repeat_past_its_source_reads_every_source_first(tmp_path: Path) -> None:
    # 192 floats = 3 repeats of 64; repeat k reads x[64k, 64k + 64), which repeat k - 1 writes: read before it
    x, result = _run(tmp_path, "Adds(xLocal[64], xLocal, 1.0f, 192)")
    want = x.copy()
    want[64:] = x[:192] + 1  # not x[:64] + k, the repeat-by-repeat order
    np.testing.assert_array_equal(result.outputs["y"], want)
    [warning] = [d for d in result.findings if "overlaps source" in d.message]
    assert warning.code == "ASC959" and not warning.is_error and warning.span.line == KERNEL.count("\n", 0, KERNEL.index("CALL")) + 1


@pytest.mark.parametrize("call", ["Adds(xLocal, xLocal, 1.0f, 256)",  # in place: the documented complete overlap
                                  "Adds(xLocal[128], xLocal, 1.0f, 128)",  # side by side: no overlap
                                  "Adds(xLocal, xLocal[64], 1.0f, 192)"])  # to the front: writes behind the reads
def test_in_place_disjoint_and_trailing_operands_are_unchanged(tmp_path: Path, call: str) -> None:
    x, result = _run(tmp_path, call)
    want = x.copy()
    if "xLocal[128]" in call:
        want[128:] = x[:128] + 1
    elif "xLocal[64]" in call:
        want[:192] = x[64:] + 1
    else:
        want += 1
    np.testing.assert_array_equal(result.outputs["y"], want)
    assert result.findings == []
