"""`std::initializer_list<T>` parameters of host helpers, bound to a braced list at the call.

Vendor tiling code checks many shapes at once through small variadic-looking helpers:

    template <typename T> static bool CheckNotNullAll(std::initializer_list<T> ptrList) {
        for (auto &ptr : ptrList) { if (ptr == nullptr) { return false; } }
        return true;
    }
    template <typename T> static bool CheckEqualsAll(std::initializer_list<T> eleList) {
        ... if (eleList.size() > 0) {
            const T *fontPtr = eleList.begin();
            for (const T *curtPtr = eleList.begin(); curtPtr != eleList.end(); curtPtr++) { ... *(curtPtr) ... }
        }
    }
    CheckNotNullAll({x1Shape, x2Shape, gammaShape});

The list's elements are known where it is written, so the helpers' loops over it are unrolled: a range-for
runs its body once per element with the loop variable bound to it, and a `for` from `list.begin()` while
`!= list.end()` stepping by `++` once per element with the pointer at it (a `std::vector` of numbers declared
with a braced list, `std::vector<int64_t> args{a, b};`, is walked the same way, also backwards from `rbegin()`
to `rend()`). `size()` is the element count, `begin()` a pointer to the first element (`*p` is the element). A pointer to an element is the element's own
value here (a handle is its own pointer in the host model). Loops that `break` or `continue`, or use the
pointer otherwise (arithmetic, comparing two of them), are not modelled.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C
from ascendir.lower import host_pair, host_vector, namespace_lookup
from ascendir.lower.host_handles import HostT, VectorItems
from ascendir.lower.function import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer


def is_list(v: Val) -> bool:
    return isinstance(v.ctype, C.UnknownT) and v.ctype.text == "init-list" and isinstance(v.obj, list)


def is_braced_vector(v: Val) -> bool:
    """A `std::vector<T> v{a, b};` of numbers, whose elements the host lowering read where it was declared
    (HostLowerer._vector_items): iterating over it reads them as a list's."""
    return getattr(v.ctype, "kind", None) == "unmodelled" and getattr(v.ctype, "detail", None) == "vector" and \
        isinstance(getattr(v.obj, "values", None), tuple)


def _elements(v: Val) -> list[Val] | None:
    if is_list(v):
        return v.obj  # type: ignore[return-value]
    if is_braced_vector(v):
        return list(v.obj.values)  # type: ignore[union-attr]
    return host_pair.elements(v)


def bound(lw: HostLowerer, arg: Val, param: A.Param, node: A.Node) -> Val:
    """The argument for `param`: a braced list passed to a `std::initializer_list<T>` parameter as its elements,
    each read now (in the caller's scope), and one passed to a `std::vector<T>` of numbers by value or const
    reference (ops-math grouped_bias_add_grad's `ComputeTiling({a, b, c})`, walked from rbegin() to rend()) as the
    vector it constructs, its elements converted to T; any other argument as it is."""
    base = param.type.base
    if not (isinstance(arg.obj, tuple) and arg.obj[0] == "init") or isinstance(base, str) or not base.parts:
        return arg
    if base.parts[-1].name == "initializer_list":
        return Val(C.UnknownT("init-list"), obj=[lw.expr(item) for item in arg.obj[1].items])
    elem = host_vector.element_type(lw, param.type)
    if elem is None or "&" in param.type.pointers and "const" not in param.type.qualifiers:
        return arg  # (a non-const reference cannot bind the temporary: the overload's own error)
    items = [lw.expr(item) for item in arg.obj[1].items]
    if not all(isinstance(v.ctype, C.Scalar) or isinstance(v.ctype, C.EnumT) for v in items):
        return arg
    values = tuple(lw.convert(v, elem, node) for v in items)
    return Val(HostT("unmodelled", "vector"), obj=VectorItems(values))


def _pointer_to(item: Val) -> Val:
    """A pointer to an element: the handle itself, or a pointer holding the element's value (`*p` reads it)."""
    if isinstance(item.ctype, C.Scalar):
        return Val(C.Pointer(item.ctype), obj=item)
    return item


def method(lw: HostLowerer, e: A.Call, name: str, v: Val) -> Val:
    items = v.obj
    assert isinstance(items, list)
    if name == "size" and not e.args:
        return Val(C.U64, const=len(items))
    if name == "begin" and not e.args and items:
        return _pointer_to(items[0])
    raise Unsupported(f"std::initializer_list::{name} is not modelled by the host lowering here", e)


def membership(lw: HostLowerer, e: A.Binary) -> Val | None:
    """`std::find(l.begin(), l.end(), v) != l.end()` (`==` for absence): whether v is one of the elements of l, a
    list whose elements are known (a braced std::initializer_list or vector, a namespace-scope constant one such
    as ops-nn's `AdvancedNpuArch = {NpuArch::DAV_3510, NpuArch::DAV_RESV}`), as the OR of v == each element.
    None for any other comparison (the iterator std::find returns is not modelled otherwise)."""
    if e.op not in ("!=", "=="):
        return None
    for found, end in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
        if not (isinstance(found, A.Call) and isinstance(found.callee, A.Name) and len(found.args) == 3):
            continue
        parts = [p.name for p in found.callee.qname.parts]
        if parts[-1] != "find" or parts[:-1] not in ([], ["std"]) or "find" in lw.scope.functions:
            continue
        owner = _list_call(found.args[0], "begin")
        if owner is None or owner != _list_call(found.args[1], "end") or owner != _list_call(end, "end"):
            continue
        items = _known_items(lw, owner, e)
        if items is None:
            continue
        value = lw.expr(found.args[2])
        hit: Val = Val(C.BOOL, const=0)
        for item in items:
            same = lw.expr_Binary(A.Binary(e.span, "==", lw._stand_in(value, e), lw._stand_in(item, e)))
            hit = lw.expr_Binary(A.Binary(e.span, "||", lw._stand_in(hit, e), lw._stand_in(same, e)))
        return hit if e.op == "!=" else lw.expr(A.Unary(e.span, "!", lw._stand_in(hit, e)))
    return None


def _known_items(lw: HostLowerer, name: str, node: A.Node) -> list[Val] | None:
    local = lw.lookup(name)
    if local is not None:
        return _elements(local) if isinstance(local, Val) else None
    declared = namespace_lookup.variable(lw, name, None, node)
    if declared is None or not isinstance(declared[1].init, A.InitList):
        return None
    return [lw.expr(item) for item in declared[1].init.items]


def _loops_out(body: A.Node) -> bool:
    """Whether the body breaks or continues this loop (a nested loop's own are fine)."""
    def walk(node: A.Node) -> bool:
        if isinstance(node, A.Break | A.Continue):
            return True
        if isinstance(node, A.For | A.While | A.DoWhile | A.RangeFor | A.Switch):
            return False
        return any(walk(c) for c in _children(node))
    return walk(body)


def _children(node: A.Node) -> list[A.Node]:
    out: list[A.Node] = []
    for name in getattr(node, "__slots__", ()):
        value = getattr(node, name, None)
        if isinstance(value, A.Node):
            out.append(value)
        elif isinstance(value, list):
            out += [x for x in value if isinstance(x, A.Node)]
    return out


def _unrolled(lw: HostLowerer, st: A.Node, var: A.Declarator, items: list[Val], body: A.Node,
              as_pointer: bool) -> None:
    """One block holding, per element, `T var = <element>; body` (so that a `return` in an iteration ends the
    function, as the base lowering's early returns do across statements)."""
    if _loops_out(body):
        raise Unsupported("a loop over an initializer_list that breaks or continues is not modelled", st)
    iterations: list[A.Node] = []
    for item in items:
        lw._temps += 1
        tmp = f"__init_list_item{lw._temps}"
        lw.bind(tmp, _pointer_to(item) if as_pointer else item)
        init = A.Name(var.span, A.QualifiedName(var.span, [A.NamePart(var.span, tmp)]))
        decl = A.VarDecl(var.span, [], [replace(var, init=init)])
        iterations.append(A.Compound(st.span, [decl, body]))
    lw.lower_block(A.Compound(st.span, iterations))


def lower_range_for(lw: HostLowerer, st: A.RangeFor) -> bool:
    """`for (auto &x : list)` over an initializer_list: unrolled. False when the range is something else."""
    rng = lw.expr(st.range)
    items = _elements(rng)
    if items is None:
        return False
    _unrolled(lw, st, st.var, items, st.body, as_pointer=False)
    return True


def lower_iterator_for(lw: HostLowerer, st: A.For) -> bool:
    """`for (const T *p = list.begin(); p != list.end(); p++)` over an initializer_list: unrolled. False when the
    loop has another form (the caller lowers it as any loop)."""
    init = st.init
    if not (isinstance(init, A.VarDecl) and len(init.declarators) == 1):
        return False
    var = init.declarators[0]
    for begin, end, backwards in (("begin", "end", False), ("rbegin", "rend", True)):
        source = _list_call(var.init, begin)
        if source is not None:
            break
    else:
        return False
    cond, step = st.cond, st.step
    if not (isinstance(cond, A.Binary) and cond.op == "!=" and _is_name(cond.lhs, var.name)
            and _list_call(cond.rhs, end) == source):
        return False
    if not (isinstance(step, A.IncDec) and step.op == "++" and _is_name(step.operand, var.name)):
        return False
    seq = lw.expr(A.Name(st.span, A.QualifiedName(st.span, [A.NamePart(st.span, source)])))
    items = _elements(seq)
    if items is None or backwards and not is_braced_vector(seq):
        return False
    _unrolled(lw, st, replace(var, init=None), items[::-1] if backwards else items, st.body, as_pointer=True)
    return True


def _is_name(node: A.Node | None, name: str) -> bool:
    return isinstance(node, A.Name) and len(node.qname.parts) == 1 and node.qname.parts[0].name == name


def _list_call(node: A.Node | None, member: str) -> str | None:
    if isinstance(node, A.Call) and not node.args and isinstance(node.callee, A.Member) and \
            node.callee.member == member and isinstance(node.callee.obj, A.Name) and \
            len(node.callee.obj.qname.parts) == 1:
        return node.callee.obj.qname.parts[0].name
    return None
