"""Handle variables of the host lowering rebound under an `if` and read after it.

A pointer or handle variable of a tiling function (HandleCell) holds what it stands for on the Python side
(an attribute pointer, a tensor's shape, a handle of the host IR), so an assignment is a rebinding made while
lowering, which is right only where every later read is on the path of the assignment. Vendor tilings rebind
one on one branch and read it after the merge (ops-nn smooth_l1_loss_v2: `auto attr = attrs->GetStr(1); if (attr
== nullptr) attr = attrs->GetStr(0);`). Each branch of such an `if` is lowered with the variables it rebinds
noted (what they held before it), put back afterwards, and the two values each variable has at the end of the
branches are merged into one chosen by the condition, when the host model's values allow it:

    the same value                               kept
    attribute pointers of one kind and type       one pointer whose attribute index is a select of the two
    tensor handles of one kind and direction       one handle whose tensor index is a select
    host IR values of one type                     the value chosen
    a handle where the variable held null before   the handle (the path that skipped it would dereference null)
    a C string pointer and null, or two            the text the taken side points to, null included (host_cstring)

Any other pair leaves the variable unknown and reports the assignment as a gap, as a rebinding under control
flow was reported before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from xdsl.dialects import scf
from xdsl.ir import Block, Region, SSAValue

from ascendir.lower import ctypes as C
from ascendir.lower import host_cstring
from ascendir.lower.errors import Unsupported
from ascendir.lower.host_handles import AttrRef, HandleCell, HostT, TensorRef, handle_kind, is_host
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer


@dataclass
class Branch:
    """One branch being lowered: each variable declared outside the `if` that it rebinds, with the value it
    held before the branch and the first assignment (where a merge that fails is reported)."""

    block: Block
    before: dict[int, tuple[HandleCell, Val | None, A.Node]] = field(default_factory=dict)


def record(lw: HostLowerer, cell: HandleCell, node: A.Node) -> bool:
    """Whether assigning `cell` here is a rebinding inside branches being merged: the insertion point is reached
    from the variable's block only through the continuations of early exits and the branches of merged `if`s.
    The innermost such branch notes the variable's value before it."""
    current: Block | None = lw.builder.insertion_point.block
    innermost: Branch | None = None
    branches = {id(b.block): b for b in lw.merge_branches}
    while current is not None and current is not cell.block:
        branch = branches.get(id(current))
        if branch is not None:
            innermost = innermost or branch
        elif current not in lw.continuation_blocks:
            return False
        parent = current.parent_op()
        current = parent.parent_block() if parent is not None else None
    if current is None or innermost is None:
        return False
    innermost.before.setdefault(id(cell), (cell, cell.value, node))
    return True


def lower_branches(lw: HostLowerer, st: A.If, if_op: scf.IfOp, cond: Val,
                   branches: Sequence[Callable[[], None]]) -> None:
    """Lowers the `if`'s branches (branches[k] lowers the k-th; the rest of a statement list is the else branch of
    an `if` that always exits), each with the handle variables it rebinds noted and put back after it, then binds
    each such variable to the merge of its two values. A merged value is a result of the `if` (each branch
    yields its side: an index or a value made inside a branch is not visible after it), so `if_op` is rebuilt with
    those results when there are any."""
    ends: list[dict[int, Val | None]] = []
    starts: dict[int, tuple[HandleCell, Val | None, A.Node]] = {}
    for lower, region in zip(branches, if_op.regions):
        branch = Branch(region.blocks[0])
        lw.merge_branches.append(branch)
        try:
            with lw.at_end_of(region.blocks[0]):
                lower()
        finally:
            lw.merge_branches.pop()
            ends.append({key: cell.value for key, (cell, _, _) in branch.before.items()})
            for key, (cell, old, node) in branch.before.items():
                cell.value = old
                starts.setdefault(key, (cell, old, node))
    blocks = [r.blocks[0] for r in if_op.regions if r.blocks]  # (an `if` without else has an empty region)
    if len(blocks) == 1 and starts:
        blocks.append(Block())  # (an `if` without else that yields needs the else side: the values before it)
    chosen: list[tuple[HandleCell, Val | None, A.Node, Val | None, list[Val], Callable[[SSAValue], Val]]] = []
    for key, (cell, old, node) in starts.items():
        a, b = ends[0].get(key, old), ends[1].get(key, old) if len(ends) > 1 else old
        sides, make = _choice(a, b)
        chosen.append((cell, old, node, None if make is not None else _merge_plain(a, b), sides, make))
    yielded = [[] for _ in blocks]  # type: list[list[SSAValue]]
    for cell, old, node, plain, sides, make in chosen:
        if make is None:
            continue
        for k, (block, side) in enumerate(zip(blocks, sides)):
            with lw.at_end_of(block):
                yielded[k].append(lw.ssa(side(lw, node) if callable(side) else side, node))
    for block, values in zip(blocks, yielded):
        with lw.at_end_of(block):
            lw.emit(scf.YieldOp(*values), st)
    results = _with_results(lw, if_op, blocks, [v.type for v in yielded[0]]) if yielded[0] else []
    taken = iter(results)
    for cell, old, node, plain, sides, make in chosen:
        merged = make(next(taken)) if make is not None else plain
        if merged is None:
            lw.report.failed(Unsupported(f"assigning '{cell.name}' (a {cell.ctype}) on one branch of an if, "
                                         f"as {_what(ends[0].get(id(cell), old))} and "
                                         f"{_what(ends[-1].get(id(cell), old))}, is not modelled", node))
            merged = Val(HostT("poison", cell.name))
        if merged is old:
            continue
        # the merged value is this `if`'s assignment, noted by the branch that encloses it, if any
        if not (record(lw, cell, node) or lw._in_continuation_of(cell.block) or path_free(old, merged)):
            lw.report.failed(Unsupported(f"assigning '{cell.name}' (a {cell.ctype}) under control flow is not "
                                         "modelled", node))
            merged = Val(HostT("poison", cell.name))
        cell.value = merged


def _choice(a: Val | None, b: Val | None) -> tuple[list[Val], Callable[[SSAValue], Val] | None]:
    """What each branch yields for `cond ? a : b` and how the `if`'s result makes the merged value; no maker
    when the two need no run-time choice (or the model cannot hold one: _merge_plain)."""
    if a is None or b is None or a is b or _same(a, b):
        return [], None
    if isinstance(a.obj, AttrRef) and isinstance(b.obj, AttrRef) and a.ctype == b.ctype and \
            a.obj.kind == b.obj.kind and a.obj.ctype == b.obj.ctype:
        ref = a.obj
        return [_absolute(a.obj), _absolute(b.obj)], lambda at: replace(a, obj=AttrRef(0, ref.kind, ref.ctype, at))
    if isinstance(a.obj, TensorRef) and isinstance(b.obj, TensorRef) and a.ctype == b.ctype and \
            a.ssa is None and b.ssa is None and (a.obj.output, a.obj.optional) == (b.obj.output, b.obj.optional):
        tensor = a.obj
        return [_absolute(a.obj), _absolute(b.obj)], lambda at: replace(a, obj=replace(tensor, index=0, at=at))
    if a.ssa is not None and b.ssa is not None and a.obj is None and b.obj is None and a.ctype == b.ctype and \
            a.ssa.type == b.ssa.type:
        return [a, b], lambda v: Val(a.ctype, v)
    if all(host_cstring.is_null(v) or host_cstring.is_text(v) for v in (a, b)) and \
            any(host_cstring.is_null(v) or host_cstring.is_cstring(v) for v in (a, b)):
        # a C string pointer on one side, null on the other (a helper's `if (attr == nullptr) return nullptr;
        # ... return attr;`): the text each side points to, null included (host_cstring)
        return [_c_string(a), _c_string(b)], lambda v: Val(host_cstring.CSTRING, v)
    return [], None


def _c_string(v: Val) -> Callable[[HostLowerer, A.Node], Val]:
    return lambda lw, node: host_cstring.make(lw, v, node)


def _merge_plain(a: Val | None, b: Val | None) -> Val | None:
    """The merge of two values that needs no run-time choice, or None when the model cannot hold it."""
    if a is None or b is None:
        return None
    if a is b or _same(a, b):
        return a
    if path_free(b, a):
        return a  # (a path that skipped the assignment and read the variable dereferences null)
    if path_free(a, b):
        return b
    return None


def _same(a: Val, b: Val) -> bool:
    return a.ssa is b.ssa and a.ctype == b.ctype and a.obj == b.obj and a.const == b.const


def _with_results(lw: HostLowerer, if_op: scf.IfOp, blocks: list[Block], types: list) -> list[SSAValue]:
    """`if_op` replaced by an scf.if of the same condition and blocks that has results of `types`."""
    regions = []
    for region, block in zip(if_op.regions, blocks):
        if region.blocks:
            region.detach_block(block)
        regions.append(Region(block))
    rebuilt = scf.IfOp(if_op.cond, types, *regions)
    rebuilt.attributes.update(if_op.attributes)
    parent = if_op.parent_block()
    assert parent is not None
    parent.insert_op_before(rebuilt, if_op)
    if_op.detach()
    if_op.erase()
    return list(rebuilt.results)


def path_free(old: Val | None, v: Val) -> bool:
    """Whether assigning `v` to a handle variable that held `old` may be kept as if it ran on every path:
    `attrs = context->GetAttrs();` after an early return, in a helper method, or a member
    `bPermList_ = attrs->GetAttrPointer<gert::ContinuousVector>(1);` (ops-nn transpose_batch_mat_mul). `v` is a
    handle the context hands out (the same object whichever path runs; no SSA value, so it is usable anywhere:
    a tensor or an attribute of a constant index) and the variable held null or nothing before: a path that
    skipped the assignment and read the variable would dereference null, which the device's tiling function
    would not survive either."""
    if not is_host(v.ctype) or v.ssa is not None or not (
            v.obj is None or isinstance(v.obj, TensorRef | AttrRef) and v.obj.at is None):
        return False
    return old is None or handle_kind(old) == "poison" or (old.ssa is None and old.obj is None and (
        old.const == 0 or old.ctype == v.ctype))


def _absolute(ref: AttrRef | TensorRef) -> Val | Callable[[HostLowerer, A.Node], Val]:
    """The int64 index a reference stands for: its index plus its run-time offset (a sum made where it is
    yielded)."""
    if ref.at is None:
        return Val(C.I64, const=ref.index)
    if ref.index == 0:
        return Val(C.I64, ref.at)
    at, index = ref.at, ref.index
    return lambda lw, node: lw.arith("+", Val(C.I64, at), Val(C.I64, const=index), node)


def _what(v: Val | None) -> str:
    if v is None:
        return "nothing"
    return str(v.ctype) if not isinstance(v.obj, AttrRef | TensorRef) else f"{v.ctype} ({type(v.obj).__name__})"
