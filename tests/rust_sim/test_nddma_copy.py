"""The 950's multi-dimensional GM -> UB copy, NDDMA (issue 28): `DataCopy<T, dim, config>(local, global, params)`
with MultiCopyParams / NdDmaParams, whose MultiCopyLoopInfo holds per-dimension C arrays (loopSize[dim], ...) that
kernels fill element by element (ops-math transpose / space_to_depth's SetupLoopInfo, ops-nn log_softmax_v2's
CopyInAndTransPose). Before: the arrays were read as one uint32_t each ('indexing a value of type uint32_t',
ASC103), the copy was 'AscendC::DataCopy (overload ''), not in the catalog' and NdDmaDci an unresolved call (ASC958).
Semantics from asc-devkit's page GMToUB多维数据搬运NDDMA(DataCopy).md (rust_sim/src/nddma.rs)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__aicore__ inline MultiCopyLoopInfo<2> TransposeLoops(uint32_t rows, uint32_t cols)
{
    MultiCopyLoopInfo<2> loopInfo;
    uint32_t size[2] = {cols, rows};
    for (int i = 0; i < 2; i++) {
        loopInfo.loopSize[i] = size[i];
    }
    loopInfo.loopSrcStride[0] = 1;
    loopInfo.loopSrcStride[1] = cols;
    loopInfo.loopDstStride[0] = rows;
    loopInfo.loopDstStride[1] = 1;
    return loopInfo;
}

extern "C" __global__ __aicore__ void nd2(GM_ADDR x, GM_ADDR t, GM_ADDR p, GM_ADDR q, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> xGm, tGm, pGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 128);
    tGm.SetGlobalBuffer((__gm__ float *)t, 128);
    pGm.SetGlobalBuffer((__gm__ float *)p, 64);
    GlobalTensor<float> qGm;
    qGm.SetGlobalBuffer((__gm__ float *)q, 64);
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> inQ;
    pipe.InitBuffer(inQ, 2, 128 * sizeof(float));
    static constexpr NdDmaConfig config = {false};
    // an 8 x 16 block transposed, the loops filled element by element in a helper
    MultiCopyParams<float, 2> params = {TransposeLoops<float>(8, 16), 0};
    NdDmaDci();
    LocalTensor<float> a = inQ.AllocTensor<float>();
    DataCopy<float, 2, config>(a, xGm, params);
    inQ.EnQue(a);
    a = inQ.DeQue<float>();
    DataCopy(tGm, a, 128);
    inQ.FreeTensor(a);
    // 2 x 3 of the first rows, padded by 1 left / 2 right and 1 top / 1 bottom with 5.0f, set through the
    // params' own member
    NdDmaParams<float, 2> padded;
    padded.constantValue = 5.0f;
    padded.loopInfo.loopSize[0] = 3;
    padded.loopInfo.loopSize[1] = 2;
    padded.loopInfo.loopSrcStride[0] = 1;
    padded.loopInfo.loopSrcStride[1] = 16;
    padded.loopInfo.loopDstStride[0] = 1;
    padded.loopInfo.loopDstStride[1] = 8;
    padded.loopInfo.loopLpSize[0] = 1;
    padded.loopInfo.loopRpSize[0] = 2;
    padded.loopInfo.loopLpSize[1] = 1;
    padded.loopInfo.loopRpSize[1] = 1;
    LocalTensor<float> b = inQ.AllocTensor<float>();
    Duplicate(b, 0.0f, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy<float, 2>(b, xGm, padded);
    inQ.EnQue(b);
    b = inQ.DeQue<float>();
    DataCopy(pGm, b, 64);
    inQ.FreeTensor(b);
    // the same copy from a brace list (the page's form), the nearest value for the padding
    NdDmaLoopInfo<2> loops{{1, 16}, {1, 8}, {3, 2}, {1, 1}, {2, 1}};
    NdDmaParams<float, 2> nearParams{loops, 0};
    static constexpr NdDmaConfig nearest = {true};
    LocalTensor<float> c = inQ.AllocTensor<float>();
    Duplicate(c, 0.0f, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy<float, 2, nearest>(c, xGm, nearParams);
    inQ.EnQue(c);
    c = inQ.DeQue<float>();
    DataCopy(qGm, c, 64);
    inQ.FreeTensor(c);
}
"""


def test_nddma_transposes_and_pads_as_the_page_says(tmp_path: Path) -> None:
    path = tmp_path / "nd2.cpp"
    path.write_text(KERNEL, encoding="utf-8")
    x = np.arange(128, dtype=np.float32)
    outputs = {"t": ((128,), "float32"), "p": ((64,), "float32"), "q": ((64,), "float32")}
    result = run(str(path), {"x": x}, chip="950PR", block_dim=1, outputs=outputs)
    assert result.ok, [str(d) for d in result.findings]
    grid = x.reshape(8, 16)
    # loops filled element by element in a helper: the 8 x 16 block transposed
    np.testing.assert_array_equal(result.outputs["t"], grid.T.reshape(-1))
    # 2 rows x 3 columns set through params.loopInfo, 1 + 2 columns and 1 + 1 rows of 5.0 around them, rows of 8
    want = np.zeros((8, 8), np.float32)
    want[:4, :6] = 5.0
    want[1:3, 1:4] = grid[:2, :3]
    np.testing.assert_array_equal(result.outputs["p"].reshape(8, 8), want)
    # the same from a brace list, padded with the nearest value of each dimension
    near = np.zeros((8, 8), np.float32)
    near[:4, :6] = grid[np.clip(np.arange(4) - 1, 0, 1)][:, np.clip(np.arange(6) - 1, 0, 2)]
    np.testing.assert_array_equal(result.outputs["q"].reshape(8, 8), near)


MEMBER_KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

constexpr int ND = 3;

class K {
public:
    template <typename U>
    __aicore__ inline void Setup(MultiCopyParams<U, ND>& params, uint32_t rows, uint32_t cols)
    {
        // rows x cols transposed, the third dimension 1
        params.loopInfo.loopSize[0] = rows;
        params.loopInfo.loopSrcStride[0] = cols;
        params.loopInfo.loopDstStride[0] = 1;
        params.loopInfo.loopSize[1] = cols;
        params.loopInfo.loopSrcStride[1] = 1;
        params.loopInfo.loopDstStride[1] = rows;
        params.loopInfo.loopSize[2] = 1;
        params.loopInfo.loopDstStride[2] = rows * cols;
        for (int d = 0; d < ND; d++) {
            params.loopInfo.loopLpSize[d] = 0;
            params.loopInfo.loopRpSize[d] = 0;
        }
    }
    __aicore__ inline void Run(GM_ADDR x, GM_ADDR z)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, 128);
        zGm.SetGlobalBuffer((__gm__ float *)z, 128);
        pipe.InitBuffer(q, 1, 128 * sizeof(float));
        Setup<float>(params_, 8, 16);
        LocalTensor<float> a = q.AllocTensor<float>();
        DataCopy<float, ND>(a, xGm, params_);
        q.EnQue(a);
        a = q.DeQue<float>();
        DataCopy(zGm, a, 128);
        q.FreeTensor(a);
    }
private:
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
    GlobalTensor<float> xGm, zGm;
    MultiCopyParams<float, ND> params_;
};

extern "C" __global__ __aicore__ void nd3(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    K k;
    k.Run(x, z);
}
"""


def test_nddma_params_held_by_a_class_member(tmp_path: Path) -> None:
    # ops-nn bn_infer_grad / dequantize / fused_mul_apply_momentum keep `MultiCopyParams<T, ND> params_;` members
    # and fill params.loopInfo.loopSize[d] through a reference: the member's arrays exist from its declaration
    # (before: 'the elements of MultiCopyLoopInfo's array member loopSize one by one', ASC958)
    path = tmp_path / "nd3.cpp"
    path.write_text(MEMBER_KERNEL, encoding="utf-8")
    x = np.arange(128, dtype=np.float32)
    result = run(str(path), {"x": x}, chip="950PR", block_dim=1, outputs={"z": ((128,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["z"], x.reshape(8, 16).T.reshape(-1))
