"""The softmax APIs called without a SoftMaxShapeInfo (or with srcM / srcK 0) take the rows and columns from the
source tensor's ShapeInfo, and the real columns from its original shape, as the library does
(GetLastAxisShapeND / GetLastAxisOriginShapeND in asc-devkit's softmax_base_impl.h and softmax_grad_base_impl.h).
The simulator records LocalTensor::SetShapeInfo for that; before, SoftMax and SoftmaxGrad stopped with ASC958
('without a SoftMaxShapeInfo')."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void sm_k(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{{
    GET_TILING_DATA(td, tiling);
    uint32_t n = td.rows * td.cols;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, n);
    yGm.SetGlobalBuffer((__gm__ float *)y, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> srcBuf, dstBuf, tmpBuf;
    pipe.InitBuffer(srcBuf, n * sizeof(float));
    pipe.InitBuffer(dstBuf, n * sizeof(float));
    pipe.InitBuffer(tmpBuf, 16384);
    LocalTensor<float> src = srcBuf.Get<float>();
    LocalTensor<float> dst = dstBuf.Get<float>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    DataCopy(src, xGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    uint32_t shape[] = {{td.rows, td.cols}};
    uint32_t oriShape[] = {{td.rows, td.oriCols}};
    src.SetShapeInfo(ShapeInfo(2, shape, 2, oriShape, DataFormat::ND));
    SoftMaxTiling tl;
    {call};
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, dst, n);
}}
"""
ROWS, COLS, ORI = 3, 16, 13


def simulate(tmp_path: Path, call: str) -> tuple[object, np.ndarray]:
    src = tmp_path / "sm_k.cpp"
    src.write_text(KERNEL.format(call=call), encoding="utf-8")
    x = np.random.default_rng(2).uniform(-2, 2, (ROWS, COLS)).astype(np.float32)
    result = run(str(src), {"x": x.reshape(-1)}, block_dim=1,
                 tiling={"rows": ROWS, "cols": COLS, "oriCols": ORI},
                 outputs={"y": ((ROWS * COLS,), "float32")})
    return result, x


@pytest.mark.parametrize("call", ["SoftMax<float>(dst, src, tmp, tl)",
                                  "SoftMax<float>(dst, src, tmp, tl, SoftMaxShapeInfo{0, 0, 0, 0})"])
def test_softmax_reads_the_tensor_shape(tmp_path: Path, call: str) -> None:
    result, x = simulate(tmp_path, call)
    assert result.ok, [str(d) for d in result.findings]
    real = x[:, :ORI]
    e = np.exp(real - real.max(axis=1, keepdims=True))
    y = result.outputs["y"].reshape(ROWS, COLS)
    np.testing.assert_allclose(y[:, :ORI], e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


def test_softmax_grad_front_reads_the_tensor_shape(tmp_path: Path) -> None:
    # grad = src: per row the sum of src * src over the real columns, filled over 8 floats
    result, x = simulate(tmp_path, "SoftmaxGradFront<float>(dst, src, src, tmp, tl)")
    y = result.outputs["y"].reshape(-1)
    sums = (x[:, :ORI] * x[:, :ORI]).sum(axis=1)
    np.testing.assert_allclose(y[:ROWS * 8], np.repeat(sums, 8), rtol=1e-5)
    assert not [d for d in result.findings if d.code == "ASC958"], [str(d) for d in result.findings]


MEMBER_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
class SoftmaxMember {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols)
    {
        this->rows = rows;
        this->cols = cols;
        xGm.SetGlobalBuffer((__gm__ float *)x, rows * cols);
        yGm.SetGlobalBuffer((__gm__ float *)y, rows * cols);
        pipe.InitBuffer(srcBuf, rows * cols * sizeof(float));
        pipe.InitBuffer(dstBuf, rows * cols * sizeof(float));
        pipe.InitBuffer(tmpBuf, 16384);
        src = srcBuf.Get<float>();
    }
    __aicore__ inline void SetShape()
    {
        uint32_t shape[] = {rows, cols};
        src.SetShapeInfo(ShapeInfo(2, shape, DataFormat::ND));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> dst = dstBuf.Get<float>();
        LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
        DataCopy(src, xGm, rows * cols);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        SetShape();
        SoftMaxTiling tl;
        SoftMax<float>(dst, src, tmp, tl);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(yGm, dst, rows * cols);
    }
    TPipe pipe;
    TBuf<TPosition::VECCALC> srcBuf, dstBuf, tmpBuf;
    LocalTensor<float> src;
    GlobalTensor<float> xGm, yGm;
    uint32_t rows, cols;
};
extern "C" __global__ __aicore__ void member_k(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    SoftmaxMember op;
    op.Init(x, y, td.rows, td.cols);
    op.Process();
}
"""


def test_a_member_tensor_keeps_its_shape_info(tmp_path: Path) -> None:
    # the member is loaded anew at each use (another handle register): the ShapeInfo belongs to the tensor
    src = tmp_path / "member_k.cpp"
    src.write_text(MEMBER_KERNEL, encoding="utf-8")
    x = np.random.default_rng(4).uniform(-2, 2, (ROWS, COLS)).astype(np.float32)
    result = run(str(src), {"x": x.reshape(-1)}, block_dim=1, tiling={"rows": ROWS, "cols": COLS},
                 outputs={"y": ((ROWS * COLS,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(result.outputs["y"].reshape(ROWS, COLS), e / e.sum(axis=1, keepdims=True), rtol=1e-5)
