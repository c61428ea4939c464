"""One walk of a program's syntax trees per check run, shared by every rule that reads the AST.

    index = ast_index(ctx)
    index.units            [(role, every node of the unit in Node.walk() order)], one entry per source
    index.api_order        [(node, inside namespace AscendC)] in the order api_misuse's index walk visits them

Each rule used to walk the trees itself (a few ms per walk for a 150-line kernel); the rules of a run now
share this one, kept on the CheckContext (so it dies with the run and keeps no tree alive after it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from frontend import ast as A
from frontend.ast import child_list

if TYPE_CHECKING:
    from passes.verify.rules import CheckContext


class Walked(list):  # type: ignore[type-arg]
    """A list of nodes (what `project.nodes` returns) that also knows the calls among them, in the order
    `project.calls` yields them, and those calls by callee name (both computed on first use)."""

    def __init__(self, items: object, unit_calls: Callable[[A.TranslationUnit], list[A.Call]]) -> None:
        super().__init__(items)  # type: ignore[arg-type]
        self._unit_calls = unit_calls
        self._call_seq: list[A.Call] | None = None
        self._by_name: dict[str | None, list[A.Call]] | None = None

    def call_sequence(self) -> list[A.Call]:
        """What `for item in self: for node in (unit_calls(item) if a unit else (item,))` visits, calls only
        (a unit's calls come once for the unit and once more as nodes of the list)."""
        seq = self._call_seq
        if seq is None:
            seq = self._call_seq = []
            for item in self:
                if isinstance(item, A.TranslationUnit):
                    seq.extend(self._unit_calls(item))
                elif isinstance(item, A.Call):
                    seq.append(item)
        return seq

    def calls_named(self, name: str) -> list[A.Call]:
        by_name = self._by_name
        if by_name is None:
            by_name = self._by_name = {}
            for call in self.call_sequence():
                by_name.setdefault(call.callee_name, []).append(call)
        return by_name.get(name, [])


class AstIndex:
    __slots__ = ("_unit_calls", "_unit_nodes", "api_order", "units")

    def __init__(self, units: list[tuple[str, A.TranslationUnit]]) -> None:
        self.units: list[tuple[str, list[A.Node]]] = []
        self._unit_nodes: dict[int, list[A.Node]] = {}  # id(unit) -> its walk
        self._unit_calls: dict[int, list[A.Call]] = {}
        post: list[tuple[A.Node, bool]] = []
        namespace = A.NamespaceDecl
        for role, root in units:
            # pre-order (Node.walk), with each node's number of children
            pre: list[A.Node] = Walked((), self.unit_calls)  # calls(walked, ...) takes the fast path
            counts: list[int] = []
            stack: list[A.Node] = [root]
            while stack:
                node = stack.pop()
                pre.append(node)
                kids = child_list(node)
                counts.append(len(kids))
                if kids:
                    kids.reverse()
                    stack.extend(kids)
            # post-order from it, each node with whether it is inside namespace AscendC
            open_nodes: list[list] = []  # type: ignore[type-arg]  # [node, children left, flag, children's flag]
            for node, n in zip(pre, counts):
                flag = open_nodes[-1][3] if open_nodes else False
                if n:
                    open_nodes.append([node, n, flag, flag or (isinstance(node, namespace) and node.name == "AscendC")])
                    continue
                post.append((node, flag))
                while open_nodes:
                    top = open_nodes[-1]
                    top[1] -= 1
                    if top[1]:
                        break
                    open_nodes.pop()
                    post.append((top[0], top[2]))
            self.units.append((role, pre))
            self._unit_nodes[id(root)] = pre
        post.reverse()
        self.api_order = post

    def unit_calls(self, unit: A.TranslationUnit) -> list[A.Call]:
        """Every call of a translation unit, in walk order (any unit: one not indexed is walked)."""
        hit = self._unit_calls.get(id(unit))
        if hit is None:
            walked = self._unit_nodes.get(id(unit))
            if walked is None or walked[0] is not unit:
                walked = list(unit.walk())
            hit = self._unit_calls[id(unit)] = [n for n in walked if isinstance(n, A.Call)]
        return hit


def ast_index(ctx: CheckContext) -> AstIndex:
    """The program's index, built on first use in a check run."""
    store: dict[object, object] = ctx.__dict__.setdefault("_project_cache", {})
    index = store.get("ast_index")
    if index is None:
        program = ctx.program
        index = store["ast_index"] = AstIndex(
            [(u.unit.role, u.ast) for u in program.units] if program is not None else [])
    return index  # type: ignore[return-value]
