"""The register API of arch35 chips (Ascend 950: `AscendC::Reg` / `MicroAPI` in `__simd_vf__` functions and
`__VEC_SCOPE__` blocks), lowered to `ascendc.reg_call` ops (ascendir/dialects/ascendc_register.py).

A `RegTensor<T>` or `MaskReg` variable is one register of the core's register file: each declaration gets a name
(`v0`, `v1`, ... vector registers; `p0`, ... mask registers) and the variable's value is that name, so calls read
and write registers by name and `mask = UpdateMask<T>(count)` is a move from the call's own register. The first
slice models the data movement (LoadAlign, StoreAlign and MicroAPI's register DataCopy forms), masks (UpdateMask,
CreateMask) and the element-wise arithmetic (Duplicate, Add, Sub, Mul, Div, Max, Min, Adds, Muls, Maxs, Mins, Abs,
Sqrt, Exp) with their MaskMergeMode; GetVRegSize() and `asc_vf_call<F>(args)` (a vector function's launch,
here the function's call). Any other call, or a modelled one in a form not modelled (a post-update address,
an AddrReg, a load distribution), is a reg_call the simulator reports by name (ASC958), never a guess.
Facts: asc-devkit include/basic_api/reg_compute/*_intf.h (signatures, default modes), impl/.../dav_3510.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Block

from ascendir.dialects.ascendc_register import RegCallOp
from ascendir.lower import ctypes as C
from ascendir.lower import register_moves
from ascendir.lower import register_compute
from ascendir.lower.ctypes import Scalar
from ascendir.lower.fast_ops import erase_ops
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

# C++ argument roles per call form ("r:" a register of the bank v / p, "a" an address, "s" a scalar)
_BINARY = ("v:dst", "v:src0", "v:src1", "p:mask")
_SCALAR = ("v:dst", "v:src", "s:scalar", "p:mask")
_UNARY = ("v:dst", "v:src", "p:mask")
FORMS: dict[str, tuple[tuple[str, ...], ...]] = {
    # (the register form first: a form is picked by its registers' banks, and a scalar role takes anything)
    "Duplicate": (("v:dst", "v:src", "p:mask"), ("v:dst", "s:scalar", "p:mask"), ("v:dst", "s:scalar")),
    **{name: (_BINARY,) for name in ("Add", "Sub", "Mul", "Div", "Max", "Min", "MulAddDst", "MulDstAdd")},
    **{name: (_SCALAR,) for name in ("Adds", "Muls", "Maxs", "Mins", "ShiftLefts", "ShiftRights")},
    **{name: (_UNARY,) for name in ("Abs", "Sqrt", "Exp")},
    **register_compute.FORMS,  # Compare, Compares, Select, And/Or/Xor/Not, Cast, Reduce, Arange
}
# names only the register API has: called bare after `using namespace AscendC::MicroAPI;`, they are its calls
REGISTER_ONLY_NAMES = frozenset({"UpdateMask", "CreateMask", "LoadAlign", "StoreAlign", "LocalMemBar", "LoadUnAlign",
                                 "LoadUnAlignPre", "StoreUnAlign", "StoreUnAlignPost", "DataCopyUnAlign",
                                 "DataCopyUnAlignPre", "DataCopyUnAlignPost", "CreateAddrReg", "ShiftLefts",
                                 "ShiftRights", "MaskPack", "MaskUnPack", "DataCopyGather", "Mula", "FusedMulDstAdd"})
# the register API's other names of a modelled call: each calls the same implementation with the same template
# arguments (impl/basic_api/reg_compute/kernel_reg_compute_vec_binary_intf_impl.h: Mula -> MulAddDstImpl;
# kernel_reg_compute_vec_fused_intf_impl.h: FusedMulDstAdd -> FusedMulDstAddImpl, MulDstAdd's)
SAME_IMPL = {"Mula": "MulAddDst", "FusedMulDstAdd": "MulDstAdd"}
# the CTRL special register's accessors (AscendC::, kernel_operator_common_intf.h), lowered with the register API
CTRL_CALLS = frozenset({"GetCtrlSpr", "SetCtrlSpr", "ResetCtrlSpr"})
# template arguments that select nothing the model does not do already
_NEUTRAL_TEMPLATE_ARGS = {"RegTraitNumOne", "DIST_NORM", "NORM", "POST_MODE_NORMAL"}


@dataclass(frozen=True)
class RegId:
    """A register of the file: bank `v` (vector) or `p` (mask), and its number. A `RegTensor<T, RegTraitNumTwo>`
    of 64-bit T is `parts` = 2 registers, `index` (reg[0], the low 32 bits of each element) and `index + 1`
    (reg[1], the high): a call names it by its first register and says it is a pair (`_emit`)."""

    bank: str
    index: int
    parts: int = 1

    def __str__(self) -> str:
        return f"{self.bank}{self.index}"


def register_type(lw: FunctionLowerer, name: str, args: list[A.TemplateArg] | None) -> C.CType:
    """The type `name<args>` of the register API: a modelled register (RegTensor of a scalar, MaskReg) or opaque."""
    if name == "MaskReg":
        return C.RegisterT(text="MaskReg", kind="MaskReg")
    if name in register_moves.UNALIGN_REG_TYPES:
        return C.RegisterT(text=name, kind="UnalignReg")
    if name == "AddrReg":
        return register_moves.ADDR_REG
    if name == "RegTensor" and args:
        elem = lw._template_arg_value(args[0])
        traits = [_arg_text(a).rsplit("::", 1)[-1] for a in args[1:]]
        if isinstance(elem, Scalar) and all(t in _NEUTRAL_TEMPLATE_ARGS for t in traits):
            return C.RegisterT(text=f"RegTensor<{elem}>", kind="RegTensor", elem=elem)
        if isinstance(elem, Scalar) and traits == ["RegTraitNumTwo"] and elem.size == 8 and not elem.is_float:
            # b64 in two registers (RegTensor.md); complex32 / complex64, the page's other RegTraitNumTwo types,
            # are no scalar of the lowering and stay opaque
            return C.RegisterT(text=f"RegTensor<{elem}, RegTraitNumTwo>", kind="RegTensor", elem=elem, parts=2)
    return C.RegisterApiT()


def _new_register(lw: FunctionLowerer, bank: str, parts: int = 1) -> RegId:
    counters: dict[str, int] = lw.__dict__.setdefault("_register_ids", {})
    n = counters.get(bank, 0)
    counters[bank] = n + parts
    return RegId(bank, n, parts)


def _parts(t: C.CType) -> int:
    return t.parts if isinstance(t, C.RegisterT) else 1


def part_type(t: C.RegisterT) -> C.RegisterT:
    """The type of `reg[k]` of a two-register RegTensor of 64-bit T: a register of 32-bit elements of T's sign."""
    elem = C.I32 if t.elem is not None and t.elem.is_signed else C.U32
    return C.RegisterT(text=f"RegTensor<{elem}>", kind="RegTensor", elem=elem)


def parts_of(v: Val) -> Val | None:
    """`res.reg` of a two-register RegTensor: the array of its two registers (reg[0] low, reg[1] high), each a
    register of 32-bit elements; None for any other value."""
    if not (isinstance(v.obj, RegId) and v.obj.parts == 2 and isinstance(v.ctype, C.RegisterT)):
        return None
    part = part_type(v.ctype)
    return Val(C.ArrayT(part, 2), obj=[Val(part, obj=RegId("v", v.obj.index + k)) for k in range(2)])


def reinterpret(v: Val, t: C.CType) -> Val | None:
    """`(RegTensor<uint16_t>&)x`: the same register seen as the cast's register type (its bits unchanged); a
    two-register tensor cast to a one-register type is its reg[0] (RegTensor's `operator RegType&`,
    kernel_reg_compute_struct_intf.h). None when `v` is no register or `t` no register type."""
    if not (isinstance(v.obj, RegId) and isinstance(t, C.RegisterT)):
        return None
    kind = {"RegTensor": "v", "UnalignReg": "u"}.get(t.kind, "p")
    if kind != v.obj.bank or t.parts > v.obj.parts:
        return None
    return Val(t, obj=RegId(v.obj.bank, v.obj.index, t.parts))


def declare(lw: FunctionLowerer, name: str, t: C.CType, init: Val | None, node: A.Node) -> bool:
    """`RegTensor<float> x;` / `MaskReg m = CreateMask<T>();`: the variable names a register of its own.
    `RegTensor<U> index[16];` (the pooling kernels): each element is a register of its own, so the array is the
    list of them, and `index[3]` with a constant index is that register (lower_exprs.expr_Index picks an element
    of a list); an index known only at run time would choose a register while the kernel runs, which a program
    naming its registers cannot express, and stays the indexing error it was."""
    if isinstance(t, C.ArrayT) and isinstance(_array_base(t), C.RegisterT) and init is None:
        lw.bind(name, Val(t, obj=_register_array(lw, t)))
        return True
    if not isinstance(t, C.RegisterT):
        return False
    reg = _new_register(lw, {"RegTensor": "v", "UnalignReg": "u"}.get(t.kind, "p"), t.parts)
    if init is not None and isinstance(init.obj, RegId):
        _emit(lw, node, "Move", t.elem, {"dst": reg, "src": init.obj})
    lw.bind(name, Val(t, obj=reg))
    return True


def _array_base(t: C.CType) -> C.CType:
    while isinstance(t, C.ArrayT):
        t = t.elem
    return t


def _register_array(lw: FunctionLowerer, t: C.ArrayT) -> list[Val]:
    """The elements of an array of registers (of any rank), each a fresh register of the element's bank."""
    if isinstance(t.elem, C.ArrayT):
        return [Val(t.elem, obj=_register_array(lw, t.elem)) for _ in range(t.size)]
    reg_t = t.elem
    assert isinstance(reg_t, C.RegisterT)
    bank = {"RegTensor": "v", "UnalignReg": "u"}.get(reg_t.kind, "p")
    return [Val(reg_t, obj=_new_register(lw, bank, reg_t.parts)) for _ in range(t.size)]


def assign(lw: FunctionLowerer, target: A.Node, value: Val, node: A.Node) -> bool:
    """`mask = UpdateMask<T>(count);`: a move into the variable's register (or an array element's)."""
    bound = register_value(lw, target)
    if bound is None:
        return False
    if isinstance(value.obj, RegId) and value.obj.bank == bound.obj.bank:
        t = bound.ctype
        _emit(lw, node, "Move", t.elem if isinstance(t, C.RegisterT) else None, {"dst": bound.obj, "src": value.obj})
    else:
        _unmodelled(lw, node, "assignment", "an assignment of a value that is no register of the same kind")
    return True


def _arg_text(a: A.TemplateArg) -> str:
    v = a.value
    qname = v.qname if isinstance(v, A.Name) else v.base if isinstance(v, A.TypeRef) else None
    if isinstance(qname, A.QualifiedName):
        return "::".join(p.name for p in qname.parts)
    return type(v).__name__


def _emit(lw: FunctionLowerer, node: A.Node, api: str, elem: Scalar | None, regs: dict[str, RegId],
          values: dict[str, Val] | None = None, mode: str = "", result: bool = False,
          result_type: Scalar = C.U32) -> RegCallOp:
    names = list(values or {})
    operands = [lw.ssa(v, node) for v in (values or {}).values()]
    pairs = [k for k, r in regs.items() if r.parts == 2]
    if pairs:
        # the two-register tensors among the operands (rust_sim/src/vector/reg/pair.rs runs the call on them)
        mode = ",".join(m for m in (mode, f"pairs={'+'.join(pairs)}") if m)
    op = RegCallOp.create(
        operands=operands,
        result_types=[C.scalar_ir_type(result_type)] if result else [],
        properties={"api": StringAttr(api), "elem": StringAttr(str(C.element_ir_type(elem)) if elem is not None else ""),
                    "mode": StringAttr(mode), "regs": StringAttr(" ".join(f"{k}={r}" for k, r in regs.items())),
                    "names": StringAttr(",".join(names))})
    lw.emit(op, node)
    return op


def _unmodelled(lw: FunctionLowerer, node: A.Node, api: str, why: str) -> Val:
    _emit(lw, node, api, None, {}, mode=f"unmodelled: {why}")
    return Val(C.RegisterApiT())


def _modes(lw: FunctionLowerer, targs: list[A.TemplateArg], elem: Scalar | None) -> tuple[list[str], str | None]:
    """The `name=VALUE` modes the template arguments after T select, or why one is not modelled. A type
    argument (the scalar type U of `Muls<T, U, mode>`) selects nothing: the scalar converts to T; nor does the
    plain store of T's width (`StoreDist::DIST_NORM_B32` for a 32-bit T)."""
    modes: list[str] = []
    size = C.size_of(elem) if elem is not None else None
    plain_store = f"DIST_NORM_B{8 * size}" if size else None
    for a in targs:
        text = _arg_text(a)
        parts = text.split("::")
        if isinstance(a.value, A.Unary):  # Div<T, &divMode>: a SpecificMode struct (not evaluated as a value)
            spec = register_compute.specific_mode(lw, a)
            if spec is None:
                return modes, "a SpecificMode template argument the model does not cover"
            modes.extend(spec)
            continue
        if parts[-1] in _NEUTRAL_TEMPLATE_ARGS or parts[-1] == plain_store \
                or isinstance(lw._template_arg_value(a), Scalar | C.RegisterT):
            continue
        if parts[-1] == "RegTraitNumTwo":
            modes.append("trait=2")  # UpdateMask / CreateMask for a two-register tensor (_mask)
        elif len(parts) >= 2 and parts[-2] == "MaskMergeMode":
            modes.append(f"mode={parts[-1]}")
        elif len(parts) >= 2 and parts[-2] == "MaskPattern":
            modes.append(f"pattern={parts[-1]}")
        elif (mode := register_compute.enum_mode(parts, lw)) is not None:
            modes.append(mode)  # CMPMODE::GT, ReduceType::SUM, IndexOrder::...
        elif (trait := register_compute.trait_modes(lw, a)) is not None:
            modes.extend(trait)  # Cast's CastTrait
        else:
            return modes, f"the template argument {text}"
    return modes, None


def call(lw: FunctionLowerer, e: A.Call, name: str, targs: list[A.TemplateArg] | None) -> Val | None:
    """A call of the register API (`Reg::Add(dst, a, b, mask)`), or None to leave it to the caller."""
    if name == "asc_vf_call":
        return _vf_call(lw, e, targs)
    if name in CTRL_CALLS:
        return _ctrl(lw, e, name, targs or [])
    targs = targs or []
    name = register_compute.ALIASES.get(name, SAME_IMPL.get(name, name))
    if name in register_moves.NAMES or (name in ("Gather", "Scatter") and len(e.args) == 4):
        # loads, stores, their distributions, post-update and AddrReg forms; Gather(dst, ubAddr, index, mask) and
        # Scatter(ubAddr, src, index, mask)
        return register_moves.call(lw, e, name, targs)
    first = lw._template_arg_value(targs[0]) if targs else None
    elem = first if isinstance(first, Scalar) else None
    modes, bad = _modes(lw, targs[1:] if elem is not None or not targs else targs, elem)
    if name == "Div" and not any(m.startswith("ftz=") for m in modes):
        modes.append("ftz=1")  # DivAlgo::INTRINSIC, the default, flushes subnormal results (register_compute)
    if name in ("UpdateMask", "CreateMask"):
        return _mask(lw, e, name, elem, modes, bad)
    if name in ("ClearSpr", "GetSpr") and not e.args and not bad:
        # ClearSpr<SpecialPurposeReg::AR>() / GetSpr<...AR>(): the AR register Squeeze adds to (spr.rs)
        op = _emit(lw, e, name, None, {}, mode=",".join(modes), result=name == "GetSpr", result_type=C.I64)
        return Val(C.I64, op.result) if name == "GetSpr" else Val(C.VoidT())
    if name == "LocalMemBar" and not e.args:
        # LocalMemBar<src, dst>() orders the vector function's UB accesses of one kind before those of another;
        # the simulator runs a vector function's loads and stores one by one in program order already
        return Val(C.VoidT())
    forms = FORMS.get(name)
    if forms is None:
        return _unmodelled(lw, e, name, "not modelled")
    if bad is not None:
        return _unmodelled(lw, e, name, bad)
    form = next((f for f in forms if len(f) == len(e.args) and _banks_fit(lw, f, e.args)), None) \
        or next((f for f in forms if len(f) == len(e.args)), None)
    if form is None:
        return _unmodelled(lw, e, name, f"the form with {len(e.args)} arguments")
    regs: dict[str, RegId] = {}
    values: dict[str, Val] = {}
    srcs: dict[str, Scalar | None] = {}  # the element type of each vector register argument
    scalar_nodes: list[tuple[str, A.Node]] = []
    for role, node in zip(form, e.args):
        kind, key = role.split(":")
        if kind == "s":
            scalar_nodes.append((key, node))
            continue
        v = lw.expr(node)
        if kind == "a":
            if not isinstance(v.ctype, C.Pointer | Scalar):
                return _unmodelled(lw, e, name, f"an address argument of type {v.ctype}")
            values[key] = v
        elif not (isinstance(v.obj, RegId) and v.obj.bank == kind):
            return _unmodelled(lw, e, name, not_register_why(lw, node, f"argument '{key}'",
                                                             "mask" if kind == "p" else "vector"))
        else:
            regs[key] = v.obj
            if kind == "v" and isinstance(v.ctype, C.RegisterT):
                srcs[key] = v.ctype.elem
            if elem is None and kind == "v" and isinstance(v.ctype, C.RegisterT):
                elem = v.ctype.elem
    if elem is None and not any(role.startswith("v:") for role in form):
        elem = Scalar("uint8_t")  # a call on mask registers only (And, Select, ... of MaskRegs): per byte lane
    if elem is None:
        return _unmodelled(lw, e, name, "the element type is not known")
    if name in register_compute.TWO_TYPES and isinstance(src := srcs.get("src"), Scalar) and src != elem:
        modes.append(f"U={C.element_ir_type(src)}")  # Cast<half, float>, Reduce of int16 into int32
    for key, node in scalar_nodes:
        v = lw.expr(node)
        if not isinstance(v.ctype, Scalar):
            return _unmodelled(lw, e, name, f"argument '{key}' is no scalar")
        values[key] = lw.convert(v, elem, node)
    _emit(lw, e, name, elem, regs, values, ",".join(modes))
    return Val(C.VoidT())


def _ctrl(lw: FunctionLowerer, e: A.Call, name: str, targs: list[A.TemplateArg]) -> Val:
    """`GetCtrlSpr<s, e>()`, `SetCtrlSpr<s, e>(value)`, `ResetCtrlSpr<s, e>()`: bits [s, e] of the core's CTRL
    register (rust_sim/src/vector/reg/ctrl.rs: Cast's saturation reads CTRL[48], [59], [60])."""
    bits = [lw._template_arg_value(a) for a in targs]
    if len(bits) != 2 or not all(isinstance(b, int) and not isinstance(b, bool) for b in bits):
        return _unmodelled(lw, e, name, "CTRL bits that are no constants")
    if len(e.args) != (1 if name == "SetCtrlSpr" else 0):
        return _unmodelled(lw, e, name, f"the form with {len(e.args)} arguments")
    values = {"value": lw.convert(lw.expr(e.args[0]), C.I64, e)} if e.args else None
    op = _emit(lw, e, name, None, {}, values, mode=f"start={bits[0]},end={bits[1]}", result=name == "GetCtrlSpr",
               result_type=C.I64)
    return Val(C.I64, op.result) if name == "GetCtrlSpr" else Val(C.VoidT())


def is_mode_struct(lw: FunctionLowerer, d: A.Declarator) -> bool:
    """A `constexpr` CastTrait / DivSpecificMode / ... of the register API: nothing to lower where it is declared
    (register_compute reads its initialiser where a call names it as a template argument)."""
    base = d.type.base
    return lw.report.api_uncatalogued and isinstance(base, A.QualifiedName) \
        and base.parts[-1].name in register_compute.MODE_STRUCTS and isinstance(d.init, A.InitList)


def _banks_fit(lw: FunctionLowerer, form: tuple[str, ...], args: list[A.Node]) -> bool:
    """Whether every register argument of `form` names a register of its bank (Select of vector registers or of
    mask registers)."""
    for role, node in zip(form, args):
        kind = role.split(":")[0]
        if kind in ("v", "p"):
            bound = register_value(lw, node)
            if not (bound is not None and bound.obj.bank == kind):
                return False
    return True


def register_value(lw: FunctionLowerer, node: A.Node) -> Val | None:
    """The register `node` names without lowering anything: a register variable, or an element of an array of
    registers at a constant index (`index[3]`, `s[ROW][1]`); None for anything else."""
    bound = _named(lw, node)
    return bound if isinstance(bound, Val) and isinstance(bound.obj, RegId) else None


def not_register_why(lw: FunctionLowerer, node: A.Node | None, what: str, bank: str) -> str:
    """Why `node` is not the register a call wants there, for its ASC958."""
    while isinstance(node, A.Cast) and node.expr is not None:
        node = node.expr
    if isinstance(node, A.Index):
        array = _named(lw, node.base)
        if isinstance(array, Val) and isinstance(array.obj, list):
            return f"{what} is an element of an array of registers at an index known only at run time (a " \
                   "register chosen while the kernel runs)"
    return f"{what} is no {bank} register the lowering models"


def _named(lw: FunctionLowerer, node: A.Node) -> object:
    if isinstance(node, A.Name) and len(node.qname.parts) == 1:
        return lw.lookup(node.qname.parts[0].name)
    if isinstance(node, A.Cast) and node.expr is not None:
        inner = _named(lw, node.expr)  # `(RegTensor<float>&)res.reg[0]`: the register, as the cast's type
        if isinstance(inner, Val) and isinstance(inner.obj, RegId) and node.type is not None:
            t = lw.resolve_type(node.type, node)
            t = t.pointee if isinstance(t, C.Pointer) else t
            return reinterpret(inner, t) or inner
        return inner
    if isinstance(node, A.Member) and node.member == "reg":
        inner = _named(lw, node.obj)
        return parts_of(inner) if isinstance(inner, Val) else None
    if isinstance(node, A.Index):
        array = _named(lw, node.base)
        if not (isinstance(array, Val) and isinstance(array.ctype, C.ArrayT) and isinstance(array.obj, list)):
            return None
        scratch = Block()  # the index's constant; whatever its lowering built is thrown away
        try:
            with lw.detached(scratch):
                at = lw.expr(node.index).const
        finally:
            erase_ops(scratch)
        if isinstance(at, int) and not isinstance(at, bool) and 0 <= at < len(array.obj):
            return array.obj[at]
    return None


def _mask(lw: FunctionLowerer, e: A.Call, name: str, elem: Scalar | None, modes: list[str], bad: str | None) -> Val:
    if elem is None:
        return _unmodelled(lw, e, name, "no element type T")
    if bad is not None:
        return _unmodelled(lw, e, name, bad)
    if "trait=2" in modes:
        # UpdateMask<T, RegTraitNumTwo> / CreateMask<T, p, RegTraitNumTwo> of a 64-bit T are the b32 forms (plt_b32,
        # pset_b32: dav_3510 kernel_reg_compute_maskreg_impl.h:50-54, 101-104): element i of the two-register
        # tensor is 32-bit lane i of each part, so the mask counts VL / 4 elements
        modes.remove("trait=2")
        if elem.size != 8:
            return _unmodelled(lw, e, name, f"RegTraitNumTwo with {elem} (b64 and complex32 only)")
        elem = C.U32
    reg = _new_register(lw, "p")
    if name == "CreateMask":
        if e.args:
            return _unmodelled(lw, e, name, "the form with arguments")
        _emit(lw, e, name, elem, {"dst": reg}, mode=",".join(modes))
    else:
        if len(e.args) != 1:
            return _unmodelled(lw, e, name, f"the form with {len(e.args)} arguments")
        count = lw.convert(lw.expr(e.args[0]), C.U32, e)
        op = _emit(lw, e, name, elem, {"dst": reg}, {"count": count}, result=True)
        # UpdateMask takes its count by reference and leaves it one register of elements smaller
        assert op.result is not None
        lw.assign(e.args[0], Val(C.U32, op.result), e)
    return Val(C.RegisterT(text="MaskReg", kind="MaskReg"), obj=reg)


def vreg_size(lw: FunctionLowerer, e: A.Call) -> Val:
    """`GetVRegSize()`: the bytes of one vector register, the simulator's (the chip file's) width."""
    op = _emit(lw, e, "GetVRegSize", None, {}, result=True)
    assert op.result is not None
    return Val(C.U32, op.result)


def _vf_call(lw: FunctionLowerer, e: A.Call, targs: list[A.TemplateArg] | None) -> Val | None:
    """`asc_vf_call<F<T>>(args...)`: the vector function F<T> called with args (a SIMD launch runs it once on
    this core); a SIMT launch (`asc_vf_call<F>(dim3(n), ...)`) is left to the caller."""
    if not targs or len(targs) != 1:
        return None
    target = targs[0].value
    qname = target.qname if isinstance(target, A.Name) else target.base if isinstance(target, A.TypeRef) else None
    if not isinstance(qname, A.QualifiedName):
        return None
    if e.args and isinstance(e.args[0], A.Call) and isinstance(e.args[0].callee, A.Name) \
            and e.args[0].callee.qname.parts[-1].name == "dim3":
        return None
    from ascendir.lower.calls import lower_call

    return lower_call(lw, A.Call(e.span, A.Name(e.span, qname), e.args), None)
