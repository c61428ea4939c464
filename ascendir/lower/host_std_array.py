"""`std::array<T, N>` in host code, as the C array `T[N]` it wraps (host_names.HostNames._std_array gives it that
type): what a C array cannot do and a std::array can, assignment of the whole array.

- `a = {x, y, z};` and `a = std::array<T, N>{x, y, z};`: element k takes item k, the elements past the items are
  value-initialised (0), as aggregate initialisation of the temporary and its copy-assignment leave them;
- `a = b;` with b an array of the same length: element by element, every element of b read before any is
  written (so `a = a;` is no change).

Element reads and writes (`a[i]`), a struct member or a local of the type and a brace initialiser in a
declaration are the C array's already. ops-nn max_pool3d_with_argmax_v2's tiling templates keep shapes, kernel
sizes, strides and paddings in std::array members of their InputData structs (`inputData.inputShape = {d, h,
w};`); before, the type was an unmodelled library type and every tiling field set from one was left unset.
Separate because it is one library type's semantics, apart from the host's expressions and assignments.
"""

from __future__ import annotations

from collections.abc import Sequence
from ascendir.lower import ctypes as C
from ascendir.lower.function import Unsupported
from ascendir.lower.values import Cell, Instance, Val
from frontend import ast as A


def _is_array_type(t: A.TypeRef) -> bool:
    base = t.base
    return isinstance(base, A.QualifiedName) and base.parts[-1].name == "array" and bool(
        base.parts[-1].template_args) and not t.pointers and not t.array_dims


def _items(value: A.Node) -> Sequence[A.Node] | None:
    """The items of a brace list assigned (`{x, y}`, `std::array<T, N>{x, y}`, `std::array<T, N>()`), else
    None."""
    if isinstance(value, A.InitList):
        return value.items
    if isinstance(value, A.Cast) and value.kind == "functional" and isinstance(value.type, A.TypeRef) \
            and _is_array_type(value.type):
        inner = value.expr
        if isinstance(inner, A.InitList):
            return inner.items
        if inner is None:
            return []
    return None


def _index(node: A.Node, k: int) -> A.IntLit:
    return A.IntLit(node.span, str(k), k)


class HostStdArrays:
    """Whole-array assignment of std::arrays: a method of HostLowerer (host.py), which inherits it."""

    def expr_Assign(self, e: A.Assign) -> Val:
        if e.op == "=":
            done = self._assign_std_array(e)
            if done is not None:
                return done
        return super().expr_Assign(e)  # type: ignore[misc, no-any-return]

    def _assign_std_array(self, e: A.Assign) -> Val | None:
        # the target's type is found from the bindings, not by lowering it: a read of an unset field or
        # variable would be reported (`t->cores = info->n` reads t->cores nowhere)
        t = self._array_type_of(e.target)
        if t is None:
            return None
        items = _items(e.value)
        if items is not None:
            if len(items) > t.size:
                raise Unsupported(f"{len(items)} items assigned to an array of {t.size} elements", e)
            values = [self.expr(item) for item in items]  # type: ignore[attr-defined]
            values += [Val(t.elem, const=0)] * (t.size - len(items))
        else:
            source = self._array_type_of(e.value)
            if source is None or source.size != t.size:
                return None
            values = [self.expr(A.Index(e.span, e.value, _index(e, k)))  # type: ignore[attr-defined]
                      for k in range(t.size)]
        for k, v in enumerate(values):
            self.assign(A.Index(e.span, e.target, _index(e, k)), v, e)  # type: ignore[attr-defined]
        return Val(t)

    def _array_type_of(self, node: A.Node) -> C.ArrayT | None:
        """The std::array (or C array) of scalars a variable or a member names, from the bindings alone."""
        held = self._bound(node)
        if isinstance(held, Cell) and isinstance(held.ctype, C.ArrayT) and isinstance(held.ctype.elem, C.Scalar):
            return held.ctype
        return None

    def _object_of(self, node: A.Node) -> Instance | None:
        """The class object `this`, a variable or a member chain names (`inputData`, `this->data.split`)."""
        if isinstance(node, A.This):
            return self.frame.this if self.frames else None  # type: ignore[attr-defined, no-any-return]
        held = self._bound(node)
        if isinstance(held, Val):
            held = held.obj
        return held if isinstance(held, Instance) else None

    def _bound(self, node: A.Node) -> object:
        """What a plain variable, or a member of an object `_object_of` finds, is bound to (None if neither)."""
        if isinstance(node, A.Name) and len(node.qname.parts) == 1:
            return self.lookup(node.qname.parts[0].name)  # type: ignore[attr-defined]
        if isinstance(node, A.Member):
            owner = self._object_of(node.obj)
            return owner.members.get(node.member) if owner is not None else None
        return None
