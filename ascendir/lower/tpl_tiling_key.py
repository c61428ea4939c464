"""The template tiling key of the ops repositories (asc-devkit include/utils/tiling/template_argument.h).

An op declares its kernel's template parameters once, in a header both sides include:

    ASCENDC_TPL_ARGS_DECL(AscendQuantV2,
        ASCENDC_TPL_UINT_DECL(perMode, 2, ASCENDC_TPL_UI_LIST, TPL_PER_TENSOR, TPL_PER_CHANNEL, TPL_PER_HEAD),
        ASCENDC_TPL_BOOL_DECL(hasOffset, 0, 1), ...);

The host computes the tiling key from the parameters' values, `GET_TPL_TILING_KEY(mode, offset, ...)`
(`ASCENDC_TPL_SEL_PARAM(context, ...)` also sets it), and the build instantiates the kernel template
`template <uint64_t perMode, ...> __global__ __aicore__ void op(...)` once per selected combination, the
runtime launching the instance whose key the host set. The key packs the parameters in declaration order
from bit 0 up, each in its declared width: a UINT parameter by the index of its value among the declared
values (a range `ASCENDC_TPL_UI_RANGE, n, lo1, hi1, ...` expands to every value in it; MIX is ranges then a
list), a DATATYPE / FORMAT (8 bits) or BOOL (1 bit) parameter by its value itself. A UINT value that is not
declared, or widths over 64 bits in all, give INVALID_TILING_KEY (all ones) (FastEncodeTilingKeyDirect).

The host side lowers GET_TPL_TILING_KEY to arithmetic on its arguments (`lower_get_key`); the kernel side
decodes the key the host chose back into the template arguments of the kernel entry (`kernel_bindings`), the
parameters in declaration order, a DATATYPE parameter being a `typename` bound to the element type of its
ge::DataType code.

A module of its own: the declaration's reading, the encoding and the decoding are one mechanism that the host
lowering (host_calls.py) and the kernel entry's lowering (kernel_entry.py) share.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects import arith

from ascendir.lower import ctypes as C
from ascendir.lower.function import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A
from frontend.vendor import DT_CODES, FORMAT_CODES

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer

DECLARATION = "ASCENDC_TPL_ARGS_DECL"
INVALID_TILING_KEY = (1 << 64) - 1
MAX_BITS = 64

# template_argument.h's object-like macros: the header is out of reach (a known vendor header), so its
# constants are read here
_HEADER_CONSTANTS = {
    "ASCENDC_TPL_1_BW": 1, "ASCENDC_TPL_2_BW": 2, "ASCENDC_TPL_4_BW": 4, "ASCENDC_TPL_8_BW": 8,
    "ASCENDC_TPL_UI_RANGE": 0, "ASCENDC_TPL_UI_LIST": 1, "ASCENDC_TPL_UI_MIX": 2,
    "ASCENDC_TPL_INPUT_BIAS": 100000000, "ASCENDC_TPL_OUTPUT_BIAS": 900000000,
    # the kernel types ASCENDC_TPL_KERNEL_TYPE_DECL chooses from (ops-transformer mla_prolog)
    "ASCENDC_TPL_AIV_ONLY": 0, "ASCENDC_TPL_AIC_ONLY": 1, "ASCENDC_TPL_MIX_AIV_1_0": 4, "ASCENDC_TPL_MIX_AIC_1_0": 5,
    "ASCENDC_TPL_MIX_AIC_1_1": 6, "ASCENDC_TPL_MIX_AIC_1_2": 7, "ASCENDC_TPL_AICORE": 8, "ASCENDC_TPL_VECTORCORE": 9,
    "ASCENDC_TPL_MIX_AICORE": 10, "ASCENDC_TPL_MIX_VECTOR_CORE": 11,
}  # fmt: skip
_UI_RANGE, _UI_LIST, _UI_MIX = 0, 1, 2
_BIASES = {"ASCENDC_TPL_INPUT": 100000000, "ASCENDC_TPL_OUTPUT": 900000000}

# The parameter macros: (kind, fixed bit width; None: the width is the macro's second argument)
_PARAM_MACROS = {
    "ASCENDC_TPL_DTYPE_DECL": ("dtype", 8), "ASCENDC_TPL_DATATYPE_DECL": ("dtype", 8),
    "ASCENDC_TPL_FORMAT_DECL": ("format", 8), "ASCENDC_TPL_UINT_DECL": ("uint", None),
    "ASCENDC_TPL_BOOL_DECL": ("bool", 1), "ASCENDC_TPL_KERNEL_TYPE_DECL": ("kernel_type", 8),
    "ASCENDC_TPL_SHARED_KERNEL_TYPE_DECL": ("kernel_type", 8),
}  # fmt: skip

# ge::DataType code -> the element type a DATATYPE template parameter stands for (TypeFromId)
_TYPE_OF_CODE = {
    0: "float", 1: "half", 2: "int8_t", 3: "int32_t", 4: "uint8_t", 6: "int16_t", 7: "uint16_t", 8: "uint32_t",
    9: "int64_t", 10: "uint64_t", 11: "double", 12: "bool", 27: "bfloat16_t", 29: "int4b_t",
}  # fmt: skip

Fold = Callable[[A.Node], "int | float | str | None"]


@dataclass(frozen=True)
class TplParam:
    name: str
    kind: str  # uint, bool, dtype, format, kernel_type
    bits: int
    values: tuple[int, ...]  # a UINT parameter's declared values, in order (ranges expanded)


@dataclass(frozen=True)
class TplDeclaration:
    op: str  # the declaration's first argument (the op type, by convention)
    params: tuple[TplParam, ...]
    node: A.MacroDecl

    @property
    def bits(self) -> int:
        return sum(p.bits for p in self.params)


def _number(node: A.Node, fold: Fold | None) -> int:
    """An integer argument of the macros: a literal, a constant of template_argument.h or ge (DT_*, FORMAT_*),
    ASCENDC_TPL_INPUT(x) / OUTPUT(x), or what `fold` (the lowering's constant folding) makes of it."""
    if isinstance(node, A.IntLit):
        return node.value
    if isinstance(node, A.BoolLit):
        return int(node.value)
    if isinstance(node, A.Name):
        name = node.qname.parts[-1].name
        # (C_DT_* / C_FORMAT_*: graph/c_types.h's C_DataType and C_Format, whose codes are ge's DT_* / FORMAT_*;
        # ASCENDC_TPL_DATATYPE_DECL lists its choices so, Tiling模板编程/模板参数定义.md)
        name = name[len("C_"):] if name.startswith(("C_DT_", "C_FORMAT_")) else name
        for table in (_HEADER_CONSTANTS, DT_CODES, FORMAT_CODES):
            if name in table:
                return table[name]
    if isinstance(node, A.Call) and isinstance(node.callee, A.Name) and len(node.args) == 1:
        bias = _BIASES.get(node.callee.qname.parts[-1].name)
        if bias is not None:
            return bias + _number(node.args[0], fold)
    if isinstance(node, A.Unary) and node.op in ("-", "+"):
        value = _number(node.operand, fold)
        return -value if node.op == "-" else value
    value = fold(node) if fold is not None else None
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    raise Unsupported("an ASCENDC_TPL_ARGS_DECL argument that is not an integer constant", node)


def _uint_values(mode: int, rest: Sequence[int], node: A.Node) -> tuple[int, ...]:
    """The values a UINT parameter declares (ParseTplUintValue): a list as written; RANGE `n, lo1, hi1, ...`
    every value of its n ranges; MIX the ranges, then a list."""
    if mode == _UI_LIST:
        return tuple(rest)
    if mode not in (_UI_RANGE, _UI_MIX) or not rest:
        raise Unsupported(f"ASCENDC_TPL_UINT_DECL's value kind {mode} is not RANGE, LIST or MIX", node)
    count = rest[0]
    bounds = rest[1:1 + 2 * count]
    if len(bounds) < 2 * count:
        raise Unsupported(f"ASCENDC_TPL_UINT_DECL declares {count} ranges but gives {len(bounds) // 2}", node)
    values = [v for lo, hi in zip(bounds[::2], bounds[1::2]) for v in range(lo, hi + 1)]
    if mode == _UI_MIX:
        values += rest[1 + 2 * count:]
    return tuple(values)


def _param_name(node: A.Node) -> str | None:
    """The parameter a *_DECL macro declares, as written: a name; or a type where the preprocessor or the
    program made the name one (`ASCENDC_TPL_DATATYPE_DECL(DTYPE_X, ...)` with DTYPE_X the build's dtype macro,
    ops-nn glu_grad; `ASCENDC_TPL_UINT_DECL(CACHE_MODE, ...)` beside an enum CACHE_MODE, ops-transformer
    mla_prolog). The kernel's template parameters are bound by position (kernel_bindings), so the name only
    labels messages. None for anything else."""
    if isinstance(node, A.Name):
        return node.qname.parts[-1].name
    ref = node.type if isinstance(node, A.TypeArgExpr) else node
    if isinstance(ref, A.TypeRef) and not ref.pointers and not ref.array_dims:
        return ref.base.parts[-1].name if isinstance(ref.base, A.QualifiedName) else str(ref.base)
    return None


def read_declaration(node: A.MacroDecl, fold: Fold | None = None) -> TplDeclaration:
    """The parameters of an `ASCENDC_TPL_ARGS_DECL(Op, ...)`. Raises Unsupported for one it cannot read."""
    if not node.args:
        raise Unsupported("ASCENDC_TPL_ARGS_DECL without arguments", node)
    first = node.args[0]
    if isinstance(first, A.TypeArgExpr):
        first = first.type
    # the op's name; read as a type where a class of that name is in reach (ops-math is_finite's kernel
    # header declares the kernel class IsFinite beside `ASCENDC_TPL_ARGS_DECL(IsFinite, ...)`)
    op = (first.qname.parts[-1].name if isinstance(first, A.Name) else first.base.parts[-1].name
          if isinstance(first, A.TypeRef) and isinstance(first.base, A.QualifiedName) else "?")
    params: list[TplParam] = []
    for arg in node.args[1:]:
        if not (isinstance(arg, A.Call) and isinstance(arg.callee, A.Name)):
            raise Unsupported("an ASCENDC_TPL_ARGS_DECL parameter that is not one of the *_DECL macros", arg)
        macro = arg.callee.qname.parts[-1].name
        name = _param_name(arg.args[0]) if arg.args else None
        if macro not in _PARAM_MACROS or name is None:
            raise Unsupported(f"'{macro}' in ASCENDC_TPL_ARGS_DECL is not a parameter declaration", arg)
        kind, bits = _PARAM_MACROS[macro]
        numbers = [_number(a, fold) for a in arg.args[1:]]
        if kind == "uint":
            if len(numbers) < 2:
                raise Unsupported(f"ASCENDC_TPL_UINT_DECL({name}) needs a bit width and a value kind", arg)
            bits, values = numbers[0], _uint_values(numbers[1], numbers[2:], arg)
        else:
            values = tuple(numbers)
        params.append(TplParam(name, kind, int(bits or 0), values))
    return TplDeclaration(op, tuple(params), node)


def encode(decl: TplDeclaration, args: Sequence[int]) -> int:
    """The tiling key of these parameter values (FastEncodeTilingKeyDirect): INVALID_TILING_KEY when a UINT
    value is not declared or the widths exceed 64 bits."""
    key, offset = 0, 0
    for param, value in zip(decl.params, args):
        if param.kind == "uint":
            if value not in param.values:
                return INVALID_TILING_KEY
            value = param.values.index(value)
        key |= value << offset
        offset += param.bits
    return key if offset <= MAX_BITS else INVALID_TILING_KEY


def decode(decl: TplDeclaration, key: int) -> list[int]:
    """The parameter values a tiling key encodes, in declaration order. Raises ValueError for a key no
    combination of declared values gives."""
    values, offset = [], 0
    for param in decl.params:
        field = (key >> offset) & ((1 << param.bits) - 1)
        if param.kind == "uint":
            if field >= len(param.values):
                raise ValueError(f"tiling key {key} gives template parameter '{param.name}' value index {field}, "
                                 f"past the {len(param.values)} values ASCENDC_TPL_ARGS_DECL declares")
            field = param.values[field]
        values.append(field)
        offset += param.bits
    if key >> offset:
        raise ValueError(f"tiling key {key} has bits set past the {offset} that {decl.op}'s template parameters use")
    return values


def kernel_bindings(decl: TplDeclaration, key: int, params: Sequence[A.TemplateParam],
                    node: A.Node) -> dict[str, object]:
    """The template arguments of a kernel entry instantiated for `key`: its template parameters bound, in
    order, to the declaration's values (a `typename` one to the element type of its ge::DataType code)."""
    if len(params) != len(decl.params):
        raise Unsupported(f"the kernel template has {len(params)} template parameters, but {decl.op}'s "
                          f"ASCENDC_TPL_ARGS_DECL declares {len(decl.params)}", node)
    try:
        values = decode(decl, key)
    except ValueError as exc:
        raise Unsupported(str(exc), node) from None
    bound: dict[str, object] = {}
    for p, value in zip(params, values):
        if p.name is None:
            continue
        if p.kind == "type":
            if value not in _TYPE_OF_CODE:
                raise Unsupported(f"template parameter '{p.name}': ge::DataType code {value} has no element type "
                                  "modelled here", node)
            bound[p.name] = C.Scalar(_TYPE_OF_CODE[value])
        else:
            bound[p.name] = value
    return bound


def declarations(found: Sequence[tuple[str, A.MacroDecl]], fold: Fold | None = None) -> list[TplDeclaration]:
    """The readable declarations among `found` (Scope.tpl_declarations), once each."""
    seen: set[object] = set()
    out: list[TplDeclaration] = []
    for _, node in found:
        if _identity(node) in seen:
            continue
        seen.add(_identity(node))
        out.append(read_declaration(node, fold))
    return out


def _identity(node: A.MacroDecl) -> object:
    """One declaration however many sources reach its header: the kernel and the host sources that include
    the same tiling-key header each parse it (the device build keeps the declaration too: frontend/vendor.py),
    so it is known by where it is written."""
    span = node.span
    return (span.file, span.line, span.col) if span is not None else id(node)


def _normal(name: str) -> str:
    return name.replace("_", "").lower()


def for_kernel(decls: Sequence[TplDeclaration], kernel: str, arity: int,
               kernel_file: str | None = None) -> TplDeclaration | None:
    """The declaration a kernel entry is instantiated from: the only one, else the one named for the kernel's
    op (AscendQuantV2 for ascend_quant_v2), else the only one with as many parameters as the kernel has. Where
    several remain, the one written in the kernel source's own folder: ops-nn transpose_batch_mat_mul declares
    TransposeBatchMatMul with four parameters both in op_kernel/ (the 910B entry's header) and in
    op_kernel/arch35/ (the 950 entry's), and a project reads both."""
    if len(decls) == 1:
        return decls[0]
    named = [d for d in decls if _normal(d.op) == _normal(kernel)]
    if len(named) == 1:
        return named[0]
    sized = [d for d in (named or decls) if len(d.params) == arity] or \
        [d for d in decls if len(d.params) == arity]
    if len(sized) > 1 and kernel_file is not None:
        folder = os.path.dirname(os.path.normpath(kernel_file))
        sized = [d for d in sized if d.node.span is not None
                 and os.path.dirname(os.path.normpath(d.node.span.file)) == folder] or sized
    return sized[0] if len(sized) == 1 else None


def lower_get_key(lw: HostLowerer, e: A.Call, namespace: str = "") -> Val:
    """`GET_TPL_TILING_KEY(v0, v1, ...)` in host code: the key of these values under the ASCENDC_TPL_ARGS_DECL
    in reach, computed at lowering time when every value is constant, else as arithmetic the evaluator runs."""
    found = lw.scope.tpl_declarations
    if not found:
        raise Unsupported("GET_TPL_TILING_KEY without an ASCENDC_TPL_ARGS_DECL in reach (the op's tiling key "
                          "header is not among the sources read)", e)
    if len({_identity(n) for _, n in found}) > 1:
        inner = [(ns, n) for ns, n in found if namespace == ns or namespace.startswith(ns + "::") or not ns]
        found = inner if len({_identity(n) for _, n in inner}) == 1 else found
        if len({_identity(n) for _, n in found}) > 1 and e.span is not None:
            # the one the call's own source reaches: ops-math is_finite's 910B tiling .cpp includes
            # op_kernel/is_finite_struct.h, its 950 tiling .cpp op_kernel/arch35/'s, both declaring IsFinite
            units = lw.scope.tpl_units
            mine = [(ns, n) for ns, n in found if e.span.file in units.get(_identity(n), ())]  # type: ignore[arg-type]
            found = mine if len({_identity(n) for _, n in mine}) == 1 else found
        if len({_identity(n) for _, n in found}) > 1:
            raise Unsupported("GET_TPL_TILING_KEY with several ASCENDC_TPL_ARGS_DECL in reach", e)
    decl = read_declaration(found[0][1], lw.const_eval)
    values = [lw.convert(lw.expr(a), C.U64, e) for a in e.args]  # type: ignore[arg-type]
    if all(isinstance(v.const, int) for v in values):
        return Val(C.U64, const=encode(decl, [int(v.const) for v in values]))  # type: ignore[arg-type]
    if decl.bits > MAX_BITS:
        return Val(C.U64, const=INVALID_TILING_KEY)
    key = lw.const_ssa(0, C.U64, e)
    valid = lw.const_ssa(True, C.BOOL, e)
    offset = 0
    for param, value in zip(decl.params, values):
        v = lw.ssa(value, e)
        if param.kind == "uint":
            index, found_one = lw.const_ssa(0, C.U64, e), lw.const_ssa(False, C.BOOL, e)
            for i in reversed(range(len(param.values))):  # the first match wins, as std::find's
                same = lw.emit(arith.CmpiOp(v, lw.const_ssa(param.values[i], C.U64, e), "eq"), e).results[0]
                index = lw.emit(arith.SelectOp(same, lw.const_ssa(i, C.U64, e), index), e).results[0]
                found_one = lw.emit(arith.OrIOp(found_one, same), e).results[0]
            valid = lw.emit(arith.AndIOp(valid, found_one), e).results[0]
            v = index
        if offset:
            v = lw.emit(arith.ShLIOp(v, lw.const_ssa(offset, C.U64, e)), e).results[0]
        key = lw.emit(arith.OrIOp(key, v), e).results[0]
        offset += param.bits
    chosen = lw.emit(arith.SelectOp(valid, key, lw.const_ssa(INVALID_TILING_KEY, C.U64, e)), e).results[0]
    return Val(C.U64, chosen)
