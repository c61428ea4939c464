"""std::vector variables of a host program that the launch is made of: lowered as arrays, not left out as host data.

A host program's std:: containers are host data and left out (ascendir/lower/host_program.py): the input arrays
main fills with random numbers and compares with its golden never reach the device. Some vectors hold what the
launch is made of, though, and are lowered as arrays here:

- a vector of numbers whose elements the code lists (`= {...}` or `{...}`: values written in the code, not data):
  catlass's convolution examples keep their problem shape in an options struct,
      std::vector<uint32_t> fmapRelated = {1, 1, 1, 2, 9, 16};   // defaults, overwritten from argv
      Conv3dParams::MakeConvCoord(options.fmapRelated.data(), ...)
  is the C array of those elements;
- a vector of objects of a class of the program's made with a count (catlass's grouped examples:
  `std::vector<GemmCoord> problemShapeList(problemCount)`, filled in a loop, its size() * sizeof(GemmCoord) bytes
  copied to a device buffer the kernel unpacks) is an array of that many objects (object_arrays.py). The count is
  rarely a constant while lowering (main's variables are cells until mem2reg): it is then marked, the run evaluates
  main's code (passes/sim/host_values.py) and lowers main again with the count known (LoweringOptions.host_counts);
- a host vector main computes with code the lowering cannot follow (GenerateGroupList draws with rand() in a loop
  and sorts) can be given by the run by name (`--input groupList=gl.npy`): it is the array of those values
  (LoweringOptions.host_given), in main's code only, not in a kernel's variable of the same name.

`v[i]` reads and writes such an array, `v.data()` is the array (passed where a pointer is taken), `v.size()` its
length and `v.empty()` whether that is 0. Its length is fixed: `push_back`, `resize` and the other members that
change it are an error of the run at the call (a gap, not a silently wrong length). An array main copies to a
device buffer (`aclrtMemcpy(dev, n, v.data(), n, ACL_MEMCPY_HOST_TO_DEVICE)`) gives the buffer its bytes, laid out
as C lays out the elements (object_layout.py): a mark the run's evaluation reads. Vectors of numbers made with a
count stay host data (the inputs and outputs).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C
from ascendir.lower.errors import Unsupported
from ascendir.lower.values import Cell, Instance, Val
from ascendir.lower.vector_type import vector_argument
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

_READS = frozenset({"data", "size", "empty"})
_GROWS = frozenset({"push_back", "emplace_back", "resize", "clear", "insert", "erase", "pop_back", "assign"})


def listed_elements(d: A.Declarator) -> list[A.Node] | None:
    """The elements `std::vector<T> v = {a, b}` / `v{a, b}` lists; None for any other declarator."""
    if isinstance(d.init, A.InitList) and d.init.items:
        return list(d.init.items)
    return None


def _vector_element(lw: FunctionLowerer, t: A.TypeRef) -> object | None:
    """T of `std::vector<T>` written as such, as the lowering reads a template argument; None otherwise."""
    arg = vector_argument(t, qualified=True)
    if arg is None:
        return None
    try:
        return lw._template_arg_value(arg)
    except Unsupported:
        return None


def _element_type(lw: FunctionLowerer, t: A.TypeRef) -> C.Scalar | None:
    """T of `std::vector<T>` written as such, when T is a number type; None otherwise."""
    elem = _vector_element(lw, t)
    return elem if isinstance(elem, C.Scalar) else None


def declare(lw: FunctionLowerer, d: A.Declarator, name: str) -> object | None:
    """The array a listed vector of numbers is lowered as (a Cell, as a C array's), its elements stored, or one
    the run gives by the member's name (an options struct's `std::vector<uint32_t> mList;` parsed from argv with
    strtok); None when `d` declares no such vector (it stays host data)."""
    hp = lw.host_program
    if hp is not None and d.name in hp.given and _element_type(lw, d.type) is not None:
        return _given_array(lw, d, name)
    items = listed_elements(d)
    elem = _element_type(lw, d.type) if items is not None else None
    if items is None or elem is None:
        return None
    t = C.ArrayT(elem, len(items))
    return lw.new_array(t, name, d, lw.init_list(t, items, d))


def lowers(lw: FunctionLowerer, st: A.VarDecl) -> bool:
    """Lowers declaration `st` of main's code when it declares a vector the run gives values for, or a vector of
    objects made with a count; False, lowering nothing, for any other declaration."""
    hp = lw.host_program
    assert hp is not None
    if len(st.declarators) != 1:
        return False
    d = st.declarators[0]
    from ascendir.lower.host_program import _host_typed_init, is_host_type

    # (a kernel's own variable of that name, `GlobalTensor<int64_t> groupList`, is not host data: left alone)
    if d.name in hp.given and (is_host_type(d.type) or _host_typed_init(lw, st) is not None):
        lw.bind(d.name, _given_array(lw, d, d.name))  # type: ignore[arg-type]
        return True
    elem = _object_element(lw, d.type)
    if elem is None or len(d.ctor_args) != 1 or d.init is not None:
        return False
    place = _place(d)
    count = hp.counts.get(place)
    if count is None:
        n = lw.expr(d.ctor_args[0])
        if not isinstance(n.const, int):
            from ascendir.lower.host_program import mark

            mark(lw, f"count.{place}", n, d)  # known once main's code is evaluated; lowered again with it
            return False
        count = n.const
    from ascendir.lower import object_arrays

    held = object_arrays.declare(lw, C.ArrayT(elem, count), d.name, d) if count > 0 else None
    if held is None:
        return False
    lw.bind(d.name, held)
    return True


def _given_array(lw: FunctionLowerer, d: A.Declarator, name: str) -> object:
    """The array of the values the run gives for host vector `d` (a Cell), remembered as given: the code that
    builds it (push_back, clear) is what those values stand for, and is left out."""
    return given_array(lw, d.name, d, name)


def given_array(lw: FunctionLowerer, key: str, node: A.Node, name: str | None = None) -> Cell:
    """The array of the values the run gives by name `key` (a Cell named `name`, else `key`), made at `node`
    (a host vector's declaration, or aclrtMallocHost of a host buffer: host_program_buffers.py)."""
    hp = lw.host_program
    assert hp is not None
    ctype, values = hp.given[key]
    elem = C.Scalar(ctype)
    t = C.ArrayT(elem, len(values))
    cell = lw.new_array(t, name or key, node, Val(t, obj=[Val(elem, const=v) for v in values]))
    _GIVEN.add(cell.ref)
    return cell


# the memrefs of given vectors (their SSA values: one lowering's, never reused by another)
_GIVEN: weakref.WeakSet[object] = weakref.WeakSet()


def _place(d: A.Node) -> str:
    from frontend.diagnostics import as_span

    span = as_span(d.span)
    return f"{span.file}:{span.line}:{span.col}"


def _object_element(lw: FunctionLowerer, t: A.TypeRef) -> C.ClassT | None:
    """T of `std::vector<T>` when T is a class of the program's (a record of numbers, checked when declared)."""
    elem = _vector_element(lw, t)
    if isinstance(elem, C.TilingT) and not elem.path and elem.name in lw.scope.classes:
        elem = C.ClassT(elem.name)
    return elem if isinstance(elem, C.ClassT) and elem.name in lw.scope.classes else None


# tiling_layout's struct.pack formats as the C types they stand for
FORMAT_TYPES = {"b": "int8_t", "h": "int16_t", "i": "int32_t", "q": "int64_t", "B": "uint8_t", "H": "uint16_t",
                 "I": "uint32_t", "Q": "uint64_t", "?": "bool", "e": "half", "f": "float", "d": "double"}


def _struct_slots(lw: FunctionLowerer, held: object) -> tuple[int, list[tuple[Cell, str, int, C.Scalar]]] | None:
    """The size and the scalar fields of a plain struct held whole in a cell (its value a record of fields: a
    slot's position is the field's dotted path), laid out as the kernel finds such a struct in GM
    (tiling_layout.py, which the run's `__gm__ S *` reads use too: passes/sim/host_struct_reads.py); None for
    anything else, or a struct with an array or a field type the layout does not know."""
    from ascendir.lower import tiling_layout

    if not (isinstance(held, Cell) and isinstance(held.ctype, C.TilingT | C.StructT) and not held.at
            and not getattr(held.ctype, "path", "") and held.ctype.name in lw.scope.tiling_structs):
        return None
    layout = tiling_layout._Layout(lw)
    placed = layout.place(held.ctype.name, 0, "")
    if placed is None or any(s.count is not None or s.fmt == "bf16" for s in layout.slots):
        return None
    return placed[0], [(held, s.path, s.offset, C.Scalar(FORMAT_TYPES[s.fmt])) for s in layout.slots]


def mark_content(lw: FunctionLowerer, buffer: int, host: A.Node, node: A.Node) -> None:
    """`aclrtMemcpy(device, n, v.data(), n, HOST_TO_DEVICE)` of an array main computes (a vector of objects or of
    numbers it lowered), or `aclrtMemcpy(device, sizeof(S), &s, sizeof(S), ...)` of one object of a class of numbers
    (catlass 102's TilingParams, which its kernel reads back from GM a word at a time), or of a plain struct,
    by its address or a `void *` set to it (catlass 23's `tilingHost = reinterpret_cast<void *>(&faTilingData)`,
    read back through `__gm__ FATilingData *`): a mark whose
    operands are the memrefs holding it, named with the C layout of its elements, from which the run's evaluation
    makes the buffer's bytes (passes/sim/host_values.py). A lone object's cells are not indexed by an element."""
    import json

    from ascendir.lower import object_arrays, object_layout, struct_pointer

    mark = lw._mark()
    try:
        value = lw.expr(host)
    except Unsupported:
        lw._rollback(mark)
        return
    lw._rollback(mark)
    if isinstance(host, A.Name) and len(host.qname.parts) == 1 \
            and (target := struct_pointer.only_target(lw.lookup(host.qname.parts[0].name))) is not None:
        value = Val(C.Pointer(target.ctype), obj=target)  # `tilingHost = reinterpret_cast<void *>(&faTilingData)`
    t = value.ctype
    indexed = True
    struct = _struct_slots(lw, value.obj)
    if struct is not None:  # a plain struct held whole in a cell (`FATilingData faTilingData;` filled by main)
        count, size, slots = 1, struct[0], struct[1]
        indexed = False
    elif isinstance(value.obj, Instance):  # `&tilingParams` (or the object itself): its layout, one element
        held = object_layout.layout_of(value.obj)
        if held is None:
            return
        count, size, slots = 1, held.size, [(s.cell, s.position, s.offset, s.ctype) for s in held.slots]
        indexed = False
    elif isinstance(value.obj, object_arrays.ObjectArray):
        held = object_layout.layout_of(value.obj.fields)
        if held is None:
            return
        count, size, slots = value.obj.size, held.size, [(s.cell, s.position, s.offset, s.ctype) for s in held.slots]
    elif isinstance(t, C.ArrayT) and isinstance(t.elem, C.Scalar) and isinstance(value.obj, Cell):
        # (an array of numbers: one slot per element, its element the whole)
        count, size, slots = t.size, t.elem.size, [(value.obj, (), 0, t.elem)]
    else:
        return
    refs: list[object] = []
    described = []
    for cell, position, offset, ctype in slots:
        if cell.ref not in refs:
            refs.append(cell.ref)
        described.append([refs.index(cell.ref), position if isinstance(position, str) else list(position), offset,
                          ctype.kind, ctype.size])
    text = json.dumps({"count": count, "size": size, "slots": described, "indexed": indexed}, separators=(",", ":"))
    from xdsl.dialects.builtin import StringAttr

    from ascendir.dialects import ascendc as asc
    from ascendir.lower.host_program import MARK

    op = asc.OpaqueCallOp.create(operands=refs, properties={"callee": StringAttr(f"{MARK}content.{buffer}:{text}")})
    lw.emit(op, node)


def method(lw: FunctionLowerer, e: A.Call, name: str, recv: Val) -> Val | None:
    """`v.data()`, `v.size()`, `v.empty()` of such a vector (a one-dimensional array of numbers, or of objects);
    None for any other call."""
    from ascendir.lower import object_arrays

    t = recv.ctype
    if not (isinstance(t, C.ArrayT) and (isinstance(t.elem, C.Scalar)
                                         or isinstance(recv.obj, object_arrays.ObjectArray))):
        return None
    if name in _READS and e.args:
        return None
    if name == "data":
        return recv  # the array, which decays into a pointer to its first element where one is taken
    if name == "size":
        return Val(C.U64, const=t.size)
    if name == "empty":
        return Val(C.BOOL, const=int(t.size == 0))
    if name in _GROWS and isinstance(recv.obj, Cell) and recv.obj.ref in _GIVEN:
        return Val(C.VoidT())  # building a vector the run gives: what it builds is those values
    if name in _GROWS:
        from ascendir.lower.host_program import gap

        raise gap(lw, f"'{name}' of a std::vector lowered as the array of the elements it lists: its length is "
                  "fixed here, so what main computes from it would be wrong", e)
    return None
