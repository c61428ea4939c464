"""Small questions rules ask of the IR: which argument is `count`, is this value a constant, where does
this tensor come from. Kept here so rules read like their pages, not like IR plumbing."""

from __future__ import annotations

from functools import lru_cache
from types import UnionType
from typing import TYPE_CHECKING, Any

from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr
from xdsl.ir import Operation, SSAValue

from ascendir.catalog import Overload, load_catalog
from ascendir.dialects import ascendc as asc

if TYPE_CHECKING:
    from passes.verify.rules import CheckContext


@lru_cache(maxsize=4096)
def overload_of(api: str, overload: str, family: str) -> tuple[Overload, bool] | None:
    """The catalog overload an API-call op resolved to, and whether the op carries a receiver first."""
    for candidate in load_catalog().apis:
        if candidate.name == api and candidate.family == family:
            found = candidate.overload(overload)
            if found is not None:
                return found, candidate.receiver is not None
    return None


def arg(op: asc.ApiCallOp, name: str) -> SSAValue | None:
    """The operand of an API call bound to the catalog parameter `name` (None if absent/defaulted)."""
    found = overload_of(op.api.data, op.overload.data, op.FAMILY)
    if found is None:
        return None
    overload, has_receiver = found
    for i, param in enumerate(overload.params):
        if param.name == name:
            index = i + int(has_receiver)
            return op.args[index] if index < len(op.args) else None
    return None


def constant_of(value: SSAValue | None) -> int | float | None:
    """The compile-time value of `value`, looking through integer and float conversions."""
    seen = 0
    while value is not None and seen < 16:
        seen += 1
        owner = value.owner
        if isinstance(owner, arith.ConstantOp):
            attr = owner.value
            if isinstance(attr, IntegerAttr):
                return attr.value.data
            if isinstance(attr, FloatAttr):
                return attr.value.data
            return None
        if isinstance(owner, arith.ExtSIOp | arith.ExtUIOp | arith.TruncIOp | arith.SIToFPOp | arith.UIToFPOp
                      | arith.ExtFOp | arith.TruncFOp | arith.IndexCastOp):
            value = owner.operands[0]
            continue
        return None
    return None


def api_calls(module: Operation, *families: str) -> list[asc.ApiCallOp]:
    wanted = set(families)
    return [op for op in walk_of(module) if isinstance(op, asc.ApiCallOp) and (not wanted or op.FAMILY in wanted)]


def ops_of(ctx: CheckContext) -> list[Operation]:
    """`list(ctx.module.walk())`, made once per check run and shared by the rules (they never change the
    module; a walk of a kernel's IR costs ~0.3 ms and a dozen rules ask)."""
    return walk_of(ctx.module)


class _Walks:
    """The walks of the module the rules are checking: the module's own and those of ops inside it (kernels),
    each made once. Kept for one module at a time, as the other per-module caches of the rules are."""

    module: Operation | None = None
    ops: list[Operation] = []
    inner: dict[int, list[Operation]] = {}


_RUN_TABLES: list[dict[Any, Any]] = []


def run_table() -> dict[Any, Any]:
    """A module-level table for facts about the ops of the module being checked (keyed by op identity), which
    forget_walks() empties before each rule run: it never answers for another module's ops, and does not keep
    the modules checked before alive."""
    table: dict[Any, Any] = {}
    _RUN_TABLES.append(table)
    return table


def forget_walks() -> None:
    """Drop the shared walks and the run tables: called before the rules run, since lowering and tiling folding
    change the module in place (the module's identity alone does not tell that)."""
    _Walks.module, _Walks.ops, _Walks.inner = None, [], {}
    for table in _RUN_TABLES:
        table.clear()


def walk_of(op: Operation) -> list[Operation]:
    """`list(op.walk())`, shared by every rule of the check run: the queue, alignment and coverage rules each
    walked every kernel, and those walks were a tenth of the rules' time. The module must not change while
    the walks are in use: rules never change it, and verify() calls forget_walks() before they run."""
    root = op
    while (parent := root.parent_op()) is not None:
        root = parent
    if _Walks.module is not root:
        _Walks.module, _Walks.ops, _Walks.inner = root, list(root.walk()), {}
    if op is root:
        return _Walks.ops
    ops = _Walks.inner.get(id(op))
    if ops is None:
        ops = _Walks.inner[id(op)] = list(op.walk())
    return ops


def kernels_of(ctx: CheckContext) -> list[asc.KernelOp]:
    """The module's kernels, from the run's op list."""
    return ops_of_kind(ctx, (asc.KernelOp,))  # type: ignore[return-value]


def api_calls_of(ctx: CheckContext, *families: str) -> list[asc.ApiCallOp]:
    """`api_calls(ctx.module, *families)` from the run's op list."""
    calls = ops_of_kind(ctx, (asc.ApiCallOp,))
    wanted = set(families)
    return [op for op in calls if not wanted or op.FAMILY in wanted]  # type: ignore[union-attr]


_KINDS: dict[tuple[type, object], bool] = {}


def is_kind(op: object, kinds: type | tuple[type, ...] | UnionType) -> bool:
    """`isinstance(op, kinds)`, remembered per op class. isinstance on an op class goes through ABCMeta and
    costs ~0.3 us; the rules ask it of every op of every kernel, about 8,000 times for a 150-line kernel. The
    table holds one entry per op class and kind asked about, a few hundred in all."""
    key = (op.__class__, kinds)
    hit = _KINDS.get(key)
    if hit is None:
        hit = _KINDS[key] = isinstance(op, kinds)
    return hit


def ops_of_kind(ctx: CheckContext, kinds: tuple[type, ...]) -> list[Operation]:
    """`[op for op in ops_of(ctx) if isinstance(op, kinds)]`, made once per check run (see is_kind)."""
    store: dict[object, object] = ctx.__dict__.setdefault("_project_cache", {})
    key = ("ir.ops_of_kind", kinds)
    found = store.get(key)
    if found is None:
        memo: dict[type, bool] = {}  # (a local table: one lookup per op, not a call)
        found = []
        for op in ops_of(ctx):
            ok = memo.get(op.__class__)
            if ok is None:
                ok = memo[op.__class__] = is_kind(op, kinds)
            if ok:
                found.append(op)
        store[key] = found
    return found  # type: ignore[return-value]
