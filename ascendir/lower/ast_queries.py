"""Questions the function lowering asks of the AST, answered without lowering anything: does a body leave
early (return, break, continue) and how, which returns the IR's structure already gives, what a call
passes by name, a type or template argument written back as text.

A module of its own because the answers depend on the AST alone (several are remembered per node) and
statements, loops, inlining and declarations all ask them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from ascendir.lower.astwalk import facts, forget_facts, walk
from ascendir.lower.values import ExitKind
from frontend import ast as A


def non_const_reference(param: A.Param) -> bool:
    """Whether a parameter is a non-const reference, through which the callee may write the caller's variable."""
    return "&" in param.type.pointers and "const" not in param.type.qualifiers


def callee_name(call: A.Call) -> str | None:
    """The called function's own name: `f` of `ns::f(x)` and of `obj.f(x)`; None for anything else."""
    callee = call.callee
    if isinstance(callee, A.Name):
        return callee.qname.parts[-1].name
    return callee.member if isinstance(callee, A.Member) else None


def bare_name_arguments(body: object) -> tuple[tuple[str, int, str], ...]:
    """(callee name, argument position, variable) for each call in `body` with a plain variable as argument. A
    declaration `S s(k);` / `S s{k};` calls S's constructor ([dcl.init]/17.6.2, [dcl.init.list]/3.7): its callee is
    the class's own name (`S` of `ns::S<T>`), as it is for the temporary `S(k)`, `S{k}`."""
    def compute() -> tuple[tuple[str, int, str], ...]:
        found = []
        for n in walk(body):
            if isinstance(n, A.Declarator):
                args = n.ctor_args or (n.init.items if isinstance(n.init, A.InitList) else [])
                base = n.type.base
                name = base.parts[-1].name if isinstance(base, A.QualifiedName) and base.parts and \
                    not n.type.pointers else None
            elif isinstance(n, A.Cast) and n.kind == "functional":
                # the temporary `S(k, 7)` / `S{k}` ([expr.type.conv]/2)
                args = n.args or (n.expr.items if isinstance(n.expr, A.InitList) else [n.expr] if n.expr else [])
                base = n.type.base
                name = base.parts[-1].name if isinstance(base, A.QualifiedName) and base.parts else None
            elif isinstance(n, A.Call):
                args, name = n.args, callee_name(n)
            else:
                continue
            if name is None or not args:
                continue
            for i, a in enumerate(args):
                if isinstance(a, A.Name) and len(a.qname.parts) == 1:
                    found.append((name, i, a.qname.parts[0].name))
        return tuple(found)
    return memo(body, "bare_name_arguments", compute)  # type: ignore[return-value]


def _walk_no_nested_loops(node: A.Node, in_loop_kinds: tuple[type, ...]) -> Iterator[A.Node]:
    return walk(node, in_loop_kinds)


_LOOPS = (A.For, A.While, A.DoWhile, A.RangeFor)


def contains_break(body: A.Node) -> bool:
    if isinstance(body, A.Node):
        return facts(body).brk_in
    return any(isinstance(n, A.Break) for n in _walk_no_nested_loops(body, (*_LOOPS, A.Switch)))


def contains_return(body: A.Node) -> bool:
    return bool(returns_in(body))


_MEMO: dict[tuple[int, str], tuple[object, object]] = {}


def memo(node: object, what: str, compute: Callable[[], object]) -> object:
    """Facts about an AST subtree (its returns, the names it assigns), computed once per node: a helper
    inlined at twenty call sites is walked once, not twenty times."""
    key = (id(node), what)
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is node:
        return hit[1]
    value = compute()
    if len(_MEMO) > 200_000:
        _MEMO.clear()
    _MEMO[key] = (node, value)
    return value


def returns_in(node: A.Node) -> Sequence[A.Return]:
    if isinstance(node, A.Node):
        return facts(node).returns
    return memo(node, "returns", lambda: [n for n in walk(node) if isinstance(n, A.Return)])  # type: ignore[return-value]


def contains_continue(body: A.Node) -> bool:
    if isinstance(body, A.Node):
        return facts(body).cont_in
    return any(isinstance(n, A.Continue) for n in _walk_no_nested_loops(body, _LOOPS))


_EXITS_CACHE: dict[int, tuple[A.Node, set[str]]] = {}


def forget_ast_facts() -> None:
    """Forgets every per-node fact kept about the trees lowered so far (lower_program calls this at its end)."""
    forget_facts()
    _MEMO.clear()
    _EXITS_CACHE.clear()


def exits_of(st: A.Node) -> set[str]:
    """Which early exits (`return`, `break`, `continue`) a statement may take to its enclosing frame."""
    hit = _EXITS_CACHE.get(id(st))
    if hit is not None and hit[0] is st:
        return hit[1]
    kinds = _compute_exits(st)
    if len(_EXITS_CACHE) > 100_000:
        _EXITS_CACHE.clear()
    _EXITS_CACHE[id(st)] = (st, kinds)
    return kinds


def _compute_exits(st: A.Node) -> set[str]:
    kinds: set[str] = set()
    if isinstance(st, A.Node):
        f = facts(st)
        if f.returns:
            kinds.add(ExitKind.RETURN)
        if f.cont_in and not isinstance(st, _LOOPS):
            kinds.add(ExitKind.CONTINUE)
        if f.brk_in and not isinstance(st, (*_LOOPS, A.Switch)):
            kinds.add(ExitKind.BREAK)
        return kinds
    for n in walk(st):
        if isinstance(n, A.Return):
            kinds.add(ExitKind.RETURN)
    for n in _walk_no_nested_loops(st, _LOOPS):
        if isinstance(n, A.Continue):
            kinds.add(ExitKind.CONTINUE)
    for n in _walk_no_nested_loops(st, (*_LOOPS, A.Switch)):
        if isinstance(n, A.Break):
            kinds.add(ExitKind.BREAK)
    if isinstance(st, _LOOPS):
        kinds.discard(ExitKind.BREAK)
        kinds.discard(ExitKind.CONTINUE)
    if isinstance(st, A.Switch):
        kinds.discard(ExitKind.BREAK)
    return kinds


def always_exits(st: A.Node) -> bool:
    if isinstance(st, A.Return | A.Break | A.Continue):
        return True
    if isinstance(st, A.Compound):
        return bool(st.body) and always_exits(st.body[-1]) and not any(
            exits_of(s) for s in st.body[:-1])
    return False


def structural_returns(stmts: Sequence[A.Node]) -> set[int]:
    """Returns whose effect the IR's structure already gives: the last statement of the body, and the
    last statement of an `if` that takes the rest of the body as its else branch (or ends the body)."""
    found: set[int] = set()
    for i, st in enumerate(stmts):
        last = i == len(stmts) - 1
        if isinstance(st, A.Return) and last:
            found.add(id(st))
        elif isinstance(st, A.If) and (last or st.otherwise is None and always_exits(st.then)):
            for branch in (st.then, st.otherwise):
                body = branch.body if isinstance(branch, A.Compound) else [branch] if branch is not None else []
                if body and isinstance(body[-1], A.Return):
                    found.add(id(body[-1]))
    return found


def type_text(t: A.TypeRef, full: bool = False) -> str:
    if isinstance(t.base, str):
        return t.base
    if not full:
        return "::".join(p.name for p in t.base.parts)
    parts = []
    for p in t.base.parts:
        text = p.name
        if p.template_args is not None:
            text += "<" + ", ".join(node_text(a.value) for a in p.template_args) + ">"
        parts.append(text)
    return "::".join(parts) + "".join(t.pointers)


def node_text(n: object) -> str:
    """A short source-like rendering of a template argument."""
    if isinstance(n, A.TypeRef):
        return type_text(n, full=True)
    if isinstance(n, A.Name):
        return "::".join(p.name + ("<" + ", ".join(node_text(a.value) for a in p.template_args) + ">"
                                   if p.template_args is not None else "") for p in n.qname.parts)
    if isinstance(n, A.IntLit | A.FloatLit):
        return n.text
    if isinstance(n, A.BoolLit):
        return "true" if n.value else "false"
    if isinstance(n, A.TypeArgExpr):
        return type_text(n.type, full=True)
    return "?"
