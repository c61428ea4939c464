"""AIV blocks of a MIX launch that the Matmul tiling has no block for (ASC609).

On the split chips (910B: one AIC and two AIVs per AI Core) a Matmul kernel with A, B and C in GM is a MIX
kernel: the Matmul API runs from the vector cores, and each AIV calls IterateAll for its own block of C.
SetBlockDim counts AI Cores (AIC + 2 AIV groups), so GetBlockIdx() runs over 0 .. 2 x blockDim - 1 on the AIVs,
while MultiCoreMatmulTiling's SetDim counts AIVs and the tiling has usedCoreNum blocks. A kernel that offsets
C by GetBlockIdx() (the samples' CalcOffset) and launches more AIVs than usedCoreNum without returning early on
the others runs IterateAll on the extra AIVs too, at offsets past the tiling's grid.

The rule runs the kernel's scalar code (passes/verify/footprint.py) on every AIV of the launch and reports
only what is certain: an AIV the tiling has no block for writes its block (singleCoreM rows of singleCoreN
elements, N apart, from the C tensor IterateAll is given) over the block of an AIV that has one, from another
start, with A or B not moved by the same rows and columns (so the two write different values to the shared
elements). It needs the folded tiling (matmul_coverage.cube_block), the launch's blockDim, the default (1:2)
MIX kernel type and no ASCENDC_CUBE_ONLY, IterateAll outside any loop, only Matmul calls that keep the
tiling's block, and no GetBlockNum/GetSubBlockIdx (whose MIX values it does not model).
"""

from __future__ import annotations

from typing import NamedTuple

from ascendir.dialects import ascendc as asc
from frontend.diagnostics import Note
from passes.verify.footprint import CoreRun, run_core
from passes.verify.ir import is_kind, kernels_of, walk_of
from passes.verify.matmul_coverage import BLOCK_KEEPING, CubeBlock, cube_block, in_loop
from passes.verify.rules import CheckContext, rule

# kernel types whose AIVs run two to an AI Core on a split chip (the default for a Matmul kernel is MIX 1:2)
_MIX_1_2 = frozenset({"default", "mix_aic_1_2"})
MAX_AIVS = 96  # a launch with more AIVs is not followed (one scalar run each)
# calls whose value on an AIV of a MIX launch the footprint runner does not model
_UNMODELLED_INDEX = frozenset({"GetBlockNum", "GetSubBlockIdx", "GetSubBlockNum", "GetTaskRation", "GetProcId"})


def _follows_blocks(kernel: asc.KernelOp) -> bool:
    """Whether the blocks the kernel's IterateAll calls write are the tiling's, placed by the block index: only
    block-keeping Matmul calls, every IterateAll outside any loop, GetBlockIdx read, no index call the runner
    does not model, no unresolved call."""
    iterate = 0
    reads_index = False
    for op in walk_of(kernel):
        if is_kind(op, asc.OpaqueCallOp):
            return False
        if not is_kind(op, asc.ApiCallOp):
            continue
        api = op.api.data
        if api in _UNMODELLED_INDEX:
            return False
        reads_index |= api == "GetBlockIdx"
        if op.FAMILY == "matmul":
            if api not in BLOCK_KEEPING or api == "IterateAll" and in_loop(op, kernel):
                return False
            iterate += api == "IterateAll"
    return reads_index and iterate > 0


def _cube_only(ctx: CheckContext) -> bool:
    """Whether the sources define ASCENDC_CUBE_ONLY: the Matmul then runs on the AICs alone, blockDim counts
    AICs and no AIV calls it."""
    program = ctx.program
    return program is not None and any("ASCENDC_CUBE_ONLY" in u.unit.text for u in program.units)


def _blocks_overlap(a: int, b: int, block: CubeBlock) -> bool:
    """Whether the blocks starting at elements a and b of C (singleCoreM rows of singleCoreN elements, N
    apart) share an element: some rows r, t < singleCoreM with |a - b + (r - t) N| < singleCoreN."""
    d = a - b
    k = d // block.n
    return any(abs(d - j * block.n) < block.single_n for j in (k, k + 1) if abs(j) < block.single_m)


@rule(
    "ASC609", "matmul-aiv-block-outside-tiling", "tiling",
    summary="For the given shapes, the MIX launch runs more AIVs than the Matmul tiling has blocks, and an AIV "
            "without a block runs IterateAll over the block of an AIV that has one, with other operands.",
    why="On the split chips a Matmul kernel is a MIX kernel: SetBlockDim counts AI Cores (one AIC and two AIVs "
        "each), so GetBlockIdx() on the AIVs runs from 0 to 2 x blockDim - 1, while MultiCoreMatmulTiling's "
        "SetDim counts AIVs and the tiling gives usedCoreNum blocks (the samples pair SetDim(2) with "
        "SetBlockDim(1)). An AIV whose index is usedCoreNum or more has no block: CalcOffset(GetBlockIdx()) "
        "puts it past the tiling's grid, and its IterateAll writes a whole singleCoreM x singleCoreN block "
        "there, over another core's block (and it may run past the end of C): the two cores write different "
        "products to the same elements, and the hardware keeps whichever lands last (e.g. 'only row 0 of C is "
        "right' with SetDim(1) and SetBlockDim(1)). Checked only with concrete shapes (`--shape`, `--test-case`), when the "
        "tiling folds, the kernel is the default MIX 1:2 type (no ASCENDC_CUBE_ONLY), calls IterateAll outside "
        "any loop and only Matmul methods that keep the tiling's block, the runs of the AIVs' scalar code "
        "reach their IterateAll, and A or B is not moved by the rows and columns C is.",
    example="cubeTiling.SetDim(1);                                    // host: one block, all of C\n"
            "context->SetBlockDim(tiling.get_usedCoreNum());          // 1 AI Core: AIVs 0 and 1\n"
            "CalcOffset(GetBlockIdx(), tiling, offA, offB, offC);     // kernel: AIV 1 gets offC = N\n"
            "mm.IterateAll(cGm[offC]);                                // writes rows 1..M: one row past C",
    instead="tile for the AIVs the launch runs (SetDim(2 * blockDim), or SetBlockDim((usedCoreNum + 1) / 2)), and "
            "return early on the others:\nif (GetBlockIdx() >= tiling.usedCoreNum) { return; }",
)
def matmul_aiv_block_outside_tiling(ctx: CheckContext) -> None:
    block = cube_block(ctx)
    tiling = ctx.tiling
    chip = ctx.chip
    if block is None or tiling is None or not tiling.block_dim or chip is None or not chip.is_split or \
            block.ka <= 0 or block.kb <= 0:
        return
    per_core = chip.aiv_cores // max(chip.aic_cores, 1)
    if per_core != 2:
        return
    aivs = tiling.block_dim * per_core
    if aivs <= block.cores:
        return
    if aivs > MAX_AIVS or _cube_only(ctx):
        return
    for kernel in kernels_of(ctx):
        if kernel.kernel_type.data not in _MIX_1_2 or not _follows_blocks(kernel):
            continue
        placed = {idx: views for idx in range(aivs) if (views := _placed(run_core(kernel, idx, aivs))) is not None}
        for idx in range(block.cores, aivs):
            for owner in range(block.cores):
                if idx in placed and owner in placed and _clobbers(placed[idx], placed[owner], block):
                    _report(ctx, placed[idx].iterate, block, idx, owner, aivs, tiling.block_dim,
                            placed[idx].c, placed[owner].c)
                    return


class _Placed(NamedTuple):
    """Where one AIV's Matmul works, in elements from the start of its kernel argument."""

    iterate: asc.ApiCallOp
    arg: int  # C's kernel argument
    c: int
    a: int
    b: int


def _placed(run: CoreRun) -> _Placed | None:
    """The AIV's IterateAll and the offsets of its A, B and C tensors, when exactly one of each ran with a
    known place and whole elements (None: it returned early, the run stopped, or the calls were not followed)."""
    views: dict[str, list[tuple[asc.ApiCallOp, tuple[int, int, int]]]] = {}
    for op, view in run.matmul_views.items():
        views.setdefault(op.api.data, []).append((op, view))  # type: ignore[attr-defined]
    found = [views.get(api, []) for api in ("IterateAll", "SetTensorA", "SetTensorB")]
    if any(len(f) != 1 for f in found) or any(off % elem for _, (_, off, elem) in (f[0] for f in found)):
        return None
    (iterate, (arg, c, c_elem)), (_, (_, a, a_elem)), (_, (_, b, b_elem)) = (f[0] for f in found)
    return _Placed(iterate, arg, c // c_elem, a // a_elem, b // b_elem)


def _clobbers(extra: _Placed, owner: _Placed, block: CubeBlock) -> bool:
    """Whether the extra AIV's block overlaps the owner's, at a different place, with operands that are not
    the owner's shifted by the same rows and columns (then the two write different values to shared elements).

    A C shift of q rows and s columns (d = q N + s) keeps the products right only when A moves by q rows and
    B by s columns: q Ka (or q, A transposed) and s (or s Kb, B transposed) elements."""
    if extra.arg != owner.arg or extra.c == owner.c or not _blocks_overlap(extra.c, owner.c, block):
        return False
    q, s = divmod(extra.c - owner.c, block.n)
    return extra.a - owner.a not in (q * block.ka, q) or extra.b - owner.b not in (s, s * block.kb)


def _report(ctx: CheckContext, iterate: asc.ApiCallOp, block: CubeBlock, idx: int, owner: int, aivs: int,
            dim: int, start: int, owner_start: int) -> None:
    blocks = f"{block.cores} block{'s' if block.cores != 1 else ''}"
    ctx.report(iterate, f"AIV {idx} of the MIX launch has no block in the Matmul tiling ({blocks} for "
               f"{aivs} AIVs), yet its IterateAll writes a {block.single_m} x {block.single_n} block from element "
               f"{start} of C, over the block AIV {owner} writes from element {owner_start}: two cores write "
               f"different products to the same elements",
               Note(f"blockDim {dim} starts {dim} AI Cores of one AIC and two AIVs each, so GetBlockIdx() runs "
                    f"0..{aivs - 1} on the AIVs; the tiling function's {block.prefix} gives usedCoreNum "
                    f"{block.cores}, singleCoreM {block.single_m}, singleCoreN {block.single_n} of {block.m} x "
                    f"{block.n}"),
               Note("tile for the AIVs the launch runs (SetDim counts AIVs: SetDim(2 * blockDim)), or return early "
                    "on the AIVs with GetBlockIdx() >= usedCoreNum", kind="help"))
