"""`ascendc` ops -> instructions: objects, tensors and pointers, the queue protocol, catalog calls.

TPipe, TQue, TBuf and LocalMemAllocator are objects with static ids, declared in the program header with what
the runtime needs (a queue's position, memory, depth and the HardEvents its EnQue/DeQue/FreeTensor/
AllocTensor stand for); `obj.init` at the declaration resets one. Buffers are placed by InitBuffer at run time,
in order, per memory, aligned as the chip file says: a length may differ per core.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType, StringAttr
from xdsl.ir import Operation

from ascendir.dialects import ascendc as asc
from passes.sim import object_arrays, reg_ops, struct_array, struct_arrays
from passes.sim.builder import HandleArray
from passes.sim.program import ObjectDecl
from passes.sim.registers import Array, NotModelled, Struct, element_type, scalar_type

if TYPE_CHECKING:
    from passes.sim.builder import ProgramBuilder


def emit(b: ProgramBuilder, op: Operation) -> None:  # noqa: C901  (one dispatch over the dialect)
    if isinstance(op, asc.ApiCallOp):
        _call(b, op)
    elif isinstance(op, asc.TPipeOp):
        _declare(b, op, "pipe", {})
    elif isinstance(op, asc.TQueOp):
        _queue(b, op)
    elif isinstance(op, asc.TBufOp):
        t = op.result.type
        _declare(b, op, "tbuf", {"pos": t.position.data, "mem": b.memory_of(t.position.data)})
    elif isinstance(op, asc.ObjectOp | asc.MatmulObjectOp):
        name = op.result.type.type_name.data
        if name.startswith("LocalMemAllocator"):
            mem = name.partition("<")[2].rstrip(">").rsplit("::", 1)[-1] or "UB"
            _declare(b, op, "allocator", {"mem": mem})
        elif isinstance(op, asc.MatmulObjectOp):
            # the MatmulType arguments as written say where A, B, C and the bias are and in which format
            _declare(b, op, "opaque", {"type": name.replace(" ", ""), "config": op.config.data.replace(" ", "")})
        else:
            _declare(b, op, "opaque", {"type": name.replace(" ", "")})
    elif isinstance(op, asc.GlobalTensorOp):
        result = b.define(op.result)
        b.emit("null", [], [result], op)
    elif isinstance(op, asc.InitBufferOp):
        num = b.typed(op.num) if op.num is not None else "-"
        chosen = b.values.get(op.buffer)
        if isinstance(chosen, object_arrays.ObjectChoice):  # `pipe.InitBuffer(buf_[i], n)` with i known at run time
            object_arrays.init_buffer(b, b.obj(op.pipe), chosen, num, b.typed(op.length), op)
        else:
            b.emit("InitBuffer", [b.obj(op.pipe), b.obj(op.buffer), num, b.typed(op.length)], op=op)
    elif isinstance(op, asc.AllocTensorOp):
        b.emit(f"AllocTensor.{_elem(op.result.type)}", [b.obj(op.queue)], [_handle(b, op)], op)
    elif isinstance(op, asc.FreeTensorOp):
        b.emit("FreeTensor", [b.obj(op.queue), b.reg(op.tensor)], op=op)
    elif isinstance(op, asc.EnQueOp):
        result = b.define(op.result)
        b.emit("EnQue", [b.obj(op.queue), b.reg(op.tensor)], [result], op)
    elif isinstance(op, asc.DeQueOp):
        b.emit(f"DeQue.{_elem(op.result.type)}", [b.obj(op.queue)], [_handle(b, op)], op)
    elif isinstance(op, asc.TBufGetOp):
        count = b.typed(op.count) if op.count is not None else "-"
        offset = b.typed(op.byte_offset) if op.byte_offset is not None else "-"
        choice = b.values.get(op.buffer)
        if isinstance(choice, object_arrays.ObjectChoice):  # `sumBuf[i % 2].Get<T>()`
            object_arrays.tbuf_get(b, choice, op, f"TBufGet.{_elem(op.result.type)}", count, offset, _handle(b, op))
        else:
            b.emit(f"TBufGet.{_elem(op.result.type)}", [b.obj(op.buffer), count, offset], [_handle(b, op)], op)
    elif isinstance(op, asc.LocalAllocOp):
        b.emit(f"LocalAlloc.{_elem(op.result.type)}", [b.obj(op.allocator), b.typed(op.count)], [_handle(b, op)], op)
    elif isinstance(op, asc.LocalTensorAtOp):
        t = op.result.type
        b.emit(f"LocalAt.{_elem(t)}", [b.memory_of(t.position.data), b.typed(op.address), b.typed(op.count)],
               [_handle(b, op)], op)
    elif isinstance(op, asc.SetGlobalBufferOp):
        count = b.typed(op.count) if op.count is not None else "-"
        b.emit(f"SetGlobalBuffer.{_elem(op.tensor.type)}", [b.reg(op.pointer), count], [b.reg(op.tensor)], op)
        # SetGlobalBuffer changes the object itself: on a value loaded from a variable (a member the class also
        # reassigns, `xGm = xGm[offset]`), the variable holds the object set up from here on
        loaded = op.tensor.owner
        if isinstance(loaded, memref.LoadOp):
            cell = b.loc(loaded.memref)
            if isinstance(cell, str) and cell.startswith("h") and cell != b.reg(op.tensor):
                b.emit("mov", [b.reg(op.tensor)], [cell], op)
            elif isinstance(cell, HandleArray):  # `mm1Res[0].SetGlobalBuffer(p)`: that element is the tensor set up
                b.store_handle(cell, loaded.indices, b.reg(op.tensor), op)
    elif isinstance(op, asc.SubTensorOp):
        b.emit(f"sub.{_elem(op.tensor.type)}", [b.reg(op.tensor), b.typed(op.offset)], [_handle(b, op)], op)
    elif isinstance(op, asc.GmPtrOffsetOp):
        b.emit(f"ptradd.{_elem(op.pointer.type)}", [b.reg(op.pointer), b.typed(op.offset)], [_handle(b, op)], op)
    elif isinstance(op, asc.GmPtrCastOp | asc.ReinterpretCastOp):
        b.values[op.result] = b.reg(op.operands[0])  # handles are bytes: the view changes, the bytes do not
    elif isinstance(op, asc.GmPtrFromIntOp):
        b.emit("int2ptr", [b.reg(op.value)], [_handle(b, op)], op)  # the address decoded (memory::gm_buffer_of)
    elif isinstance(op, asc.UbPtrTensorOp):
        b.emit("ub2ptr", [b.reg(op.address)], [_handle(b, op)], op)  # UB from that byte address on
    elif isinstance(op, asc.GmPtrToIntOp):
        result = b.define(op.result)
        b.emit("ptr2int", [b.reg(op.pointer)], [result], op)
    elif isinstance(op, asc.GetValueOp | asc.GmLoadOp):
        source = op.operands[0]
        result = b.define(op.result)
        b.emit(f"GetValue.{_elem(source.type)}", [b.reg(source), b.typed(op.index)], [result], op)
    elif isinstance(op, asc.SetValueOp | asc.GmStoreOp):
        target = op.operands[0]
        b.emit(f"SetValue.{_elem(target.type)}", [b.reg(target), b.typed(op.index), b.typed(op.value)], op=op)
    elif isinstance(op, asc.GetTilingDataOp):
        b.values[op.result] = Struct(op.result.type.type_name.data, {})  # fields: folded, or tiling.missing
    elif isinstance(op, asc.TilingFieldOp):
        _tiling_field(b, op)
    elif isinstance(op, asc.TilingKeyIsOp):
        result = b.define(op.result)
        b.emit("tiling.key_is", [str(op.key.value.data)], [result], op)
    elif isinstance(op, asc.CoreIsOp):
        result = b.define(op.result)
        b.emit("core.is", [op.core.data], [result], op)
    elif isinstance(op, asc.EnumConstantOp):
        _enum_constant(b, op)
    elif isinstance(op, asc.StructInitOp):
        _struct_init(b, op)
    elif isinstance(op, asc.StructGetOp):
        _struct_get(b, op)
    elif isinstance(op, asc.StructSetOp):
        _struct_set(b, op)
    elif isinstance(op, asc.OpaqueCallOp):
        results = [b.define(r) for r in op.results]
        b.emit("unsupported", [_quote(f"the call of {op.callee.data}, which the lowering could not resolve")],
               [r for r in results if isinstance(r, str)], op)
    elif isinstance(op, asc.RegCallOp):
        reg_ops.emit(b, op)
    elif isinstance(op, asc.UndefOp):
        if scalar_type(op.result.type) is None and not isinstance(op.result.type, (asc.GmPtrType, asc.GlobalTensorType,
                                                                                   asc.LocalTensorType, asc.StructType,
                                                                                   asc.TilingType)):
            return  # a value of no type the program has (an array member the lowering left undefined): a use fails
        found = b.define(op.result)
        if isinstance(found, str):
            # with the value's name, the simulator reports a use of it as a size, an offset or a condition
            what = op.attributes.get(asc.UNDEF_WHAT_ATTR)
            b.emit("undef", [_quote(what.data)] if isinstance(what, StringAttr) else [], [found], op)
    elif isinstance(op, asc.LeftOutOp):
        b.emit("left_out", [_quote(op.what.data)], [], op)
    elif isinstance(op, asc.SimtSyncOp):
        b.emit("simt.sync", [], [], op)
    elif isinstance(op, asc.SimtAtomicOp):
        operands = [b.reg(op.target), *(b.typed(a) for a in op.args)]
        b.emit(f"simt.atomic_{op.kind.data}.{_elem(op.target.type)}", operands, [_handle(b, op)], op)
    elif isinstance(op, asc.SimtWarpOp):
        # the type of what the lanes exchange: the value's (a vote's int32_t predicate), else the result's
        ty = scalar_type((op.args[0] if op.args else op.result).type)
        if ty is None:
            raise NotModelled(f"a warp function of {op.result.type}")
        b.emit(f"simt.{op.kind.data}.{ty}", [b.reg(a) for a in op.args], [_handle(b, op)], op)
    else:
        raise NotModelled(f"the op {op.name}")


def _elem(t: object) -> str:
    return element_type(getattr(t, "element_type"))


def _handle(b: ProgramBuilder, op: Operation) -> str:
    found = b.define(op.results[0])
    assert isinstance(found, str)
    return found


def _quote(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


def _declare(b: ProgramBuilder, op: Operation, kind: str, attrs: dict[str, str]) -> None:
    value = op.results[0]
    decl = b.objects.get(value)
    if decl is None:
        decl = ObjectDecl(len(b.objects), kind, op.var_name.data or f"obj{len(b.objects)}", attrs)
        b.objects[value] = decl
    b.emit("obj.init", [f"o{decl.index}"], op=op)


def _queue(b: ProgramBuilder, op: asc.TQueOp) -> None:
    t = op.result.type
    position = t.position.data
    attrs = {"pos": position, "depth": str(t.depth.data), "mem": b.memory_of(position)}
    # TQueBind<VECIN, VECOUT>: the route is the binding's own (UB -> UB: MTE2_MTE3 / MTE3_MTE2), not
    # TQue<VECOUT>'s
    event = b.catalog.queue_events_of(position, t.source.data, b.chip.npu_arch, b.memory_of)
    if event is not None:
        attrs["fwd"], attrs["back"] = event.forward, event.backward
    _declare(b, op, "queue", attrs)


def _call(b: ProgramBuilder, op: asc.ApiCallOp) -> None:
    if op.api.data == "FreeTensor" and op.args and isinstance(op.args[0].type, asc.TBufType) and not op.results:
        # TBuf inherits FreeTensor from TQueBind and compiles; a TBuf's memory is never allocated per tensor,
        # so releasing one changes nothing the kernel can see
        return
    found = b.api_of(op)
    results = [b.define(r) for r in op.results]
    result_regs = [r for r in results if isinstance(r, str)]
    if found is None:
        b.emit("unsupported", [_quote(f"AscendC::{op.api.data} (overload '{op.overload.data}'), not in the catalog")],
               result_regs, op)
        return
    api, ov = found
    try:
        operands = b.call_operands(op, api, ov)
    except NotModelled as exc:
        b.emit("unsupported", [_quote(f"AscendC::{api.name}: {exc}")], result_regs, op)
        return
    head = f"{api.name}.{ov.id}"
    templ = b.template_operands(op, api, ov)
    b.emit("call", [head + templ, *operands], [_typed_result(r, op) for r in result_regs], op)


def _typed_result(reg: str, op: asc.ApiCallOp) -> str:
    if reg.startswith("r") and op.results:
        ty = scalar_type(op.results[0].type)
        return f"{reg}:{ty}" if ty else reg
    return reg


def _tiling_field(b: ProgramBuilder, op: asc.TilingFieldOp) -> None:
    source = b.loc(op.tiling)
    if isinstance(source, Struct) and op.field.data in source.fields and op.index is None:
        reg, _ = source.fields[op.field.data]
        b.values[op.result] = reg
        return
    if isinstance(op.result.type, asc.TilingType):
        # a nested struct: the fields the program set by path (`params.paramsIn.blockLen = n` sets
        # "paramsIn.blockLen"), over a catalogued struct's defaults (DataCopyExtParams passed to DataCopyPad);
        # one the host gave no fields for (a SoftMaxTiling stored whole, this->smTiling = td.sm) stays empty: the
        # APIs that take one read their shape from elsewhere; a field read of it is `undef`, as for any struct
        name = op.result.type.type_name.data
        prefix = op.field.data + "."
        given = {k[len(prefix):]: v for k, v in source.fields.items() if k.startswith(prefix)} \
            if isinstance(source, Struct) and op.index is None else {}
        b.values[op.result] = Struct(name, {**b.struct_defaults(name, fresh=False), **given} if given else {})
        return
    if not op.result.uses:
        # a read whose value nothing uses (`&td.cubeTilingData` handed to REGIST_MATMUL_OBJ leaves a scalar read of
        # the struct field beside the struct read the call takes): it cannot change the run, and as tiling.missing
        # it would report a read of 0 (ASC958) where the kernel's fields were all given
        return
    result = b.define(op.result)
    if not isinstance(result, str):
        raise NotModelled(f"the tiling field '{op.field.data}' of type {op.result.type}")
    b.emit("tiling.missing", [_quote(op.field.data)], [result], op)


def _enum_constant(b: ProgramBuilder, op: asc.EnumConstantOp) -> None:
    text = op.value.data
    found = b.catalog.enum_value(text)
    enum_name = op.result.type.type_name.data
    if found is None:
        found = b.catalog.enum_value(f"{enum_name}::{text.rsplit('::', 1)[-1]}")
    if found is None:
        raise NotModelled(f"the enumerator {text}")
    enum, value = found
    number = _enum_number(enum, value.name)
    reg = b.regs.const("i32", str(number), f"{enum.name}::{value.name}", own=True)
    b.values[op.result] = reg
    b.enum_names[reg] = f"{enum.name}::{value.name}"


def _enum_number(enum: object, name: str) -> int:
    """C numbering: the catalogued value, else one more than the enumerator before it."""
    number = -1
    for v in getattr(enum, "values"):
        number = v.value if v.value is not None else number + 1
        if v.name == name:
            return number
    return number


def _struct_init(b: ProgramBuilder, op: asc.StructInitOp) -> None:
    t = op.result.type
    if isinstance(t, asc.TilingType):
        given = {}
        for name, value in zip(op.fields.data, op.values):
            ty = scalar_type(value.type)
            if ty is not None:
                given[name.data] = (b.reg(value), ty)
        b.values[op.result] = Struct(t.type_name.data, given)
        return
    if not isinstance(t, asc.StructType):
        b.values[op.result] = Struct(getattr(t, "type_name").data, {})
        return
    fields = b.struct_defaults(t.type_name.data, fresh=False)
    for name in [n for n in fields if struct_arrays.nested_struct(b, t.type_name.data, n)]:
        del fields[name]  # a struct member is its fields, dotted (below), not one scalar
    given_arrays: dict[str, Array] = {}
    for name, value in zip(op.fields.data, op.values):
        ty = scalar_type(value.type)
        if ty is None:
            # a tensor or C array member (MrgSortSrcList's lists, MrgSort4Info's uint16_t[4] lengths) goes to the
            # call as its handle or stack array, untyped; a pointer or object member: no API reads it
            found = b.values.get(value)
            if isinstance(value.type, asc.LocalTensorType) and isinstance(found, str):
                fields[name.data] = (found, "")
            elif isinstance(found, Array):
                fields[name.data] = (found.operand(), "")
                given_arrays[name.data] = found
            elif isinstance(found, Struct) and struct_arrays.nested_struct(b, t.type_name.data, name.data):
                fields.update(struct_arrays.own_nested(b, t.type_name.data, name.data, found, op))
            continue
        fields[name.data] = (b.reg(value), ty)
    # the struct's own C arrays: a copy of the one given, or zeros (struct_arrays.py)
    found_struct = b.catalog.struct(t.type_name.data)
    for member in found_struct.fields if found_struct is not None else ():
        if member.name in fields and member.name not in given_arrays:
            continue
        if struct_arrays.nested_struct(b, t.type_name.data, member.name):
            if not any(k.startswith(member.name + ".") for k in fields):  # not given: its defaults, zeroed arrays
                fields.update(struct_arrays.own_nested(b, t.type_name.data, member.name, None, op))
            continue
        own = struct_arrays.own_array(b, t.type_name.data, member.name, given_arrays.get(member.name), op)
        if own is not None:
            fields[member.name] = (own.operand(), "")
    b.values[op.result] = Struct(t.type_name.data, fields)


def _struct_get(b: ProgramBuilder, op: asc.StructGetOp) -> None:
    source = b.loc(op.struct)
    name = op.field.data
    if isinstance(source, struct_array.StructChoice):  # `params_[k].loopInfo`: an element chosen at run time
        struct_array.struct_get(b, source, name, op.result, op)
        return
    if isinstance(op.result.type, MemRefType) and isinstance(source, Struct) and name in source.fields:
        # `p.padList`, indexed: the struct's own array (struct_arrays.py)
        arr = struct_arrays.parse_operand(source.fields[name][0])
        if arr is None:
            raise NotModelled(f"the array member {name} of {source.type_name} as an array")
        b.values[op.result] = arr
        return
    nested = struct_arrays.view(b, source, name) if isinstance(source, Struct) else None
    if nested is not None:
        b.values[op.result] = nested  # `p.loopInfo`: a struct member, its arrays the outer struct's own
        return
    if isinstance(source, Struct) and name in source.fields:
        b.values[op.result] = source.fields[name][0]
        return
    found = b.catalog.struct(source.type_name) if isinstance(source, Struct) else None
    member = next((f for f in found.fields if f.name == name), None) if found is not None else None
    if member is not None and "[" in member.c_type:
        # `p.padList[0] = 1`: the lowering reads a C array member as one scalar and drops the element stores, so
        # the call would see the array as never set; say so rather than compute with zeros
        elem, _, dims = member.c_type.partition("[")
        raise NotModelled(f"the elements of {source.type_name}'s array member {name} ({member.c_type}) one by one "
                          f"(give the struct a whole array: `{elem.strip()} {name}[{dims} = {{...}};` passed to its "
                          f"constructor)")
    result = b.define(op.result)
    if isinstance(result, str):
        b.emit("undef", [], [result], op, comment=f"field {name} never set")


def _struct_set(b: ProgramBuilder, op: asc.StructSetOp) -> None:
    source = b.loc(op.struct)
    if not isinstance(source, Struct):
        raise NotModelled("setting a field of a struct that is not a parameter struct")
    fields = dict(source.fields)
    ty = scalar_type(op.value.type)
    if ty is not None:
        fields[op.field.data] = (b.reg(op.value), ty)
    elif isinstance(op.value.type, asc.LocalTensorType) and isinstance(b.values.get(op.value), str):
        fields[op.field.data] = (b.values[op.value], "")  # `srcList.src1 = t`: the handle, as _struct_init keeps it
    elif isinstance(b.values.get(op.value), Struct) and struct_arrays.nested_struct(b, source.type_name,
                                                                                     op.field.data):
        value = b.values[op.value]
        assert isinstance(value, Struct)
        b.values[op.result] = struct_arrays.replace(b, source, op.field.data, value, op)  # `p.loopInfo = info`
        return
    b.values[op.result] = Struct(source.type_name, fields)
