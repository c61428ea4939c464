"""Verification of AscendIR that reports every op that breaks its dialect's rules, not just the first.

xDSL's `op.verify()` stops at the first failure and attaches the whole printed module to the exception (over
100 ms on a large kernel). `verify_ir` walks the ops itself and runs, for each, what `Operation.verify` runs
for it: the structural checks of its place in its block, then its definition's constraints and custom
verifier (`verify_`: operand and result types, properties, traits such as a module's unique symbols). Each
failure names the op and the nearest source location on it or around it.

    failures = verify_ir(module)
    for f in failures:
        print(f)  # kernel.cpp:12:5: 'scf.for': Expected induction var to be same type as bounds and step
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import ErasedSSAValue, Operation, SSAValue
from xdsl.traits import IsolatedFromAbove, IsTerminator, NoTerminator
from xdsl.utils.exceptions import VerifyException


@dataclass(frozen=True)
class IRFailure:
    """One op that does not verify, with the verifier's whole message."""

    op: Operation
    message: str

    @property
    def location(self) -> FileLineColLoc | None:
        """The op's source location, else that of the nearest enclosing op that has one."""
        op: Operation | None = self.op
        while op is not None:
            if isinstance(op.location, FileLineColLoc):
                return op.location
            op = op.parent_op()
        return None

    @property
    def where(self) -> str | None:
        """`file:line:col` of the location, or None (IR text without `loc(...)`)."""
        loc = self.location
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}" if loc is not None else None

    def __str__(self) -> str:
        where = self.where
        return f"{where + ': ' if where else ''}'{self.op.name}': {self.message}"


def verify_ir(root: Operation) -> list[IRFailure]:
    """Every op under `root` (itself included) that does not verify, in walk order.

    Besides each op's own checks, every operand must be in scope where it is used (xDSL's verifier does not
    check this): defined earlier in the user's block or in a block around it, and not outside an op that is
    isolated from above (a kernel); the text form of a module that breaks this does not parse back."""
    failures: list[IRFailure] = []
    _verify_op(root, set(), failures)
    return failures


# Signatures (see _signature) of ops whose own verifier passed. Most ops of a kernel repeat a few signatures
# (an i32 arith.addi, a memref.load of a memref<i32>), so most checks are a lookup instead of the op
# definition's constraint checks (tens of microseconds an op). Bounded: cleared when full.
_VERIFIED: set[tuple[object, ...]] = set()
_MAX_VERIFIED = 100_000


@dataclass(frozen=True)
class _Kind:
    """The traits of an op class that the walk asks about for every op (has_trait is slow)."""

    terminator: bool
    isolated: bool
    no_terminator: bool


_KINDS: dict[type[Operation], _Kind] = {}


def _kind(op: Operation) -> _Kind:
    kind = _KINDS.get(type(op))
    if kind is None:
        kind = _KINDS[type(op)] = _Kind(op.has_trait(IsTerminator), op.has_trait(IsolatedFromAbove),
                                        op.has_trait(NoTerminator))
    return kind


def _signature(op: Operation, kind: _Kind, operands: tuple[SSAValue, ...]) -> tuple[object, ...] | None:
    """What decides whether `op`'s own verifier (`verify_`) passes, for an op whose verifier looks at nothing
    else: its class, its operand and result types, properties and attributes, and its parent's class (traits
    such as HasParent). None for ops with regions or successors, and terminators, whose checks read their
    blocks or their parent's results: those are always verified."""
    if op.regions or op.successors or kind.terminator:
        return None
    properties, attributes = op.properties, op.attributes
    return (type(op), type(op.parent_op()), *[v.type for v in operands], None, *[r.type for r in op.results], None,
            *(properties.items() if properties else ()), None, *(attributes.items() if attributes else ()))


def _verify_op(op: Operation, visible: set[int], failures: list[IRFailure]) -> None:
    """Verifies `op` and what it holds; `visible` holds the ids of the values in scope at `op`."""
    kind = _kind(op)
    operands = op.operands
    message = _misplaced(op, kind, operands)
    if message is None:
        key = _signature(op, kind, operands)
        if key is None or key not in _VERIFIED:
            message = _own_failure(op)
            if message is None and key is not None:
                if len(_VERIFIED) >= _MAX_VERIFIED:
                    _VERIFIED.clear()
                _VERIFIED.add(key)
    if message is None:
        unseen = next((v for v in operands if id(v) not in visible), None)
        if unseen is not None:
            message = (f"uses %{unseen.name_hint or '?'}, of type {unseen.type}, outside the scope of its "
                       "definition")
    if message is not None:
        failures.append(IRFailure(op, message))
    if op.regions:
        inner = set() if kind.isolated else visible
        for region in op.regions:
            for block in region.blocks:
                if block.first_op is None and len(region.blocks) == 1 and not kind.no_terminator:
                    failures.append(IRFailure(op, "has an empty block in a region that needs a terminator"))
                added = [id(arg) for arg in block.args if id(arg) not in inner]
                inner.update(added)
                for child in block.ops:
                    _verify_op(child, inner, failures)
                    for result in child.results:
                        if id(result) not in inner:
                            inner.add(id(result))
                            added.append(id(result))
                inner.difference_update(added)  # out of scope after the block


def _misplaced(op: Operation, kind: _Kind, operands: tuple[SSAValue, ...]) -> str | None:
    """What `Operation.verify` checks of `op`'s place: no erased operand, and a terminator at a block's end
    where the region needs one."""
    if any(isinstance(operand, ErasedSSAValue) for operand in operands):
        return "uses an erased value"
    block = op.parent
    if block is not None and not kind.terminator and block.last_op is op and (region := block.parent) is not None:
        parent = region.parent
        if len(region.blocks) > 1 or parent is not None and not _kind(parent).no_terminator:
            return "ends its block but is not a terminator"
    return None


def _own_failure(op: Operation) -> str | None:
    """Why `op`'s own verifier rejects it (its definition's constraints, traits and custom checks), or None."""
    try:
        op.verify_()
    except VerifyException as exc:
        return " ".join(str(exc).split()) or type(exc).__name__  # the whole message, on one line
    except Exception as exc:  # a verifier that fails on malformed IR rather than rejecting it
        return f"{type(exc).__name__} in its verifier: {exc}"
    return None
