"""A struct inside tiling data whose layout the kernel file does not hold, passed to an API that takes such a
struct (ops-nn's `AscendC::SoftMax<T>(y, y, tilingData->softmaxTilingData, shapeInfo)`)."""

from __future__ import annotations

from frontend.pipeline import load_text
from passes.verify import check_program

KERNEL = """\
#include "kernel_operator.h"
#include "softmax_tiling.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void softmax(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(SoftmaxCustomTilingData, tilingData, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> y = buf.Get<float>();
    SoftMaxShapeInfo shapeInfo{8, 64, 8, 64};
    AscendC::SoftMax<float, false, false>(y, y, tilingData.softmaxTilingData, shapeInfo);
}
"""


def test_a_nested_tiling_struct_of_unknown_layout_matches_a_struct_parameter() -> None:
    program = load_text(KERNEL, "softmax.cpp")
    assert [d.code for d in check_program(program) if d.is_error] == []
