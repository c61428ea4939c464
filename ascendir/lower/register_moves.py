"""The register API's loads and stores (arch35): LoadAlign / StoreAlign and MicroAPI's register DataCopy in all
their single-register forms, with a load / store distribution (`LoadDist::DIST_UNPACK_B16`, `StoreDist::
DIST_PACK_B32`, ...), a post-update address (`LoadAlign<T, PostLiteral::POST_MODE_UPDATE>(reg, addr, stride)`)
or an AddrReg offset (`LoadAlign(reg, addr, CreateAddrReg<T>(i, stride))`), and the unaligned forms
(LoadUnAlignPre / LoadUnAlign, StoreUnAlign / StoreUnAlignPost, MicroAPI's DataCopyUnAlign[Pre|Post]; the count-less
StoreUnAlign whose count is AR's, after a Squeeze), Gather(dst, baseAddr, index, mask) from UB and Scatter
(baseAddr, src, index, mask) to it.

The address arithmetic is done here, so every emitted `ascendc.reg_call` works at one address:
- post-update: the call at `addr`, then `addr += stride` elements of the pointer's type (the impl steps the
  pointer it was given by `postUpdateStride` of T, asc-devkit impl/basic_api/reg_compute/dav_3510/
  kernel_reg_compute_datacopy_load_impl.h:91-133, _store_impl.h:109-116);
- an AddrReg is its byte offset: `CreateAddrReg<T>(i0, s0, i1, s1, ...)` is sum(ik * sk) elements of T. The
  hardware's `vag_b*` builds it from the enclosing loops' counters (dav_3510/kernel_reg_compute_addrreg_impl.h:
  33-48), the CPU-debug build from the indices given (`VagCpuSim(sizeof(T), index0, stride0)`, :38-40): the same
  when the indices are the loop variables, as every use in the examples and vendor kernels has it
  (examples/.../reg_load_store_align/ld_st_reg_align.asc:68-75).
The layouts themselves are the simulator's (rust_sim/src/vector/reg/dist.rs, unalign.rs). Forms whose meaning the
headers leave open (DataCopyMode block strides, MaskReg loads and
stores, unaligned forms taking an AddrReg) are ASC958 naming the form.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C
from ascendir.lower import ub_pointer
from ascendir.lower.ctypes import Scalar
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

# the calls this module lowers (MicroAPI's names included)
NAMES = frozenset({"LoadAlign", "StoreAlign", "DataCopy", "LoadUnAlign", "LoadUnAlignPre", "StoreUnAlign",
                   "StoreUnAlignPost", "DataCopyUnAlign", "DataCopyUnAlignPre", "DataCopyUnAlignPost",
                   "CreateAddrReg"})
UNALIGN_REG_TYPES = frozenset({"UnalignReg", "UnalignRegForLoad", "UnalignRegForStore"})
# the enums whose enumerators name read as their own text (lower_names.py), so that a template parameter can hold one
ENUMS = frozenset({"LoadDist", "StoreDist", "PostLiteral"})
# template arguments that select nothing beyond what the forms below do
_NEUTRAL = {"RegTraitNumOne", "DIST_NORM"}
# the enumerators by value (reg_compute/kernel_reg_compute_utils.h:156-201), for a distribution a template
# parameter or a constexpr variable holds (`template <LoadDist D = LoadDist::DIST_UNPACK_B16>`, ops-nn's
# reduce_common_regbase.h LoadRegForDtype)
_LOAD_DISTS = {0: "DIST_NORM", 1: "DIST_BRC_B8", 2: "DIST_BRC_B16", 3: "DIST_BRC_B32", 6: "DIST_US_B8",
               7: "DIST_US_B16", 8: "DIST_DS_B8", 9: "DIST_DS_B16", 10: "DIST_BDINTLV", 11: "DIST_DINTLV_B8",
               12: "DIST_DINTLV_B16",
               13: "DIST_UNPACK_B8", 14: "DIST_UNPACK_B16", 15: "DIST_BLK", 16: "DIST_E2B_B16", 17: "DIST_E2B_B32",
               18: "DIST_UNPACK_B32", 19: "DIST_DINTLV_B32", 20: "DIST_UNPACK4_B8", 21: "DIST_SPLT4CHN_B8",
               22: "DIST_SPLT2CHN_B8", 23: "DIST_SPLT2CHN_B16"}
_STORE_DISTS = dict(enumerate(["DIST_NORM_B8", "DIST_NORM_B16", "DIST_NORM_B32", "DIST_FIRST_ELEMENT_B8",
                               "DIST_FIRST_ELEMENT_B16", "DIST_FIRST_ELEMENT_B32", "DIST_PACK_B16", "DIST_PACK_B32",
                               "DIST_INTLV_B8", "DIST_INTLV_B16", "DIST_PACK_B64", "DIST_INTLV_B32", "DIST_PACK4_B32",
                               "DIST_MRG4CHN_B8", "DIST_MRG2CHN_B8", "DIST_MRG2CHN_B16", "DIST_NORM"]))


@dataclass(frozen=True)
class AddrRegT(Scalar):
    """`AddrReg`: an address offset, held as its byte count (a uint64). A type of its own so that the calls
    taking one (`StoreUnAlign(addr, reg, ureg, areg)`) are told from those taking a count."""

    def __str__(self) -> str:
        return "AddrReg"


ADDR_REG = AddrRegT("uint64_t")


@dataclass
class _Form:
    """A call's template choices: element type, distribution, post mode; or why it is not modelled."""

    elem: Scalar | None = None
    dist: str | None = None
    dist_value: int | None = None  # a distribution given by value (a template parameter), its enum by direction
    post: str | None = None
    block: bool = False  # DataCopyMode::DATA_BLOCK_COPY: eight 32-byte blocks at a block stride (_block_copy)
    bad: str | None = None


# argument positions of the address a post-update form steps (a `__ubuf__ T*&` parameter), by callee
_STEPPED_ADDRESS = {"LoadAlign": (1, 2), "StoreAlign": (0,), "DataCopy": (0, 1, 2), "LoadUnAlign": (2,),
                    "StoreUnAlign": (0,), "StoreUnAlignPost": (0,), "DataCopyUnAlign": (0, 2),
                    "DataCopyUnAlignPost": (0,)}


def stepped_addresses(body: object) -> set[str]:
    """The plain variables `body` passes where a post-update load / store may step them (the loop lowering
    keeps those in cells; a position that is not a post-update address only costs a cell)."""
    from ascendir.lower.ast_queries import callee_name, memo, walk

    def compute() -> frozenset[str]:
        found = set()
        for n in walk(body):
            if isinstance(n, A.Call) and n.args and (name := callee_name(n)) in _STEPPED_ADDRESS:
                for i in _STEPPED_ADDRESS[name]:
                    arg = _lvalue(n.args[i]) if i < len(n.args) else None
                    if isinstance(arg, A.Name) and len(arg.qname.parts) == 1:
                        found.add(arg.qname.parts[0].name)
        return frozenset(found)
    return set(memo(body, "register_stepped_addresses", compute))


def _template(lw: FunctionLowerer, targs: list[A.TemplateArg]) -> _Form:
    from ascendir.lower.register_api import _arg_text

    form = _Form()
    for i, a in enumerate(targs):
        value = lw._template_arg_value(a)
        if isinstance(value, Scalar):
            if i == 0:
                form.elem = value
            continue  # a second type (U of the store forms) selects nothing
        parts = _arg_text(a).split("::")
        last, kind = parts[-1], parts[-2] if len(parts) >= 2 else ""
        if last in _NEUTRAL:
            continue
        if kind in ("LoadDist", "StoreDist") or last.startswith("DIST_"):
            form.dist = last
        elif kind == "PostLiteral" or last.startswith("POST_MODE_"):
            form.post = last
        elif last == "DATA_BLOCK_COPY":
            form.block = True
        elif len(parts) == 1 and isinstance(value, str) and value.startswith("DIST_"):
            if value not in _NEUTRAL:
                form.dist = value  # a template parameter holding the enumerator (bound by its name)
        elif len(parts) == 1 and isinstance(value, str) and value.startswith("POST_MODE_"):
            form.post = value
        elif len(parts) == 1 and isinstance(value, int) and not isinstance(value, bool) and form.dist_value is None:
            form.dist_value = value
        else:
            form.bad = f"the template argument {'::'.join(parts)}"
    return form


def _register(lw: FunctionLowerer, node: A.Node, bank: str):
    """The register `node` names if it is one of bank `bank` (`v`, `p`, `u`), else None."""
    from ascendir.lower.register_api import register_value

    while isinstance(node, A.Cast) and node.expr is not None:
        node = node.expr
    bound = register_value(lw, node)
    return bound.obj if bound is not None and bound.obj.bank == bank else None


def _not_register(lw: FunctionLowerer, node: A.Node | None, what: str) -> str:
    from ascendir.lower.register_api import not_register_why

    return not_register_why(lw, node, what, "vector")


def _elem(lw: FunctionLowerer, form: _Form, reg_node: A.Node) -> Scalar | None:
    if form.elem is not None:
        return form.elem
    from ascendir.lower.register_api import register_value

    while isinstance(reg_node, A.Cast) and reg_node.expr is not None:
        reg_node = reg_node.expr
    bound = register_value(lw, reg_node)
    return bound.ctype.elem if bound is not None and isinstance(bound.ctype, C.RegisterT) else None


def _lvalue(node: A.Node) -> A.Node:
    """`(__local_mem__ T*&)src`: the variable a reference cast names (a post-update writes it)."""
    while isinstance(node, A.Cast) and node.expr is not None and node.type is not None:
        node = node.expr
    return node


class _Unmodelled(Exception):
    pass


def call(lw: FunctionLowerer, e: A.Call, name: str, targs: list[A.TemplateArg]) -> Val:
    """A register load / store call (or CreateAddrReg), lowered or reported as not modelled by name."""
    from ascendir.lower.register_api import _unmodelled

    form = _template(lw, targs)
    try:
        if name == "CreateAddrReg":
            return _create_addr_reg(lw, e, form)
        if form.bad is not None:
            raise _Unmodelled(form.bad)
        args = e.args
        first_is_reg = bool(args) and (_register(lw, args[0], "v") is not None)
        if name == "DataCopy":
            name = "LoadAlign" if first_is_reg else "StoreAlign"
        elif name == "DataCopyUnAlign":
            name = "LoadUnAlign" if first_is_reg else "StoreUnAlign"
        elif name == "DataCopyUnAlignPre":
            name = "LoadUnAlignPre"
        elif name == "DataCopyUnAlignPost":
            name = "StoreUnAlignPost"
        if form.dist_value is not None:
            table = _LOAD_DISTS if name in ("LoadAlign", "LoadUnAlign") else _STORE_DISTS
            if form.dist_value not in table:
                raise _Unmodelled(f"a distribution of value {form.dist_value}")
            form.dist = None if table[form.dist_value] == "DIST_NORM" else table[form.dist_value]
        lower = {"LoadAlign": _load_align, "StoreAlign": _store_align, "LoadUnAlign": _load_unalign,
                 "StoreUnAlign": _store_unalign, "LoadUnAlignPre": _load_unalign_pre,
                 "StoreUnAlignPost": _store_unalign_post, "Gather": _gather, "Scatter": _scatter}[name]
        lower(lw, e, form)
    except _Unmodelled as why:
        return _unmodelled(lw, e, name, str(why))
    return Val(C.VoidT())


def _address(lw: FunctionLowerer, node: A.Node) -> Val:
    if isinstance(node, A.Cast) and node.expr is not None and node.type is not None and node.type.pointers \
            and node.type.pointers[-1] == "&":
        # `(__local_mem__ T *&)src`: the pointer variable itself, read as a `T *`
        inner = lw.expr(node.expr)
        target = lw.resolve_type(dataclasses.replace(node.type, pointers=node.type.pointers[:-1]), node)
        if ub_pointer.is_ub_pointer(inner.ctype) and ub_pointer.is_ub_pointer(target):
            return ub_pointer.cast(inner, target)  # type: ignore[arg-type]
    v = lw.expr(node)
    if not isinstance(v.ctype, C.Pointer | Scalar) or isinstance(v.ctype, AddrRegT):
        raise _Unmodelled(f"an address argument of type {v.ctype}")
    return v


def _scalar(lw: FunctionLowerer, node: A.Node, what: str) -> Val:
    v = lw.expr(node)
    if not isinstance(v.ctype, Scalar) or isinstance(v.ctype, AddrRegT):
        raise _Unmodelled(f"the {what} argument of type {v.ctype}")
    return v


def _with_offset(lw: FunctionLowerer, addr: Val, node: A.Node) -> Val:
    """`addr` plus the AddrReg `node` (bytes)."""
    off = lw.expr(node)
    if not isinstance(off.ctype, AddrRegT):
        raise _Unmodelled(f"an offset argument of type {off.ctype}, not an AddrReg")
    word = lw.arith("+", lw.convert(Val(C.U64, addr.ssa, const=addr.const), C.U64, node),
                    lw.convert(Val(C.U64, off.ssa, const=off.const), C.U64, node), node)
    return Val(addr.ctype, word.ssa, const=word.const)


def _post_update(lw: FunctionLowerer, node: A.Node, addr: Val, stride: Val, e: A.Call) -> None:
    """`addr += stride` elements of the pointer's type: the post-update forms' second effect."""
    if not ub_pointer.is_ub_pointer(addr.ctype):
        raise _Unmodelled(f"a post-update of an address of type {addr.ctype}")
    lw.assign(_lvalue(node), ub_pointer.offset(lw, addr, stride, e), e)


def _emit(lw: FunctionLowerer, e: A.Call, api: str, elem: Scalar | None, regs: dict, values: dict,
          form: _Form) -> None:
    from ascendir.lower.register_api import _emit as emit

    if elem is None:
        raise _Unmodelled("the element type is not known")
    # the store of T's own width is the plain one (dav_3510/kernel_reg_compute_common_impl.h:33-49)
    plain = form.dist in (None, f"DIST_NORM_B{8 * elem.size}")
    emit(lw, e, api, elem, regs, values, "" if plain else f"dist={form.dist}")


def _block_copy(lw: FunctionLowerer, e: A.Call, form: _Form, load: bool) -> None:
    """`LoadAlign<T, DataCopyMode::DATA_BLOCK_COPY>(dst, addr, dataBlockStride, mask)` and the StoreAlign
    `(addr, src, dataBlockStride, mask)`: the register's eight 32-byte blocks from / to addr + k * stride * 32
    bytes (rust_sim/src/vector/reg/transfer.rs). The repeatStride forms are not lowered yet."""
    args = e.args
    if len(args) != 4:
        raise _Unmodelled(f"DATA_BLOCK_COPY in the form with {len(args)} arguments")
    reg_at, addr_at = (0, 1) if load else (1, 0)
    reg = _register(lw, args[reg_at], "v")
    if reg is None:
        raise _Unmodelled(_not_register(lw, args[reg_at], "the destination" if load else "the source"))
    mask = _register(lw, args[3], "p")
    if mask is None:
        raise _Unmodelled("the mask argument is no MaskReg the lowering models")
    elem = _elem(lw, form, args[reg_at])
    if elem is None:
        raise _Unmodelled("the element type is not known")
    from ascendir.lower.register_api import _emit as emit

    values = {"addr": _address(lw, args[addr_at]), "stride": _scalar(lw, args[2], "dataBlockStride")}
    emit(lw, e, "LoadAlign" if load else "StoreAlign", elem, {"dst" if load else "src": reg, "mask": mask}, values,
         "block=DATA_BLOCK_COPY")


def _load_align(lw: FunctionLowerer, e: A.Call, form: _Form) -> None:
    args = e.args
    if form.block:
        _block_copy(lw, e, form, load=True)
        return
    dst = _register(lw, args[0], "v") if args else None
    if dst is None:
        raise _Unmodelled("a load into a MaskReg" if args and _register(lw, args[0], "p") else
                          _not_register(lw, args[0] if args else None, "the destination"))
    elem = _elem(lw, form, args[0])
    dst1 = _register(lw, args[1], "v") if len(args) >= 2 else None
    if dst1 is not None:  # LoadAlign<T, DIST_DINTLV_B*>(dst0, dst1, addr[, stride | areg]): the dual form
        if not (form.dist or "").startswith("DIST_DINTLV_"):
            raise _Unmodelled("the two-register form without a DINTLV distribution")
        _load_pair(lw, e, form, elem, dst, dst1)
        return
    if len(args) == 2 and form.post is None:
        _emit(lw, e, "LoadAlign", elem, {"dst": dst}, {"addr": _address(lw, args[1])}, form)
    elif len(args) == 3 and form.post == "POST_MODE_UPDATE":
        addr = _address(lw, args[1])
        stride = _scalar(lw, args[2], "stride")
        _emit(lw, e, "LoadAlign", elem, {"dst": dst}, {"addr": addr}, form)
        _post_update(lw, args[1], addr, stride, e)
    elif len(args) == 3 and form.post is None:
        addr = _with_offset(lw, _address(lw, args[1]), args[2])
        _emit(lw, e, "LoadAlign", elem, {"dst": dst}, {"addr": addr}, form)
    else:
        raise _Unmodelled(f"the form with {len(args)} arguments" + (f" and {form.post}" if form.post else ""))


def _indexed_registers(lw: FunctionLowerer, e: A.Call, data: tuple[str, int]) -> tuple[object, object, object]:
    """The data, index and mask registers of Gather/Scatter to UB (data at argument `data[1]`, the index and the
    mask at 2 and 3); an argument that is not a register of its bank stops the call, named."""
    operands = (data + ("vector", "v"), ("the index", 2, "vector", "v"), ("the mask", 3, "mask", "p"))
    found = tuple(_register(lw, e.args[i], bank) for _what, i, _kind, bank in operands)
    for (what, i, kind, _bank), reg in zip(operands, found):
        if reg is None:
            from ascendir.lower.register_api import not_register_why

            raise _Unmodelled(not_register_why(lw, e.args[i], what, kind))
    return found


def _gather(lw: FunctionLowerer, e: A.Call, form: _Form) -> None:
    """`Gather(dst, baseAddr, index, mask)`: the UB elements `index[i]` of baseAddr's type into dst's lanes
    (rust_sim/src/vector/reg/transfer.rs `gather`); a source type narrower than dst's (b8 into b16) is `U=`."""
    dst, index, mask = _indexed_registers(lw, e, ("the destination", 0))
    elem = _elem(lw, form, e.args[0])
    addr = _address(lw, e.args[1])
    source = addr.ctype.pointee if isinstance(addr.ctype, C.Pointer) else None
    if not isinstance(source, Scalar):
        raise _Unmodelled(f"a base address of type {addr.ctype}")
    if elem is None:
        raise _Unmodelled("the element type is not known")
    from ascendir.lower.register_api import _emit as emit

    modes = [f"U={C.element_ir_type(source)}"] if source != elem else []
    from ascendir.lower.register_api import register_value

    bound = register_value(lw, e.args[2])
    index_elem = bound.ctype.elem if bound is not None and isinstance(bound.ctype, C.RegisterT) else None
    if isinstance(index_elem, Scalar) and index_elem.size != elem.size:
        modes.append(f"I={C.element_ir_type(index_elem)}")  # a b64 gather by uint32_t indices
    emit(lw, e, "Gather", elem, {"dst": dst, "index": index, "mask": mask}, {"addr": addr}, ",".join(modes))


def _scatter(lw: FunctionLowerer, e: A.Call, form: _Form) -> None:
    """`Scatter(baseAddr, src, index, mask)`: src's selected lanes to the UB elements `index[i]` of baseAddr
    (rust_sim/src/vector/reg/transfer.rs `scatter`)."""
    src, index, mask = _indexed_registers(lw, e, ("the source", 1))
    elem = _elem(lw, form, e.args[1])
    if elem is None:
        raise _Unmodelled("the element type is not known")
    from ascendir.lower.register_api import _emit as emit

    emit(lw, e, "Scatter", elem, {"src": src, "index": index, "mask": mask}, {"addr": _address(lw, e.args[0])})


def _load_pair(lw: FunctionLowerer, e: A.Call, form: _Form, elem: Scalar | None, dst: object, dst1: object) -> None:
    _pair(lw, e, form, elem, {"dst": dst, "dst1": dst1}, "LoadAlign", at=2, plain=3)


def _store_pair(lw: FunctionLowerer, e: A.Call, form: _Form, elem: Scalar | None, src: object, src1: object) -> None:
    """The interleaving store of two registers, 2 * VL bytes; its mask (the last argument) is ignored, as the
    StoreAlign page's StoreDist table says of DIST_INTLV_B8/B16/B32 ("忽略mask")."""
    if _register(lw, e.args[-1], "p") is None:
        raise _Unmodelled("the mask argument is no MaskReg the lowering models")
    _pair(lw, e, form, elem, {"src": src, "src1": src1}, "StoreAlign", at=0, plain=4)


def _pair(lw: FunctionLowerer, e: A.Call, form: _Form, elem: Scalar | None, regs: dict[str, object], api: str,
          at: int, plain: int) -> None:
    """A two-register load or store, its address argument `at`: `plain` arguments, or one more whose fourth
    argument is the post-update stride (POST_MODE_UPDATE) or an offset added to the address."""
    args = e.args
    if len(args) == plain and form.post is None:
        _emit(lw, e, api, elem, regs, {"addr": _address(lw, args[at])}, form)
    elif len(args) == plain + 1 and form.post == "POST_MODE_UPDATE":
        addr = _address(lw, args[at])
        stride = _scalar(lw, args[3], "stride")
        _emit(lw, e, api, elem, regs, {"addr": addr}, form)
        _post_update(lw, args[at], addr, stride, e)
    elif len(args) == plain + 1 and form.post is None:
        _emit(lw, e, api, elem, regs, {"addr": _with_offset(lw, _address(lw, args[at]), args[3])}, form)
    else:
        raise _Unmodelled(f"the two-register form with {len(args)} arguments")


def _store_align(lw: FunctionLowerer, e: A.Call, form: _Form) -> None:
    args = e.args
    if form.block:
        _block_copy(lw, e, form, load=False)
        return
    if len(args) >= 2 and _register(lw, args[1], "p") is not None:
        raise _Unmodelled("a store of a MaskReg")
    src = _register(lw, args[1], "v") if len(args) >= 2 else None
    if src is None:
        raise _Unmodelled(_not_register(lw, args[1] if len(args) >= 2 else None, "the source"))
    src1 = _register(lw, args[2], "v") if len(args) >= 3 else None
    if src1 is not None:  # StoreAlign<T, DIST_INTLV_B*>(addr, src0, src1[, stride | areg], mask): the dual form
        if not (form.dist or "").startswith("DIST_INTLV_"):
            raise _Unmodelled("the two-register form without an INTLV distribution")
        _store_pair(lw, e, form, _elem(lw, form, args[1]), src, src1)
        return
    mask = _register(lw, args[-1], "p") if len(args) >= 3 else None
    if len(args) >= 3 and mask is None:
        raise _Unmodelled("the mask argument is no MaskReg the lowering models")
    regs = {"src": src, **({"mask": mask} if mask is not None else {})}
    elem = _elem(lw, form, args[1])
    if len(args) in (2, 3) and form.post is None:
        _emit(lw, e, "StoreAlign", elem, regs, {"addr": _address(lw, args[0])}, form)
    elif len(args) == 4 and form.post == "POST_MODE_UPDATE":
        addr = _address(lw, args[0])
        stride = _scalar(lw, args[2], "stride")
        _emit(lw, e, "StoreAlign", elem, regs, {"addr": addr}, form)
        _post_update(lw, args[0], addr, stride, e)
    elif len(args) == 4 and form.post is None:
        addr = _with_offset(lw, _address(lw, args[0]), args[2])
        _emit(lw, e, "StoreAlign", elem, regs, {"addr": addr}, form)
    else:
        raise _Unmodelled(f"the form with {len(args)} arguments" + (f" and {form.post}" if form.post else ""))


def _load_unalign(lw: FunctionLowerer, e: A.Call, form: _Form) -> None:
    # LoadUnAlign(dst, ureg, addr[, stride]): the stride form's default post mode is POST_MODE_UPDATE
    # (reg_compute/kernel_reg_compute_datacopy_intf.h:93-95), the only one the impl accepts (load_impl.h:276)
    args = e.args
    dst = _register(lw, args[0], "v") if args else None
    if dst is None and len(args) >= 3:
        raise _Unmodelled(_not_register(lw, args[0], "the destination"))
    if dst is None or len(args) < 3 or _register(lw, args[1], "u") is None:
        raise _Unmodelled(f"the form with {len(args)} arguments")
    if form.dist is not None:
        raise _Unmodelled(f"the distribution {form.dist}")
    elem = _elem(lw, form, args[0])
    addr = _address(lw, args[2])
    if len(args) == 3:
        _emit(lw, e, "LoadUnAlign", elem, {"dst": dst, "ureg": _register(lw, args[1], "u")}, {"addr": addr}, form)
    elif len(args) == 4 and form.post in (None, "POST_MODE_UPDATE"):
        stride = _scalar(lw, args[3], "stride")
        _emit(lw, e, "LoadUnAlign", elem, {"dst": dst, "ureg": _register(lw, args[1], "u")}, {"addr": addr}, form)
        _post_update(lw, args[2], addr, stride, e)
    else:
        raise _Unmodelled("the AddrReg form (vldu)" if len(args) == 5 else f"the form with {len(args)} arguments")


def _load_unalign_pre(lw: FunctionLowerer, e: A.Call, form: _Form) -> None:
    args = e.args
    ureg = _register(lw, args[0], "u") if args else None
    if ureg is None or len(args) != 2:
        raise _Unmodelled("the AddrReg form (vlda)" if len(args) == 3 else f"the form with {len(args)} arguments")
    elem = form.elem
    addr = _address(lw, args[1])
    if elem is None and isinstance(addr.ctype, C.Pointer) and isinstance(addr.ctype.pointee, Scalar):
        elem = addr.ctype.pointee
    _emit(lw, e, "LoadUnAlignPre", elem, {"ureg": ureg}, {"addr": addr}, form)


def _store_unalign(lw: FunctionLowerer, e: A.Call, form: _Form) -> None:
    # StoreUnAlign(addr, src, ureg, count): `count` elements stored, the address stepped by them (POST_MODE_UPDATE,
    # the default, kernel_reg_compute_datacopy_intf.h:109-111)
    args = e.args
    if len(args) >= 2 and _register(lw, args[1], "p") is not None:
        raise _Unmodelled("a store of a MaskReg")
    src = _register(lw, args[1], "v") if len(args) >= 2 else None
    ureg = _register(lw, args[2], "u") if len(args) >= 3 else None
    if len(args) >= 3 and src is None:
        raise _Unmodelled(_not_register(lw, args[1], "the source"))
    if src is None or ureg is None:
        raise _Unmodelled(f"the form with {len(args)} arguments")
    if len(args) == 3:
        _store_unalign_ar(lw, e, form, src, ureg)
        return
    if len(args) != 4:
        raise _Unmodelled(f"the form with {len(args)} arguments")
    if form.post not in (None, "POST_MODE_UPDATE"):
        raise _Unmodelled(f"{form.post} (the buffered tail at an address that does not step is not documented)")
    elem = _elem(lw, form, args[1])
    addr = _address(lw, args[0])
    count = lw.expr(args[3])
    if isinstance(count.ctype, AddrRegT):
        raise _Unmodelled("the AddrReg form (vstu)")
    if not isinstance(count.ctype, Scalar):
        raise _Unmodelled(f"the count argument of type {count.ctype}")
    _emit(lw, e, "StoreUnAlign", elem, {"src": src, "ureg": ureg}, {"addr": addr, "count": lw.convert(count, C.U32, e)},
          form)
    _post_update(lw, args[0], addr, count, e)


def _store_unalign_ar(lw: FunctionLowerer, e: A.Call, form: _Form, src: object, ureg: object) -> None:
    """`StoreUnAlign(dstAddr, src, ureg)`: the bytes the last Squeeze<.., STORE_REG> kept, stored after those
    the earlier ones stored (the count and the offset are AR's, rust_sim/src/vector/reg/spr.rs). Only the
    POST_MODE_UPDATE form (the default, datacopy_intf.h:129-131) packs them so; what POST_MODE_NORMAL writes where
    the docs say the address must be stepped by hand is not said."""
    if form.post not in (None, "POST_MODE_UPDATE"):
        raise _Unmodelled(f"the form without a count under {form.post}")
    from ascendir.lower.register_api import _emit as emit

    elem = _elem(lw, form, e.args[1])
    if elem is None:
        raise _Unmodelled("the element type is not known")
    emit(lw, e, "StoreUnAlign", elem, {"src": src, "ureg": ureg}, {"addr": _address(lw, e.args[0])}, "count=AR")


def _store_unalign_post(lw: FunctionLowerer, e: A.Call, form: _Form) -> None:
    args = e.args
    if len(args) == 2 and _register(lw, args[1], "u") is not None:
        # StoreUnAlignPost(dstAddr, ureg): the AR form's tail (the model wrote it at the StoreUnAlign)
        addr = _address(lw, args[0])
        elem = form.elem or (addr.ctype.pointee if isinstance(addr.ctype, C.Pointer)
                             and isinstance(addr.ctype.pointee, Scalar) else None)
        _emit(lw, e, "StoreUnAlignPost", elem, {"ureg": _register(lw, args[1], "u")}, {"addr": addr}, form)
        return
    if len(args) != 3 or _register(lw, args[1], "u") is None:
        raise _Unmodelled(f"the form with {len(args)} arguments")
    addr = _address(lw, args[0])
    stride = lw.expr(args[2])
    if isinstance(stride.ctype, AddrRegT):
        raise _Unmodelled("the AddrReg form (vsta)")
    if not isinstance(stride.ctype, Scalar):
        raise _Unmodelled(f"the stride argument of type {stride.ctype}")
    elem = form.elem
    if elem is None and isinstance(addr.ctype, C.Pointer) and isinstance(addr.ctype.pointee, Scalar):
        elem = addr.ctype.pointee
    _emit(lw, e, "StoreUnAlignPost", elem, {"ureg": _register(lw, args[1], "u")}, {"addr": addr}, form)
    if form.post in (None, "POST_MODE_UPDATE"):
        _post_update(lw, args[0], addr, stride, e)


def _create_addr_reg(lw: FunctionLowerer, e: A.Call, form: _Form) -> Val:
    """`CreateAddrReg<T>(i0, s0[, i1, s1, ...])`: sum(ik * sk) * sizeof(T) bytes."""
    args = e.args
    if form.elem is None or form.bad is not None or not args or len(args) % 2 or len(args) > 8:
        raise _Unmodelled("no element type T" if form.elem is None else f"the form with {len(args)} arguments")
    total = Val(C.U64, const=0)
    for index, stride in zip(args[::2], args[1::2]):
        i = lw.convert(_scalar(lw, index, "index"), C.U64, e)
        s = lw.convert(_scalar(lw, stride, "stride"), C.U64, e)
        total = lw.arith("+", total, lw.arith("*", i, s, e), e)
    size = Val(C.U64, const=form.elem.size)
    word = lw.arith("*", total, size, e)
    return Val(ADDR_REG, word.ssa, const=word.const)
