"""Aggregates with array members, one model: the object (an Instance whose data members are cells, a C array
member one memref). Three kinds of kernel data reach it:

- objects of the program's classes (lower_objects.py);
- a local of a kernel's own plain struct with C array members, declared with a brace list (`TilingParam p =
  {.total_length = n};` then `p.shape[i] = td.shape[i]`, NPUKernelBench Lerp): a plain struct is otherwise a
  struct value of scalars (struct_init / tiling_field), which has no place for an element store, so such a local
  is an object of that class (`record_type`), as object_arrays.py already makes the elements of an array of
  such structs (`SplitExtraInfo extraInfo[3]`); a class's data member of such a struct is one too (`Param
  param;`, record_member), and `param = p;` / `this->tiling = *tilingPtr;` copy every member into it
  (assign_struct for a struct value such as the host's tiling data);
- arrays of either, indexed at run time: a structure of arrays whose element is a view (object_arrays.py).

Copies follow C++'s copy constructor (`copy`): `S b = a;`, an argument for a parameter taken by value, and a
returned object each get an object of their own, member by member, so a write through one never shows in the
other. Before, the object model bound the new name to the same object (a write through a copy changed the
original). Only objects whose data are plain values or tensors are copied (scalars, arrays of scalars, nested
such objects, constants: `plain`; LocalTensor / GlobalTensor members: `copyable`, the copy's tensor the same handle
on the same memory, as a tensor's own copy is). An object holding a queue, a buffer, a pipe or a pointer is still
shared, since the object model makes those members once per object (a fresh object would hold new, unset ones):
its scalars and arrays then change in the original too (not followed; such classes are the kernels' own, rarely
copied).

Not covered (said where it applies): a plain struct local declared without a brace list, or copied from the
tiling data (`S s = td;`), stays a struct value: a copy of the host's tiling reads its fields where it is read,
and its arrays cannot be written (the element store is left out, ASC103), as before.

Not the same model: the library's parameter structs (`MultiCopyParams params`, and arrays of them chosen at run
time, passes/sim/struct_array.py). Those are struct values of the API catalog, which the library calls take as
operands (`DataCopy(dst, src, params)`): an object of cells could not be handed to the call. Their arrays live on
the simulator's stack, and their copies are made there: a struct stored into a variable is copied into the
variable's own arrays (passes/sim/struct_arrays.store_into).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ascendir.lower import array_init, ctypes as C, unions
from ascendir.lower.errors import Unsupported
from ascendir.lower.values import Cell, Instance, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


def plain(inst: Instance, tensors: bool = False) -> bool:
    """Whether the object's data are plain values, which a member-wise copy reproduces; with `tensors`, also
    LocalTensor / GlobalTensor members, whose copies are handles on the same memory (copyable)."""
    from ascendir.lower.object_arrays import ObjectArray

    for member in inst.outermost().members.values():
        if isinstance(member, Cell):
            t = member.ctype
            scalars = isinstance(t, C.Scalar) or isinstance(t, C.ArrayT) and isinstance(C.array_shape(t)[1], C.Scalar)
            if not (scalars or tensors and isinstance(t, _TENSORS)) or member.points_to is not None:
                return False
        elif isinstance(member, Instance):
            if not plain(member, tensors):
                return False
        elif isinstance(member, Val):
            if not (isinstance(member.ctype, C.Scalar) and member.const is not None
                    or isinstance(member.obj, ObjectArray | unions.UnionObject)
                    or tensors and isinstance(member.ctype, _TENSORS)):
                return False  # (a union member is one storage cell of numbers: object_copy copies its bytes)
        else:
            return False
    return True


_TENSORS = (C.LocalTensorT, C.GlobalTensorT)


def copyable(inst: Instance) -> bool:
    """Whether `copy` makes the object one of its own: its data plain values or tensors. A copy of a tensor
    member is the same handle ([class.copy.ctor]/14: each member copied by its own copy constructor, and a
    LocalTensor's / GlobalTensor's copy refers to the same buffer), so `P b = a;` of `struct P { LocalTensor<T> t;
    int32_t v[2]; }` shares t's memory but has its own v (lower_objects._copy_members)."""
    return plain(inst, tensors=True)


def designates_object(node: A.Node | None) -> bool:
    """Whether expression `node` names an existing object (a variable, a member, an element, `*p`), whose copy
    must be an object of its own; a call or a constructor gives a temporary, which the copy may take over."""
    while isinstance(node, A.Cast) and node.kind != "functional":
        node = node.expr
    if isinstance(node, A.Name | A.Member | A.Index):
        return True
    if isinstance(node, A.Unary):
        return node.op == "*"
    if isinstance(node, A.Conditional):
        return designates_object(node.then) or designates_object(node.otherwise)
    return False


def copy(lw: FunctionLowerer, v: Val, t: C.CType, name: str, node: A.Node) -> Val:
    """An object of its own for `v`, an object copied into a variable, parameter or result of type `t`: made
    by the class's copy constructor (a user-written one, else member by member); `v` itself where the object is
    not copied (see the module docstring)."""
    inst = v.obj
    if not isinstance(t, C.ClassT | C.TilingT) or not isinstance(inst, Instance) or not copyable(inst):
        return v  # (a pointer to the object, `S *p = &a;`, is the object itself in this model: never copied)
    target = record_type(lw, t) if isinstance(t, C.TilingT) else t
    if not isinstance(target, C.ClassT) or target.name not in lw.scope.classes:
        target = inst.ctype
    if not isinstance(target, C.ClassT) or target.name not in lw.scope.classes:
        return v
    return Val(target, obj=lw.instantiate(target, name, node, [v]))


def written(lw: FunctionLowerer, fn: A.FunctionDecl, name: str, inst: Instance) -> bool:
    """Whether function `fn` may change its parameter `name` (an object of `inst`'s class): an assignment to it
    or into it, its address taken, a non-const reference to it passed, a method of its class not declared const
    called on it. A parameter taken by value that its function only reads needs no copy of its own: nothing can
    change the caller's object while the inlined body runs, save through another alias of it (not followed)."""
    from ascendir.lower.astwalk import written_root

    if fn.body is None:
        return True
    if name in lw.written_names(fn.body):
        return True
    for node in fn.body.walk():
        if isinstance(node, A.Call) and isinstance(node.callee, A.Member) and written_root(node.callee.obj) == name:
            # a method called on it or on a part of it (`s.inner.Set(5)` changes s as `s.Set(5)` would)
            part = _part(inst, node.callee.obj, name)
            overloads = part.outermost().info.methods.get(node.callee.member) if part is not None else None
            if overloads is None or any("const" not in m.qualifiers for m in overloads):
                return True  # (a method of a base class, an unknown one, or on an element: taken as a change)
        elif isinstance(node, A.Declarator) and "&" in node.type.pointers and "const" not in node.type.qualifiers \
                and written_root(node.init) == name:
            return True  # a non-const reference bound to it or to a part of it (`Inner &r = s.inner;`)
        elif isinstance(node, A.Unary) and node.op == "&" and written_root(node.operand) == name:
            return True  # its address, or a part's, taken
        elif isinstance(node, A.Call):
            callee = node.callee.member if isinstance(node.callee, A.Member) else \
                node.callee.name if isinstance(node.callee, A.Name) else None
            if callee is not None and any(not isinstance(a, A.Name) and written_root(a) == name
                                          and lw._takes_reference(callee, i) for i, a in enumerate(node.args)):
                return True  # a part of it passed by non-const reference (`Fill(s.inner)`)
    return False


def _part(inst: Instance, expr: A.Node, name: str) -> Instance | None:
    """The object `expr` names within the parameter `name` (an object of `inst`'s class): `s`, `s.inner`,
    `s.a.b`; None for another form (an element, a pointer's target)."""
    if isinstance(expr, A.Name):
        return inst if expr.name == name else None
    if isinstance(expr, A.Member) and not expr.arrow:
        outer = _part(inst, expr.obj, name)
        member = outer.member(expr.member) if outer is not None else None
        return member if isinstance(member, Instance) else None
    return None


def local_by_value(fn: A.FunctionDecl, returned: A.Node) -> bool:
    """Whether `return x;` names a variable `fn` declares by value (not a parameter, not a reference): such a
    variable holds an object of its own (a copy or a temporary taken over), which the caller may take over."""
    if not isinstance(returned, A.Name) or fn.body is None:
        return False
    name = returned.name
    if any(p.name == name for p in fn.params):
        return False
    declared = [d for node in fn.body.walk() if isinstance(node, A.VarDecl) for d in node.declarators
                if d.name == name]
    return bool(declared) and all("&" not in d.type.pointers and "*" not in d.type.pointers for d in declared)


def record_type(lw: FunctionLowerer, t: C.CType) -> C.ClassT | None:
    """The class a variable of the kernel's own plain struct `t` is an object of, where the struct has a C
    array member of scalars; None for any other type."""
    if not isinstance(t, C.TilingT) or t.path:
        return None
    info = lw.scope.classes.get(t.name)
    if info is None or not info.is_plain_struct or info.template_params:
        return None
    for _, decl in info.fields:
        ftype = lw.tiling_field_type(t.name, decl.name)
        if isinstance(ftype, C.ArrayT) and isinstance(C.array_shape(ftype)[1], C.Scalar):
            return C.ClassT(t.name)
    return None


def initialise(lw: FunctionLowerer, inst: Instance, items: list[A.Node], node: A.Node) -> None:
    """Aggregate initialisation of a record object from a brace list: the members it names or lists in order
    take their values (an array member's own list element by element), the others are value-initialised."""
    order = [decl.name for _, decl in inst.info.fields]
    named: list[A.Node] = []
    for i, item in enumerate(items):
        fname, value = (item.field_name, item.value) if isinstance(item, A.DesignatedInit) else (
            order[i] if i < len(order) else "", item)
        if fname not in order:
            continue
        named.append(A.DesignatedInit(item.span, fname, value))
    value_initialise_rest(lw, inst, {n.field_name for n in named}, node)  # type: ignore[attr-defined]
    rest = []
    for item in named:
        member = inst.members.get(item.field_name)  # type: ignore[attr-defined]
        value = item.value  # type: ignore[attr-defined]
        if isinstance(member, Cell) and isinstance(member.ctype, C.ArrayT) and isinstance(value, A.InitList):
            # `{16U, {1366U * 16U, 1365U * 16U}, 4096U}`: the array member's elements
            array_init.store_list(lw, member, lw.init_list(member.ctype, value.items, value).obj, item)
        else:
            rest.append(item)
    lw._aggregate_init(inst, rest, node, zero_rest=False)  # (the rest zeroed above, the arrays filled)


def value_initialise_rest(lw: FunctionLowerer, inst: Instance, named: set[str], node: A.Node) -> None:
    """Aggregate initialisation value-initialises the members its list leaves out (`S s = {.n = 1};` zeroes
    the others) unless they have a default member initialiser: their cells are set to 0."""
    for _, decl in inst.info.fields:
        if decl.name in named or decl.init is not None:
            continue
        member = inst.members.get(decl.name)
        if isinstance(member, Instance) and not member.info.constructors:
            value_initialise_rest(lw, member, set(), node)
        if not isinstance(member, Cell) or member.points_to is not None:
            continue
        t = member.ctype
        if isinstance(t, C.Scalar):
            lw.store(member, Val(t, const=0), node)
        elif isinstance(t, C.ArrayT):
            dims, elem = C.array_shape(t)
            if isinstance(elem, C.Scalar):
                array_init.zero_fill(lw, member.ref, dims, elem, node, member.at)


def struct_value(lw: FunctionLowerer, v: Val, t: C.TilingT, node: A.Node) -> Val:
    """A record object stored where the plain struct is a struct value (a cell of it, such as a result
    returned through a branch; a class's member of it is an object, record_member): the struct of its scalar
    members. Its arrays are not
    carried: reads of them are the unset tiling-field reads they were before records were objects."""
    from xdsl.dialects.builtin import ArrayAttr, StringAttr

    from ascendir.dialects import ascendc as asc

    inst = v.obj
    assert isinstance(inst, Instance)
    names: list[str] = []
    values = []
    for fname, member in inst.outermost().members.items():
        if isinstance(member, Cell) and isinstance(member.ctype, C.Scalar):
            names.append(fname)
            values.append(lw.ssa(lw.load(member, node), node))
    op = asc.StructInitOp.create(operands=values, properties={"fields": ArrayAttr([StringAttr(f) for f in names])},
                                 result_types=[C.ir_type(t)])
    return Val(t, lw.emit(op, node).results[0])


def record_member(lw: FunctionLowerer, t: C.CType, name: str, d: A.Declarator) -> Instance | None:
    """The object a class's data member of a plain struct with C array members is (`Param param;`), as a local
    of that type declared with a brace list is (record_type): a struct value has no place for the arrays, so
    `param = p;` kept only p's scalars and reads of `param.shape[i]` were unset tiling-field reads. A default
    member initialiser other than a brace list (`Param param = MakeParam();`) keeps the struct value."""
    record = record_type(lw, t)
    if record is None or d.init is not None and not isinstance(d.init, A.InitList):
        return None
    inst = lw.instantiate(record, name, d)
    if isinstance(d.init, A.InitList):
        initialise(lw, inst, lw.expand_packs(d.init.items, d), d)
    return inst


def construct_from_struct(lw: FunctionLowerer, inst: Instance, args: Sequence[Val], node: A.Node) -> bool:
    """The implicit copy constructor of a record object given a struct value (`Op(const T &t) : tiling(t) {}`):
    every member, as assign_struct; False where `args` is not one struct value."""
    if len(args) != 1 or not isinstance(args[0].ctype, C.TilingT) or args[0].ssa is None \
            or not inst.info.is_plain_struct:
        return False
    assign_struct(lw, inst, args[0], node)
    return True


# the most elements of an array member copied from a struct value one by one (each one load and one store)
_MAX_COPIED = 1024


def assign_struct(lw: FunctionLowerer, inst: Instance, v: Val, node: A.Node) -> None:
    """`param = *tilingPtr;` / `param = td;`: the implicit copy assignment of a record object from a struct value
    (the host's tiling data, a plain struct read from it) assigns every member ([class.copy.assign]/12), arrays
    element by element; a nested struct member takes the nested struct."""
    assert isinstance(v.ctype, C.TilingT)
    if v.ctype.path and v.ssa is not None:
        v = lw.tiling_argument(v, node)  # (a nested struct: its fields, as store takes it)
    for _, decl in inst.info.fields:
        member = inst.members.get(decl.name)
        if not isinstance(member, Cell) or member.points_to is not None:
            continue  # (a constant, a tensor handle: not data of the struct value)
        t = member.ctype
        if not isinstance(t, C.ArrayT):
            lw.store(member, lw.tiling_field(v, decl.name, node), node)
            continue
        dims, elem = C.array_shape(t)
        if not isinstance(elem, C.Scalar) or math.prod(dims) > _MAX_COPIED:
            raise Unsupported(f"copying array member '{decl.name}' ({t}) of a struct value into an object", node)
        for position in itertools.product(*(range(n) for n in dims)):
            # (`int64_t strides[2][8]`: the field's row, then its element, as `td->strides[s][d]` reads it)
            item = lw.tiling_field(v, decl.name, node, Val(C.I64, const=position[0]))
            for i in position[1:]:
                item = lw.tiling_row_element(item, Val(C.I64, const=i), node)
            lw.store_element(lw.ssa(lw.convert(item, elem, node), node), member.ref,
                             [*member.at, *(lw.index_const(i, node) for i in position)], node)
