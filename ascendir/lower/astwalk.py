"""Walking the frontend AST by its dataclass slots (spans excluded), for the lowering's own queries."""

from __future__ import annotations

from collections.abc import Iterator

from frontend import ast as A

_SLOT_CACHE: dict[type, tuple[str, ...]] = {}


def child_slots(cls: type) -> tuple[str, ...]:
    hit = _SLOT_CACHE.get(cls)
    if hit is None:
        hit = _SLOT_CACHE[cls] = tuple(dict.fromkeys(
            slot for klass in cls.__mro__ for slot in getattr(klass, "__slots__", ()) if slot != "span"))
    return hit


def walk(node: object, skip: tuple[type, ...] = ()) -> Iterator[A.Node]:
    """`node` (a node or a list of them) and everything below it, not entering nodes of the `skip` kinds
    other than `node` itself (e.g. nested loops, when asking where a `break` goes)."""
    stack: list[object] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Node):
            if skip and n is not node and isinstance(n, skip):
                continue
            yield n
            for slot in child_slots(type(n)):
                child = getattr(n, slot, None)
                if isinstance(child, A.Node):
                    stack.append(child)
                elif isinstance(child, list):
                    stack.extend(c for c in child if isinstance(c, A.Node))
        elif isinstance(n, list):
            stack.extend(n)


# ------------------------------------------------------------------ subtree facts, computed bottom-up once per node

_LOOPS: tuple[type, ...] = (A.For, A.While, A.DoWhile, A.RangeFor)
_CALLISH: tuple[type, ...] = (A.Call, A.Assign, A.IncDec)


class Facts:
    """What the lowering asks about a subtree (the node included), each answer the one `walk` would give:

    returns      the `return` statements in it
    brk_in       a `break` in it outside any loop or switch below the node (`walk(node, loops + switch)`)
    cont_in      a `continue` in it outside any loop below the node (`walk(node, loops)`)
    callish      a call, assignment or ++/-- in it
    assigned     the names written in it (the root variable of each assignment target, ++/-- operand, &x)
    """

    __slots__ = ("assigned", "brk", "brk_in", "callish", "cont", "cont_in", "returns")

    def __init__(self, returns: tuple[A.Return, ...], brk_in: bool, cont_in: bool, callish: bool,
                 assigned: frozenset[str], brk: bool, cont: bool) -> None:
        self.returns = returns
        self.brk_in = brk_in
        self.cont_in = cont_in
        self.callish = callish
        self.assigned = assigned
        self.brk = brk  # as seen from a parent: loops and switches keep their breaks
        self.cont = cont  # as seen from a parent: loops keep their continues


_FACTS: dict[int, tuple[A.Node, Facts]] = {}
_FACTS_LIMIT = 50_000  # lower_program forgets them at its end; this bounds other users
_NO_NAMES: frozenset[str] = frozenset()


def _written_root(e: object) -> str | None:
    while True:
        if isinstance(e, A.Name):
            return e.qname.parts[-1].name
        if isinstance(e, A.Member):
            if isinstance(e.obj, A.This):
                return e.member
            e = e.obj
        elif isinstance(e, A.Index):
            e = e.base
        elif isinstance(e, A.Unary) and e.op == "*":
            e = e.operand
        else:
            return None


_KIND: dict[type, int] = {}
_PLAIN, _RETURN, _BREAK, _CONTINUE, _CALL, _ASSIGN, _INCDEC, _UNARY, _LOOP, _SWITCH = range(10)


def _kind(cls: type) -> int:
    kind = _KIND.get(cls)
    if kind is None:
        kind = _KIND[cls] = (
            _RETURN if issubclass(cls, A.Return) else _BREAK if issubclass(cls, A.Break)
            else _CONTINUE if issubclass(cls, A.Continue) else _CALL if issubclass(cls, A.Call)
            else _ASSIGN if issubclass(cls, A.Assign) else _INCDEC if issubclass(cls, A.IncDec)
            else _UNARY if issubclass(cls, A.Unary) else _LOOP if issubclass(cls, _LOOPS)
            else _SWITCH if issubclass(cls, A.Switch) else _PLAIN)
    return kind


_NOTHING = Facts((), False, False, False, frozenset(), False, False)
# a qualified name whose parts have no template arguments has no node below it but those parts
_PLAIN_NAMES = child_slots(A.QualifiedName) == ("parts",) and child_slots(A.NamePart) == ("name", "template_args")


def facts(node: A.Node) -> Facts:
    """The facts of `node`'s subtree; one pass over the nodes not seen before (their facts are kept, keyed
    by node identity, so a helper inlined at twenty call sites, or nested statements asked about at every
    level, cost one walk in all)."""
    cache = _FACTS
    hit = cache.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    if len(cache) > _FACTS_LIMIT:
        cache.clear()
    get = cache.get
    pending: list[tuple[A.Node, list[A.Node]]] = []
    stack: list[A.Node] = [node]
    while stack:
        n = stack.pop()
        h = get(id(n))
        if h is not None and h[0] is n:
            continue
        if type(n) is A.QualifiedName and _PLAIN_NAMES and all(p.template_args is None for p in n.parts):
            cache[id(n)] = (n, _NOTHING)  # `x`, `AscendC::Add`: nothing below (a third of all nodes)
            continue
        kids: list[A.Node] = []
        slots = _SLOT_CACHE.get(type(n))
        if slots is None:
            slots = child_slots(type(n))
        for slot in slots:
            child = getattr(n, slot, None)
            if isinstance(child, A.Node):
                kids.append(child)
            elif isinstance(child, list):
                kids.extend(c for c in child if isinstance(c, A.Node))
        pending.append((n, kids))
        stack.extend(kids)
    kinds = _KIND
    for n, kids in reversed(pending):  # children before their parents
        kind = kinds.get(type(n))
        if kind is None:
            kind = _kind(type(n))
        returns: tuple[A.Return, ...] = ()
        brk_in = cont_in = callish = False
        assigned = _NO_NAMES
        target = None
        if kind:
            if kind == _RETURN:
                returns = (n,)  # type: ignore[assignment]
            elif kind == _BREAK:
                brk_in = True
            elif kind == _CONTINUE:
                cont_in = True
            elif kind == _CALL:
                callish = True
            elif kind == _ASSIGN:
                callish = True
                target = n.target  # type: ignore[attr-defined]
            elif kind == _INCDEC:
                callish = True
                target = n.operand  # type: ignore[attr-defined]
            elif kind == _UNARY and n.op == "&":  # type: ignore[attr-defined]
                target = n.operand  # type: ignore[attr-defined]
            if target is not None:
                name = _written_root(target)
                if name:
                    assigned = frozenset((name,))
        for k in kids:
            f = cache[id(k)][1]
            if f is _NOTHING:
                continue
            if f.returns:
                returns = returns + f.returns if returns else f.returns
            if f.brk:
                brk_in = True
            if f.cont:
                cont_in = True
            if f.callish:
                callish = True
            if f.assigned:
                assigned = assigned | f.assigned if assigned else f.assigned
        if returns or brk_in or cont_in or callish or assigned:
            cache[id(n)] = (n, Facts(returns, brk_in, cont_in, callish, assigned,
                                     brk_in and kind != _LOOP and kind != _SWITCH, cont_in and kind != _LOOP))
        else:
            cache[id(n)] = (n, _NOTHING)
    return cache[id(node)][1]


def forget_facts() -> None:
    """Drops the facts (and with them the references to the nodes): a program's tree should not outlive its
    lowering, if only because every object kept alive makes the cyclic garbage collector's passes longer."""
    _FACTS.clear()
