"""The clean corpus's TPipe kernels as simulator test cases: inputs, launch, and a numpy reference.

Kernels without host code (tests/corpus/clean/kernels/tpipe) get their tiling values and blockDim here, worked
out the way each kernel's comment says its host computes them; op projects and benchmark answers run their own
host tiling. Each case has two shapes, the second with a tail that is not a 32-byte multiple where the kernel
supports one. Tolerances are NPUKernelBench's (fp32 1e-4, fp16 1e-3, bf16 4e-3 relative and absolute).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
TPIPE = ROOT / "tests/corpus/clean/kernels/tpipe"
CLEAN = ROOT / "tests/corpus/clean"


@dataclass
class Launch:
    inputs: dict[str, np.ndarray] | list[np.ndarray]
    expected: dict[str, np.ndarray]
    tiling: dict[str, Any] | None = None
    block_dim: int | None = None
    outputs: dict[str, Any] | None = None
    tiling_key: int | None = None
    attrs: list[Any] = field(default_factory=list)
    outputs_initialised: bool = False
    rtol: float | None = None
    atol: float | None = None
    tiling_data: bytes | None = None  # the tiling memory of a kernel that reads it as raw words (no host code)
    workspace: int | None = None  # the workspace's bytes, for a kernel with no host code that uses one


@dataclass
class Case:
    name: str
    source: Path
    shapes: list[Any]
    make: Callable[[Any, np.random.Generator], Launch]

    def launches(self) -> list[tuple[str, Any]]:
        return [(f"{self.name}[{i}]", s) for i, s in enumerate(self.shapes)]


def tolerance(dtype: Any) -> tuple[float, float]:
    dt = np.dtype(dtype)
    if dt == np.float16:
        return 1e-3, 1e-3
    if dt == np.float32:
        return 1e-4, 1e-4
    return 0.0, 0.0


def uniform(rng: np.random.Generator, shape: Any, dtype: Any, lo: float = -2.0, hi: float = 2.0) -> np.ndarray:
    return rng.uniform(lo, hi, shape).astype(dtype)


def split_units(total: int, cores: int, unit: int) -> list[tuple[int, int]]:
    """(start, length) per core of `total` elements split in whole `unit`s, the remainder spread over the
    first cores (the usual host split)."""
    units = total // unit
    per, extra = divmod(units, cores)
    out = []
    start = 0
    for i in range(cores):
        n = (per + (1 if i < extra else 0)) * unit
        out.append((start, n))
        start += n
    return out


# ---------------------------------------------------------------------------------------------------- cases


def _add_custom(shape: tuple[int, int], rng: np.random.Generator) -> Launch:
    total, cores, tile_num = shape
    x, y = uniform(rng, total, np.float16), uniform(rng, total, np.float16)
    return Launch({"x": x, "y": y}, {"z": x + y}, {"totalLength": total, "tileNum": tile_num}, cores,
                  {"z": ((total,), "float16")})


def _activation(shape: tuple[int, int, int], rng: np.random.Generator) -> Launch:
    total, cores, mode = shape
    x = uniform(rng, total, np.float32, -8, 8)
    ref = {0: np.maximum(x, 0), 1: np.abs(x), 2: np.minimum(np.maximum(x, 0), 6), 3: -np.abs(x)}[mode]
    return Launch({"x": x}, {"y": ref.astype(np.float32)}, {"totalLength": total, "tileLength": 256, "mode": mode},
                  cores, {"y": ((total,), "float32")})


def _add_template(shape: tuple[int, str], rng: np.random.Generator) -> Launch:
    total, dtype = shape
    cores = 6
    np_t = {"float16": np.float16, "float32": np.float32}[dtype]
    unit = 32 // np.dtype(np_t).itemsize
    units = -(-total // unit)
    per, big = divmod(units, cores)
    big_len, small_len = (per + 1) * unit, per * unit
    # the last core's length is cut to the data: the host gives the remainder to the small cores' tail
    lengths = [big_len] * big + [small_len] * (cores - big)
    overflow = sum(lengths) - total
    assert overflow >= 0
    x, y = uniform(rng, total, np_t), uniform(rng, total, np_t)
    key = 1 if dtype == "float16" else 2
    launch = Launch({"x": x, "y": y}, {"z": (x + y).astype(np_t)},
                    {"bigCoreNum": big, "bigCoreLength": big_len, "smallCoreLength": small_len, "tileLength": 64},
                    cores, {"z": ((total + overflow,), dtype)}, tiling_key=key)
    if overflow:  # the output is allocated to the split's length; the inputs too
        pad = np.zeros(overflow, np_t)
        launch.inputs = {"x": np.concatenate([x, pad]), "y": np.concatenate([y, pad])}
        launch.expected = {"z": np.concatenate([(x + y).astype(np_t), pad])}
    return launch


def _axpy(shape: tuple[int, int], rng: np.random.Generator) -> Launch:
    block, cores = shape
    total = block * cores
    x, y = uniform(rng, total, np.float32), uniform(rng, total, np.float32)
    alpha = 2  # the kernel alone does not say the field is a float: it reads as an integer converted to float
    return Launch({"x": x, "y": y}, {"out": (alpha * x + y).astype(np.float32)},
                  {"blockLength": block, "tileLength": block // 2, "alpha": alpha}, cores,
                  {"out": ((total,), "float32")})


def _eye(shape: tuple[int, int, int, int], rng: np.random.Generator) -> Launch:
    batch, rows, cols, kind = shape
    eye = np.eye(rows, cols, dtype=np.float32)
    if kind == 1:
        eye = np.fliplr(np.eye(rows, cols, dtype=np.float32)) if rows == cols else eye[:, ::-1]
    ref = np.broadcast_to(eye, (batch, rows, cols)).copy()
    return Launch([], {"y": ref.reshape(-1)}, {"batch": batch, "numRows": rows, "numCols": cols, "diagKind": kind}, 4,
                  {"y": ((batch * rows * cols,), "float32")})


def _flip(shape: tuple[int, int, str], rng: np.random.Generator) -> Launch:
    rows, cols, dtype = shape
    cores = 4
    np_t = {"float16": np.float16, "float32": np.float32}[dtype]
    x = uniform(rng, (rows * cores, cols), np_t)
    return Launch({"x": x.reshape(-1)}, {"y": x[:, ::-1].reshape(-1)}, {"rowsPerCore": rows, "cols": cols}, cores,
                  {"y": ((rows * cores * cols,), dtype)}, tiling_key=0 if dtype == "float16" else 1)


def _full_nan(shape: int, rng: np.random.Generator) -> Launch:
    tiles = shape
    cores = 3
    n = tiles * 1024 * cores
    return Launch([], {"y": np.full(n, np.nan, np.float32)}, {"tilesPerCore": tiles}, cores, {"y": ((n,), "float32")})


def _hypot(shape: tuple[int, int], rng: np.random.Generator) -> Launch:
    block, tile = shape
    cores = 4
    x, y = uniform(rng, block * cores, np.float32), uniform(rng, block * cores, np.float32)
    return Launch({"x": x, "y": y}, {"z": np.sqrt(x * x + y * y).astype(np.float32)},
                  {"blockLength": block, "tileLength": tile}, cores, {"z": ((block * cores,), "float32")})


def _leaky(shape: tuple[int, int], rng: np.random.Generator) -> Launch:
    total, cores = shape
    x = uniform(rng, total, np.float16)
    slope = 2  # an integer: the kernel alone does not say the field is a float (see _axpy)
    xf = x.astype(np.float32)
    ref = np.where(xf >= 0, xf, xf * np.float32(slope)).astype(np.float16)
    return Launch({"x": x}, {"y": ref}, {"totalLength": total, "tileNum": 2, "negativeSlope": slope}, cores,
                  {"y": ((total,), "float16")})


def _maximum(shape: tuple[int, int], rng: np.random.Generator) -> Launch:
    block, tile = shape
    cores = 4
    x, y = uniform(rng, block * cores, np.float16), uniform(rng, block * cores, np.float16)
    return Launch({"x": x, "y": y}, {"z": np.where(x >= y, x, y)}, {"blockLength": block, "tileLength": tile}, cores,
                  {"z": ((block * cores,), "float16")})


def _mul_sub(shape: tuple[int, int], rng: np.random.Generator) -> Launch:
    block, tile = shape
    cores = 4
    n = block * cores
    x, y, w = (uniform(rng, n, np.float16) for _ in range(3))
    return Launch({"x": x, "y": y, "w": w}, {"out": (x * y - w).astype(np.float16)},
                  {"blockLength": block, "tileLength": tile}, cores, {"out": ((n,), "float16")})


def _quant(shape: tuple[int, int], rng: np.random.Generator) -> Launch:
    block, tile = shape
    cores = 4
    n = block * cores
    x = uniform(rng, n, np.float16, -3, 3)
    scale, offset = 20.0, 1.5
    half = (x.astype(np.float16) * np.float16(scale)).astype(np.float16)
    half = (half + np.float16(offset)).astype(np.float16)
    ref = np.clip(np.rint(half.astype(np.float32)), -128, 127).astype(np.int8)
    launch = Launch({"x": x}, {"y": ref}, {"blockLength": block, "tileLength": tile, "scale": scale,
                                          "offset": offset}, cores, {"y": ((n,), "int8")})
    launch.atol = 1.0  # one step of int8 where x * scale + offset lands on a rounding tie in half
    return launch


def _reduce_sum(shape: tuple[int, int], rng: np.random.Generator) -> Launch:
    total, cores = shape
    x = uniform(rng, total, np.float32)
    launch = Launch({"x": x}, {"y": np.array([x.astype(np.float64).sum()], np.float32)},
                    {"totalLength": total, "tileLength": 1024}, cores, {"y": np.zeros(1, np.float32)},
                    outputs_initialised=True)
    launch.rtol, launch.atol = 1e-4, 1e-3
    return launch


def _layernorm(shape: tuple[int, int, int], rng: np.random.Generator) -> Launch:
    rows, cols, cores = shape
    x = uniform(rng, (rows, cols), np.float32)
    gamma, beta = uniform(rng, cols, np.float32), uniform(rng, cols, np.float32)
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    ref = ((x - mean) / np.sqrt(var) * gamma + beta).astype(np.float32)
    launch = Launch({"x": x.reshape(-1), "gamma": gamma, "beta": beta}, {"y": ref.reshape(-1)},
                    {"rows": rows, "cols": cols, "eps": 0}, cores, {"y": ((rows * cols,), "float32")})
    launch.rtol, launch.atol = 1e-4, 1e-4
    return launch


def _rmsnorm(shape: tuple[int, int, int, str], rng: np.random.Generator) -> Launch:
    rows_per_core, cols, rows_per_tile, dtype = shape
    cores = 3
    np_t = {"float16": np.float16, "float32": np.float32}[dtype]
    rows = rows_per_core * cores
    x = uniform(rng, (rows, cols), np_t)
    gamma = uniform(rng, cols, np_t)
    xf = x.astype(np.float32)
    rstd = (1.0 / np.sqrt((xf * xf).mean(axis=1))).astype(np.float32)
    y = (xf * rstd[:, None] * gamma.astype(np.float32)).astype(np_t)
    launch = Launch({"x": x.reshape(-1), "gamma": gamma}, {"y": y.reshape(-1), "rstd": rstd},
                    {"rowsPerCore": rows_per_core, "cols": cols, "rowsPerTile": rows_per_tile, "eps": 0}, cores,
                    {"y": ((rows * cols,), dtype), "rstd": ((rows,), "float32")})
    return launch


def _row_max(shape: tuple[int, int], rng: np.random.Generator) -> Launch:
    rows, cols = shape
    cores = 4
    per = -(-rows // cores)
    x = uniform(rng, (rows, cols), np.float32)
    return Launch({"x": x.reshape(-1)}, {"maxOut": x.max(axis=1), "argOut": x.argmax(axis=1).astype(np.int32)},
                  {"rows": rows, "cols": cols, "rowsPerCore": per}, cores,
                  {"maxOut": ((rows,), "float32"), "argOut": ((rows,), "int32")})


def _row_mean(shape: tuple[int, int, int], rng: np.random.Generator) -> Launch:
    rows_per_core, cols, rows_per_tile = shape
    cores = 3
    rows = rows_per_core * cores
    x = uniform(rng, (rows, cols), np.float32)
    return Launch({"x": x.reshape(-1)}, {"y": x.mean(axis=1).astype(np.float32)},
                  {"rowsPerCore": rows_per_core, "cols": cols, "rowsPerTile": rows_per_tile}, cores,
                  {"y": ((rows,), "float32")})


def _row_scale(shape: tuple[int, int, int], rng: np.random.Generator) -> Launch:
    rows_per_core, cols, rows_per_tile = shape
    cores = 3
    rows = rows_per_core * cores
    x = uniform(rng, (rows, cols), np.float32)
    scale = uniform(rng, rows, np.float32)
    return Launch({"x": x.reshape(-1), "scale": scale}, {"y": (x * scale[:, None]).reshape(-1).astype(np.float32)},
                  {"rowsPerCore": rows_per_core, "cols": cols, "rowsPerTile": rows_per_tile}, cores,
                  {"y": ((rows * cols,), "float32")})


def _softplus(shape: tuple[int, int], rng: np.random.Generator) -> Launch:
    core, tile = shape
    cores = 3
    x = uniform(rng, core * cores, np.float32, -6, 6)
    beta, threshold = 1, 4  # integers: the kernel alone does not say these fields are floats
    bx = beta * x
    ref = np.where(bx > threshold, x, np.log1p(np.exp(np.minimum(bx, threshold))) / beta).astype(np.float32)
    return Launch({"x": x}, {"y": ref}, {"coreLength": core, "tileLength": tile, "beta": beta,
                                        "threshold": threshold}, cores, {"y": ((core * cores,), "float32")})


def _threshold(shape: tuple[int, int], rng: np.random.Generator) -> Launch:
    core, tile = shape
    cores = 3
    x = uniform(rng, core * cores, np.float32, -3, 3)
    threshold, value = 1, 7
    return Launch({"x": x}, {"y": np.where(x > threshold, x, np.float32(value)).astype(np.float32)},
                  {"coreLength": core, "tileLength": tile, "threshold": threshold, "value": value}, cores,
                  {"y": ((core * cores,), "float32")})


def _vendor_forms(shape: int, rng: np.random.Generator) -> Launch:
    x = uniform(rng, 256, np.float32)
    # ... SwiGLU, then BroadCast<float, 2, 1> of x[16, 1] to [16, 16] overwrites all of y
    return Launch({"x": x}, {"y": np.repeat(x[:16], 16).astype(np.float32)}, None, 1, {"y": ((256,), "float32")})


# ---------------------------------------------------------------------------------------------------- projects
# (their host tiling runs: inputs in op order, attributes in op order)


def _p_softmax(shape: tuple[tuple[int, int], str], rng: np.random.Generator) -> Launch:
    dims, dtype = shape
    x = uniform(rng, dims, dtype, -4, 4)
    xf = x.astype(np.float32)
    e = np.exp(xf - xf.max(axis=-1, keepdims=True))
    # the host's tmpBufferSize comes from GetSoftMaxMinTmpSize, which the host interpreter does not run
    return Launch([x], {"y": (e / e.sum(axis=-1, keepdims=True)).astype(dtype)}, tiling={"tmpBufferSize": 16384})


def _p_leaky(shape: tuple[tuple[int, ...], str], rng: np.random.Generator) -> Launch:
    dims, dtype = shape
    x = uniform(rng, dims, dtype)
    slope = 0.01
    xf = x.astype(np.float32)
    return Launch([x], {"y": np.where(xf >= 0, xf, xf * np.float32(slope)).astype(dtype)}, attrs=[slope])


def _p_mse(shape: tuple[tuple[int, ...], str], rng: np.random.Generator) -> Launch:
    dims, reduction = shape
    p, q = uniform(rng, dims, np.float32), uniform(rng, dims, np.float32)
    d = (p.astype(np.float64) - q) ** 2
    ref = {"mean": d.mean(), "sum": d.sum(), "none": d}[reduction]
    launch = Launch([p, q], {"y": np.asarray(ref, np.float32)}, attrs=[reduction])
    launch.rtol, launch.atol = 1e-4, 1e-3
    return launch


def _p_layer_norm(shape: tuple[int, int], rng: np.random.Generator) -> Launch:
    rows, cols = shape
    x = uniform(rng, (rows, cols), np.float32)
    gamma, beta = uniform(rng, cols, np.float32), uniform(rng, cols, np.float32)
    eps = 1e-5
    mean = x.mean(axis=-1, keepdims=True)
    rstd = 1 / np.sqrt(((x - mean) ** 2).mean(axis=-1, keepdims=True) + eps)
    # InferShape's loop over the statistics outputs is beyond the host interpreter: their shapes are given
    return Launch([x, gamma, beta], {"y": ((x - mean) * rstd * gamma + beta).astype(np.float32),
                                     "mean": mean.astype(np.float32), "rstd": rstd.astype(np.float32)}, attrs=[eps],
                  outputs={"y": ((rows, cols), "float32"), "mean": ((rows, 1), "float32"),
                           "rstd": ((rows, 1), "float32")})


def _p_gelu(shape: tuple[tuple[int, ...], str], rng: np.random.Generator) -> Launch:
    dims, dtype = shape
    x = uniform(rng, dims, dtype, -4, 4)
    xf = x.astype(np.float64)
    ref = 0.5 * xf * (1 + np.tanh(np.sqrt(2 / np.pi) * (xf + 0.044715 * xf ** 3)))
    launch = Launch([x], {"y": ref.astype(dtype)})
    if dtype == "float16":
        launch.rtol, launch.atol = 2e-3, 2e-3
    return launch


def _p_reduce_sum(shape: tuple[tuple[int, ...], str, bool], rng: np.random.Generator) -> Launch:
    dims, dtype, keep = shape
    x = uniform(rng, dims, dtype)
    ref = x.astype(np.float64).sum(axis=-1, keepdims=keep)
    launch = Launch([x], {"y": ref.astype(dtype)}, attrs=[keep])
    launch.rtol, launch.atol = (1e-4, 1e-4) if dtype == "float32" else (2e-3, 2e-2)
    return launch


def _p_rms_norm(shape: tuple[tuple[int, int], str], rng: np.random.Generator) -> Launch:
    dims, dtype = shape
    x = uniform(rng, dims, dtype)
    gamma = uniform(rng, dims[-1], dtype)
    eps = 1e-6
    xf = x.astype(np.float32)
    rstd = 1 / np.sqrt((xf * xf).mean(axis=-1, keepdims=True) + eps)
    return Launch([x, gamma], {"y": (xf * rstd * gamma.astype(np.float32)).astype(dtype),
                               "rstd": rstd.astype(np.float32)}, attrs=[eps])


# ---------------------------------------------------------------------------------------------------- answers
# NPUKernelBench kernel-only answers hard-code their one test case (static shape): they run on that shape only.
# The full (three-file) answers and the MultiKernelBench answers run their host tiling on two shapes.

NKB = CLEAN / "answers/npukernelbench"
MKB = CLEAN / "answers/multikernelbench"


def _a_swish(shape: Any, rng: np.random.Generator) -> Launch:
    x = uniform(rng, (2048, 1536), np.float16, -4, 4)
    xf = x.astype(np.float32)
    return Launch({"x": x}, {"y": (xf / (1 + np.exp(-xf))).astype(np.float16)}, outputs={"y": ((2048, 1536), "float16")})


def _a_clip(shape: Any, rng: np.random.Generator) -> Launch:
    x = uniform(rng, (32, 8192), np.float32)
    lo, hi = np.array([-0.5], np.float32), np.array([0.5], np.float32)
    return Launch({"x": x, "clip_value_min": lo, "clip_value_max": hi}, {"y": np.clip(x, -0.5, 0.5)},
                  outputs={"y": ((32, 8192), "float32")})


def _a_lerp(shape: Any, rng: np.random.Generator) -> Launch:
    a, b = uniform(rng, (8, 1024, 1024), np.float32), uniform(rng, (8, 1024, 1024), np.float32)
    return Launch({"start": a, "end": b}, {"y": (a + np.float32(0.3) * (b - a)).astype(np.float32)},
                  outputs={"y": ((8, 1024, 1024), "float32")})


def _a_rms_norm(shape: Any, rng: np.random.Generator) -> Launch:
    x, gamma = uniform(rng, (64, 4096), np.float16), uniform(rng, 4096, np.float16)
    xf = x.astype(np.float32)
    rstd = 1 / np.sqrt((xf * xf).mean(axis=-1, keepdims=True) + 1e-6)
    return Launch({"x": x, "gamma": gamma}, {"y": (xf * rstd * gamma.astype(np.float32)).astype(np.float16),
                                             "rstd": rstd.astype(np.float32)},
                  outputs={"y": ((64, 4096), "float16"), "rstd": ((64, 1), "float32")})


def _a_tril(shape: Any, rng: np.random.Generator) -> Launch:
    x = uniform(rng, (16, 512, 512), np.float32)
    return Launch({"x": x}, {"y": np.tril(x)}, outputs={"y": ((16, 512, 512), "float32")})


def _a_addcdiv(shape: tuple[int, ...], rng: np.random.Generator) -> Launch:
    a, b = uniform(rng, shape, np.float32), uniform(rng, shape, np.float32)
    c = uniform(rng, shape, np.float32, 0.5, 2.0)
    value = 0.5
    return Launch([a, b, c], {"y": (a + np.float32(value) * b / c).astype(np.float32)}, attrs=[value])


def _a_gelu(shape: tuple[tuple[int, ...], str], rng: np.random.Generator) -> Launch:
    dims, dtype = shape
    x = uniform(rng, dims, dtype, -4, 4)
    xf = x.astype(np.float64)
    ref = 0.5 * xf * (1 + np.tanh(np.sqrt(2 / np.pi) * (xf + 0.044715 * xf ** 3)))
    launch = Launch([x], {"y": ref.astype(dtype)}, attrs=["tanh"])
    if dtype == "float16":
        launch.rtol, launch.atol = 2e-3, 2e-3
    return launch


def _m_leaky(shape: tuple[int, ...], rng: np.random.Generator) -> Launch:
    x = uniform(rng, shape, np.float32)
    return Launch([x], {"y": np.where(x >= 0, x, x * np.float32(0.01)).astype(np.float32)}, attrs=[0.01])


def _m_hardsigmoid(shape: tuple[int, ...], rng: np.random.Generator) -> Launch:
    x = uniform(rng, shape, np.float32, -5, 5)
    return Launch([x], {"y": np.clip(x / 6 + 0.5, 0, 1).astype(np.float32)})


def _m_mse(shape: tuple[int, ...], rng: np.random.Generator) -> Launch:
    p, q = uniform(rng, shape, np.float32), uniform(rng, shape, np.float32)
    launch = Launch([p, q], {"y": np.asarray(((p.astype(np.float64) - q) ** 2).mean(), np.float32)})
    launch.rtol, launch.atol = 1e-4, 1e-3
    return launch


def _m_reduce_sum(shape: tuple[int, ...], rng: np.random.Generator) -> Launch:
    x = uniform(rng, shape, np.float32)
    launch = Launch([x], {"y": x.astype(np.float64).sum(axis=1, keepdims=True).astype(np.float32)}, attrs=[1])
    launch.rtol, launch.atol = 1e-4, 1e-4
    return launch


def _m_layer_norm(shape: tuple[int, ...], rng: np.random.Generator) -> Launch:
    x = uniform(rng, shape, np.float32)
    w, b = uniform(rng, shape[-1], np.float32), uniform(rng, shape[-1], np.float32)
    mean = x.mean(axis=-1, keepdims=True)
    ref = (x - mean) / np.sqrt(((x - mean) ** 2).mean(axis=-1, keepdims=True) + 1e-5) * w + b
    return Launch([x, w, b], {"y": ref.astype(np.float32)}, attrs=[1e-5])


# ---------------------------------------------------------------------------------------------------- legacy
# The 2023 kernel-launch samples: sizes are compile-time constants, blockDim is main.cpp's; one shape each.

LEGACY = CLEAN / "kernels/legacy"


def _l_add(shape: Any, rng: np.random.Generator) -> Launch:
    x, y = uniform(rng, 16384, np.float16), uniform(rng, 16384, np.float16)
    return Launch({"x": x, "y": y}, {"z": x + y}, None, 8, {"z": ((16384,), "float16")})


def _l_leaky(shape: Any, rng: np.random.Generator) -> Launch:
    x = uniform(rng, 16 * 4096, np.float16)
    alpha = np.float16(0.01)  # its ALPHA macro
    return Launch({"x": x}, {"y": np.where(x >= 0, x, (x * alpha).astype(np.float16))}, None, 16,
                  {"y": ((16 * 4096,), "float16")})


def _l_mul_add(shape: Any, rng: np.random.Generator) -> Launch:
    x, y, z = (uniform(rng, 32 * 1024, np.float32) for _ in range(3))
    return Launch({"x": x, "y": y, "z": z}, {"out": (x * y + z).astype(np.float32)}, None, 32,
                  {"out": ((32 * 1024,), "float32")})


def _l_sigmoid(shape: Any, rng: np.random.Generator) -> Launch:
    x = uniform(rng, 48 * 5000, np.float32, -6, 6)
    return Launch({"x": x}, {"y": (1 / (1 + np.exp(-x))).astype(np.float32)}, None, 48,
                  {"y": ((48 * 5000,), "float32")})


def _l_sinh(shape: Any, rng: np.random.Generator) -> Launch:
    x = uniform(rng, 8 * 1024, np.float16)
    xf = x.astype(np.float32)
    launch = Launch({"x": x}, {"y": np.sinh(xf).astype(np.float16)}, None, 8, {"y": ((8 * 1024,), "float16")})
    launch.rtol, launch.atol = 2e-3, 2e-3  # exp(x) - exp(-x) in half cancels a few bits near 0
    return launch


CASES: list[Case] = [
    Case("add_custom", TPIPE / "add_custom.cpp", [(16384, 8, 8), (8 * 2 * 2 * 48, 6, 2)], _add_custom),
    Case("activation_modes", TPIPE / "activation_modes.cpp", [(4096, 4, 2), (3000, 5, 3)], _activation),
    Case("add_template", TPIPE / "add_template.cpp", [(4096, "float16"), (1000, "float32")], _add_template),
    Case("axpy_dtype_macro", TPIPE / "axpy_dtype_macro.cpp", [(1024, 4), (512, 3)], _axpy),
    Case("eye_duplicate", TPIPE / "eye_duplicate.cpp", [(6, 8, 8, 0), (5, 7, 9, 0)], _eye),
    Case("flip_gather", TPIPE / "flip_gather.cpp", [(3, 64, "float32"), (2, 48, "float16")], _flip),
    Case("full_nan", TPIPE / "full_nan.cpp", [2, 1], _full_nan),
    Case("hypot_sqrt", TPIPE / "hypot_sqrt.cpp", [(2048, 512), (1000, 256)], _hypot),
    Case("leaky_relu_cast", TPIPE / "leaky_relu_cast.cpp", [(8192, 4), (4096, 8)], _leaky),
    Case("maximum_compare_select", TPIPE / "maximum_compare_select.cpp", [(2048, 256), (1024, 512)], _maximum),
    Case("mul_sub_repeat", TPIPE / "mul_sub_repeat.cpp", [(4096, 1024), (1200, 512)], _mul_sub),
    Case("quant_int8_cast", TPIPE / "quant_int8_cast.cpp", [(4096, 1024), (1000, 256)], _quant),
    Case("reduce_sum_atomic", TPIPE / "reduce_sum_atomic.cpp", [(65536, 8), (10003, 5)], _reduce_sum),
    Case("layernorm_rows", TPIPE / "layernorm_rows.cpp", [(16, 256, 4), (10, 104, 3)], _layernorm),
    Case("rmsnorm_rows", TPIPE / "rmsnorm_rows.cpp", [(8, 128, 4, "float32"), (5, 48, 2, "float16")], _rmsnorm),
    Case("row_max_argmax", TPIPE / "row_max_argmax.cpp", [(16, 256), (13, 100)], _row_max),
    Case("row_mean_whole_reduce", TPIPE / "row_mean_whole_reduce.cpp", [(8, 256, 4), (6, 200, 3)], _row_mean),
    Case("row_scale_brcb", TPIPE / "row_scale_brcb.cpp", [(8, 128, 4), (5, 72, 2)], _row_scale),
    Case("softplus_exp", TPIPE / "softplus_exp.cpp", [(1024, 256), (700, 192)], _softplus),
    Case("threshold_select", TPIPE / "threshold_select.cpp", [(1024, 256), (1000, 256)], _threshold),
    Case("vendor_api_forms", TPIPE / "vendor_api_forms.cpp", [0, 1], _vendor_forms),
    Case("project_softmax", CLEAN / "projects/softmax_custom", [((64, 256), "float32"), ((37, 104), "float32")],
         _p_softmax),
    Case("project_leaky_relu", CLEAN / "projects/leaky_relu_custom", [((8, 1024), "float16"), ((3, 333), "float32")],
         _p_leaky),
    Case("project_mse_loss", CLEAN / "projects/mse_loss_custom", [((64, 128), "mean"), ((33, 70), "sum")], _p_mse),
    Case("project_layer_norm", CLEAN / "projects/layer_norm_custom", [(32, 256), (9, 100)], _p_layer_norm),
    Case("project_gelu", CLEAN / "projects/gelu_custom", [((4, 2048), "float32"), ((5, 99), "float16")], _p_gelu),
    Case("project_reduce_sum", CLEAN / "projects/reduce_sum_custom",
         [((64, 256), "float32", False), ((7, 300), "float16", True)], _p_reduce_sum),
    Case("project_rms_norm", CLEAN / "projects/rms_norm_custom", [((16, 512), "float32"), ((6, 100), "float16")],
         _p_rms_norm),
    Case("nkb_swish", NKB / "swish.md", [0], _a_swish),
    # (addcmul.md is left out: its TilingDataDef initialises an array member from a nested brace list, which the
    # lowering leaves undefined, so the simulator stops at coreLength[] with ASC958)
    Case("nkb_clip_by_value", NKB / "clip_by_value.md", [0], _a_clip),
    Case("nkb_lerp", NKB / "lerp.md", [0], _a_lerp),
    Case("nkb_rms_norm", NKB / "rms_norm.md", [0], _a_rms_norm),
    Case("nkb_tril", NKB / "tril.md", [0], _a_tril),
    Case("nkb_addcdiv_full", NKB / "addcdiv_full.md", [(64, 1024), (7, 333)], _a_addcdiv),
    Case("nkb_gelu_full", NKB / "gelu_full.md", [((16, 4096), "float32"), ((3, 1001), "float16")], _a_gelu),
    Case("mkb_leaky_relu", MKB / "leaky_relu.md", [(16, 16384), (5, 777)], _m_leaky),
    Case("mkb_hardsigmoid", MKB / "hardsigmoid.py", [(16, 16384), (3, 1000)], _m_hardsigmoid),
    Case("mkb_mse_loss", MKB / "mse_loss.md", [(128, 4096), (9, 100)], _m_mse),
    Case("mkb_reduce_sum", MKB / "reduce_sum.md", [(16, 256, 256), (3, 17, 40)], _m_reduce_sum),
    Case("mkb_layer_norm", MKB / "layer_norm.md", [(16, 1024), (5, 200)], _m_layer_norm),
    Case("legacy_add", LEGACY / "add_custom.cpp", [0], _l_add),
    Case("legacy_leakyrelu", LEGACY / "leakyrelu_custom.cpp", [0], _l_leaky),
    Case("legacy_mul_add", LEGACY / "mul_add_custom.cpp", [0], _l_mul_add),
    Case("legacy_sigmoid", LEGACY / "sigmoid_custom.cpp", [0], _l_sigmoid),
    Case("legacy_sinh", LEGACY / "sinh_custom.cpp", [0], _l_sinh),
]
