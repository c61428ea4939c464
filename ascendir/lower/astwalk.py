"""Walking the frontend AST by its dataclass slots (spans excluded), for the lowering's own queries."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from functools import cache

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


def rebuilt(node: A.Node, visit: Callable[[A.Node], A.Node | None]) -> A.Node:
    """A copy of `node` in which `visit` replaced subtrees: `visit(n)` gives n's replacement, or None to rebuild n
    from its rebuilt children. Nodes nothing changed under are shared, not copied."""
    hit = visit(node)
    if hit is not None:
        return hit
    changes: dict[str, object] = {}
    for f in dataclasses.fields(node):  # type: ignore[arg-type]
        value = getattr(node, f.name, None)
        if isinstance(value, A.Node):
            new = rebuilt(value, visit)
            if new is not value:
                changes[f.name] = new
        elif isinstance(value, list) and any(isinstance(v, A.Node) for v in value):
            items = [rebuilt(v, visit) if isinstance(v, A.Node) else v for v in value]
            if any(a is not b for a, b in zip(items, value)):
                changes[f.name] = items
    return dataclasses.replace(node, **changes) if changes else node  # type: ignore[type-var]


# ------------------------------------------------------------------ subtree facts, computed bottom-up once per node

_LOOPS: tuple[type, ...] = (A.For, A.While, A.DoWhile, A.RangeFor)
_CALLISH: tuple[type, ...] = (A.Call, A.Assign, A.IncDec)


class Facts:
    """What the lowering asks about a subtree (the node included), each answer the one `walk` would give:

    returns      the `return` statements in it
    brk_in       a `break` in it outside any loop or switch below the node (`walk(node, loops + switch)`)
    cont_in      a `continue` in it outside any loop below the node (`walk(node, loops)`)
    callish      a call, assignment or ++/-- in it
    assigned     the names written in it (the root variable of each assignment target, ++/-- operand, &x, and
                 what a non-const reference is declared to: `int32_t &r = x;` may write x)
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


def written_root(e: object) -> str | None:
    """The variable a write to `e` lands in: `x`, `x[i]`, `x.f`, `*x` -> x; `this->m` -> m."""
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


@cache
def _api_output_params() -> dict[str, frozenset[int]]:
    """Argument positions an AscendC API writes a scalar back through (`GatherMask(..., rsvdCnt)`), by name."""
    from ascendir.catalog import load_catalog

    out: dict[str, frozenset[int]] = {}
    for api in load_catalog().apis:
        written = {i for overload in api.overloads for i, p in enumerate(overload.params) if p.output}
        if written and api.receiver is None:
            out[api.name] = frozenset(written)
    return out


@cache
def _in_place_methods() -> frozenset[str]:
    """Methods whose one-argument form hands its result back through the argument: the catalog's 'inplace'
    overloads (a depth-0 queue's `que.AllocTensor<T>(t)` / `que.DeQue<T>(t)`, calls_methods.py), which write t."""
    from ascendir.catalog import load_catalog

    return frozenset(api.name for api in load_catalog().apis
                     if api.receiver is not None and any(o.id == "inplace" for o in api.overloads))


def _api_written_names(call: A.Call) -> frozenset[str]:
    callee = call.callee
    if isinstance(callee, A.Member) and len(call.args) == 1 and callee.member in _in_place_methods():
        name = written_root(call.args[0])
        return frozenset((name,)) if name else _NO_NAMES
    if not isinstance(callee, A.Name):
        return _NO_NAMES
    positions = _api_output_params().get(callee.qname.parts[-1].name)
    if not positions:
        return _NO_NAMES
    names = (written_root(call.args[i]) for i in positions if i < len(call.args))
    return frozenset(name for name in names if name)


_KIND: dict[type, int] = {}
_PLAIN, _RETURN, _BREAK, _CONTINUE, _CALL, _ASSIGN, _INCDEC, _UNARY, _LOOP, _SWITCH, _REFERENCE = range(11)


def _kind(cls: type) -> int:
    kind = _KIND.get(cls)
    if kind is None:
        kind = _KIND[cls] = (
            _RETURN if issubclass(cls, A.Return) else _BREAK if issubclass(cls, A.Break)
            else _CONTINUE if issubclass(cls, A.Continue) else _CALL if issubclass(cls, A.Call)
            else _ASSIGN if issubclass(cls, A.Assign) else _INCDEC if issubclass(cls, A.IncDec)
            else _UNARY if issubclass(cls, A.Unary) else _LOOP if issubclass(cls, _LOOPS)
            else _SWITCH if issubclass(cls, A.Switch) else _REFERENCE if issubclass(cls, A.Declarator) else _PLAIN)
    return kind


def is_non_const_reference(d: A.Declarator) -> bool:
    """`int32_t &r = x;` (not `const int32_t &`): a declaration through which the code may write x."""
    return "&" in d.type.pointers and "const" not in d.type.qualifiers and d.init is not None


_NOTHING = Facts((), False, False, False, frozenset(), False, False)
# a qualified name whose parts have no template arguments has no node below it but those parts
_PLAIN_NAMES = child_slots(A.QualifiedName) == ("parts",) and child_slots(A.NamePart) == ("name", "template_args")
# ... and a name expression holds nothing but its qualified name
_PLAIN_NAME_EXPRS = _PLAIN_NAMES and child_slots(A.Name) == ("qname",)

_PLANS: dict[type, tuple[int, tuple[str, ...]]] = {}


def _plan(cls: type) -> tuple[int, tuple[str, ...]]:
    """What `facts` needs of a node class: its kind and the slots that may hold nodes."""
    fields = dataclasses.fields(cls) if dataclasses.is_dataclass(cls) else ()
    declared = {f.name: _type_text(f.type) for f in fields}
    slots = tuple(s for s in child_slots(cls) if declared.get(s) not in A.DATA_FIELD_TYPES)  # (never nodes)
    plan = _PLANS[cls] = (_kind(cls), slots)
    return plan


def _type_text(t: object) -> str:
    """A field's declared type as written (`frontend.ast` annotations are strings: `from __future__ import
    annotations`)."""
    return t if isinstance(t, str) else t.__name__ if isinstance(t, type) else str(t)


def _is_plain_name(n: A.Node) -> bool:
    """`x`, `AscendC::Add`: a name (or name expression) with nothing below it but its parts (a third to a half
    of all nodes), whose facts are `_NOTHING`. Only asked of the classes in `_NAME_TYPES`."""
    if type(n) is A.Name:
        n = n.qname  # type: ignore[attr-defined]
        if type(n) is not A.QualifiedName:
            return False
    for part in n.parts:  # type: ignore[attr-defined]
        if part.template_args is not None:
            return False
    return True


# the classes _is_plain_name answers for, as far as the node layout it assumes holds
_NAME_TYPES: tuple[type, ...] = (A.Name, A.QualifiedName) if _PLAIN_NAME_EXPRS else (
    (A.QualifiedName,) if _PLAIN_NAMES else ())


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
    plans = _PLANS
    node_type = A.Node
    name_types = _NAME_TYPES
    # Iterative (a deep expression must not hit the recursion limit here): first every new node with its
    # children, parents before children; then, in reverse, each node's facts from its children's.
    pending: list[tuple[A.Node, int, list[A.Node]]] = []
    stack: list[A.Node] = [node]
    while stack:
        n = stack.pop()
        h = get(id(n))
        if h is not None and h[0] is n:
            continue
        cls = type(n)
        if cls in name_types and _is_plain_name(n):
            cache[id(n)] = (n, _NOTHING)
            continue
        plan = plans.get(cls)
        if plan is None:
            plan = _plan(cls)
        kind, slots = plan
        kids: list[A.Node] = []
        for slot in slots:
            child = getattr(n, slot, None)
            if child is None:
                continue
            if isinstance(child, node_type):
                if type(child) not in name_types or not _is_plain_name(child):
                    kids.append(child)
            elif isinstance(child, list):
                for c in child:
                    if isinstance(c, node_type) and (type(c) not in name_types or not _is_plain_name(c)):
                        kids.append(c)
        # (plain names are left out of `kids` above: they contribute nothing, and need no entry of their own)
        if not kids and not kind:  # literals, `this`, `x.y`, `T*`, ...
            cache[id(n)] = (n, _NOTHING)
            continue
        pending.append((n, kind, kids))
        stack.extend(kids)
    for n, kind, kids in reversed(pending):  # children before their parents
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
                assigned = _api_written_names(n)  # type: ignore[arg-type]
            elif kind == _ASSIGN:
                callish = True
                target = n.target  # type: ignore[attr-defined]
            elif kind == _INCDEC:
                callish = True
                target = n.operand  # type: ignore[attr-defined]
            elif kind == _UNARY and n.op == "&":  # type: ignore[attr-defined]
                target = n.operand  # type: ignore[attr-defined]
            elif kind == _REFERENCE and is_non_const_reference(n):  # type: ignore[arg-type]
                target = n.init  # type: ignore[attr-defined]  # `int32_t &r = x;`: a write of r is one of x
            if target is not None:
                name = written_root(target)
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
