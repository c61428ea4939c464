"""Which namespace-scope variables a program writes: those a read may not take the initial value of.

    namespace Ns { int32_t count = 7; }                    // one copy for all the cores of a launch
    __aicore__ inline void Bump() { Ns::count = Ns::count + 1; }

A namespace-scope variable that is neither const nor `__BLOCK_LOCAL__` is one object shared by every core of the
launch. Where the hardware keeps it and in which order the cores' writes and reads of it land is not documented,
so the lowering does not model such writes (a gap where they are). A read of one that nothing writes is its
constant initial value; a read of one the program writes anywhere may see another core's or an earlier call's
value, so it is the same gap, not the initial value silently.

A write is an assignment (`=`, `+=`, ...), `++` / `--`, of the variable or of a member or element of it, its
address taken, a non-const reference bound to it (a local `int32_t &r = Ns::count;`, or a function's reference
parameter it is passed to: `void Set(int32_t &r) { r = 1; } ... Set(Ns::count);`), or a method called on it.
Which variable a written name is follows the C++ lookup from the function's namespace (namespace_lookup.py:
`A::cnt` and `B::cnt` are two), an ambiguous one counting as all it may be. A call's callee is not resolved: where
any function, method, constructor or lambda of that name takes a non-const reference at that position, the
argument counts as written. The scan is over every function body the program defines: an unqualified write in a
function that declares a local or parameter of that name is taken to be the local's (shadowing in an inner block
only is not told apart).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ascendir.lower import namespace_lookup
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.scope import Scope


def written(scope: Scope, cache: dict[int, set[int]], decl: A.Declarator) -> bool:
    """Whether some function of the program writes namespace-scope variable `decl`. `cache` (one per lowering)
    keeps the scan's result for the scope: the ids of the declarators written."""
    found = cache.get(id(scope))
    if found is None:
        found = cache[id(scope)] = _written(scope)
    return id(decl) in found


def _bodies(scope: Scope) -> Iterator[tuple[A.FunctionDecl, str]]:
    """Every function the program defines, with the namespace its names are looked up in."""
    for decls in scope.functions.values():
        for f in decls:
            yield f, scope.declared_in.get(id(f), "")
    for kernel, _ in scope.kernels:
        yield kernel, scope.declared_in.get(id(kernel), "")
    for info in scope.classes.values():
        here = namespace_lookup.class_namespace(scope, info)
        for group in (*info.methods.values(), *info.operators.values(), info.constructors):
            for f in group:
                yield f, here
        for specs in (*info.member_specializations.values(), *info.function_specializations.values()):
            for _, f in specs:
                yield f, here
        if info.destructor is not None:
            yield info.destructor, here


def _written(scope: Scope) -> set[int]:
    found: set[int] = set()
    seen: set[int] = set()
    by_reference = _reference_positions(scope)
    for f, here in _bodies(scope):
        if f.body is None or id(f) in seen:
            continue
        seen.add(id(f))
        local = {p.name for p in f.params if p.name}
        targets: list[A.Node] = []
        for node in f.body.walk():
            if isinstance(node, A.VarDecl):
                for d in node.declarators:
                    local.add(d.name)
                    if d.init is not None and _mutable_reference(d.type):
                        targets.append(d.init)  # `int32_t &r = Ns::count;`
                    if d.ctor_args and isinstance(d.type.base, A.QualifiedName):
                        targets += _by_reference(by_reference, d.type.base.parts[-1].name, d.ctor_args)
            elif isinstance(node, A.Assign):
                targets.append(node.target)
            elif isinstance(node, A.IncDec) or isinstance(node, A.Unary) and node.op == "&":
                targets.append(node.operand)
            elif isinstance(node, A.Call):
                if isinstance(node.callee, A.Member):
                    targets.append(node.callee.obj)  # `Ns::obj.Set(3)`: the method may change it
                if node.callee_name is not None:
                    targets += _by_reference(by_reference, node.callee_name, node.args)  # `Set(Ns::count)`
        for target in targets:
            root = _root(target)
            if root is None:
                continue
            qualifier = namespace_lookup.qualifier_of(root.qname)
            if qualifier is None and root.qname.parts[-1].name in local or qualifier and qualifier[-1] in scope.classes:
                continue  # a local's, or a static member's (`Kernel::count = 1`)
            for k in namespace_lookup.keys(scope, root.qname.parts[-1].name, here, qualifier):
                found.add(id(scope.constants[k][1]))
    return found


def _mutable_reference(t: A.TypeRef) -> bool:
    """A reference a write can go through: `int32_t &`, `T &&` (a forwarding one binds an lvalue), not const."""
    return any(p in ("&", "&&") for p in t.pointers) and "const" not in t.qualifiers


def _reference_positions(scope: Scope) -> dict[str, set[int]]:
    """By name: the argument positions at which some function, method, operator, constructor (by its class's
    name) or lambda (by the variable it initialises) of that name takes a non-const reference; -1 for a
    variadic one (`Args &&...args`), which takes every position from its own on."""
    params: list[tuple[str, list[A.Param]]] = []
    for name, decls in (*scope.functions.items(), *scope.prototypes.items()):
        params += [(name, f.params) for f in decls]
    for info in scope.classes.values():
        for name, group in (*info.methods.items(), *info.operators.items()):
            params += [(name, f.params) for f in group]
        params += [(info.decl.name or info.name, f.params) for f in info.constructors]
    for f, _ in _bodies(scope):
        for node in f.body.walk() if f.body is not None else ():
            if isinstance(node, A.Declarator) and isinstance(node.init, A.Lambda):
                params.append((node.name, node.init.params))
    found: dict[str, set[int]] = {}
    for name, ps in params:
        for i, p in enumerate(ps):
            if _mutable_reference(p.type):
                found.setdefault(name, set()).add(i)
                if p.variadic:
                    found[name].update(range(i + 1, i + 64))
    return found


def _by_reference(positions: dict[str, set[int]], name: str, args: list[A.Node]) -> list[A.Node]:
    taken = positions.get(name, ())
    return [a for i, a in enumerate(args) if i in taken]


def _root(target: A.Node) -> A.Name | None:
    """The variable `target` is (part of): `x` of `x`, `x.f`, `x[i].f`; None for one reached through a pointer."""
    while True:
        if isinstance(target, A.Member) and not target.arrow:
            target = target.obj
        elif isinstance(target, A.Index):
            target = target.base
        else:
            return target if isinstance(target, A.Name) and target.qname.parts else None
