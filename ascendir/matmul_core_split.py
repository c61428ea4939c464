"""How the Matmul library's GetTiling divides C among the cores: usedCoreNum and singleCoreM / N / K.

Facts from reading asc-devkit's impl/adv_api/tiling/matmul (matmul_tiling_algorithm.cpp: Process, GetDims,
GetDimsHelper, CalcLoadSize, GetSingleShape; math_util.cpp), restated here in our own terms. The library
counts M and N in blocks of 16 rows / columns and K in 32-byte slices of A, and takes one of these paths:

- one core (no SetDim, SetDim(1), or a MatmulApiTiling): the core takes all of M, N and K.
- SetSingleShape: its sizes are taken as they are, and usedCoreNum is the SetDim value.
- several cores with SetShape called (every kernel in the bundled suite, the KernelHive records and the
  NPUKernelBench Matmul-object tasks does this), or on chips other than the 910B / 950 / 350: the
  *load search* (`_load_search`): it visits part counts (mDim, nDim) whose product fits the cores and keeps
  the one with the fewest minimal L0 steps per core, then the most cores, then the least estimated GM
  traffic. The block counts per core are then nudged to counts with enough divisors where that still fits
  the cores, which may change the number of parts.
- the singleCore sizes come from the part counts alone: singleCoreM = ceil(16 * ceil(M / 16) / mDim),
  the same for N, so a single part of an M that is no multiple of 16 is M rounded up to 16 (singleCoreN of
  N = 5921 over two parts is 2968, over one part 5936). An NZ-format matrix adds a rounding to 256 bytes.

Not modelled, reported through `UnmodelledSplit` (the caller falls back to a least-load split and says
so): several cores without SetShape on the 910B / 950 / 350, where the library first tries a
compute-intensity search over basic blocks (its SPLIT_MN / SPLIT_SMALL_MN scenarios); multi-core K
splitting (EnableMultiCoreSplitK); A or B held in TSCM (L1-residency policies veto candidates); batched
matmuls; and the N-buffer schedule. No kernel here reaches them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ascendir.host_eval_matmul import rounded_blocks, splits_well

C0 = 16  # rows or columns of a cube fractal
_FRACTAL_BYTES = C0 * 32  # one 16-row slice of 32 bytes
_INT32_MAX = 2**31 - 1
_NZ = 1  # CubeFormat::NZ
_SCENARIO_SOCS = ("ASCEND910B", "ASCEND950", "ASCEND350")


class UnmodelledSplit(Exception):
    """GetTiling would take a path of the library's core split this model does not follow."""


@dataclass(frozen=True)
class CoreSplitInputs:
    """What the tiling object holds that the core split reads."""

    m: int  # the M, N, K one GetTiling covers (SetShape, else SetOrgShape)
    n: int
    k: int
    cores: int  # the SetDim value; 1 for one core
    bits_a: int
    bits_b: int
    bits_c: int = 32
    trans_a: bool = False
    trans_b: bool = False
    shape_set: bool = True  # SetShape was called (the library's singleM / singleN are set)
    soc: str = "ASCEND910B"
    l1: int = 512 * 1024
    l0a: int = 64 * 1024
    l0c: int = 128 * 1024
    format_a: int = 0
    format_b: int = 0
    format_c: int = 0
    single_core: tuple[int, int, int] | None = None  # SetSingleShape (unset parts -1)


@dataclass(frozen=True)
class CoreSplit:
    m_dim: int
    n_dim: int
    used: int  # usedCoreNum
    single_m: int
    single_n: int
    single_k: int


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def library_core_split(inp: CoreSplitInputs) -> CoreSplit:
    """The library's split for `inp`; raises UnmodelledSplit outside the modelled paths."""
    if inp.single_core is not None and any(v > 0 for v in inp.single_core):
        # SetSingleShape: one "core" of the given sizes, and usedCoreNum is what SetDim said
        sm, sn, sk = (v if v > 0 else whole for v, whole in zip(inp.single_core, (inp.m, inp.n, inp.k)))
        return CoreSplit(1, 1, max(1, inp.cores), sm, sn, sk)
    if inp.cores <= 1:
        return CoreSplit(1, 1, 1, inp.m, inp.n, inp.k)
    if not inp.shape_set and inp.soc in _SCENARIO_SOCS:
        raise UnmodelledSplit(
            f"several cores ({inp.cores}) without SetShape on the {inp.soc}: the library's basic-block "
            "search for that case is not modelled")
    m_blocks, n_blocks = _ceil(inp.m, C0), _ceil(inp.n, C0)
    k_blocks = _ceil(inp.k, max(1, 256 // inp.bits_a))  # 32-byte slices of A along K
    m_dim, n_dim = _core_parts(inp, m_blocks, n_blocks, k_blocks)
    # with ND matrices the parts are not aligned further; an NZ A or B aligns N (and a transposed A's M)
    # to 256 bytes, an NZ C both
    nz_input, nz_output = inp.format_a == _NZ or inp.format_b == _NZ, inp.format_c == _NZ
    single_m = _single_extent(m_blocks, m_dim, inp.bits_a, nz_input and inp.trans_a or nz_output)
    output_heavy = _output_heavy(inp, _ceil(inp.m, m_dim), _ceil(inp.n, n_dim))
    align_n = nz_input and (not inp.trans_b or output_heavy) or nz_output
    single_n = _single_extent(n_blocks, n_dim, inp.bits_b, align_n)
    return CoreSplit(m_dim, n_dim, m_dim * n_dim, single_m, single_n, inp.k)


def _output_heavy(inp: CoreSplitInputs, single_m: int, single_n: int) -> bool:
    """Whether a core writes more C (counted twice) than it reads of A and B (the library's
    NeedOutputAlign, with its pairing of sizes kept)."""
    read = single_n * inp.k * inp.bits_a + single_m * inp.k * inp.bits_b
    return single_m * single_n * 2 * inp.bits_c > read


def _single_extent(blocks: int, parts: int, bits: int, align: bool) -> int:
    """One part's extent: the blocks of 16 shared out, and with `align` rounded up to 256 bytes where
    that still leaves `parts` parts (AlignSingleShape)."""
    whole = blocks * C0
    extent = _ceil(whole, parts)
    if not align or parts <= 1:
        return extent
    step = 256 * 8 // bits
    aligned = _ceil(extent, step) * step
    return aligned if aligned < _ceil(whole, parts - 1) else extent


# ------------------------------------------------------------------------------------------------
# The load search
# ------------------------------------------------------------------------------------------------


def _core_parts(inp: CoreSplitInputs, m_blocks: int, n_blocks: int, k_blocks: int) -> tuple[int, int]:
    cores = inp.cores
    if m_blocks * n_blocks <= cores and _fits_l0_whole(inp, m_blocks, n_blocks, k_blocks):
        # a matrix this small (its blocks no more than the cores, A, B and C within L0) is cut only along
        # a side of more than 32 blocks, into 32-block parts of its power-of-two rounding
        return _mini_parts(m_blocks), _mini_parts(n_blocks)
    m_mapped, n_mapped = rounded_blocks(m_blocks), rounded_blocks(n_blocks)
    m_options = _part_options(m_blocks, m_mapped, cores)
    n_options = _part_options(n_blocks, n_mapped, cores)
    _add_balanced_options(m_blocks, n_blocks, cores, m_options, n_options)
    best = _Best()
    for n_dim in sorted(n_options):
        if not 0 < n_dim <= cores:
            continue
        for m_dim in sorted(m_options):
            if not 0 < m_dim * n_dim <= cores:  # the balanced guesses may give 0 parts: skipped
                continue
            _consider(inp, best, m_dim, n_dim, m_blocks, n_blocks, k_blocks)
    # nudge the per-core block counts to ones with enough divisors (MathUtil::FindBestSingleCore), kept
    # only where the nudged counts still fit the cores
    per_m = _nudged(m_blocks, m_mapped, best.m_dim)
    per_n = _nudged(n_blocks, n_mapped, best.n_dim)
    if _ceil(m_blocks, per_m) * _ceil(n_blocks, per_n) > cores:
        per_m, per_n = _ceil(m_blocks, best.m_dim), _ceil(n_blocks, best.n_dim)
    return min(_ceil(m_blocks, per_m), cores), min(_ceil(n_blocks, per_n), cores)


def _fits_l0_whole(inp: CoreSplitInputs, m_blocks: int, n_blocks: int, k_blocks: int) -> bool:
    slices = inp.l0a // _FRACTAL_BYTES
    return (m_blocks * k_blocks <= slices and n_blocks * k_blocks <= slices
            and m_blocks * n_blocks <= inp.l0c // (C0 * C0 * 4))


def _mini_parts(blocks: int) -> int:
    if blocks <= 32:
        return 1
    mapped = rounded_blocks(blocks)
    return _ceil(blocks, _ceil(mapped, mapped // 32))


def _part_options(blocks: int, mapped: int, cores: int) -> set[int]:
    """Part counts up to the cores (and the blocks) that divide the blocks, their power-of-two rounding,
    or the core count."""
    return {i for i in range(1, min(cores, blocks) + 1) if 0 in (blocks % i, mapped % i, cores % i)}


def _add_balanced_options(
    m_blocks: int, n_blocks: int, cores: int, m_opts: set[int], n_opts: set[int]
) -> None:
    """The library also tries the part counts that make the parts square: sqrt(M / N x cores) parts of M."""
    # single precision, as the library computes it
    point = float(_f32(math.sqrt(_f32(_f32(m_blocks / n_blocks) * cores))))
    m_dim = math.ceil(point)
    n_dim = math.ceil(_f32(cores / point))
    m_opts.update({m_dim, cores // n_dim if n_dim else 1})
    n_opts.update({n_dim, cores // m_dim if m_dim else 1})


def _f32(x: float) -> float:
    import numpy as np

    return float(np.float32(x))


@dataclass
class _Best:
    m_dim: int = 1
    n_dim: int = 1
    cores: int = 1
    loops: int = _INT32_MAX
    load: int = _INT32_MAX
    big: bool = False  # the library's "bigPackage": the kept split gives each core 16 blocks of N or more


def _consider(inp: CoreSplitInputs, best: _Best, m_dim: int, n_dim: int, mb: int, nb: int, kb: int) -> None:
    per_m, per_n = _ceil(mb, m_dim), _ceil(nb, n_dim)
    load = _load_size(inp.l1, m_dim, n_dim, mb, nb, kb, per_m, per_n)
    # the "big package" gate: a split that leaves a core fewer than 16 blocks of a non-transposed B's N
    # (or of a transposed A's M) is never kept once a split with enough was; before one was, every split
    # that has enough is kept as it comes
    if inp.trans_b and not inp.trans_a:
        gate = 0
    else:
        short_n = not inp.trans_b and nb >= 16 and per_n < 16
        short_m = inp.trans_a and mb >= 16 and per_m < 16
        enough = not short_n and not short_m
        gate = (0 if enough else 1) if best.big else (2 if enough else 0)
    if gate == 1:
        return
    loops = _l0_steps(per_m, per_n, kb)
    used = m_dim * n_dim
    fewer_steps = gate == 0 and (loops < best.loops or (used > best.cores and loops == best.loops))
    same_cores = not fewer_steps and used == best.cores
    less_load = same_cores and load < best.load
    more_parts = same_cores and load == best.load and best.n_dim * best.m_dim < m_dim * n_dim
    if gate == 2 or fewer_steps or less_load or more_parts:
        best.m_dim, best.n_dim, best.cores, best.loops, best.load = m_dim, n_dim, used, loops, load
        best.big = (inp.trans_b or per_n >= 16) and (not inp.trans_a or per_m >= 16) and used > 1


def _l0_steps(per_m: int, per_n: int, kb: int) -> int:
    """How many minimal L0 blocks (at most 128 blocks of 16 x 16 of C, 64 slices of K) one core steps
    through."""
    n0 = min(16, per_n, 64)
    m0 = min(per_m, 128 // n0, 64)
    n0 = min(per_n, 128 // m0, 64)
    m0 = min(per_m, 128 // n0, 64)
    k0 = min(64 // m0, 64 // n0, kb)
    return _ceil(per_m, m0) * _ceil(per_n, n0) * _ceil(kb, k0)


def _load_size(l1: int, m_dim: int, n_dim: int, mb: int, nb: int, kb: int, per_m: int, per_n: int) -> int:
    """The library's estimate of the blocks all cores read from GM, by which of A and B (whole, or one
    K-long strip) stay in L1 (CalcLoadSize, batch 1). K is counted as 512 bytes a slice whatever the type."""
    k_bytes = kb * C0 * C0 * 2
    n0 = min(16, per_n)
    m0 = min(16, per_m, 128 // n0)
    k0 = min(64 // m0, 64 // n0, kb)
    strip = m0 * k0 * _FRACTAL_BYTES  # one minimal block of A (or B, with n0) in L1
    strip_b = n0 * k0 * _FRACTAL_BYTES
    if ((per_m + per_n) * k_bytes <= l1 or (per_m + n0 * 2) * k_bytes <= l1
            or (per_n + m0 * 2) * k_bytes <= l1):
        return mb * n_dim + nb * m_dim  # A and B, or one and a strip of the other, stay in L1
    if (n0 * k_bytes + strip) * 2 > l1 and (m0 * k_bytes + strip_b) * 2 > l1:
        return mb * _ceil(nb, n0) + nb * _ceil(mb, m0)  # neither K-long strip fits
    if (m0 + n0) * k_bytes * 2 <= l1:
        m1 = _ceil(l1 - n0 * k_bytes * 2, k_bytes * 2 * m0) * m0
        n1 = _ceil(l1 - m0 * k_bytes * 2, k_bytes * 2 * n0) * n0
        m_first = mb * n_dim + nb * _ceil(mb, m1)
        n_first = nb * m_dim + mb * _ceil(nb, n1)
        return m_first if m_first < n_first else n_first
    load = _INT32_MAX
    if per_m * k_bytes + strip_b * 2 <= l1 or m0 * k_bytes * 2 + strip_b * 2 <= l1:
        load = min(load, mb * n_dim + nb * _ceil(mb, m0))
    if per_n * k_bytes + strip * 2 <= l1 or n0 * k_bytes * 2 + strip * 2 <= l1:
        load = min(load, nb * m_dim + mb * _ceil(nb, n0))
    return load


def _nudged(blocks: int, mapped: int, parts: int) -> int:
    """Blocks per part after the library's nudge towards counts with enough divisors: from the even share
    towards the share of the power-of-two rounding, the first that splits well (that share if none)."""
    if parts == 1 and splits_well(blocks):
        return blocks
    current, target = _ceil(blocks, parts), _ceil(mapped, parts)
    while current != target:
        if splits_well(current):
            return current
        current += 1 if current < target else -1
    return current
