"""AscendC's ListTensorDesc, lowered to the reads of the tensor-list descriptor it makes.

A dynamic (tensor-list) input reaches the kernel as the address of a descriptor in GM (64-bit words: the byte
offset of the pointer table, then per tensor a header word, dim count in the low half and the tensor's index in
the high half, and its dims; then the tensors' addresses; see passes/sim/tensor_list.py). A ListTensorDesc
variable is the descriptor's address, held in a cell (Init may set it again); its methods read the words:

- `GetDataPtr<T>(i)`: the i-th word of the table at `data + (data[0] >> 3)` words, as a `__gm__ T*`;
- `GetSize()`: the high half of the first header when it is not 0, else one more than the index in the header
  before the table (the documented decoding, which takes every tensor to have the first one's dim count).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C
from ascendir.lower.values import Cell, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

LIST_TENSOR_DESC = "ListTensorDesc"
WORDS = C.Pointer(C.U64, gm=True)


def is_list_tensor_desc(t: object) -> bool:
    """Whether a declared type is AscendC's ListTensorDesc (the catalog lists it as a struct)."""
    return isinstance(t, C.ObjectT | C.StructT) and t.name.rsplit("::", 1)[-1] == LIST_TENSOR_DESC


def declare(lw: FunctionLowerer, name: str, node: A.Node, args: list[Val]) -> Val:
    """`ListTensorDesc d;` or `ListTensorDesc d(data, length, count)`: the object, its address in a cell."""
    cell = lw.new_cell(WORDS, name, node)
    if args:
        lw.store(cell, lw.pointer_cast(args[0], WORDS, node), node)
    return Val(C.ObjectT(LIST_TENSOR_DESC), obj=("list_tensor_desc", cell))


def assign(lw: FunctionLowerer, target: A.Node, value: Val, node: A.Node) -> bool:
    """`desc = ListTensorDesc(data)`: the variable (or member) takes the other's address; False for any other
    assignment."""
    if not (isinstance(value.obj, tuple) and value.obj[0] == "list_tensor_desc"):
        return False
    if isinstance(target, A.Name) and len(target.qname.parts) == 1:
        place = lw.read_binding(lw.lookup(target.qname.parts[0].name), node) \
            if lw.lookup(target.qname.parts[0].name) is not None else None
    elif isinstance(target, A.Member):
        place = lw.expr(target)
    else:
        return False
    if place is None or not (isinstance(place.obj, tuple) and place.obj[0] == "list_tensor_desc"):
        return False
    lw.store(place.obj[1], lw.load(value.obj[1], node), node)
    return True


def _words(lw: FunctionLowerer, recv: Val, node: A.Node) -> Val | None:
    if not (isinstance(recv.obj, tuple) and recv.obj[0] == "list_tensor_desc"):
        return None
    cell = recv.obj[1]
    assert isinstance(cell, Cell)
    return lw.load(cell, node)


def _word(lw: FunctionLowerer, ptr: Val, index: Val, node: A.Node) -> Val:
    op = asc.GmLoadOp.create(operands=[lw.ssa(ptr, node), lw.ssa(lw.convert(index, C.I64, node), node)],
                             result_types=[C.scalar_ir_type(C.U64)])
    return Val(C.U64, lw.emit(op, node).results[0])


def _table(lw: FunctionLowerer, ptr: Val, node: A.Node) -> Val:
    offset = _word(lw, ptr, Val(C.I64, const=0), node)
    return lw.pointer_offset(ptr, lw.arith(">>", offset, Val(C.U64, const=3), node), node)


def init(lw: FunctionLowerer, e: A.Call, recv: Val, targs: object, expected: object) -> Val | None:
    if not e.args or not (isinstance(recv.obj, tuple) and recv.obj[0] == "list_tensor_desc"):
        return None
    data = lw.expr(e.args[0])
    for extra in e.args[1:]:
        lw.expr(extra)  # (the length and count only check the layout)
    lw.store(recv.obj[1], lw.pointer_cast(data, WORDS, e), e)
    return Val(C.VoidT())


def get_data_ptr(lw: FunctionLowerer, e: A.Call, recv: Val, targs: object, expected: object) -> Val | None:
    ptr = _words(lw, recv, e)
    if ptr is None or len(e.args) != 1 or not isinstance(targs, list) or len(targs) != 1:
        return None
    elem = lw._template_arg_value(targs[0])
    if not isinstance(elem, C.Scalar):
        return None
    word = _word(lw, _table(lw, ptr, e), lw.expr(e.args[0]), e)
    return lw.pointer_from_int(word, C.Pointer(elem, gm=True), e)


def get_size(lw: FunctionLowerer, e: A.Call, recv: Val, targs: object, expected: object) -> Val | None:
    ptr = _words(lw, recv, e)
    if ptr is None or e.args:
        return None
    header = _word(lw, ptr, Val(C.I64, const=1), e)
    dims = lw.arith("&", header, Val(C.U64, const=0xFFFFFFFF), e)
    count = lw.arith(">>", header, Val(C.U64, const=32), e)
    # the header before the table: 2 words back for pointer-only lists (dim 0), else the dims and the header
    back = _select(lw, lw.compare("==", dims, Val(C.U64, const=0), e), Val(C.U64, const=2),
                   lw.arith("+", dims, Val(C.U64, const=1), e), e)
    table = _table(lw, ptr, e)
    last = lw.pointer_offset(table, lw.arith("-", Val(C.I64, const=0), lw.convert(back, C.I64, e), e), e)
    from_last = lw.arith("+", lw.arith(">>", _word(lw, last, Val(C.I64, const=0), e), Val(C.U64, const=32), e),
                         Val(C.U64, const=1), e)
    size = _select(lw, lw.compare("!=", count, Val(C.U64, const=0), e), count, from_last, e)
    return lw.convert(size, C.U32, e)


def _select(lw: FunctionLowerer, cond: Val, a: Val, b: Val, node: A.Node) -> Val:
    op = arith.SelectOp(lw.ssa(cond, node), lw.ssa(a, node), lw.ssa(b, node))
    return Val(a.ctype, lw.emit(op, node).results[0])


METHODS = {(LIST_TENSOR_DESC, "Init"): init, (LIST_TENSOR_DESC, "GetDataPtr"): get_data_ptr,
           (LIST_TENSOR_DESC, "GetSize"): get_size}
