"""The clean corpus's cube kernels as simulator test cases (see clean_cases.py): the four without host code and the
MultiKernelBench answer square_matrix_multiplication.md, which runs its own host tiling. test_cube.py runs the op
projects of the clean corpus's matmul, mmad and MIX kernels; the session-16 audit of issue 28 found that no test ran
these.

Without host code, a case gives the TCubeTiling its kernel's host would compute with MultiCoreMatmulTiling: the split
of C over the cores (usedCoreNum, singleCoreM/N/K; the kernels place a core's block with mIdx = blockIdx % mBlocks)
and base blocks within L0 (baseM/N/K multiples of 16). The other TCubeTiling fields (depths, steps) change how the
library moves data, not C. matmul_api.cpp reads it as a member of its tiling struct (`cubeTilingData.M`), and
matmul_copy_tiling.cpp copies it word by word from GM into a TCubeTiling of its own (`M`).

blockDim: matmul_api.cpp is cube only (KERNEL_TYPE_AIC_ONLY), one block per part of C. matmul_leakyrelu_mix.cpp and
matmul_copy_tiling.cpp have no task type and include the Matmul library: MIX launches of one AIC and two AIVs per
block, where each AIV's GetBlockIdx picks a part of C, so the host launches usedCoreNum / 2 blocks (as the vendor's
MIX matmul examples do, asc-devkit examples/01_simd_cpp_api/04_advanced_api/00_matmul). Neither kernel returns on an
AIV past usedCoreNum, and matmul_leakyrelu_mix.cpp copies whole baseM x baseN blocks: their cases use an even number
of parts and, for the latter, parts cut evenly into base blocks. mmad_cube.cpp fixes its tile (64 x 128 x 128) at
compile time; the cases vary the cores.

matmul_leakyrelu_mix.cpp reads its negativeSlope from a tiling struct the kernel alone does not define, so the field
reads as an integer converted to float (as axpy's alpha in clean_cases.py): the cases give a whole slope.
"""

from __future__ import annotations

import numpy as np

from clean_cases import CLEAN, TPIPE, Case, Launch, uniform

GM_TILING = CLEAN / "kernels/gm_tiling"
MKB = CLEAN / "answers/multikernelbench"


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _align16(a: int) -> int:
    return _ceil(a, 16) * 16


def cube_tiling(m: int, k: int, n: int, single_m: int, single_n: int, with_bias: bool,
                base: tuple[int, int] | None = None) -> dict[str, int]:
    """A TCubeTiling for C[m, n] = A[m, k] B[k, n] cut into single_m x single_n parts, one per core (or AIV)."""
    base_m, base_n = base or (min(_align16(single_m), 128), min(_align16(single_n), 128))
    return {"usedCoreNum": _ceil(m, single_m) * _ceil(n, single_n), "M": m, "N": n, "Ka": k, "Kb": k,
            "singleCoreM": single_m, "singleCoreN": single_n, "singleCoreK": k, "baseM": base_m, "baseN": base_n,
            "baseK": min(_align16(k), 64), "isBias": int(with_bias), "iterateOrder": 0}


def _operands(rng: np.random.Generator, m: int, k: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = uniform(rng, (m, k), np.float16, -1, 1)
    b = uniform(rng, (k, n), np.float16, -1, 1)
    return a, b, uniform(rng, n, np.float32, -1, 1)


def _product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    # half products are exact in float32; the cube accumulates in float32
    return a.astype(np.float32) @ b.astype(np.float32)


def _matmul_api(shape: tuple[int, int, int, int, int, bool], rng: np.random.Generator) -> Launch:
    m, k, n, single_m, single_n, with_bias = shape
    a, b, bias = _operands(rng, m, k, n)
    fields = cube_tiling(m, k, n, single_m, single_n, with_bias)
    c = _product(a, b) + (bias if with_bias else 0)
    return Launch({"a": a, "b": b, "bias": bias}, {"c": c.astype(np.float32)},
                  {f"cubeTilingData.{f}": v for f, v in fields.items()}, fields["usedCoreNum"],
                  {"c": ((m, n), "float32")}, tiling_key=1 if with_bias else 2)


def _mmad_cube(cores: int, rng: np.random.Generator) -> Launch:
    m, k, n = 64 * cores, 128, 128  # the kernel's M_TILE x K_SIZE x N_SIZE, M_TILE rows per core
    a, b, _ = _operands(rng, m, k, n)
    return Launch({"a": a, "b": b}, {"c": _product(a, b)}, None, cores, {"c": ((m, n), "float32")})


def _matmul_leakyrelu(shape: tuple[int, int, int, int, int, int, int, int], rng: np.random.Generator) -> Launch:
    m, k, n, single_m, single_n, base_m, base_n, slope = shape
    a, b, bias = _operands(rng, m, k, n)
    fields = cube_tiling(m, k, n, single_m, single_n, True, (base_m, base_n))
    x = _product(a, b) + bias
    tiling: dict[str, int | float] = {f"cubeTilingData.{f}": v for f, v in fields.items()}
    tiling["negativeSlope"] = slope
    return Launch({"a": a, "b": b, "bias": bias}, {"c": np.where(x > 0, x, np.float32(slope) * x).astype(np.float32)},
                  tiling, fields["usedCoreNum"] // 2, {"c": ((m, n), "float32")})


def _matmul_copy_tiling(shape: tuple[int, int, int, int, int], rng: np.random.Generator) -> Launch:
    m, k, n, single_m, single_n = shape
    a, b, bias = _operands(rng, m, k, n)
    fields = cube_tiling(m, k, n, single_m, single_n, True)
    return Launch({"a": a, "b": b, "bias": bias}, {"c": (_product(a, b) + bias).astype(np.float32)}, dict(fields),
                  fields["usedCoreNum"] // 2, {"c": ((m, n), "float32")})


def _square_matmul(n: int, rng: np.random.Generator) -> Launch:
    a, b = uniform(rng, (n, n), np.float32), uniform(rng, (n, n), np.float32)
    return Launch([a, b], {"c": (a.astype(np.float64) @ b).astype(np.float32)})


CUBE_CASES: list[Case] = [
    # 4 x 5 parts with tails in M (150 = 3 x 40 + 30) and N (70 = 4 x 16 + 6), with bias; 3 x 2 parts, no bias
    Case("matmul_api", TPIPE / "matmul_api.cpp", [(150, 300, 70, 40, 16, True), (100, 64, 90, 48, 48, False)],
         _matmul_api),
    Case("mmad_cube", TPIPE / "mmad_cube.cpp", [1, 3], _mmad_cube),
    # 2 x 2 parts of two 64 x 64 base blocks; 3 x 2 parts of three 32 x 48 base blocks, K not a multiple of 16
    Case("matmul_leakyrelu_mix", TPIPE / "matmul_leakyrelu_mix.cpp",
         [(256, 64, 128, 128, 64, 64, 64, 2), (288, 40, 96, 96, 48, 32, 48, 3)], _matmul_leakyrelu),
    Case("matmul_copy_tiling", GM_TILING / "matmul_copy_tiling.cpp",
         [(150, 300, 70, 40, 16), (100, 64, 90, 48, 48)], _matmul_copy_tiling),
    # the host's MultiCoreMatmulTiling over the AIC cores: 256 on 16 cores, 100 (no 16-multiple) on 21
    Case("mkb_square_matrix_multiplication", MKB / "square_matrix_multiplication.md", [256, 100], _square_matmul),
]
