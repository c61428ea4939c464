"""Matmul::IterateNBatch and GetBatchTensorC end to end: a team-written MIX kernel (each vector core drives the object
over its own half of the data) against numpy batched matmul. Per core, A, B and C hold LAYOUT_B = 2 b's of a BSNGD,
BNGS1S2 or SBNGD layout with G 3 (N 1); IterateNBatch(2, 3, 3, ...) computes one b per loop. The synchronous form
writes C into the workspace SetWorkspace names (here C itself); the asynchronous IterateNBatch<false> is followed by
GetBatchTensorC per loop, either the local form (C of that loop copied into UB, then out) or the GM form (the
workspace tensor of that loop, copied out through UB). The config is GetMMConfig over a MatmulBatchParams whose
isNBatch is true (and isBiasBatch as asked); with isNBatch false the library's client does nothing, reported. Shapes
have tails in M, N and K. The offsets by hand: rust_sim/src/cube/matmul_nbatch.rs. Before, IterateNBatch /
GetBatchTensorC stopped the core (ASC958).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

// -D: LAYOUT (BSNGD or BNGS1S2), DIM_M x DIM_K by DIM_K x DIM_N, BIAS_BATCH (a bias row per batch or one for all),
// FORM (0: synchronous into C; 1: GetBatchTensorC into UB; 2: GetBatchTensorC's GM tensor)
using AType = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::LAYOUT>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::LAYOUT>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::LAYOUT>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
constexpr MatmulBatchParams batchParams = {IS_N_BATCH, BatchMode::BATCH_LESS_THAN_L1, BIAS_BATCH};
constexpr MatmulConfig CFG_NBATCH = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(batchParams);

extern "C" __global__ __aicore__ void nbatch_mm(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                GM_ADDR tilingGm)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
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
    tiling.isBias = 1;
    tiling.iterateOrder = 0;
    tiling.BatchNum = 3;
    tiling.ALayoutInfoB = 2;
    tiling.ALayoutInfoS = DIM_M;
    tiling.ALayoutInfoN = 1;
    tiling.ALayoutInfoG = 3;
    tiling.ALayoutInfoD = DIM_K;
    tiling.BLayoutInfoB = 2;
    tiling.BLayoutInfoS = DIM_K;
    tiling.BLayoutInfoN = 1;
    tiling.BLayoutInfoG = 3;
    tiling.BLayoutInfoD = DIM_N;
    tiling.CLayoutInfoB = 2;
    tiling.CLayoutInfoS1 = DIM_M;
    tiling.CLayoutInfoN = 1;
    tiling.CLayoutInfoG = 3;
    tiling.CLayoutInfoS2 = DIM_N;
    Matmul<AType, BType, CType, BiasType, CFG_NBATCH> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    const int32_t core = GetBlockIdx();
    const int32_t perCore = 2 * 3 * DIM_M * DIM_N;
    GlobalTensor<half> aGm;
    GlobalTensor<half> bGm;
    GlobalTensor<float> biasGm;
    GlobalTensor<float> cGm;
    GlobalTensor<float> wsGm;
    aGm.SetGlobalBuffer((__gm__ half *)a + core * 2 * 3 * DIM_M * DIM_K, 2 * 3 * DIM_M * DIM_K);
    bGm.SetGlobalBuffer((__gm__ half *)b + core * 2 * 3 * DIM_K * DIM_N, 2 * 3 * DIM_K * DIM_N);
    biasGm.SetGlobalBuffer((__gm__ float *)bias + core * 2 * 3 * DIM_N, 2 * 3 * DIM_N);
    cGm.SetGlobalBuffer((__gm__ float *)c + core * perCore, perCore);
    wsGm.SetGlobalBuffer((__gm__ float *)workspace + core * perCore, perCore);
    mm.SetTensorA(aGm, false);
    mm.SetTensorB(bGm, false);
    mm.SetBias(biasGm);
    if (FORM == 0) {
        mm.SetWorkspace(cGm);
        mm.IterateNBatch(2, 3, 3, false);
    } else {
        // one loop's C: 3 matrices of DIM_M x DIM_N (N * G = 3 = batchC: no gaps between the BSNGD rows)
        TQue<TPosition::VECIN, 1> que;
        pipe.InitBuffer(que, 1, 3 * DIM_M * DIM_N * sizeof(float));
        mm.SetWorkspace(wsGm);
        mm.template IterateNBatch<false>(2, 3, 3, false);
        for (int32_t j = 0; j < 2; ++j) {
            LocalTensor<float> ub = que.AllocTensor<float>();
            if (FORM == 1) {
                mm.template GetBatchTensorC<false>(ub, 3, 3, false);
            } else {
                GlobalTensor<float> got = mm.template GetBatchTensorC<false>(3, 3, false);
                DataCopy(ub, got, 3 * DIM_M * DIM_N);
            }
            // GM -> UB (MTE2), then UB -> GM (MTE3): ordered as the vendor example orders them
            PipeBarrier<PIPE_ALL>();
            DataCopy(cGm[j * 3 * DIM_M * DIM_N], ub, 3 * DIM_M * DIM_N);
            PipeBarrier<PIPE_ALL>();
            que.FreeTensor(ub);
        }
    }
    mm.End();
}
"""


def _case(layout: str, m: int, n: int, k: int, form: int, bias_batch: bool, n_batch: bool = True) -> object:
    rng = np.random.default_rng(m * 7 + form)
    # per core (2): BSNGD A [2 b][M][3 g][K], B [2][K][3][N]; BNGS1S2 A [2][3][M][K], B [2][3][K][N]
    if layout == "SBNGD":
        # per core [M][2 b][3 g][K]: the two b's side by side in every row
        a = rng.uniform(-1, 1, (2, m, 2, 3, k)).astype(np.float16)
        b = rng.uniform(-1, 1, (2, k, 2, 3, n)).astype(np.float16)
        am, bm = a.transpose(0, 2, 3, 1, 4), b.transpose(0, 2, 3, 1, 4)
    elif layout == "BSNGD":
        a = rng.uniform(-1, 1, (2, 2, m, 3, k)).astype(np.float16)
        b = rng.uniform(-1, 1, (2, 2, k, 3, n)).astype(np.float16)
        am, bm = a.transpose(0, 1, 3, 2, 4), b.transpose(0, 1, 3, 2, 4)
    else:
        a = rng.uniform(-1, 1, (2, 2, 3, m, k)).astype(np.float16)
        b = rng.uniform(-1, 1, (2, 2, 3, k, n)).astype(np.float16)
        am, bm = a, b
    # the bias: a row per C matrix ([loop][batch][N]), or per loop one row for its batches (IterateNBatch moves the
    # bias S2 * batchC elements a loop either way)
    bias = rng.uniform(-1, 1, (2, 2, 3, n)).astype(np.float32)
    want = am.astype(np.float64) @ bm.astype(np.float64)
    want += bias[:, :, :, None, :] if bias_batch else bias[:, :, :1, None, :]
    if layout == "BSNGD":
        want = want.transpose(0, 1, 3, 2, 4)
    elif layout == "SBNGD":
        want = want.transpose(0, 3, 1, 2, 4)
    defines = dict(LAYOUT=layout, DIM_M=m, DIM_N=n, DIM_K=k, FORM=form, BIAS_BATCH=str(bias_batch).lower(),
                   IS_N_BATCH=str(n_batch).lower())
    result = run(KERNEL, [a, b, bias], block_dim=1, defines={k: str(v) for k, v in defines.items()},
                 outputs={"c": np.zeros(want.shape, np.float32)}, workspace=want.size * 4)
    return result, want


@pytest.mark.parametrize("layout, m, n, k, form, bias_batch", [
    ("BSNGD", 18, 40, 24, 0, True),
    ("BNGS1S2", 17, 24, 40, 0, False),
    ("BSNGD", 18, 40, 24, 1, True),
    ("BNGS1S2", 20, 24, 16, 1, True),
    ("BSNGD", 16, 24, 20, 2, False),
    ("SBNGD", 18, 40, 24, 0, True),
])
def test_iterate_n_batch_matches_numpy(layout: str, m: int, n: int, k: int, form: int, bias_batch: bool) -> None:
    result, want = _case(layout, m, n, k, form, bias_batch)
    assert result.ok, result.findings
    # fp16 products are exact in fp32; only the order of the sums differs
    np.testing.assert_allclose(result.outputs["c"], want, rtol=1e-5, atol=1e-5)


def test_without_is_n_batch_the_calls_do_nothing_and_say_so() -> None:
    result, _ = _case("BSNGD", 16, 16, 16, 0, True, n_batch=False)
    assert any(d.code == "ASC959" and "isNBatch is false" in d.message for d in result.findings), result.findings
    # C never written: the client returned at once
    assert any(d.code == "ASC961" for d in result.findings), result.findings


DEVKIT = Path(os.environ.get("ASC_DEVKIT", "/work/ext/real/asc-devkit"))
EXAMPLE = DEVKIT / "examples/01_simd_cpp_api/04_advanced_api/00_matmul/batch_matmul_iterate_n_batch"


@pytest.mark.skipif(not EXAMPLE.is_dir(), reason=f"no asc-devkit checkout at {DEVKIT}")
def test_vendor_iterate_n_batch_example_matches_numpy() -> None:
    # its main's shapes: A [1][32][1][3][64], B (transposed) [1][256][1][3][64], C [1][32][1][3][256], a bias of 256
    # shared by the batches (its CFG_MM's MatmulBatchParams: isNBatch true, isBiasBatch false), one MIX block; its
    # host main is not evaluated here: the tiling is the values its GenerateTiling sets, the workspace the C it
    # allocates beyond the library's
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (32, 3, 64)).astype(np.float16)
    b = rng.uniform(-1, 1, (256, 3, 64)).astype(np.float16)
    bias = rng.uniform(-1, 1, (256,)).astype(np.float32)
    tiling = dict(usedCoreNum=1, M=32, N=256, Ka=64, Kb=64, singleCoreM=32, singleCoreN=256, singleCoreK=64, baseM=32,
                  baseN=32, baseK=64, isBias=1, iterateOrder=0, BatchNum=3, ALayoutInfoB=1, ALayoutInfoS=32,
                  ALayoutInfoN=1, ALayoutInfoG=3, ALayoutInfoD=64, BLayoutInfoB=1, BLayoutInfoS=256, BLayoutInfoN=1,
                  BLayoutInfoG=3, BLayoutInfoD=64, CLayoutInfoB=1, CLayoutInfoS1=32, CLayoutInfoN=1, CLayoutInfoG=3,
                  CLayoutInfoS2=256)
    result = run(str(EXAMPLE / "batch_matmul_iterate_n_batch.asc"), [a, b, bias], block_dim=1, tiling=tiling,
                 outputs={"c": np.zeros((32, 3, 256), np.float32)}, workspace=32 * 3 * 256 * 4)
    # both vector cores run the whole Process (the same C, written twice): ASC953 warns, no error
    assert result.ok, result.findings
    want = np.einsum("sgd,tgd->sgt", a.astype(np.float64), b.astype(np.float64)) + bias
    np.testing.assert_allclose(result.outputs["c"], want, rtol=1e-5, atol=1e-5)


def test_the_cli_gives_the_workspace_its_size(tmp_path: Path) -> None:
    # `ascendir run --workspace BYTES`: the asynchronous form's workspace is the kernel's workspace parameter, which
    # a launch with no host code left at 0 bytes (IterateNBatch's writes past its end, ASC950)
    from click.testing import CliRunner

    from cli.run import main

    source = tmp_path / "nbatch.cpp"
    source.write_text(KERNEL)
    m, n, k = 16, 16, 16
    args = [str(source), "--block-dim", "1", "--output", f"c=2,2,{m},3,{n}:float32", "--output-dir", str(tmp_path)]
    for name, shape in (("a", (2, 2, m, 3, k)), ("b", (2, 2, k, 3, n))):
        np.save(tmp_path / f"{name}.npy", np.ones(shape, np.float16))
        args += ["--input", str(tmp_path / f"{name}.npy")]
    np.save(tmp_path / "bias.npy", np.zeros((2, 2, 3, n), np.float32))
    args += ["--input", str(tmp_path / "bias.npy")]
    for d in ("LAYOUT=BSNGD", f"DIM_M={m}", f"DIM_N={n}", f"DIM_K={k}", "FORM=1", "BIAS_BATCH=true",
              "IS_N_BATCH=true"):
        args += ["-D", d]
    without = CliRunner().invoke(main, args)
    assert without.exit_code != 0 and "ASC950" in without.output, without.output
    out = CliRunner().invoke(main, args + ["--workspace", str(2 * 2 * m * 3 * n * 4)])
    assert out.exit_code == 0, out.output
    np.testing.assert_array_equal(np.load(tmp_path / "c.npy"), np.full((2, 2, m, 3, n), k, np.float32))
