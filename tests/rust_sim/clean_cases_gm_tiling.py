"""More of the clean corpus's TPipe kernels as simulator test cases (see clean_cases.py): tpipe/softmax_rows.cpp and
the vector kernels of kernels/gm_tiling, which read their tiling from GM themselves (a reinterpret_cast struct, a
word-by-word copy, field by field through a macro); the launch's tiling values reach them by field name.

scalar_walk_tiling.cpp and uneven_rows_prefix_offset.cpp read their tiling as raw words: no struct names a field, so
the launch gives the tiling memory's bytes (`tiling_data=`, `ascendir run --tiling-data`). uneven_rows_prefix_offset
also takes a workspace (a 32-byte slot per core, which core 0 adds up after SyncAll), sized here as its host would.

The session-16 audit of issue 28 found that no test ran these. uneven_rows_prefix_offset.cpp, as the audit found it,
carried an Abs between the EnQue and DeQue of a TQueBind<VECIN, VECOUT> (ASC965) and wrote no `sum` on more than
one core (ASC961); it now has a VECIN and a VECOUT queue and adds the cores' partial sums as its comment says.
"""

from __future__ import annotations

import numpy as np

from clean_cases import CLEAN, TPIPE, Case, Launch, uniform

GM_TILING = CLEAN / "kernels/gm_tiling"


def _softmax_rows(shape: tuple[int, int, int], rng: np.random.Generator) -> Launch:
    rows, cols, cores = shape  # rows dealt unevenly to the cores; cols as the kernel's DataCopyPad takes any
    x = uniform(rng, (rows, cols), np.float16, -4, 4)
    xf = x.astype(np.float32)
    e = np.exp(xf - xf.max(axis=1, keepdims=True))
    return Launch({"x": x}, {"y": (e / e.sum(axis=1, keepdims=True)).astype(np.float16)},
                  {"rows": rows, "cols": cols}, cores, {"y": ((rows, cols), "float16")})


def _add_reinterpret(shape: tuple[int, int, int], rng: np.random.Generator) -> Launch:
    total, cores, tile_num = shape  # the kernel splits evenly: total a multiple of cores x tiles x 2 x 16
    x, y = uniform(rng, total, np.float16), uniform(rng, total, np.float16)
    return Launch({"x": x, "y": y}, {"z": x + y}, {"totalLength": total, "tileNum": tile_num}, cores,
                  {"z": ((total,), "float16")})


def _copy_tiling(shape: tuple[int, int, int, int], rng: np.random.Generator) -> Launch:
    block, tile, cores, reversed_ = shape  # block a multiple of 8 floats, tile divides it
    n = block * cores
    x, y = uniform(rng, n, np.float32), uniform(rng, n, np.float32)
    return Launch({"x": x, "y": y}, {"z": (y - x) if reversed_ else (x - y)},
                  {"blockLength": block, "tileLength": tile, "reversed": reversed_, "reserved": 0}, cores,
                  {"z": ((n,), "float32")})


def _batchnorm_struct(shape: tuple[int, int, int, int, int], rng: np.random.Generator) -> Launch:
    batch, channels, hw, per_core, tile = shape  # the last core takes the channels left over
    cores = -(-channels // per_core)
    x = uniform(rng, (batch, channels, hw), np.float32)
    mean, gamma, beta = (uniform(rng, channels, np.float32) for _ in range(3))
    var = uniform(rng, channels, np.float32, 0.1, 2.0)
    eps = 1e-5
    ref = (x - mean[:, None]) / np.sqrt(var[:, None] + eps) * gamma[:, None] + beta[:, None]
    return Launch({"x": x, "mean": mean, "var": var, "gamma": gamma, "beta": beta}, {"y": ref.astype(np.float32)},
                  {"batch": batch, "channels": channels, "hw": hw, "channelsPerCore": per_core, "eps": eps,
                   "planeTile": tile}, cores, {"y": ((batch, channels, hw), "float32")})


def _scalar_walk(shape: tuple[int, int, int, float, float], rng: np.random.Generator) -> Launch:
    numel, tile, cores, alpha, beta = shape  # numel need not split evenly: the last core takes what is left
    x = uniform(rng, numel, np.float16)
    # the host's layout, 4-byte fields with no padding: numel | tileLength | blockDim | alpha | beta
    words = np.array([numel, tile, cores], np.uint32).tobytes() + np.array([alpha, beta], np.float32).tobytes()
    launch = Launch({"x": x}, {"y": (x * np.float16(alpha) + np.float16(beta)).astype(np.float16)}, None, cores,
                    {"y": ((numel,), "float16")})
    launch.tiling_data = words
    return launch


def _uneven_rows(shape: tuple[int, tuple[int, ...]], rng: np.random.Generator) -> Launch:
    cols, rows = shape  # cols a multiple of 8 floats; rows: each core's count, as unequal as the host likes
    cores = len(rows)
    x = uniform(rng, (sum(rows), cols), np.float32)
    # tiling words: cols | blockNum | the rows of each core; the workspace holds one 32-byte slot per core
    words = np.array([cols, cores, *rows], np.uint32).tobytes()
    launch = Launch({"x": x}, {"y": np.abs(x), "sum": np.abs(x)[:, :8].sum(axis=0, dtype=np.float32)}, None, cores,
                    {"y": ((sum(rows), cols), "float32"), "sum": ((8,), "float32")})
    launch.tiling_data = words
    launch.workspace = cores * 32
    return launch


GM_TILING_CASES: list[Case] = [
    Case("softmax_rows", TPIPE / "softmax_rows.cpp", [(64, 256, 8), (13, 100, 4)], _softmax_rows),
    Case("add_reinterpret_tiling", GM_TILING / "add_reinterpret_tiling.cpp", [(16384, 8, 8), (8 * 2 * 2 * 48, 6, 2)],
         _add_reinterpret),
    Case("copy_tiling_loop", GM_TILING / "copy_tiling_loop.cpp", [(1024, 256, 8, 0), (520, 104, 3, 1)],
         _copy_tiling),
    Case("batchnorm_infer_struct", GM_TILING / "batchnorm_infer_struct.cpp",
         [(2, 16, 256, 4, 128), (3, 10, 40, 3, 40)], _batchnorm_struct),
    Case("scalar_walk_tiling", GM_TILING / "scalar_walk_tiling.cpp", [(4096, 512, 8, 1.5, -0.25),
                                                                      (1000, 96, 3, -0.5, 2.0)], _scalar_walk),
    Case("uneven_rows_prefix_offset", GM_TILING / "uneven_rows_prefix_offset.cpp",
         [(64, (5, 4, 6)), (200, (3, 0, 2, 7, 1, 4, 2, 5))], _uneven_rows),
]
