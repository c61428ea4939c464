"""Matmul objects instantiated with a config a builder makes (issue 29, session 13): ops-nn mat_mul_v3's kernels
declare `constexpr MatmulConfig MM_CFG_NO_PRELOAD = GetMDLConfig(false, false, 0, false, false, false, true);` and
pass it to a class template's `const MatmulConfig& MM_CFG` parameter, which instantiates `Matmul<..., MM_CFG>`.
Before, GetMDLConfig was a call the lowering could not resolve and every core stopped there (ASC958, output
unwritten); it is now the constant config of asc-devkit's builder (ascendir/lower/matmul_config.py), and the
Matmul's text names its fields. A Matmul declared as `MatmulImpl<...>` (the class asc-devkit's `Matmul` aliases, which
mat_mul_v3's kernels name) is the same Matmul object: before, it was an opaque object of no config, so a kernel
declaring no type of its own was not run on the cube cores (mat_mul_v3's output stayed unwritten, ASC961)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

constexpr MatmulConfig MY_CFG = CFG_EXPR;

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE, const MatmulConfig& MM_CFG = CFG_MDL>
class Runner {
public:
    __aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling* tiling)
    {
        TPipe pipe;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, tiling);
        GlobalTensor<half> aGm;
        GlobalTensor<half> bGm;
        GlobalTensor<float> cGm;
        aGm.SetGlobalBuffer((__gm__ half *)a, DIM_M * DIM_K);
        bGm.SetGlobalBuffer((__gm__ half *)b, DIM_K * DIM_N);
        cGm.SetGlobalBuffer((__gm__ float *)c, DIM_M * DIM_N);
        mm.SetTensorA(aGm, false);
        mm.SetTensorB(bGm, false);
        mm.IterateAll(cGm);
        mm.End();
    }
    MATMUL_CLASS<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG> mm;
};

extern "C" __global__ __aicore__ void mm_cfg(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tilingGm)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
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
    tiling.stepM = 1;
    tiling.stepN = 1;
    tiling.stepKa = 1;
    tiling.stepKb = 1;
    tiling.depthA1 = 1;
    tiling.depthB1 = 1;
    tiling.isBias = 0;
    tiling.iterateOrder = 0;
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Runner<AType, BType, CType, CType, MY_CFG> r;
    r.Run(a, b, c, &tiling);
}
"""


@pytest.mark.parametrize("config, fields", [
    ("GetMDLConfig(false, false, 0, false, false, false, true)",
     "{doNorm=false}{doMultiDataLoad=true}{isNBatch=false}{batchMode=NONE}{isBiasBatch=true}"),
    ("GetNormalConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1, true, IterateOrder::ORDER_M)",
     "{isNBatch=false}{isBiasBatch=true}{iterateOrder=ORDER_M}"),
    ("GetSpecialMDLConfig(false, false, 1)", "{doMTE2Preload=1}"),
])
def test_a_builder_made_config_instantiates_the_matmul(config: str, fields: str) -> None:
    m, n, k = 40, 40, 24
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    kernel = KERNEL.replace("MATMUL_CLASS", "Matmul").replace("CFG_EXPR", config)
    result = run(kernel, [a, b], block_dim=1, outputs={"c": np.zeros((m, n), np.float32)},
                 defines={"DIM_M": str(m), "DIM_N": str(n), "DIM_K": str(k)}, workspace=4096)
    assert result.ok, [str(f) for f in result.findings]
    np.testing.assert_allclose(result.outputs["c"], a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5,
                               atol=1e-5)
    text = result.program[result.program.index("MatmulConfig{"):]
    assert all(piece in text.split(">")[0] for piece in re.findall(r"\{[^}]*\}", fields)), text[:300]


def test_the_config_text_of_each_builder() -> None:
    from ascendir.lower.matmul_config import BUILDERS, NORMAL, text

    assert text(dict(NORMAL)) == "MatmulConfig{isNBatch=false}{isBiasBatch=true}"
    mdl = dict(NORMAL, **BUILDERS["GetMDLConfig"][1])
    assert text(mdl) == "MatmulConfig{doNorm=false}{doMultiDataLoad=true}{isNBatch=false}{batchMode=NONE}" \
        "{isBiasBatch=true}"


def test_a_matmulimpl_object_is_the_matmul_and_makes_the_kernel_mixed() -> None:
    m, n, k = 40, 40, 24
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    kernel = KERNEL.replace("    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);\n", "")
    kernel = kernel.replace("MATMUL_CLASS", "MatmulImpl").replace("CFG_EXPR", "GetMDLConfig()")
    assert "KERNEL_TASK_TYPE" not in kernel
    result = run(kernel, [a, b], block_dim=1, outputs={"c": np.zeros((m, n), np.float32)},
                 defines={"DIM_M": str(m), "DIM_N": str(n), "DIM_K": str(k)}, workspace=4096)
    assert result.ok, [str(f) for f in result.findings]
    np.testing.assert_allclose(result.outputs["c"], a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5,
                               atol=1e-5)
    lines = result.program.splitlines()
    assert "kernel mm_cfg mix_aic_1_2" in lines
    assert any(line.startswith("object o0 opaque mm type=Matmul config=MatmulImpl<MatmulType<") for line in lines)
