"""The TCubeTiling a `MultiCoreMatmulTiling` / `MatmulApiTiling` GetTiling fills, as a model of the library.

`host_eval` records what a TilingFunc told the tiling object (types, shapes, SetDim, SetFixSplit, buffer
space, bias) and runs the checks with which the library's GetTiling rejects a configuration. Where it does
not, this module picks the tiling the kernel then reads: the split of C over the cores (usedCoreNum,
singleCoreM/N/K), the base block of one Mmad (baseM/N/K), the L1 depths and steps, bias and buffering flags.

This is a model, not the library's search (asc-devkit impl/adv_api/tiling/matmul, 200 KB of heuristics).
The split of C over the cores (usedCoreNum, singleCoreM/N/K) follows the library's own rules where the
kernels here reach them (ascendir.matmul_core_split). The rest meets the constraints the library
documents for a TCubeTiling (TCubeTiling结构体.md, table 2: base blocks within L0A / L0B / L0C, 16-element
and C0 alignment, depth = step x double buffer) without repeating its L0 / L1 search; the Matmul object
computes the same C for any valid tiling, so those fields change timing, not results. Where the library's
core split takes a path that is not modelled, the split falls back to `core_split` below (the most cores,
then the least data per core) and `cube_tiling` says so in the notes it is given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ascendir.matmul_core_split import CoreSplitInputs

UNSET = -1
C0 = 16  # rows or columns of a cube fractal
ACC_BYTES = 4  # L0C accumulates in 32 bits
MIN_PART = 64  # the shortest part of M or N the model gives a core


# TCubeTiling's fields: the catalog's (catalog/data/structs.toml, ascendir/lower/library_structs.py)


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _align(a: int, b: int) -> int:
    return _ceil(a, b) * b


def core_split(m: int, n: int, k: int, cores: int) -> tuple[int, int]:
    """(mDim, nDim): how many parts M and N are cut into over `cores` cores, where the library's own rules
    are not modelled (the fallback)."""
    # a core's part of M or N stays at least MIN_PART long unless the matrix is shorter
    m_parts, n_parts = max(1, _ceil(m, MIN_PART)), max(1, _ceil(n, MIN_PART))
    best: tuple[tuple[int, int, int], tuple[int, int]] | None = None
    for m_dim in range(1, min(cores, m_parts) + 1):
        n_dim = min(cores // m_dim, n_parts)
        if n_dim < 1:
            continue
        single_m = _align(_ceil(m, m_dim), C0) if m_dim > 1 else m
        single_n = _align(_ceil(n, n_dim), C0) if n_dim > 1 else n
        used = _ceil(m, single_m) * _ceil(n, single_n)
        # what one core loads: its rows of A and columns of B over the whole K, and writes of C
        load = (single_m + single_n) * k + single_m * single_n
        key = (-used, load, -n_dim)
        if best is None or key < best[0]:
            best = (key, (m_dim, n_dim))
    return best[1] if best is not None else (1, 1)


def cube_tiling(obj: Any, notes: list[str] | None = None) -> dict[str, int] | None:
    """The TCubeTiling fields for a configured `host_eval.MatmulTilingObject`, or None when its types or
    shapes are unknown. Where the core split falls back from the library's rules, `notes` gets why."""
    from ascendir.dialects import host

    bits_a = obj.bits(host.MatmulMatrix.A)
    bits_b = obj.bits(host.MatmulMatrix.B)
    if bits_a is None or bits_b is None:
        return None
    org_m, org_n, org_ka, org_kb = obj.org
    shape = [s if s != UNSET else o for s, o in zip(obj.shape, (org_m, org_n, org_ka))]
    m, n, k = shape
    if org_m == UNSET:
        org_m, org_n, org_ka, org_kb = m, n, k, k
    if min(m, n, k) <= 0:
        return None
    from ascendir.matmul_core_split import UnmodelledSplit, library_core_split

    try:
        split = library_core_split(split_inputs(obj, m, n, k, bits_a, bits_b))
        single_m, single_n, single_k, used = split.single_m, split.single_n, split.single_k, split.used
    except UnmodelledSplit as why:
        cores = max(1, obj.block_dim) if obj.multi_core else 1
        m_dim, n_dim = core_split(m, n, k, cores)
        single_m = _align(_ceil(m, m_dim), C0) if m_dim > 1 else m
        single_n = _align(_ceil(n, n_dim), C0) if n_dim > 1 else n
        single_k = k
        used = _ceil(m, single_m) * _ceil(n, single_n)
        if notes is not None:
            notes.append(f"GetTiling's core split: {why}; usedCoreNum and singleCoreM/N/K are a least-load "
                         "split instead (ascendir.matmul_tiling.core_split)")
    c0_k = max(1, 256 // bits_a)  # elements of A in 32 bytes
    base_m, base_n, base_k = obj.base
    pool = obj.pool
    if base_m == UNSET:
        base_m = min(128, _align(single_m, C0))
    if base_n == UNSET:
        base_n = min(256, _align(single_n, C0))
        bias = obj.bias and pool.get("bt", 0) > 0
        if bias:
            base_n = min(base_n, 16 * C0)
        while base_n > C0 and base_m * base_n * ACC_BYTES > pool["l0c"]:
            base_n -= C0
    if base_k == UNSET:
        # 128 bytes of K per row (64 half, 32 float, 128 int8), less where two blocks do not fit L0A / L0B
        base_k = min(_align(single_k, c0_k), 4 * c0_k)
        while base_k > c0_k and (base_m * base_k * bits_a // 8 * 2 > pool["l0a"]
                                 or base_n * base_k * bits_b // 8 * 2 > pool["l0b"]):
            base_k = _align(base_k // 2, c0_k)
    k_steps = max(1, _ceil(single_k, base_k))
    step_k = min(k_steps, 4)
    db_l0c = 2 if base_m * base_n * ACC_BYTES * 2 <= pool["l0c"] else 1
    return {
        "usedCoreNum": used, "M": org_m, "N": org_n, "Ka": org_ka, "Kb": org_kb,
        "singleCoreM": single_m, "singleCoreN": single_n, "singleCoreK": single_k,
        "baseM": base_m, "baseN": base_n, "baseK": base_k,
        "depthA1": step_k * 2, "depthB1": step_k * 2, "stepM": 1, "stepN": 1, "stepKa": step_k, "stepKb": step_k,
        "isBias": int(bool(obj.bias)), "transLength": 0, "iterateOrder": 0, "shareMode": 0,
        "shareL1Size": 0, "shareL0CSize": 0, "shareUbSize": 0, "batchM": 1, "batchN": 1, "singleBatchM": 1,
        "singleBatchN": 1, "depthAL1CacheUB": 0, "depthBL1CacheUB": 0, "dbL0A": 2, "dbL0B": 2, "dbL0C": db_l0c,
    }  # fmt: skip


# setters that steer the library's core split in ways not modelled: K split over cores, batches, the
# N-buffer schedule (SetMatmulConfigParams), split ranges and alignments
_SPLIT_STEERING = ("EnableMultiCoreSplitK", "SetSplitK", "SetMatmulConfigParams", "SetBatchInfoForNormal",
                   "SetBatchNum", "SetSingleRange", "SetAlignSplit")


def split_inputs(obj: Any, m: int, n: int, k: int, bits_a: int, bits_b: int) -> CoreSplitInputs:
    from ascendir.dialects import host
    from ascendir.matmul_core_split import CoreSplitInputs, UnmodelledSplit

    steering = [name for name in obj.configured if name in _SPLIT_STEERING]
    if steering and obj.multi_core and obj.block_dim > 1:
        raise UnmodelledSplit(f"{steering[0]} changes how the cores are split")
    types = obj.types
    tscm = host.MATMUL_POSITIONS["TSCM"]
    if obj.multi_core and obj.block_dim > 1 and tscm in (types[host.MatmulMatrix.A].position,
                                                         types[host.MatmulMatrix.B].position):
        raise UnmodelledSplit("A or B in TPosition::TSCM (L1-residency rules veto splits)")
    single = tuple(obj.single_core)
    return CoreSplitInputs(
        m, n, k, cores=max(1, obj.block_dim) if obj.multi_core else 1, bits_a=bits_a, bits_b=bits_b,
        bits_c=obj.bits(host.MatmulMatrix.C) or 32, trans_a=types[host.MatmulMatrix.A].transposed,
        trans_b=types[host.MatmulMatrix.B].transposed,
        shape_set=obj.shape[0] != UNSET or obj.shape[1] != UNSET,
        soc=obj.soc, l1=obj.pool["l1"], l0a=obj.pool["l0a"], l0c=obj.pool["l0c"],
        format_a=types[host.MatmulMatrix.A].format, format_b=types[host.MatmulMatrix.B].format,
        format_c=types[host.MatmulMatrix.C].format,
        single_core=single if any(v != UNSET for v in single) and obj.multi_core else None,
    )
