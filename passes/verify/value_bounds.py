"""Upper bounds of integer values that do not fold to one constant, for the capacity rule (ASC304): a tile loop's
length `min(rest, tileLength)` (std::min, arith.minui / minsi, or the ternary `rest < tile ? rest : tile`) is
unknown, but it is never more than tileLength, and on every full tile it is tileLength. So a min is bounded by
each of its operands: one bounded operand is enough, and the bound is the smallest. Any other ternary is bounded
by the larger of its two branches, and sums, products, quotients and width changes of bounded values by the same
arithmetic on their bounds. A value read as a count or a length is taken to be non-negative.
"""

from __future__ import annotations

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Attribute, SSAValue

from passes.verify.ir import constant_of, is_kind
from passes.verify.value_fold import fold_bool, fold_int, reaching_store, source_of

_DEPTH = 24
# arith.cmpi predicates: slt sle ult ule order lhs below rhs, sgt sge ugt uge the other way
_BELOW = (2, 3, 6, 7)
_ABOVE = (4, 5, 8, 9)
_PURE = (arith.ConstantOp, arith.CmpiOp, arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.DivUIOp, arith.DivSIOp,
         arith.RemUIOp, arith.ExtUIOp, arith.ExtSIOp, arith.TruncIOp, arith.IndexCastOp, memref.LoadOp)


def upper_bound(value: SSAValue | None, depth: int = 0) -> int | None:
    """The largest value `value` can hold, as far as its constants and mins bound it; None when unbounded."""
    if value is None or depth > _DEPTH:
        return None
    constant = fold_int(value)
    if constant is not None:
        return constant
    value = source_of(value)
    if value is None:
        return None
    owner = value.owner
    if isinstance(owner, arith.SelectOp):
        return _select_bound(owner, depth)
    if isinstance(owner, arith.MinUIOp | arith.MinSIOp):
        return _smallest(upper_bound(owner.lhs, depth + 1), upper_bound(owner.rhs, depth + 1))
    if isinstance(owner, arith.MaxUIOp | arith.MaxSIOp | arith.AddiOp | arith.MuliOp):
        a, b = upper_bound(owner.lhs, depth + 1), upper_bound(owner.rhs, depth + 1)
        if a is None or b is None or a < 0 or b < 0:
            return None
        if isinstance(owner, arith.MuliOp):
            return _fits(a * b, value.type)
        return _fits(a + b if isinstance(owner, arith.AddiOp) else max(a, b), value.type)
    if isinstance(owner, arith.DivUIOp | arith.ShRUIOp):
        a, b = upper_bound(owner.lhs, depth + 1), fold_int(owner.rhs)
        if a is None or b is None or a < 0 or b <= 0 or (isinstance(owner, arith.ShRUIOp) and b >= 64):
            return None
        return a // b if isinstance(owner, arith.DivUIOp) else a >> b
    if isinstance(owner, arith.ExtUIOp | arith.ExtSIOp | arith.TruncIOp | arith.IndexCastOp):
        return _fits(upper_bound(owner.operands[0], depth + 1), value.type)
    return None


def _select_bound(op: arith.SelectOp, depth: int) -> int | None:
    taken = fold_bool(op.cond)
    if taken is not None:
        return upper_bound(op.lhs if taken else op.rhs, depth + 1)
    a, b = upper_bound(op.lhs, depth + 1), upper_bound(op.rhs, depth + 1)
    if _is_min(op):
        return _smallest(a, b)
    return max(a, b) if a is not None and b is not None else None


def _is_min(op: arith.SelectOp) -> bool:
    """`x < y ? x : y` (or `<=`, or `y > x ? x : y`): the select picks the smaller of its two values."""
    cond = source_of(op.cond)
    cmp = cond.owner if cond is not None else None
    if not isinstance(cmp, arith.CmpiOp):
        return False
    predicate = cmp.predicate.value.data
    if predicate in _BELOW:
        return _same(op.lhs, cmp.lhs) and _same(op.rhs, cmp.rhs)
    if predicate in _ABOVE:
        return _same(op.lhs, cmp.rhs) and _same(op.rhs, cmp.lhs)
    return False


def _same(a: SSAValue, b: SSAValue, depth: int = 0) -> bool:
    """Whether `a` and `b` compute the same value: the same SSA value, equal constants, or the same arithmetic
    on the same values; the ternary's operands are computed anew from the variables for the compare and for
    each branch, so `(n - pos) < tile ? (n - pos) : tile` loads `n` and `pos` twice."""
    if a is b:
        return True
    if depth > _DEPTH:
        return False
    x, y = _defining(a), _defining(b)
    if x is y:
        return True
    p, q = x.owner, y.owner
    if type(p) is not type(q) or not is_kind(p, _PURE):
        return False
    if isinstance(p, arith.ConstantOp):
        return constant_of(x) == constant_of(y) and x.type == y.type
    if isinstance(p, memref.LoadOp):
        return _same_load(p, q)  # type: ignore[arg-type]
    return (x.type == y.type and p.properties == q.properties and len(p.operands) == len(q.operands)
            and all(_same(u, v, depth + 1) for u, v in zip(p.operands, q.operands)))


def _defining(value: SSAValue) -> SSAValue:
    """`value` through the loads of cells with one reaching store (source_of), else the last load."""
    for _ in range(_DEPTH):
        if not is_kind(value.owner, memref.LoadOp):
            break
        stored = reaching_store(value.owner)  # type: ignore[arg-type]
        if stored is None:
            break
        value = stored
    return value


def _same_load(p: memref.LoadOp, q: memref.LoadOp) -> bool:
    """Two loads of one scalar cell in one block with only arithmetic and loads between them: no store."""
    block = p.parent_block()
    if p.memref is not q.memref or p.indices or q.indices or block is None or q.parent_block() is not block:
        return False
    ops = list(block.ops)
    i, j = sorted((ops.index(p), ops.index(q)))
    return all(is_kind(op, _PURE) for op in ops[i + 1:j])


def _smallest(a: int | None, b: int | None) -> int | None:
    known = [v for v in (a, b) if v is not None]
    return min(known) if known else None


def _fits(bound: int | None, t: Attribute) -> int | None:
    """`bound` when every value up to it fits the result type (a wider value wraps: no bound)."""
    if bound is None or bound < 0:
        return None
    if isinstance(t, IndexType):
        return bound
    if isinstance(t, IntegerType) and bound < 1 << t.width.data:
        return bound
    return None
