"""Matmul::IterateBatch end to end: a team-written MIX kernel (the vector cores drive the object; each takes its
half of the batches) against numpy batched matmul, with the layouts the MatmulTypes declare: NORMAL (with a
per-batch bias; with batchA 4 and batchB 2, each B matrix serving two batches, and B transposed), BSNGD (B
transposed, rows N * G * D apart, as asc-devkit's batch_matmul example lays them out), BNGS1S2 and SBNGD (the
two cores' matrices side by side in every row, rows B * N * G * D apart: the layout of flash attention's SBH
input, which its arch32 B template's bmm1 reads with IterateBatch); the cube-only
form (SetBatchNum, then IterateBatch(gm, enPartialSum, enAtomic, enSequentialWrite)) on two AIC cores; and a
layout that is not modelled, reported. Shapes have tails in M, N and K. The semantics and hand-computed Rust
tests: rust_sim/src/cube/matmul_batch.rs. Before, IterateBatch was not simulated (ASC958), and the call
`IterateBatch(gm, batchA, batchB, false)` resolved to the cube-only form (batchA read as enPartialSum).
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

// the shape comes from -D: LAYOUT (NORMAL or BSNGD), DIM_M x DIM_K by DIM_K x DIM_N, BATCH_A / BATCH_B matrices per vector core
// (NORMAL), or the BSNGD extents G (per vector core: b = the core) and TRANS_B; HAS_BIAS
using AType = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::LAYOUT>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, half, TRANS_B, LayoutMode::LAYOUT>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::LAYOUT>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void batch_mm(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
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
    tiling.isBias = HAS_BIAS;
    tiling.iterateOrder = 0;
    tiling.BatchNum = BATCH_A > BATCH_B ? BATCH_A : BATCH_B;
    tiling.ALayoutInfoB = 2;
    tiling.ALayoutInfoS = DIM_M;
    tiling.ALayoutInfoN = 1;
    tiling.ALayoutInfoG = BATCH_A;
    tiling.ALayoutInfoD = DIM_K;
    tiling.BLayoutInfoB = 2;
    tiling.BLayoutInfoS = TRANS_B ? DIM_N : DIM_K;
    tiling.BLayoutInfoN = 1;
    tiling.BLayoutInfoG = BATCH_B;
    tiling.BLayoutInfoD = TRANS_B ? DIM_K : DIM_N;
    tiling.CLayoutInfoB = 2;
    tiling.CLayoutInfoS1 = DIM_M;
    tiling.CLayoutInfoN = 1;
    tiling.CLayoutInfoG = tiling.BatchNum;
    tiling.CLayoutInfoS2 = DIM_N;
    Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    // each vector core of the block takes its half of the batches (the b of BSNGD)
    const int32_t core = GetBlockIdx();
    const int32_t batch = tiling.BatchNum;
    GlobalTensor<half> aGm;
    GlobalTensor<half> bGm;
    GlobalTensor<float> biasGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a + core * BATCH_A * DIM_M * DIM_K, BATCH_A * DIM_M * DIM_K);
    bGm.SetGlobalBuffer((__gm__ half *)b + core * BATCH_B * DIM_K * DIM_N, BATCH_B * DIM_K * DIM_N);
    biasGm.SetGlobalBuffer((__gm__ float *)bias + core * batch * DIM_N, batch * DIM_N);
    cGm.SetGlobalBuffer((__gm__ float *)c + core * batch * DIM_M * DIM_N, batch * DIM_M * DIM_N);
    mm.SetTensorA(aGm, false);
    mm.SetTensorB(bGm, TRANS_B);
    if (HAS_BIAS) {
        mm.SetBias(biasGm);
    }
    mm.IterateBatch(cGm, BATCH_A, BATCH_B, false);
    mm.End();
}
"""

# the cube-only form: an AIC kernel whose object takes its batch counts from SetBatchNum
CUBE_ONLY = ("#define ASCENDC_CUBE_ONLY\n" + KERNEL).replace(
    "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);", "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);").replace(
    "mm.IterateBatch(cGm, BATCH_A, BATCH_B, false);",
    "mm.SetBatchNum(BATCH_A, BATCH_B);\n    mm.IterateBatch(cGm, false, 0, false);")


# the TCubeTiling copied word by word from the tiling argument (as asc-devkit's batch examples do) and passed whole
# to REGIST_MATMUL_OBJ: its fields are the values the caller gives (FoldTilingPass folds the whole struct)
_FIELDS = KERNEL[KERNEL.index("    TCubeTiling tiling;"):KERNEL.index("    Matmul<AType")]
COPIED = KERNEL.replace(_FIELDS, """    TCubeTiling tiling;
    CopyTiling(&tiling, tilingGm);
""").replace('extern "C" __global__', """__aicore__ inline void CopyTiling(TCubeTiling *tiling, __gm__ uint8_t *tilingGm)
{
    uint32_t *ptr = reinterpret_cast<uint32_t *>(tiling);
    auto words = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
    for (int i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); i++, ptr++) {
        *ptr = *(words + i);
    }
}

extern "C" __global__""")


def _tiling(m: int, n: int, k: int, ba: int, bb: int) -> dict[str, int]:
    """The fields the in-kernel TCubeTiling sets (NORMAL layouts need no layout fields)."""
    return dict(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=16, baseN=16,
                baseK=16, isBias=1, iterateOrder=0, BatchNum=max(ba, bb))


def _case(kernel: str, layout: str, m: int, n: int, k: int, ba: int, bb: int, trans_b: bool, bias: bool,
          block_dim: int = 1, tiling: dict[str, int] | None = None, shared_bias: bool = False) -> object:
    rng = np.random.default_rng(m + ba)
    bc = max(ba, bb)
    # per core (2): NORMAL / BNGS1S2 A [ba][M][K], B [bb][K][N] (or [bb][N][K] transposed);
    # BSNGD (N 1): A [M][ba][K], B [K][bb][N] (or [N][bb][K]), C [M][bc][N]
    if layout == "SBNGD":
        # [S][B 2: the core][N 1][G][D]: both cores' matrices side by side in every row
        a = rng.uniform(-1, 1, (m, 2, ba, k)).astype(np.float16)
        b = rng.uniform(-1, 1, (n, 2, bb, k) if trans_b else (k, 2, bb, n)).astype(np.float16)
        am = a.transpose(1, 2, 0, 3)
        bm = b.transpose(1, 2, 3, 0) if trans_b else b.transpose(1, 2, 0, 3)
    elif layout == "BSNGD":
        a = rng.uniform(-1, 1, (2, m, ba, k)).astype(np.float16)
        b = rng.uniform(-1, 1, (2, n, bb, k) if trans_b else (2, k, bb, n)).astype(np.float16)
        am = a.transpose(0, 2, 1, 3)
        bm = b.transpose(0, 2, 3, 1) if trans_b else b.transpose(0, 2, 1, 3)
    else:
        a = rng.uniform(-1, 1, (2, ba, m, k)).astype(np.float16)
        b = rng.uniform(-1, 1, (2, bb, n, k) if trans_b else (2, bb, k, n)).astype(np.float16)
        am, bm = a, (b.transpose(0, 1, 3, 2) if trans_b else b)
    bias_v = rng.uniform(-1, 1, (2, bc, n)).astype(np.float32)
    want = np.zeros((2, bc, m, n))
    for core in range(2):
        for i in range(bc):
            product = am[core, i // (bc // ba)].astype(np.float64) @ bm[core, i // (bc // bb)].astype(np.float64)
            want[core, i] = product + (bias_v[core, 0 if shared_bias else i] if bias else 0)
    if layout == "BSNGD":
        want = want.transpose(0, 2, 1, 3)
    elif layout == "SBNGD":
        want = want.transpose(2, 0, 1, 3)
        kernel = _sbngd(kernel)
    defines = dict(LAYOUT=layout, DIM_M=m, DIM_N=n, DIM_K=k, BATCH_A=ba, BATCH_B=bb,
                   TRANS_B="true" if trans_b else "false", HAS_BIAS=int(bias))
    result = run(kernel, [a, b, bias_v], block_dim=block_dim, defines={k: str(v) for k, v in defines.items()},
                 outputs={"c": np.zeros(want.shape, np.float32)}, tiling=tiling)
    return result, want


def _sbngd(kernel: str) -> str:
    """The kernel with each vector core's A, B and C starting at its b's place in the first row of an SBNGD
    layout (rows hold both cores' matrices), the tensors reaching to the end of the data."""
    out = kernel.replace("a + core * BATCH_A * DIM_M * DIM_K, BATCH_A * DIM_M * DIM_K",
                         "a + core * BATCH_A * DIM_K, 2 * BATCH_A * DIM_M * DIM_K - core * BATCH_A * DIM_K").replace(
        "b + core * BATCH_B * DIM_K * DIM_N, BATCH_B * DIM_K * DIM_N",
        "b + core * BATCH_B * (TRANS_B ? DIM_K : DIM_N), 2 * BATCH_B * DIM_K * DIM_N - core * BATCH_B * "
        "(TRANS_B ? DIM_K : DIM_N)").replace(
        "c + core * batch * DIM_M * DIM_N, batch * DIM_M * DIM_N",
        "c + core * batch * DIM_N, 2 * batch * DIM_M * DIM_N - core * batch * DIM_N")
    assert out.count("2 * ") >= 3, "the kernel's SetGlobalBuffer lines changed"
    return out


@pytest.mark.parametrize("layout, m, n, k, ba, bb, trans_b, bias", [
    ("NORMAL", 20, 40, 24, 3, 3, False, True),
    ("NORMAL", 20, 40, 24, 4, 2, True, False),
    ("BSNGD", 18, 40, 32, 3, 3, True, False),
    ("BNGS1S2", 17, 24, 40, 2, 2, False, False),
    ("SBNGD", 18, 40, 32, 3, 3, True, True),
    ("SBNGD", 17, 24, 40, 2, 2, False, False),
])
def test_iterate_batch_matches_numpy(layout: str, m: int, n: int, k: int, ba: int, bb: int, trans_b: bool,
                                     bias: bool) -> None:
    result, want = _case(KERNEL, layout, m, n, k, ba, bb, trans_b, bias)
    assert result.ok, result.findings
    # fp16 products are exact in fp32; only the order of the sums differs
    np.testing.assert_allclose(result.outputs["c"], want, rtol=1e-5, atol=1e-5)


def test_cube_only_iterate_batch_after_set_batch_num_matches_numpy() -> None:
    assert CUBE_ONLY.count("SetBatchNum") == 1
    result, want = _case(CUBE_ONLY, "NORMAL", 20, 40, 24, 2, 2, False, True, block_dim=2)
    assert result.ok, result.findings
    np.testing.assert_allclose(result.outputs["c"], want, rtol=1e-5, atol=1e-5)


def test_an_unmodelled_layout_is_reported_by_name() -> None:
    result, _ = _case(KERNEL, "NONE", 16, 16, 16, 2, 2, False, False)
    assert any(d.code == "ASC958" and "LayoutMode::NONE" in d.message for d in result.findings), result.findings


def test_a_tiling_copied_from_gm_reaches_the_object() -> None:
    assert "TCubeTiling tiling;\n    CopyTiling(&tiling, tilingGm);" in COPIED
    result, want = _case(COPIED, "NORMAL", 20, 40, 24, 3, 3, False, True, tiling=_tiling(20, 40, 24, 3, 3))
    assert result.ok, result.findings
    np.testing.assert_allclose(result.outputs["c"], want, rtol=1e-5, atol=1e-5)


# the vendor's shape of the same kernel: a class template over the four MatmulTypes, given function-local typedefs;
# each vector core offsets A, B and C by its b only where `A_TYPE::layout == LayoutMode::BSNGD`; the bias tensor
# set over nullptr and never used. Each of the three lowering steps fails it alone: the Matmul member's config
# spelled the template parameters (layout NONE: ASC958), MatmulType's static `layout` was unknown (both cores on
# b 0, half of C unwritten), and SetGlobalBuffer(nullptr) stopped the core.
CLASS_TEMPLATE = """#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
class BatchKernel {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &tiling)
    {
        using aType = typename A_TYPE::T;
        using cType = typename C_TYPE::T;
        using biasType = typename BIAS_TYPE::T;
        int32_t offsetA = 0;
        int32_t offsetB = 0;
        int32_t offsetC = 0;
        if constexpr (A_TYPE::layout == LayoutMode::BSNGD) {
            offsetA = GetBlockIdx() * tiling.ALayoutInfoS * tiling.ALayoutInfoN * tiling.ALayoutInfoG *
                      tiling.ALayoutInfoD;
        }
        if constexpr (B_TYPE::layout == LayoutMode::BSNGD) {
            offsetB = GetBlockIdx() * tiling.BLayoutInfoS * tiling.BLayoutInfoN * tiling.BLayoutInfoG *
                      tiling.BLayoutInfoD;
        }
        if constexpr (C_TYPE::layout == LayoutMode::BSNGD) {
            offsetC = GetBlockIdx() * tiling.CLayoutInfoS1 * tiling.CLayoutInfoN * tiling.CLayoutInfoG *
                      tiling.CLayoutInfoS2;
        }
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ aType *>(a) + offsetA, 4096);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ aType *>(b) + offsetB, 4096);
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ cType *>(c) + offsetC, 4096);
        biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ biasType *>(nullptr), 0);
    }
    __aicore__ inline void Process(int32_t batch)
    {
        mm.SetTensorA(aGm, false);
        mm.SetTensorB(bGm, true);
        mm.IterateBatch(cGm, batch, batch, false);
    }
    Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> mm;

private:
    GlobalTensor<typename A_TYPE::T> aGm;
    GlobalTensor<typename B_TYPE::T> bGm;
    GlobalTensor<typename C_TYPE::T> cGm;
    GlobalTensor<typename BIAS_TYPE::T> biasGm;
};

extern "C" __global__ __aicore__ void batch_mm(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                               GM_ADDR tilingGm)
{
    TCubeTiling tiling;
""" + _FIELDS.split("    TCubeTiling tiling;\n", 1)[1] + """    typedef MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::BSNGD> A_TYPE;
    typedef MatmulType<TPosition::GM, CubeFormat::ND, half, true, LayoutMode::BSNGD> B_TYPE;
    typedef MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::BSNGD> C_TYPE;
    typedef MatmulType<TPosition::GM, CubeFormat::ND, float> BIAS_TYPE;
    TPipe pipe;
    BatchKernel<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tiling);
    op.Init(a, b, c, tiling);
    op.Process(BATCH_A);
}
"""


def test_a_vendor_shaped_class_template_kernel_matches_numpy() -> None:
    result, want = _case(CLASS_TEMPLATE, "BSNGD", 18, 40, 32, 3, 3, True, False)
    assert result.ok, result.findings
    np.testing.assert_allclose(result.outputs["c"], want, rtol=1e-5, atol=1e-5)


DEVKIT = Path(os.environ.get("ASC_DEVKIT", "/work/ext/real/asc-devkit"))
BATCH_EXAMPLES = DEVKIT / "examples/01_simd_cpp_api/04_advanced_api/00_matmul"


@pytest.mark.skipif(not (BATCH_EXAMPLES / "batch_matmul").is_dir(), reason=f"no asc-devkit checkout at {DEVKIT}")
def test_vendor_batch_matmul_example_matches_numpy() -> None:
    # its main's shapes: A [2][32][1][3][64], B (transposed) [2][256][1][3][64], C [2][32][1][3][256], one MIX block;
    # its host main is not evaluated here: the tiling is the values its ComputeTiling sets
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (2, 32, 1, 3, 64)).astype(np.float16)
    b = rng.uniform(-1, 1, (2, 256, 1, 3, 64)).astype(np.float16)
    want = np.einsum("bsngd,btngd->bsngt", a.astype(np.float64), b.astype(np.float64))
    tiling = dict(usedCoreNum=1, M=32, N=256, Ka=64, Kb=64, singleCoreM=32, singleCoreN=256, singleCoreK=64, baseM=32,
                  baseN=32, baseK=64, isBias=0, iterateOrder=0, BatchNum=3, ALayoutInfoB=2, ALayoutInfoS=32,
                  ALayoutInfoN=1, ALayoutInfoG=3, ALayoutInfoD=64, BLayoutInfoB=2, BLayoutInfoS=256, BLayoutInfoN=1,
                  BLayoutInfoG=3, BLayoutInfoD=64, CLayoutInfoB=2, CLayoutInfoS1=32, CLayoutInfoN=1, CLayoutInfoG=3,
                  CLayoutInfoS2=256)
    result = run(str(BATCH_EXAMPLES / "batch_matmul" / "batch_matmul.asc"), [a.reshape(192, 64), b.reshape(1536, 64)],
                 block_dim=1, tiling=tiling, outputs={"c": np.zeros((192, 256), np.float32)})
    assert result.ok, result.findings
    np.testing.assert_allclose(result.outputs["c"].reshape(want.shape), want, rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(not (BATCH_EXAMPLES / "batch_matmul_bias_reuse").is_dir(),
                    reason=f"no asc-devkit checkout at {DEVKIT}")
def test_vendor_batch_matmul_bias_reuse_example_matches_numpy() -> None:
    # NORMAL layouts and one bias row for every batch (its MatmulConfig CFG_MM = GetMMConfig<...>(batchParams), with
    # isBiasBatch false in batchParams)
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (3, 32, 64)).astype(np.float16)
    b = rng.uniform(-1, 1, (3, 64, 256)).astype(np.float16)
    bias = rng.uniform(-1, 1, (256,)).astype(np.float32)
    tiling = dict(usedCoreNum=1, M=32, N=256, Ka=64, Kb=64, singleCoreM=32, singleCoreN=256, singleCoreK=64, baseM=32,
                  baseN=32, baseK=64, isBias=1, iterateOrder=0, BatchNum=3)
    result = run(str(BATCH_EXAMPLES / "batch_matmul_bias_reuse" / "batch_matmul_bias_reuse.asc"), [a, b, bias],
                 block_dim=1, tiling=tiling, outputs={"c": np.zeros((3, 32, 256), np.float32)})
    assert result.ok, result.findings
    want = np.einsum("bmk,bkn->bmn", a.astype(np.float64), b.astype(np.float64)) + bias
    np.testing.assert_allclose(result.outputs["c"], want, rtol=1e-5, atol=1e-5)


# a shared bias (isBiasBatch false through GetMMConfig, as the bias_reuse example builds its config), and a config the
# lowering cannot read, whose bias form is reported
SHARED_BIAS = KERNEL.replace("extern \"C\" __global__", """constexpr MatmulBatchParams batchParams = {false, BatchMode::BATCH_LESS_THAN_L1, false};
constexpr MatmulConfig CFG_SHARED = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(batchParams);

extern "C" __global__""").replace("Matmul<AType, BType, CType, BiasType> mm;",
                                  "Matmul<AType, BType, CType, BiasType, CFG_SHARED> mm;")


@pytest.mark.parametrize("readable", [True, False])
def test_a_bias_shared_by_the_batches(readable: bool) -> None:
    kernel = SHARED_BIAS if readable else SHARED_BIAS.replace("GetMMConfig<MatmulConfigMode::CONFIG_NORM>(batchParams)",
                                                              "GetMMConfig<MatmulConfigMode::CONFIG_NORM>()")
    assert kernel.count("CFG_SHARED") == 2 and kernel.count("GetMMConfig") == 1
    result, want = _case(kernel, "NORMAL", 20, 40, 24, 3, 3, False, True, shared_bias=True)
    if not readable:
        assert any(d.code == "ASC958" and "isBiasBatch" in d.message for d in result.findings), result.findings
        return
    assert result.ok, result.findings
    np.testing.assert_allclose(result.outputs["c"], want, rtol=1e-5, atol=1e-5)
