"""Which namespace-scope variables a program writes: those a read may not take the initial value of.

    namespace Ns { int32_t count = 7; }                    // one copy for all the cores of a launch
    __aicore__ inline void Bump() { Ns::count = Ns::count + 1; }

A namespace-scope variable that is neither const nor `__BLOCK_LOCAL__` is one object shared by every core of the
launch. Where the hardware keeps it and in which order the cores' writes and reads of it land is not documented,
so the lowering does not model such writes (a gap where they are). A read of one that nothing writes is its
constant initial value; a read of one the program writes anywhere may see another core's or an earlier call's
value, so it is the same gap, not the initial value silently.

A write is an assignment (`=`, `+=`, ...), `++` / `--`, of the variable or of a member or element of it, its
address taken, a non-const reference bound to it, or a method called on it. The scan is by name, over every
function body the program defines: an unqualified write in a function that declares a local or parameter of that
name is taken to be the local's (shadowing in an inner block only is not told apart). A write through a
reference parameter the variable was passed to is not seen.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ascendir.lower.header_names import TRANSPARENT_NAMESPACES
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.scope import Scope


def written(scope: Scope, cache: dict[int, set[str]], name: str) -> bool:
    """Whether some function of the program writes namespace-scope variable `name`. `cache` (one per lowering)
    keeps the scan's result for the scope."""
    names = cache.get(id(scope))
    if names is None:
        names = cache[id(scope)] = _written_names(scope)
    return name in names


def _bodies(scope: Scope) -> Iterator[A.FunctionDecl]:
    for decls in scope.functions.values():
        yield from decls
    for kernel, _ in scope.kernels:
        yield kernel
    for info in scope.classes.values():
        for group in (*info.methods.values(), *info.operators.values(), info.constructors):
            yield from group
        for specs in (*info.member_specializations.values(), *info.function_specializations.values()):
            for _, f in specs:
                yield f
        if info.destructor is not None:
            yield info.destructor


def _written_names(scope: Scope) -> set[str]:
    found: set[str] = set()
    seen: set[int] = set()
    for f in _bodies(scope):
        if f.body is None or id(f) in seen:
            continue
        seen.add(id(f))
        local = {p.name for p in f.params if p.name}
        targets: list[A.Node] = []
        for node in f.body.walk():
            if isinstance(node, A.VarDecl):
                for d in node.declarators:
                    local.add(d.name)
                    if d.init is not None and "&" in d.type.pointers and "const" not in d.type.qualifiers:
                        targets.append(d.init)  # `int32_t &r = Ns::count;`
            elif isinstance(node, A.Assign):
                targets.append(node.target)
            elif isinstance(node, A.IncDec) or isinstance(node, A.Unary) and node.op == "&":
                targets.append(node.operand)
            elif isinstance(node, A.Call) and isinstance(node.callee, A.Member):
                targets.append(node.callee.obj)  # `Ns::obj.Set(3)`: the method may change it
        for target in targets:
            root = _root(target)
            if root is None:
                continue
            parts = [p for p in root.qname.parts if p.name not in TRANSPARENT_NAMESPACES]
            qualified = len(parts) < len(root.qname.parts) or len(parts) > 1
            if qualified and len(scope.without_namespaces(parts)) == 1 or not qualified and parts[0].name not in local:
                found.add(root.qname.parts[-1].name)
    return found


def _root(target: A.Node) -> A.Name | None:
    """The variable `target` is (part of): `x` of `x`, `x.f`, `x[i].f`; None for one reached through a pointer."""
    while True:
        if isinstance(target, A.Member) and not target.arrow:
            target = target.obj
        elif isinstance(target, A.Index):
            target = target.base
        else:
            return target if isinstance(target, A.Name) and target.qname.parts else None
