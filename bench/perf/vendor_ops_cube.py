"""Cube (matmul) op projects for bench/perf/vendor_ops.py (session 11, issue 29): ops-nn's matmul ops run from their
own host code on the AI Cube cores. transpose_batch_mat_mul's README (ops-nn matmul/transpose_batch_mat_mul): x1 and
x2 each transposed by its perm, the batch (axis 0 after the perm) kept and the other two axes multiplied, the
product transposed by perm_y ((1, 0, 2), the only one supported): torch.matmul with the permutations. Shapes are
small, inputs seeded. The host takes its PpMatmulEinsum path (tiling key 36 for perm_x1 (1, 0, 2)) when inputs and
output are float, or when perm_x2 is (0, 2, 1) (transpose_batch_mat_mul_einsum_tiling.cpp IsPpMatmulEinsumMode;
the README lists only perm_x2 (0, 1, 2), the host and kernel take (0, 2, 1) too). mat_mul_v3 (session 13): y = x1 @ x2
(its README and aclnnMm), half inputs and output, no bias; its host picks the MIX template that turns the operands
ND to NZ on the vector cores where a row is not 256 bytes (x2's 96 and 70 halves). batch_mat_mul_v3 (session 14):
y = x1 @ x2 per batch (its README and docs/aclnnBatchMatMul.md: self (B, M, K) @ mat2 (B, K, N)), half, no bias,
adj_x1 / adj_x2 false."""

from __future__ import annotations

import numpy as np

from vendor_op_case import Arrays, OpCase, f32


def _tbmm(a: Arrays, perm_x2: tuple[int, int, int]) -> Arrays:
    x1 = a["x1"].astype(np.float64).transpose(1, 0, 2)  # perm_x1 (1, 0, 2): (M, B, K) -> (B, M, K)
    x2 = a["x2"].astype(np.float64).transpose(perm_x2)  # -> (B, K, N)
    return {"y": np.matmul(x1, x2).transpose(1, 0, 2)}  # perm_y (1, 0, 2): (B, M, N) -> (M, B, N)


def _matmul(a: Arrays) -> Arrays:
    return {"y": a["x1"].astype(np.float64) @ a["x2"].astype(np.float64)}


def _mat_mul_v3(name: str, m: int, k: int, n: int, note: str) -> OpCase:
    return OpCase(name, "ops-nn/matmul/mat_mul_v3",
                  lambda r: {"x1": f32(r, m, k).astype(np.float16), "x2": f32(r, k, n).astype(np.float16)},
                  {"y": ((m, n), "float16")}, _matmul, note="y = x1 @ x2 (README, aclnnMm); " + note)


def cube_cases() -> list[OpCase]:
    m, b, k, n = 32, 2, 64, 32
    folder = "ops-nn/matmul/transpose_batch_mat_mul"
    note = "y = (x1^(1,0,2) @ x2^perm_x2)^(1,0,2), torch.matmul with the permutations (README)"
    return [
        OpCase("transpose_batch_mat_mul", folder,
               lambda r: {"x1": f32(r, m, b, k), "x2": f32(r, b, k, n)},
               {"y": ((m, b, n), "float32")}, lambda a: _tbmm(a, (0, 1, 2)),
               attrs=["1,0,2", "0,1,2", "1,0,2", "false", "1"], note=note + "; float: its einsum path"),
        OpCase("transpose_batch_mat_mul_fp16_x2t", folder,
               lambda r: {"x1": f32(r, m, b, k).astype(np.float16), "x2": f32(r, b, n, k).astype(np.float16)},
               {"y": ((m, b, n), "float16")}, lambda a: _tbmm(a, (0, 2, 1)),
               attrs=["1,0,2", "0,2,1", "1,0,2", "false", "1"], note=note + "; perm_x2 (0, 2, 1): its einsum path"),
        _mat_mul_v3("mat_mul_v3", 64, 128, 96, "half 64x128 @ 128x96"),
        _mat_mul_v3("mat_mul_v3_tails", 50, 100, 70, "half 50x100 @ 100x70: tails in m, k and n"),
        OpCase("batch_mat_mul_v3", "ops-nn/matmul/batch_mat_mul_v3",
               lambda r: {"x1": f32(r, 3, 40, 72).astype(np.float16), "x2": f32(r, 3, 72, 56).astype(np.float16)},
               {"y": ((3, 40, 56), "float16")}, _matmul,
               note="y = x1 @ x2 per batch (README, aclnnBatchMatMul); half (3, 40, 72) @ (3, 72, 56): tails in m, "
                    "k and n"),
    ]
