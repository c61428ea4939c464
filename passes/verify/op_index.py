"""The ops the alignment (ASC4xx) and sync (ASC7xx) rules look at, gathered in one walk of the module and
shared by every rule of a run: API calls by family (those that may run: not in a branch whose condition folds
against them), TBuf::Get, GetValue, TPipe and opaque calls, and the ops with flags or hazards nested inside.
"""

from __future__ import annotations

from xdsl.ir import Operation

from ascendir.dialects import ascendc as asc
from passes.verify.ir import is_kind, walk_of
from passes.verify.value_fold import unreachable


class ModuleIndex:
    """The ops the alignment and sync rules look at, gathered in one walk of the module."""

    def __init__(self, module: Operation) -> None:
        self.module = module
        self.calls: dict[str, list[asc.ApiCallOp]] = {}
        self.tbuf_gets: list[asc.TBufGetOp] = []
        self.get_values: list[asc.GetValueOp] = []
        self.tpipes: list[asc.TPipeOp] = []
        self.opaque_calls: list[asc.OpaqueCallOp] = []
        self._conditions: dict[Operation, bool | None] = {}  # scf.if -> its folded condition
        self._live: dict[str, list[asc.ApiCallOp]] = {}
        self.flagged_ancestors: set[Operation] = set()  # ops with a SetFlag/WaitFlag nested inside
        self.hazard_ancestors: set[Operation] = set()  # ops with a GetValue / vector / copy / sync inside
        for op in walk_of(module):
            if is_kind(op, asc.ApiCallOp):
                self.calls.setdefault(op.FAMILY, []).append(op)
                if op.FAMILY == "sync" and op.api.data in ("SetFlag", "WaitFlag"):
                    self._mark(op, self.flagged_ancestors)
                self._mark(op, self.hazard_ancestors)
            elif is_kind(op, asc.TBufGetOp):
                self.tbuf_gets.append(op)
            elif is_kind(op, asc.GetValueOp):
                self.get_values.append(op)
                self._mark(op, self.hazard_ancestors)
            elif is_kind(op, asc.TPipeOp):
                self.tpipes.append(op)
            elif is_kind(op, asc.OpaqueCallOp):
                self.opaque_calls.append(op)

    @staticmethod
    def _mark(op: Operation, into: set[Operation]) -> None:
        parent = op.parent_op()
        while parent is not None and parent not in into:
            into.add(parent)
            parent = parent.parent_op()

    def of(self, *families: str) -> list[asc.ApiCallOp]:
        """The calls of these families that may run: not in a branch whose condition folds against it."""
        found = []
        for family in families:
            live = self._live.get(family)
            if live is None:
                live = self._live[family] = [op for op in self.calls.get(family, [])
                                             if not unreachable(op, self._conditions)]
            found.extend(live)
        return found


_INDEX: list[ModuleIndex] = []


def module_index(module: Operation) -> ModuleIndex:
    """One index per module, shared by every rule of the run (rules never change the module)."""
    if _INDEX and _INDEX[0].module is module:
        return _INDEX[0]
    index = ModuleIndex(module)
    _INDEX[:] = [index]
    return index
