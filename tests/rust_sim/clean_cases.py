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
]
