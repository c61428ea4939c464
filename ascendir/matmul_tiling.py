"""The TCubeTiling a `MultiCoreMatmulTiling` / `MatmulApiTiling` GetTiling fills, as a model of the library.

`host_eval` records what a TilingFunc told the tiling object (types, shapes, SetDim, SetFixSplit, buffer
space, bias) and runs the checks with which the library's GetTiling rejects a configuration. Where it does
not, this module picks the tiling the kernel then reads: the split of C over the cores (usedCoreNum,
singleCoreM/N/K), the base block of one Mmad (baseM/N/K), the L1 depths and steps, bias and buffering flags.

This is a model, not the library's search (asc-devkit impl/adv_api/tiling/matmul, 200 KB of heuristics): it
meets the constraints the library documents for a TCubeTiling (TCubeTiling结构体.md, table 2: base blocks
within L0A / L0B / L0C, 16-element and C0 alignment, depth = step x double buffer, K not split over cores) and
the split rules the library states (cores split M and N, never K; a fixed split is kept), choosing among the
core splits (parts of M and N at least 64 long where the matrix allows) the one that uses the most cores and
then loads the least data per core. The values a kernel
derives its GM offsets from (usedCoreNum, singleCoreM/N) can differ from the library's for shapes where
several splits tie; the Matmul object computes the same C for any valid tiling.
"""

from __future__ import annotations

from typing import Any

UNSET = -1
C0 = 16  # rows or columns of a cube fractal
ACC_BYTES = 4  # L0C accumulates in 32 bits
MIN_PART = 64  # the shortest part of M or N the model gives a core


# TCubeTiling's int32 fields in the header's order (asc-devkit docs TCubeTiling结构体.md; the reserved ones
# after singleBatchN included, the 950's MX fields left out)
TCUBE_FIELDS = (
    "usedCoreNum", "M", "N", "Ka", "Kb", "singleCoreM", "singleCoreN", "singleCoreK", "baseM", "baseN", "baseK",
    "depthA1", "depthB1", "stepM", "stepN", "isBias", "transLength", "iterateOrder", "shareMode", "shareL1Size",
    "shareL0CSize", "shareUbSize", "batchM", "batchN", "singleBatchM", "singleBatchN", "stepKa", "stepKb",
    "depthAL1CacheUB", "depthBL1CacheUB", "dbL0A", "dbL0B", "dbL0C",
)  # fmt: skip


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _align(a: int, b: int) -> int:
    return _ceil(a, b) * b


def core_split(m: int, n: int, k: int, cores: int) -> tuple[int, int]:
    """(mDim, nDim): how many parts M and N are cut into over `cores` cores."""
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


def cube_tiling(obj: Any) -> dict[str, int] | None:
    """The TCubeTiling fields for a configured `host_eval.MatmulTilingObject`, or None when its types or
    shapes are unknown."""
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
    single = list(obj.single_core)
    if all(v != UNSET for v in single):
        single_m, single_n, single_k = single
        m_dim, n_dim = _ceil(m, single_m), _ceil(n, single_n)
    else:
        cores = max(1, obj.block_dim) if obj.multi_core else 1
        m_dim, n_dim = core_split(m, n, k, cores)
        single_m = _align(_ceil(m, m_dim), C0) if m_dim > 1 else m
        single_n = _align(_ceil(n, n_dim), C0) if n_dim > 1 else n
        single_k = k
    used = _ceil(m, single_m) * _ceil(n, single_n)
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
