"""SelectWithBytesMask, the high-level byte-mask Select (NPUKernelBench SelectReduceMaxDSubExpReduceSumDRealDiv):
where a mask element is 0 the result is src0's, otherwise src1's, one of them a scalar; mask rows are
maskLastAxis long and only their first srcLastAxis elements count. Before, the call was not simulated (ASC958).
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void sel(GM_ADDR x, GM_ADDR m, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                          GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> xQueue, mQueue;
    TQue<TPosition::VECOUT, 1> yQueue, zQueue;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(xQueue, 1, 2 * 16 * sizeof(float));
    pipe.InitBuffer(mQueue, 1, 2 * 32);
    pipe.InitBuffer(yQueue, 1, 2 * 16 * sizeof(float));
    pipe.InitBuffer(zQueue, 1, 2 * 16 * sizeof(float));
    pipe.InitBuffer(tmpBuf, 1024);
    GlobalTensor<float> xGm, yGm, zGm;
    GlobalTensor<uint8_t> mGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 32);
    mGm.SetGlobalBuffer((__gm__ uint8_t *)m, 64);
    yGm.SetGlobalBuffer((__gm__ float *)y, 32);
    zGm.SetGlobalBuffer((__gm__ float *)z, 32);
    LocalTensor<float> xLocal = xQueue.AllocTensor<float>();
    LocalTensor<uint8_t> mLocal = mQueue.AllocTensor<uint8_t>();
    DataCopy(xLocal, xGm, 32);
    DataCopy(mLocal, mGm, 64);
    xQueue.EnQue(xLocal);
    mQueue.EnQue(mLocal);
    xLocal = xQueue.DeQue<float>();
    mLocal = mQueue.DeQue<uint8_t>();
    LocalTensor<float> yLocal = yQueue.AllocTensor<float>();
    LocalTensor<float> zLocal = zQueue.AllocTensor<float>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    SelectWithBytesMaskShapeInfo info;
    info.firstAxis = 2;
    info.srcLastAxis = 16;
    info.maskLastAxis = 32;
    float scalar = -1.5f;
    SelectWithBytesMask(yLocal, xLocal, scalar, mLocal, tmp, info);
    SelectWithBytesMask(zLocal, scalar, xLocal, mLocal, tmp, info);
    yQueue.EnQue(yLocal);
    zQueue.EnQue(zLocal);
    yLocal = yQueue.DeQue<float>();
    zLocal = zQueue.DeQue<float>();
    DataCopy(yGm, yLocal, 32);
    DataCopy(zGm, zLocal, 32);
    xQueue.FreeTensor(xLocal);
    mQueue.FreeTensor(mLocal);
    yQueue.FreeTensor(yLocal);
    zQueue.FreeTensor(zLocal);
}
"""


def test_mask_zero_takes_src0_in_both_forms() -> None:
    x = np.arange(32, dtype=np.float32)
    mask = np.zeros((2, 32), np.uint8)
    mask[0, [1, 5, 15]] = 1
    mask[1, [0, 2]] = 7  # any non-zero value
    mask[:, 16:] = 1  # past srcLastAxis: not used
    result = run(KERNEL, {"x": x, "m": mask.reshape(-1)}, block_dim=1,
                 outputs={"y": ((32,), "float32"), "z": ((32,), "float32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    picked = (mask[:, :16] != 0).reshape(-1)
    # tensor_scalar: src0 = x where the mask is 0, src1 = the scalar elsewhere
    np.testing.assert_array_equal(result.outputs["y"], np.where(picked, np.float32(-1.5), x))
    # scalar_tensor: src0 = the scalar where the mask is 0, src1 = x elsewhere
    np.testing.assert_array_equal(result.outputs["z"], np.where(picked, x, np.float32(-1.5)))
