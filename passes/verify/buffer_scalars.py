"""Integer scalars in the buffer state machine: values kept in memref cells followed where they are constants,
branch conditions that fix a flag inside the branch, and the tokens that name tensors.
"""

from __future__ import annotations

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IndexType, IntegerType, MemRefType
from xdsl.ir import SSAValue

from ascendir.dialects import ascendc as asc
from passes.verify.buffer_ints import BINARY_FOLDS, compare_ints, int_width, signed_value
from passes.verify.buffer_ir import tensor_root
from passes.verify.buffer_states import State
from passes.verify.ir import constant_of, is_kind


class ScalarTracking:
    """Integer scalars: methods of Analysis (buffer_state.py), which inherits them."""

    def int_of(self, v: SSAValue, s: State, depth: int = 0) -> int | None:
        """The integer `v` holds on the path of `s` (unsigned, wrapped to its width), or None."""
        width = int_width(v.type)
        owner = v.owner
        if width is None or depth > 24:
            return None
        if is_kind(owner, memref.LoadOp):
            return s.vints.get(self.idx(owner.res))
        if s.vints and not is_kind(owner, arith.ConstantOp):
            known = s.vints.get(self.idx(v))  # fixed by a branch on `v == k` (see _assume)
            if known is not None:
                return known
        if is_kind(owner, arith.ConstantOp):
            value = constant_of(v)
            return value % (1 << width) if isinstance(value, int) else None
        if is_kind(owner, arith.SelectOp):
            c = self.int_of(owner.cond, s, depth + 1)
            return None if c is None else self.int_of(owner.lhs if c else owner.rhs, s, depth + 1)
        if isinstance(owner, arith.ExtUIOp | arith.TruncIOp | arith.IndexCastOp | arith.ExtSIOp):
            src = owner.operands[0]
            inner = self.int_of(src, s, depth + 1)
            src_width = int_width(src.type)
            if inner is None or src_width is None:
                return None
            if isinstance(owner, arith.ExtSIOp | arith.IndexCastOp):
                inner = signed_value(inner, src_width)
            return inner % (1 << width)
        if isinstance(owner, arith.CmpiOp):
            a, b = self.int_of(owner.lhs, s, depth + 1), self.int_of(owner.rhs, s, depth + 1)
            w = int_width(owner.lhs.type)
            if (a is None) != (b is None) and s.nots and owner.predicate.value.data in (0, 1):
                unknown, k = (owner.lhs, b) if a is None else (owner.rhs, a)
                if k in s.nots.get(self._subject(unknown), ()):
                    return int(owner.predicate.value.data == 1)  # `x == k` false, `x != k` true
            if a is None or b is None or w is None:
                return None
            return compare_ints(owner.predicate.value.data, a, b, w)
        fold = BINARY_FOLDS.get(type(owner))
        if fold is not None and len(owner.operands) == 2:
            a, b = self.int_of(owner.operands[0], s, depth + 1), self.int_of(owner.operands[1], s, depth + 1)
            if a is None or b is None:
                return None
            result = fold(a, b, width)
            return None if result is None else result % (1 << width)
        return None

    def _assume(self, cond: SSAValue, value: bool, s: State) -> State:
        """`s` on the branch where `cond` is `value`: a flag read from a cell is known there."""
        owner = cond.owner
        if isinstance(owner, arith.XOrIOp):
            a, b = owner.operands
            if self.int_of(b, s) == 1:
                return self._assume(a, not value, s)
            return s
        if isinstance(owner, memref.LoadOp) and int_width(cond.type) == 1:
            cell, ri = self.idx(owner.memref), self.idx(owner.res)
            s = s.copy()
            s.ints[cell] = s.vints[ri] = int(value)
            return s
        if isinstance(owner, arith.CmpiOp) and owner.predicate.value.data in (0, 1):
            equal = value == (owner.predicate.value.data == 0)
            lhs, rhs = owner.lhs, owner.rhs
            k = self.int_of(rhs, s)
            if k is None:
                lhs, rhs, k = rhs, lhs, self.int_of(lhs, s)
            if k is None or self.int_of(lhs, s) is not None:
                return s
            s = s.copy()
            if equal and isinstance(lhs.owner, memref.LoadOp):
                s.ints[self.idx(lhs.owner.memref)] = s.vints[self.idx(lhs.owner.res)] = k
            elif equal:
                s.vints[self.idx(lhs)] = k
            else:
                subject = self._subject(lhs)
                s.nots[subject] = s.nots.get(subject, frozenset()) | {k}
            return s
        return s

    def _subject(self, v: SSAValue) -> int:
        """What a disequality is about: the cell a load reads (the next load of it reads the same value until
        a store), else the SSA value itself."""
        return self.idx(v.owner.memref) if isinstance(v.owner, memref.LoadOp) else self.idx(v)

    def token_of(self, s: State, v: SSAValue) -> int | None:
        root = tensor_root(v)
        t = s.vals.get(self.idx(root))
        return t if t is not None and t in s.tokens else None

    def _load(self, op: memref.LoadOp, s: State) -> State:
        if isinstance(op.res.type, IntegerType | IndexType):
            known = s.ints.get(self.idx(op.memref))
            ri = self.idx(op.res)
            if s.vints.get(ri) != known:
                s = s.copy()
                if known is None:
                    s.vints.pop(ri, None)
                else:
                    s.vints[ri] = known
            return s
        if isinstance(op.res.type, asc.LocalTensorType):
            t = s.cells.get(self.idx(op.memref))
            s = s.copy()
            if t is None:
                s.vals.pop(self.idx(op.res), None)
            else:
                s.vals[self.idx(op.res)] = t
        return s

    def _store(self, op: memref.StoreOp, s: State) -> State:
        if isinstance(op.value.type, IntegerType | IndexType):
            ci = self.idx(op.memref)
            rank0 = isinstance(op.memref.type, MemRefType) and not op.memref.type.get_shape()
            known = self.int_of(op.value, s) if rank0 else None
            if s.ints.get(ci) != known or ci in s.nots:
                s = s.copy()
                s.nots.pop(ci, None)
                if known is None:
                    s.ints.pop(ci, None)
                else:
                    s.ints[ci] = known
            return s
        if isinstance(op.value.type, asc.LocalTensorType):
            cell = self.idx(op.memref)
            t = self.token_of(s, op.value)
            s = s.copy()
            rank0 = isinstance(op.memref.type, MemRefType) and not op.memref.type.get_shape()
            if t is None or not rank0:
                s.cells.pop(cell, None)
            else:
                s.cells[cell] = t
        return s

    def _select(self, op: arith.SelectOp, s: State) -> State:
        if isinstance(op.result.type, asc.LocalTensorType):
            a, b = self.token_of(s, op.lhs), self.token_of(s, op.rhs)
            s = s.copy()
            if a is not None and a == b:
                s.vals[self.idx(op.result)] = a
            else:
                s.vals.pop(self.idx(op.result), None)
        return s

    def _scalar_access(self, op: asc.GetValueOp | asc.SetValueOp, s: State) -> State:
        return self._use(op, "GetValue" if isinstance(op, asc.GetValueOp) else "SetValue", [op.tensor], s)
