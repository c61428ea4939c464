"""Catalogued AscendC API calls in the lowering of calls (api_call): the overload resolved against the
catalog, the arguments converted to its parameters (brace lists, `T&` outputs as cells), the family op
emitted; and what every kind of call shares: the arguments' lowering and the opaque call of what is not
modelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import IntAttr, StringAttr
from xdsl.ir import Attribute, SSAValue

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C
from ascendir.lower import acc_val, register_api, ub_pointer
from ascendir.lower.astwalk import written_root
from ascendir.lower.ctypes import CType, Scalar, const_fits
from ascendir.lower.function import Unsupported
from ascendir.lower.values import Cell, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


def opaque_call(lw: FunctionLowerer, e: A.Call, name: str, args: Sequence[Val]) -> Val:
    operands = [a.ssa if a.ssa is not None else lw.ssa(a, e) for a in args
                if a.ssa is not None or (a.const is not None and isinstance(a.ctype, Scalar | C.EnumT))]
    op = asc.OpaqueCallOp.create(operands=operands, properties={"callee": StringAttr(name)})
    lw.emit(op, e)
    return Val(C.UnknownT(name))


def lower_args(lw: FunctionLowerer, args: Sequence[A.Node], tolerant: bool = False) -> list[Val]:
    out: list[Val] = []
    for a in lw.expand_packs(args, args[0]) if args else ():
        if isinstance(a, A.TypeRef):
            t = lw.resolve_type(a)
            out.append(Val(t, obj=("type", t)))
            continue
        if isinstance(a, A.InitList):
            out.append(Val(C.UnknownT("init-list"), obj=("init", a)))
            continue
        if tolerant:
            try:
                out.append(lw.expr(a))
            except Unsupported:
                out.append(Val(C.UnknownT()))
        else:
            out.append(lw.expr(a))
    return out


def api_call(lw: FunctionLowerer, e: A.Call, name: str, receiver: str | None, recv: Val | None,
             targs: list[A.TemplateArg] | None, expected: CType | None) -> Val:
    """A call of a catalogued API: resolve the overload, lower the arguments, emit the family op."""
    typed = acc_val.typed_read(lw, e, name, targs) if receiver is None else None
    if typed is not None:
        return typed  # GetAccVal<float>(): the int64_t register's low bits as the float
    mark = lw._mark()
    args = lower_args(lw, e.args)
    if any(isinstance(a.ctype, C.RegisterApiT) for a in args):
        # `Compares(maskReg, vReg, scalar, preg)` after `using namespace MicroAPI`: the register API's
        # function of that name, not the catalogued vector one
        if lw.report.api_uncatalogued:  # lowered as the register API's call (its own reading of the arguments)
            lw._rollback(mark)
            value = register_api.call(lw, e, name, targs)
            if value is not None:
                return value
            args = lower_args(lw, e.args)
        lw.report.register_api(e)
        return opaque_call(lw, e, name, args)
    template_values = [lw._template_arg_value(a) for a in targs or []]
    resolution = lw.catalog.resolve(name, [_arg_info(a) for a in args], [_targ_text(v) for v in template_values], receiver)
    if resolution.error is not None:
        lw.report.no_match(name, e, resolution.error, resolution.candidates)
    api = resolution.api
    # brace-initialised arguments take the type of the parameter they bind to
    for i, a in enumerate(args):
        if isinstance(a.obj, tuple) and a.obj[0] == "init":
            ptype = resolution.param_type(i)
            args[i] = lw.init_list(lw.named_type(ptype, None) if ptype else C.UnknownT(), a.obj[1].items, e)
    operands: list[SSAValue] = []
    if recv is not None:
        operands.append(lw.ssa(recv, e))
    written_cells = _output_cells(lw, e, resolution, args)
    for i, a in enumerate(args):
        if i in written_cells:
            operands.append(written_cells[i].ref)  # `T&`: the call stores into the variable's cell
            continue
        a = lw.tiling_argument(a, e)
        want = resolution.scalar_param_type(i)
        if want is not None and isinstance(a.ctype, Scalar) and const_fits(a.const, want):
            # (a constant that does not fit keeps the value as written: that is what checks need to see)
            a = lw.convert(a, want, e)
        if a.ssa is None and a.const is None and isinstance(a.obj, tuple) and a.obj[0] == "type":
            operands.append(lw.undef(C.UnknownT(), e))  # a type passed to a macro-style API: keeps arity
            continue
        operands.append(lw.ssa(a, e))
    result_t = resolution.result_type(lw, recv, template_values, expected)
    if not template_values:
        template_values = ub_pointer.pointee_template_args(args)
    family = api.family if api is not None else "system"
    op_cls = asc.FAMILY_OPS[family]
    op = op_cls(
        name,
        operands,
        overload=resolution.overload_id or "",
        template_args=[_targ_attr(v) for v in template_values],
        result_type=C.ir_type(result_t) if result_t is not None and not isinstance(result_t, C.VoidT) else None,
    )
    lw.emit(op, e)
    for i, arg in enumerate(e.args):
        written = written_root(arg) if resolution.is_output(i) and i not in written_cells else None
        if written is not None:
            lw.forget_scalar(written, e)  # GatherMask(..., rsvdCnt): the call writes the count it kept
    if result_t is None or isinstance(result_t, C.VoidT):
        return Val(C.VoidT())
    return Val(result_t, op.results[0])


def _output_cells(lw: FunctionLowerer, e: A.Call, resolution: object, args: list[Val]) -> dict[int, Cell]:
    """The scalar variables passed to `T&` parameters (GetReduceMaxMinCount's value and index), as cells the
    simulator's call writes. A variable never assigned in its own body is a constant binding: it gets a cell
    now, holding its current value, when it is declared in the block of the call (a cell made here for an
    outer block's variable would not dominate its later reads); others stay as they are (the call's write is
    then only forgotten, see api_call)."""
    cells: dict[int, Cell] = {}
    for i, (a, node) in enumerate(zip(args, e.args)):
        if not resolution.is_output(i) or not isinstance(a.ctype, Scalar):  # type: ignore[attr-defined]
            continue
        if isinstance(a.obj, Cell) and isinstance(a.obj.ctype, Scalar):
            if not a.obj.at:  # (a field of an element of an object array: the call's write is forgotten)
                cells[i] = a.obj
            continue
        if not isinstance(node, A.Name) or len(node.qname.parts) != 1:
            continue
        name = node.qname.parts[0].name
        scope = lw.frame.scopes[-1]
        bound = scope.get(name)
        if isinstance(bound, Val) and isinstance(bound.ctype, Scalar):
            cell = lw.new_cell(bound.ctype, name, e, bound)
            scope[name] = cell
            cells[i] = cell
    return cells


def _arg_info(v: Val) -> object:
    from ascendir.catalog.resolve import ArgInfo

    t = v.ctype
    if isinstance(v.obj, tuple) and v.obj[0] == "tiling_path":
        return ArgInfo("unknown")  # a field of tiling data without a layout: read as uint32_t, may be a struct
    if isinstance(v.obj, tuple) and v.obj[0] == "init":
        # `{1, len, 0, 0}` straight into a call: a parameter struct (a one-element list may be a scalar)
        items = v.obj[1].items
        if len(items) == 1:
            return ArgInfo("unknown")
        # (a pack expansion among the items makes the count unknown)
        count = None if any(isinstance(i, A.PackExpansion) for i in items) else len(items)
        return ArgInfo("struct", list_len=count)
    literal = v.ssa is None and v.const is not None and not isinstance(v.const, str)
    match t:
        case C.LocalTensorT(elem, position):
            return ArgInfo("local_tensor", dtype=elem.name if elem else None,
                           position=None if position == asc.UNKNOWN_POSITION else position)
        case C.GlobalTensorT(elem):
            return ArgInfo("global_tensor", dtype=elem.name if elem else None)
        case Scalar(name):
            return ArgInfo("scalar", dtype=name, is_literal=literal)
        case C.StructT(name):
            return ArgInfo("struct", type_name=name)
        case C.TilingT(name, path):
            # a struct inside the tiling data (`td->softmaxTilingData`): its own type is not always known
            # (tiling_view names the root struct), so it stands for any struct
            return ArgInfo("struct", type_name=None if path else name)
        case C.EnumT(name):
            return ArgInfo("enum", type_name=name)
        case C.Pointer(pointee, _):
            return ArgInfo("pointer", dtype=pointee.name if isinstance(pointee, Scalar) else None)
        case C.QueueT():
            return ArgInfo("object", type_name="TQue")
        case C.BufT():
            return ArgInfo("object", type_name="TBuf")
        case C.PipeT():
            return ArgInfo("object", type_name="TPipe")
        case C.ObjectT(name):
            return ArgInfo("object", type_name=name)
        case C.ArrayT(C.Pointer(pointee, ub=True), _) if isinstance(pointee, Scalar):
            # `__ubuf__ T *list[16]` (uint64 addresses to us: ub_pointer.py): T is the pointee's
            return ArgInfo("mask_array", dtype=pointee.name)
        case C.ArrayT(C.LocalTensorT(elem) | C.GlobalTensorT(elem) as tensor, _):
            # `LocalTensor<float> dstList[16]`: an array of tensors, which binds `LocalTensor<T> dstList[16]` and
            # never `uint64_t dstList[16]` (TransDataTo5HD has both; C++ converts neither into the other)
            kind = "LocalTensor" if isinstance(tensor, C.LocalTensorT) else "GlobalTensor"
            return ArgInfo("mask_array", dtype=elem.name if elem else None, type_name=kind)
        case C.ArrayT(elem, _):
            return ArgInfo("mask_array", dtype=elem.name if isinstance(elem, Scalar) else None)
        case _:
            return ArgInfo("unknown")


def _targ_text(v: object) -> str:
    if isinstance(v, Scalar):
        return v.name
    return str(v)


def _targ_attr(v: object) -> Attribute:
    if isinstance(v, Scalar):
        return C.element_ir_type(v)
    if isinstance(v, bool):
        return IntAttr(int(v))
    if isinstance(v, int):
        return IntAttr(v)
    return StringAttr(str(v))
