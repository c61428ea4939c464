"""Issue 28 on a vendor kernel: ops-math's FusedMulAddN for arch35 (fused_mul_add_n_apt.cpp, arch35/fused_mul_add_n.h:
y = x1 * x3 + x2 in a `__VEC_SCOPE__` over MicroAPI registers: UpdateMask, the register DataCopy forms with
LoadDist::DIST_NORM / StoreDist::DIST_NORM_B32, Muls and Add in ZEROING mode) runs on --chip 950PR from its
tiling fields, two UB loops of 256 and 44 elements (the 44-element loop's last register a 44-lane UpdateMask
tail), and equals numpy bit for bit for float, int32 and int16. The int16 key stores its 16-bit registers with
StoreDist::DIST_NORM_B32 (pairs of elements, the b16 mask read at 32-bit lanes: rust_sim/src/vector/reg/dist.rs),
an ASC958 until session 10. Before issue 28 the run stopped at the first MicroAPI call. Skips when /work/ext/real
is absent. FusedMulAddNHalf (float16 / bfloat16 keys: UNPACK_B16 loads, Cast, PACK_B32 stores) equals numpy bit for
bit since session 10 (engineer R1's Cast, R2's distributions)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = Path("/work/ext/real/ops-math/math/fused_mul_add_n/op_kernel/fused_mul_add_n_apt.cpp")
pytestmark = pytest.mark.skipif(not KERNEL.exists(), reason="the vendor kernels (/work/ext/real) are not here")

N = 300
TILING = {"dim0": N, "blockFormer": N, "ubFormer": 256, "ubLoopOfFormerBlock": 2, "ubLoopOfTailBlock": 2,
          "ubTailOfFormerBlock": N - 256, "ubTailOfTailBlock": N - 256, "elemNum": 256}
KEYS = {"float32": 100000000000100, "int32": 300000000000100, "int16": 400000000000100, "float16": 200000000000100,
        "bfloat16": 500000000000100}


def simulate(dtype: str, x1: np.ndarray, x2: np.ndarray, x3: np.ndarray):
    return run(str(KERNEL), [x1, x2, x3], chip="950PR", fmt="cpp", block_dim=1, tiling=TILING,
               tiling_key=KEYS[dtype], outputs={"y": ((N,), dtype)})


@pytest.mark.parametrize("dtype", ["float32", "int32", "int16"])
def test_fused_mul_add_n_matches_numpy(dtype: str) -> None:
    rng = np.random.default_rng(3)
    if dtype == "float32":
        x1, x2 = rng.standard_normal(N).astype(np.float32), rng.standard_normal(N).astype(np.float32)
        x3 = np.array([1.25], np.float32)
    else:
        x1, x2 = rng.integers(-1000, 1000, N).astype(dtype), rng.integers(-1000, 1000, N).astype(dtype)
        x3 = np.array([-7], dtype)
    result = simulate(dtype, x1, x2, x3)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], (x1 * x3[0]).astype(x1.dtype) + x2)


def bfloat16_bits(x: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 bit patterns, rounding to nearest even (numpy has no bfloat16)."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def bfloat16_value(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_fused_mul_add_n_half_matches_numpy(dtype: str) -> None:
    # FusedMulAddNHalf (arch35/fused_mul_add_n_half.h): DIST_UNPACK_B16 loads (half j in the low half of 32-bit
    # lane j), Cast to float (RegLayout::ZERO), Muls / Add in float, Cast back with CAST_RINT and DIST_PACK_B32
    # stores (the low halves written contiguously) under UpdateMask<float>: 300 elements in registers of 64, the
    # 44-element tail of the second UB loop included. bfloat16 also reads x3 with ToFloat<bfloat16_t>.
    rng = np.random.default_rng(7)
    a, b, c = rng.standard_normal(N), rng.standard_normal(N), np.array([1.3])
    if dtype == "float16":
        x1, x2, x3 = a.astype(np.float16), b.astype(np.float16), c.astype(np.float16)
        want = (x1.astype(np.float32) * np.float32(x3[0]) + x2.astype(np.float32)).astype(np.float16).view(np.uint16)
    else:
        x1, x2, x3 = bfloat16_bits(a), bfloat16_bits(b), bfloat16_bits(c)
        want = bfloat16_bits(bfloat16_value(x1) * bfloat16_value(x3)[0] + bfloat16_value(x2))
    result = simulate(dtype, x1, x2, x3)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"].view(np.uint16), want)



# ops-nn's IndexFillD for arch35 (index_fill_d_apt.cpp, arch35/index_fill_d.h: y = assist1 > 0 ? x : assist2 in a
# __simd_vf__ over MicroAPI registers: Compares<T, CMPMODE::GT> into a MaskReg, Select by it, a tail UpdateMask
# on the store; GetVecLen() for the register's lanes), two UB loops of 256 and 44 elements from its tiling fields
INDEX_FILL_D = Path("/work/ext/real/ops-nn/index/index_fill_d/op_kernel/index_fill_d_apt.cpp")
INDEX_FILL_D_TILING = {"normalCoreData": N, "tailCoreData": N, "ubFactor": 256, "tailUbFactor": N - 256,
                       "tailCoreTailUbFactor": N - 256, "normalCoreLoop": 2, "tailCoreLoop": 2}


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32", "int16"])
def test_index_fill_d_compares_and_selects_as_numpy(dtype: str) -> None:
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(N) * 100).astype(dtype)
    assist1 = rng.integers(-1, 2, N).astype(dtype)  # > 0 where the index is filled
    assist2 = (rng.standard_normal(N) * 100).astype(dtype)
    result = run(str(INDEX_FILL_D), [x, assist1, assist2], chip="950PR", fmt="cpp", block_dim=1,
                 tiling=INDEX_FILL_D_TILING, tiling_key=200, outputs={"y": ((N,), dtype)})
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], np.where(assist1 > 0, x, assist2))


# ops-nn's CrossEntropySumExpAndIndexLogit for arch35 (its kernel file, tiling key 100 = CE_REGBASE; the header's
# formula, cross_entropy_sum_exp_and_index_logit.h:14-20): MaskOffsetVF compares the targets with Compares<int32_t,
# CMPMODE::GE> and <CMPMODE::LT>, intersects the two MaskRegs with And, offsets with Adds and picks with Select;
# ExpSumTileVF subtracts the row max (Adds) and Exps; the row sums are the tensor-level Block/WholeReduceSum. 5 rows
# in blocks of 3, a 200-wide vocabulary in tiles of 128 and 72 (a tail UpdateMask of 8).
CROSS_ENTROPY = Path("/work/ext/real/ops-nn/loss/cross_entropy_sum_exp_and_index_logit/op_kernel/arch35/"
                     "cross_entropy_sum_exp_and_index_logit.cpp")


def test_cross_entropy_sum_exp_and_index_logit_matches_its_formula() -> None:
    rows, vocab, start, end = 5, 200, 50, 150
    rng = np.random.default_rng(0)
    logits = rng.standard_normal((rows, vocab)).astype(np.float32)
    target = np.array([50, 149, 150, 83, 20], np.int32)  # both ends of [start, end), one past it, one inside, one below
    gmax = logits.max(-1)
    tiling = {"N": rows, "vLocal": vocab, "usedCores": 1, "headCoreNum": 0, "tokensPerCore": rows,
              "tokensPerCoreTail": rows, "headBlockNum": 2, "tailBlockNum": 2, "rowBlockMax": 3, "vTile": 128,
              "vLoopNum": 2, "lastVTile": vocab - 128, "reduceTmpBytes": 4096, "vocabStart": start, "vocabEnd": end}
    outputs = {"predicted_logits": ((rows,), "float32"), "sum_exp_logits": ((rows,), "float32"),
               "exp_logits": ((rows, vocab), "float32"), "target_offset": ((rows,), "int32"),
               "target_mask": ((rows,), "int32")}
    result = run(str(CROSS_ENTROPY), [logits, target, gmax], chip="950PR", fmt="cpp", block_dim=1, tiling=tiling,
                 tiling_key=100, outputs=outputs)
    assert result.ok, [str(d) for d in result.findings]
    out = result.outputs
    in_range = (target >= start) & (target < end)
    offset = np.where(in_range, target - start, 0)
    np.testing.assert_array_equal(out["target_offset"], offset)
    np.testing.assert_array_equal(out["target_mask"], np.where(in_range, 0, 1))
    np.testing.assert_array_equal(out["predicted_logits"],
                                  np.where(in_range, logits[np.arange(rows), offset] - gmax, 0).astype(np.float32))
    e = np.exp(logits - gmax[:, None])
    np.testing.assert_allclose(out["exp_logits"], e, rtol=1e-6)  # f32 exp: numpy's and Rust's may differ by an ulp
    np.testing.assert_allclose(out["sum_exp_logits"], e.sum(-1), rtol=1e-6)


# ops-nn's Sigmoid for arch35 (sigmoid_apt.cpp, arch35/sigmoid_f16.h / sigmoid_bf16.h: y = 1 / (1 + exp(-x)) in float
# between a LoadAlign<T, LoadDist::DIST_UNPACK_B16> and a StoreAlign<T, StoreDist::DIST_PACK_B32>, the same tiling
# fields as FusedMulAddN); the float32 key has no distribution and is left out here.
SIGMOID = Path("/work/ext/real/ops-nn/activation/sigmoid/op_kernel/sigmoid_apt.cpp")


@pytest.mark.skipif(not SIGMOID.exists(), reason="ops-nn (/work/ext/real) is not here")
@pytest.mark.parametrize("dtype, key", [("float16", 100000000000100), ("bfloat16", 200000000000100)])
def test_sigmoid_half_matches_numpy(dtype: str, key: int) -> None:
    a = np.random.default_rng(5).standard_normal(N) * 4
    if dtype == "float16":
        x = a.astype(np.float16)
        xf = x.astype(np.float32)
    else:
        x = bfloat16_bits(a)
        xf = bfloat16_value(x)
    y = np.float32(1) / (np.exp(-xf) + np.float32(1))
    want = y.astype(np.float16).view(np.uint16) if dtype == "float16" else bfloat16_bits(y)
    result = run(str(SIGMOID), [x], chip="950PR", fmt="cpp", block_dim=1, tiling=TILING, tiling_key=key,
                 outputs={"y": ((N,), dtype)})
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"].view(np.uint16), want)


# ops-nn's CosineEmbeddingLoss for arch35 (its kernel file; the contiguous 2-D fast path): ComputeFeaturePartialVf
# folds x1.x2, x1.x1 and x2.x2 with Mul / Add and Reduce<ReduceType::SUM> into element 0, stored with
# StoreDist::DIST_FIRST_ELEMENT_B32; FinalizeLossVf loads the stats and the target with LoadDist::DIST_BRC_B32,
# casts the int32 target with Cast<float, int32_t>, and picks 1 - cos or max(0, cos - margin) with Compares<float,
# CMPMODE::EQ> and Select. 6 rows of 100 features in tiles of 64 (a 36-lane tail), every reduction mode.
COSINE = Path("/work/ext/real/ops-nn/loss/cosine_embedding_loss/op_kernel/arch35/cosine_embedding_loss.cpp")


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
def test_cosine_embedding_loss_matches_numpy(reduction: str) -> None:
    rows, features, margin = 6, 100, 0.1
    rng = np.random.default_rng(0)
    x1 = rng.standard_normal((rows, features)).astype(np.float32)
    x2 = rng.standard_normal((rows, features)).astype(np.float32)
    x2[2] = x1[2] * 0.5  # cos = 1: a loss of 0 (to f32 rounding)
    target = np.array([1, -1, 1, -1, 1, -1], np.int32)
    code = {"none": 0, "sum": 1, "mean": 2}[reduction]
    pad = [0] * 7
    tiling = {"n": rows, "d": features, "dAlign": 104, "rowsPerCore": rows, "tailRows": rows, "usedCoreNum": 1,
              "ubTileRows": 1, "featureTile": 64, "reduceTmpBytes": 1024, "reduction": code, "fastPath": 1,
              "outputRank": 1, "xBroadcastRank": 2, "margin": margin, "meanCoef": 1.0 / rows, "eps": 1e-12,
              "outputShape": [rows, *pad], "x1OutStrides": [features, *pad], "x2OutStrides": [features, *pad],
              "targetOutStrides": [1, *pad], "x1ReduceStride": 1, "x2ReduceStride": 1}
    shape = (rows,) if reduction == "none" else (1,)
    result = run(str(COSINE), [x1, x2, target], chip="950PR", fmt="cpp", block_dim=1, tiling=tiling,
                 outputs={"y": (shape, "float32")}, workspace=1024)
    assert result.ok, [str(d) for d in result.findings]
    cos = (x1 * x2).sum(1) / np.sqrt(((x1 * x1).sum(1) + 1e-12) * ((x2 * x2).sum(1) + 1e-12))
    loss = np.where(target == 1, 1 - cos, np.maximum(0, cos - margin))
    want = {"none": loss, "sum": loss.sum(keepdims=True), "mean": loss.mean(keepdims=True)}[reduction]
    np.testing.assert_allclose(result.outputs["y"], want, rtol=1e-5, atol=1e-6)


# ops-math's Floor for arch35 (floor_apt.cpp, arch35/floor_f16.h / floor_bf16.h / floor_f32.h): Truncate<float,
# RoundMode::CAST_FLOOR> on registers (16-bit keys: UNPACK_B16 loads, Cast to float, Truncate, Cast back, PACK_B32
# stores), FusedMulAddN's tiling fields: two UB loops of 256 and 44. Ties, -0.0 and a NaN included.
FLOOR = Path("/work/ext/real/ops-math/math/floor/op_kernel/floor_apt.cpp")


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_floor_truncates_as_numpy(dtype: str) -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal(N) * 40
    a[:4] = [2.5, -2.5, -0.0, np.nan]
    if dtype == "bfloat16":
        x = bfloat16_bits(a)
        want = bfloat16_bits(np.floor(bfloat16_value(x)))
    else:
        x = a.astype(dtype)
        want = np.floor(x).view(np.uint16 if dtype == "float16" else np.uint32)
    key = {"bfloat16": 100000000000100, "float16": 200000000000100, "float32": 300000000000100}[dtype]
    result = run(str(FLOOR), [x], chip="950PR", fmt="cpp", block_dim=1, tiling=TILING, tiling_key=key,
                 outputs={"y": ((N,), dtype)})
    assert result.ok, [str(d) for d in result.findings]
    got = result.outputs["y"].view(np.uint16 if dtype != "float32" else np.uint32)
    np.testing.assert_array_equal(got, want)
