"""Coverage of a Matmul object's output (ASC608): the part of C that the library's per-core block leaves out.

The Matmul API splits C into per-core blocks as its host tiling says (MultiCoreMatmulTiling with SetDim(n):
usedCoreNum cores, each computing singleCoreM x singleCoreN of the M x N product). IterateAll(C) computes one
such block, starting at the C tensor it is given; moving each core to its own block is the kernel's job: it
offsets A, B and C by the block index (the samples' CalcOffset(GetBlockIdx(), ...)), or sets the block shape
(SetTail, SetSingleShape). A kernel that does neither makes every core compute the same block, and the rest
of C never receives the product.

The rules in coverage.py treat a Matmul object as code they do not see into; this one reads the object's
calls against the tiling the host evaluator folds (ascendir/matmul_core_split.py models the library's split)
and reports only what is provable: the tiling is known, the block is smaller than C, the kernel never reads
a block index and runs no code the checker does not see, and the object computes exactly one block, with
IterateAll outside any loop and no call that changes the block.
"""

from __future__ import annotations

from typing import NamedTuple

from xdsl.dialects import scf
from xdsl.ir import Operation

from ascendir.dialects import ascendc as asc
from frontend.diagnostics import Note
from passes.verify.ir import is_kind, kernels_of, walk_of
from passes.verify.rules import CheckContext, rule

# Matmul methods that leave the block IterateAll computes as the tiling sets it: the operands, the bias,
# the workspace and the end of the computation. Any other method (SetTail, SetSingleShape, SetOrgShape,
# Iterate/GetTensorC, the batch forms, ...) may move or reshape the block, and the rule stays silent.
BLOCK_KEEPING = frozenset({
    "REGIST_MATMUL_OBJ", "REGIST_MATMUL_OBJ_STATIC", "Init", "SetTensorA", "SetTensorB", "SetBias",
    "DisableBias", "ClearBias", "SetWorkspace", "SetLocalWorkspace", "SetHF32", "SetQuantScalar", "End",
    "IterateAll",
})  # fmt: skip
_BLOCK_INDEX = frozenset({"GetBlockIdx", "GetSubBlockIdx", "GetProcId"})


class CubeBlock(NamedTuple):
    """The folded tiling of one TCubeTiling: C's size and the block one core computes."""

    prefix: str
    cores: int
    m: int
    n: int
    single_m: int
    single_n: int
    ka: int = 0  # A's and B's K (0: not folded)
    kb: int = 0


def cube_block(ctx: CheckContext) -> CubeBlock | None:
    """The one TCubeTiling the tiling function filled in for the given shapes, or None (no shapes, the
    function failed, no Matmul tiling, or several of them: which one a kernel's object reads is not followed)."""
    result = ctx.tiling
    if result is None or not result.succeeded or result.gaps:
        return None
    # A Matmul tiling always marks the run incomplete (GetTiling is a model, ascendir/matmul_tiling.py); the
    # split is the library's where matmul_core_split models its path, not where it fell back to a guess.
    if any("core split:" in note for note in result.diagnostics):
        return None
    prefixes = {key[: -len(".singleCoreN")] for key in result.fields if key.endswith(".singleCoreN")}
    if len(prefixes) != 1:
        return None
    prefix = prefixes.pop()
    values = [result.fields.get(f"{prefix}.{name}") for name in ("usedCoreNum", "M", "N", "singleCoreM",
                                                                  "singleCoreN")]
    if not all(isinstance(v, int) and v > 0 for v in values):
        return None
    cores, m, n, single_m, single_n = values  # type: ignore[misc]
    ka, kb = (result.fields.get(f"{prefix}.{name}") for name in ("Ka", "Kb"))
    return CubeBlock(prefix, cores, m, n, single_m, single_n, ka if isinstance(ka, int) else 0,
                     kb if isinstance(kb, int) else 0)


def _matmul_calls(kernel: asc.KernelOp) -> list[asc.ApiCallOp] | None:
    """The kernel's Matmul method calls, or None when the kernel could tell cores apart or runs code the
    checker does not see (an unresolved call, which might read the block index)."""
    found: list[asc.ApiCallOp] = []
    for op in walk_of(kernel):
        if is_kind(op, asc.OpaqueCallOp):
            return None
        if is_kind(op, asc.ApiCallOp) and op.api.data in _BLOCK_INDEX:
            return None
        if is_kind(op, asc.ApiCallOp) and op.FAMILY == "matmul":
            found.append(op)
    return found


def in_loop(op: Operation, kernel: asc.KernelOp) -> bool:
    parent = op.parent_op()
    while parent is not None and parent is not kernel:
        if isinstance(parent, scf.ForOp | scf.WhileOp):
            return True
        parent = parent.parent_op()
    return False


@rule(
    "ASC608", "matmul-block-without-core-offset", "tiling",
    summary="For the given shapes, the Matmul tiling splits C over several cores, but the kernel never moves "
            "a core to its block: every core computes the same block and the rest of C is never computed.",
    why="MultiCoreMatmulTiling with SetDim(n) gives each core a block of singleCoreM x singleCoreN of the "
        "M x N product (usedCoreNum cores). IterateAll(C) computes one block, starting at the tensors it is "
        "given; the kernel must offset A, B and C by GetBlockIdx() (the samples' CalcOffset), or set the block "
        "with SetTail / SetSingleShape. Without that, every core computes the block at the start of C and the "
        "other elements keep whatever the output held: the comparison fails on exactly those rows or columns "
        "(the test reports diffs from the first column past singleCoreN). Checked only with concrete shapes "
        "(`--shape`, `--test-case`), when the tiling folds, the kernel reads no block index and calls nothing "
        "the checker does not see, and the object computes one block (IterateAll once, outside any loop).",
    example="cubeTiling.SetDim(2);                 // host: singleCoreN 256 of N 512\n"
            "mm.SetTensorA(xGm); mm.SetTensorB(wGm);\n"
            "mm.IterateAll(yGm);                   // kernel: no GetBlockIdx(), every core writes y[:, 0:256]",
    instead="offset each core's tensors by its block: mIdx = GetBlockIdx() % mBlocks, nIdx = GetBlockIdx() / "
            "mBlocks;\nmm.SetTensorA(xGm[mIdx * singleCoreM * Ka]); mm.SetTensorB(wGm[nIdx * singleCoreN]);\n"
            "mm.IterateAll(yGm[mIdx * singleCoreM * N + nIdx * singleCoreN]);   // and SetTail for the last block",
)
def matmul_block_without_core_offset(ctx: CheckContext) -> None:
    block = cube_block(ctx)
    if block is None or (block.single_m >= block.m and block.single_n >= block.n):
        return
    for kernel in kernels_of(ctx):
        calls = _matmul_calls(kernel)
        if not calls or any(c.api.data not in BLOCK_KEEPING for c in calls):
            continue
        iterate = [c for c in calls if c.api.data == "IterateAll"]
        if len(iterate) != 1 or in_loop(iterate[0], kernel):
            continue
        rows = min(block.single_m, block.m)
        cols = min(block.single_n, block.n)
        left = block.m * block.n - rows * cols
        ctx.report(iterate[0], f"every core computes the same {rows} x {cols} block of the {block.m} x {block.n} "
                   f"product here: the kernel never reads GetBlockIdx(), so {left} elements of C "
                   f"({_missing(block, rows, cols)}) are never computed",
                   Note(f"the tiling function's {block.prefix} gives usedCoreNum {block.cores}, singleCoreM "
                        f"{block.single_m}, singleCoreN {block.single_n} for the given shapes"),
                   Note("offset A, B and C by each core's block (CalcOffset(GetBlockIdx(), ...)), or tile the Matmul "
                        "for one core (SetDim(1))", kind="help"))


def _missing(block: CubeBlock, rows: int, cols: int) -> str:
    if rows >= block.m:
        return f"columns {cols}..{block.n - 1} of every row"
    if cols >= block.n:
        return f"rows {rows}..{block.m - 1}"
    return f"all but rows 0..{rows - 1} of columns 0..{cols - 1}"
