"""Matmul's GetTensorC() returning a GlobalTensor (the form ops-nn's quant_batch_matmul_v3 pertoken / bf16 kernels
read their blocks with, after SetWorkspace and the asynchronous Iterate<false>): each call hands out the next baseM x
baseN block of C, written into the workspace at the running offset with rows baseN apart. A team-written MIX kernel
copies the valid part of each block (tails in M and N: 40 x 40 in 16 x 16 blocks) to its place in C, against
numpy. Before, the call stopped the core (ASC958); without SetWorkspace it is reported (the library asserts one).
"""

from __future__ import annotations

import numpy as np
import pytest

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

constexpr int32_t MI = (DIM_M + 15) / 16;
constexpr int32_t NI = (DIM_N + 15) / 16;

extern "C" __global__ __aicore__ void mm_ws(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tilingGm)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    TPipe pipe;
    TCubeTiling tiling;
    tiling.usedCoreNum = 1;
    tiling.M = DIM_M;
    tiling.N = DIM_N;
    tiling.Ka = DIM_K;
    tiling.Kb = DIM_K;
    tiling.singleCoreM = DIM_M;
    tiling.singleCoreN = DIM_N;
    tiling.singleCoreK = DIM_K;
    tiling.baseM = 16;
    tiling.baseN = 16;
    tiling.baseK = 16;
    tiling.isBias = 0;
    tiling.iterateOrder = 0;
    Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    GlobalTensor<half> aGm;
    GlobalTensor<half> bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, DIM_M * DIM_K);
    bGm.SetGlobalBuffer((__gm__ half *)b, DIM_K * DIM_N);
    cGm.SetGlobalBuffer((__gm__ float *)c, DIM_M * DIM_N);
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16 * 16 * sizeof(float));
    LocalTensor<float> ub = buf.Get<float>();
    mm.SetTensorA(aGm, false);
    mm.SetTensorB(bGm, false);
    if (WITH_WORKSPACE) {
        mm.SetWorkspace((__gm__ float *)workspace, MI * NI * 16 * 16 * sizeof(float));
    }
    mm.template Iterate<false>();
    for (int32_t j = 0; j < MI * NI; j++) {
        // iterateOrder 0: along M first
        const int32_t r = j % MI;
        const int32_t col = j / MI;
        const int32_t rows = DIM_M - r * 16 < 16 ? DIM_M - r * 16 : 16;
        const int32_t cols = DIM_N - col * 16 < 16 ? DIM_N - col * 16 : 16;
        GlobalTensor<float> block = mm.GetTensorC();
        DataCopyParams in;
        in.blockCount = rows;
        in.blockLen = cols * sizeof(float) / 32;
        in.srcStride = (16 - cols) * sizeof(float) / 32;
        in.dstStride = 0;
        DataCopy(ub, block, in);
        PipeBarrier<PIPE_ALL>();
        DataCopyParams out;
        out.blockCount = rows;
        out.blockLen = cols * sizeof(float) / 32;
        out.srcStride = 0;
        out.dstStride = (DIM_N - cols) * sizeof(float) / 32;
        DataCopy(cGm[r * 16 * DIM_N + col * 16], ub, out);
        PipeBarrier<PIPE_ALL>();
    }
    mm.End();
}
"""


@pytest.mark.parametrize("m, n, k", [(40, 40, 24), (32, 48, 20)])
def test_get_tensor_c_from_the_workspace_matches_numpy(m: int, n: int, k: int) -> None:
    rng = np.random.default_rng(m + n)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    blocks = ((m + 15) // 16) * ((n + 15) // 16)
    result = run(KERNEL, [a, b], block_dim=1, outputs={"c": np.zeros((m, n), np.float32)},
                 defines={"DIM_M": str(m), "DIM_N": str(n), "DIM_K": str(k), "WITH_WORKSPACE": "1"},
                 workspace=blocks * 256 * 4)
    assert result.ok, result.findings
    np.testing.assert_allclose(result.outputs["c"], a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5,
                               atol=1e-5)


def test_without_a_workspace_it_is_reported() -> None:
    a = np.zeros((32, 16), np.float16)
    b = np.zeros((16, 32), np.float16)
    result = run(KERNEL, [a, b], block_dim=1, outputs={"c": np.zeros((32, 32), np.float32)},
                 defines={"DIM_M": "32", "DIM_N": "32", "DIM_K": "16", "WITH_WORKSPACE": "0"}, workspace=4096)
    assert any(d.code == "ASC959" and "SetWorkspace" in d.message for d in result.findings), result.findings
