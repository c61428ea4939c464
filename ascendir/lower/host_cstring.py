"""C strings walked by host code: a `const char*` read character by character (`*p`, `p[i]`), moved (`++p`,
`p + n`) and tested against nullptr.

Vendor tilings parse a string attribute themselves (ops-nn smooth_l1_loss_v2's case-insensitive compare of the
reduction with "none", "sum", "mean": `while (*lhs != '\\0' && *rhs != '\\0') { ... ++lhs; ++rhs; }` on the
`const char*` of GetStr and on literals). Elsewhere the host lowering keeps an attribute pointer as a handle
(AttrRef) and compares whole strings (strcmp, std::string ==); here a pointer into a C string is the text from
where it points on, a `!host.string` value of kind CSTRING:

    a literal "sum"                  host.str_const "sum"
    GetStr(i) / GetAttrPointer<char>  the attribute's text, or host.str_null where the attribute is absent
    std::string::c_str()              the string's text
    nullptr                           host.str_null
    *p, p[i]                          host.str_char (the character as a char; '\\0' at the end)
    p + n, ++p                        host.str_advance (the text n characters on)
    p == nullptr, p (as a bool)       host.str_is_null

Reading a pointer only ever needs the characters from where it points, so that suffix is all the model keeps: a
pointer moved back before where it started, or two pointers subtracted or compared, are gaps. A `const char*`
variable that is assigned (`++lhs` in a loop, `p = q`) is a memory cell of the text (make_cell), so that an
assignment under an `if` or in a loop body is a store, not a rebinding.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, Region

from ascendir.dialects import host as hd
from ascendir.lower import ctypes as C
from ascendir.lower.errors import Unsupported
from ascendir.lower.fast_ops import NO_SIZES
from ascendir.lower.host_handles import AttrRef, HostT, handle_kind, is_host
from ascendir.lower.values import Cell, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer

CSTRING = HostT("cstring", "const char*")
CHAR = C.Scalar("int8_t")


def is_cstring(v: Val | None) -> bool:
    return v is not None and handle_kind(v) == "cstring"


def is_char_pointer(t: object) -> bool:
    """`const char*` (char is int8_t here; `unsigned char*` is no C string)."""
    return isinstance(t, C.Pointer) and t.pointee == CHAR


def is_null(v: Val) -> bool:
    """A null pointer constant (`nullptr`, `NULL`, a literal 0 given as a pointer)."""
    return isinstance(v.ctype, C.Pointer) and v.ssa is None and v.obj is None and v.const == 0


def is_text(v: Val) -> bool:
    """A value that is a C string's text: a literal, a string attribute's pointer, a std::string, a C string."""
    return (is_cstring(v) or handle_kind(v) == "string" or isinstance(v.const, str) and not is_host(v.ctype)
            or isinstance(v.obj, AttrRef) and v.obj.kind == "str")


def make(lw: HostLowerer, v: Val, node: A.Node) -> Val:
    """`v` as a C string (is_text, or a null pointer); anything else is a gap."""
    if is_cstring(v):
        return v
    if is_null(v):
        return Val(CSTRING, lw.emit(hd.StrNullOp(), node).results[0])
    if isinstance(v.const, str) and not is_host(v.ctype) and v.ssa is None:
        return Val(CSTRING, lw.emit(hd.StrConstOp(v.const), node).results[0])
    if handle_kind(v) == "string" and v.ssa is not None and isinstance(v.ssa.type, hd.StringType):
        return Val(CSTRING, v.ssa)  # `s.c_str()`: the same text
    if isinstance(v.obj, AttrRef) and v.obj.kind == "str":
        # GetStr's pointer is null where the op has no such attribute: the text is read only where it has
        present = lw.ssa(lw._present(v, node), node)
        read, absent = Block(), Block()
        with lw.at_end_of(read):
            lw.emit(scf.YieldOp(lw.ssa(lw._attr_value(v.obj, node), node)), node)
        with lw.at_end_of(absent):
            lw.emit(scf.YieldOp(lw.emit(hd.StrNullOp(), node).results[0]), node)
        chosen = lw.emit(scf.IfOp(present, [hd.StringType()], Region(read), Region(absent)), node)
        return Val(CSTRING, chosen.results[0])
    raise Unsupported(f"a C string made from {v.ctype} is not modelled", node)


def make_cell(lw: HostLowerer, name: str, init: Val, node: A.Node) -> Cell:
    """A `const char*` variable that is assigned: a memory cell holding the text it points to."""
    alloca = memref.AllocaOp.create(result_types=[MemRefType(hd.StringType(), [])],
                                    properties={"operandSegmentSizes": NO_SIZES})
    ref = lw.emit(alloca, node).results[0]
    ref.name_hint = name if name.isidentifier() else None
    cell = Cell(CSTRING, ref, name)
    store(lw, cell, init, node)
    return cell


def rebind_params(lw: HostLowerer, fn: A.FunctionDecl, node: A.Node) -> None:
    """The `const char*` parameters of `fn` (a lambda's too) that its body assigns (`++lhs`) and that were given a
    C string: cells of the text, as a local of the kind is (a parameter is the callee's own copy)."""
    for p in fn.params:
        if p.name is None or p.variadic or "&" in p.type.pointers or p.name not in lw.frame.assigned:
            continue
        bound = lw.lookup(p.name)
        if isinstance(bound, Val) and is_text(bound) and is_char_pointer(lw.param_type(p)):
            lw.bind(p.name, make_cell(lw, p.name, bound, node))


def store(lw: HostLowerer, cell: Cell, v: Val, node: A.Node) -> None:
    lw.emit(memref.StoreOp.get(lw.ssa(make(lw, v, node), node), cell.ref, []), node)


def char_at(lw: HostLowerer, v: Val, index: Val, node: A.Node) -> Val:
    """`p[index]` (`*p` is index 0): the character as a char."""
    position = lw.ssa(lw.convert(index, C.I64, node), node)
    return Val(CHAR, lw.emit(hd.StrCharOp(lw.ssa(v, node), position), node).results[0])


def advance(lw: HostLowerer, op: str, a: Val, b: Val, node: A.Node) -> Val:
    """`p + n`, `n + p`, `p - n`: the text n characters further on (back by n for `-`)."""
    if is_cstring(a) and is_cstring(b) or op not in ("+", "-") or op == "-" and is_cstring(b):
        raise Unsupported(f"operator '{op}' on two C string pointers is not modelled (only the text from where a "
                          "pointer points is kept)", node)
    text, count = (a, b) if is_cstring(a) else (b, a)
    if not isinstance(count.ctype, C.Scalar) or count.ctype.is_float:
        raise Unsupported(f"moving a C string pointer by a {count.ctype} is not modelled", node)
    n = lw.convert(count, C.I64, node)
    if op == "-":
        n = lw.arith("-", Val(C.I64, const=0), n, node)
    return Val(CSTRING, lw.emit(hd.StrAdvanceOp(lw.ssa(text, node), lw.ssa(n, node)), node).results[0])


def compare(lw: HostLowerer, op: str, a: Val, b: Val, node: A.Node) -> Val:
    """`p == nullptr` / `p != nullptr`; two pointers or a literal compare addresses: a gap."""
    pointer, other = (a, b) if is_cstring(a) else (b, a)
    if op not in ("==", "!=") or not is_null(other):
        raise Unsupported(f"operator '{op}' on a C string pointer and {other.ctype} compares addresses; "
                          "only a test against nullptr is modelled", node)
    null = Val(C.BOOL, lw.emit(hd.StrIsNullOp(lw.ssa(pointer, node)), node).results[0])
    return null if op == "==" else lw._not(null, node)
