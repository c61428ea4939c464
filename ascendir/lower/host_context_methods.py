"""The methods of the runtime's handles in the host lowering, by handle kind (METHODS): the context's tensor
queries, attributes, platform, block dim / tiling key / workspace, shapes and shape buffers, attribute
lists, the platform's core counts and memory sizes; and the real API the lowering knows it does not model.

A module of its own because the tables are data with one small function per method, looked up by
HostCalls._method.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from xdsl.dialects import arith
from xdsl.ir import Block, SSAValue

from ascendir.dialects import host as hd
from ascendir.lower import ctypes as C
from ascendir.lower import host_compile_info, host_json, host_node_info
from ascendir.lower import host_tensor_data
from ascendir.lower.ctypes import Scalar
from ascendir.lower.function import Unsupported
from ascendir.lower.host_handles import AttrRef, HostT, TensorRef, TilingRef, handle_kind
from ascendir.lower.host_names import GE_FORMATS
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer


# GetAttrPointer<T> / GetXxx: the host.attr kind read, by C type name or getter.
_ATTR_GETTERS = {"GetInt": ("int", C.I64), "GetFloat": ("float", C.F32), "GetBool": ("bool", C.BOOL),
                 "GetStr": ("str", C.Scalar("int8_t")), "GetListInt": ("list_int", C.I64)}  # fmt: skip

Method = Callable[["HostLowerer", A.Call, Val, A.Member], Val]


def _tensor_ref(output: bool = False, optional: bool = False, kind: str = "storage_shape") -> Method:
    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        index, at = lw._tensor_index(e, "output" if output else "input")
        maybe_absent = optional or (not output and at is None and index in lw.optional_inputs)
        return Val(HostT(kind), obj=TensorRef(index, output, maybe_absent, at))

    return method


def _dynamic_ref(kind: str) -> Method:
    """`GetDynamicInputTensor(irIndex, i)` (Shape, Desc): tensor `i` of the op's tensor-list input `irIndex`, or
    nullptr past the list's end (a foreach op's tiling loops until then)."""

    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        if len(e.args) != 2:
            raise Unsupported(f"{callee.member} takes an input index and an instance index", e)
        ir_index = lw.ssa(lw.convert(lw.expr(e.args[0]), C.I64, e), e)
        instance = lw.ssa(lw.convert(lw.expr(e.args[1]), C.I64, e), e)
        at = lw.emit(hd.DynamicInputIndexOp(lw._context(e), ir_index, instance), e).results[0]
        return Val(HostT(kind), obj=TensorRef(0, optional=True, at=at))

    return method


def _input_count(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    return Val(C.I64, lw.emit(hd.InputCountOp(lw._context(e)), e).results[0])


def _output_count(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """GetComputeNodeOutputNum(): the outputs the op's OpDef declares."""
    if lw.output_count is None:
        raise Unsupported(f"{callee.member} without the op's OpDef is not modelled", e)
    return Val(C.U64, const=lw.output_count)


def _attr_num(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`attrs->GetAttrNum()` on the gert::RuntimeAttrs: the attributes the op's OpDef declares (the runtime holds
    each, an optional one the caller left out with its default), as size_t."""
    if lw.attr_count is None:
        raise Unsupported(f"{callee.member} without the op's OpDef is not modelled", e)
    return Val(C.U64, const=lw.attr_count)


def _shape_of(kind: hd.ShapeKind) -> Method:
    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        ref = recv.obj
        assert isinstance(ref, TensorRef)
        ctx = lw._context(e)
        op = (hd.OutputShapeOp(ctx, ref.index, kind, at=ref.at) if ref.output
              else hd.InputShapeOp(ctx, ref.index, kind, at=ref.at))
        return Val(HostT("shape"), lw.emit(op, e).results[0])

    return method


def _dtype(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    ref = recv.obj
    assert isinstance(ref, TensorRef)
    ctx = lw._context(e)
    op = hd.OutputDtypeOp(ctx, ref.index, at=ref.at) if ref.output else hd.InputDtypeOp(ctx, ref.index, at=ref.at)
    return Val(C.I32, lw.emit(op, e).results[0])


def _nd_format(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """GetOriginFormat / GetStorageFormat of a tensor: ge::FORMAT_ND. The tensors the harness and
    passes.sim.run pass are plain torch tensors, ND in both formats (NZ storage is not modelled here)."""
    return Val(C.I32, const=GE_FORMATS["FORMAT_ND"])


def _input_data_type(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    index, at = lw._tensor_index(e, "input")
    return Val(C.I32, lw.emit(hd.InputDtypeOp(lw._context(e), index, at=at), e).results[0])


def _tensor_shape_size(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    shape = _shape_of(hd.ShapeKind.STORAGE)(lw, e, recv, callee)
    return Val(C.I64, lw.emit(hd.ShapeSizeOp(lw.ssa(shape, e)), e).results[0])


def _tensor_shape(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    return Val(HostT("storage_shape"), obj=recv.obj)


def _get_dim(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    if len(e.args) != 1:
        raise Unsupported("GetDim takes one dimension index", e)
    dim = lw.ssa(lw.convert(lw.expr(e.args[0]), C.I64, e), e)
    return Val(C.I64, lw.emit(hd.ShapeDimOp(lw.ssa(recv, e), dim), e).results[0])


def _infer_input_shape(optional: bool = False) -> Method:
    """`context->GetInputShape(i)` of an InferShape context: the input's own gert::Shape (origin)."""

    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        index, at = lw._tensor_index(e, "input")
        maybe_absent = optional or (at is None and index in lw.optional_inputs)
        return Val(HostT("shape"), obj=TensorRef(index, optional=maybe_absent, at=at))  # read where it is used

    return method


def _infer_output_shape(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    index, at = lw._tensor_index(e, "output")
    op = lw.emit(hd.OutputShapeBufferOp(lw._context(e), index, at=at), e)
    return Val(HostT("shape_buffer"), op.results[0], obj=TensorRef(index, output=True, at=at))


def _read_first(method: Method) -> Method:
    """A query of a gert::Shape object: asked of the dims it holds at that point."""

    def read(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        return method(lw, e, Val(HostT("shape"), lw._shape_value(recv, e)), callee)

    return read


def _shape_args(lw: HostLowerer, e: A.Call, types: Sequence[Scalar]) -> list[SSAValue]:
    name = e.callee.member  # type: ignore[union-attr]
    if len(e.args) != len(types):
        raise Unsupported(f"{name} takes {len(types)} argument{'s' if len(types) != 1 else ''}", e)
    return [lw.ssa(lw.convert(lw.expr(a), t, e), e) for a, t in zip(e.args, types)]


def _set_dim_num(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    (rank,) = _shape_args(lw, e, [C.U64])  # size_t
    lw.emit(hd.ShapeSetDimNumOp(lw.ssa(recv, e), rank), e)
    return Val(C.VoidT())


def _set_scalar(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    _shape_args(lw, e, [])
    lw.emit(hd.ShapeSetDimNumOp(lw.ssa(recv, e), lw.const_ssa(0, C.U64, e)), e)
    return Val(C.VoidT())


def _set_dim(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    dim, value = _shape_args(lw, e, [C.U64, C.I64])
    lw.emit(hd.ShapeSetDimOp(lw.ssa(recv, e), dim, value), e)
    return Val(C.VoidT())


def _append_dim(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    (value,) = _shape_args(lw, e, [C.I64])
    lw.emit(hd.ShapeAppendDimOp(lw.ssa(recv, e), value), e)
    return recv  # Shape& AppendDim(v): calls chain


def _get_dim_num(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    return Val(C.U64, lw.emit(hd.ShapeDimNumOp(lw.ssa(recv, e)), e).results[0])  # size_t


def _shape_size(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    return Val(C.I64, lw.emit(hd.ShapeSizeOp(lw.ssa(recv, e)), e).results[0])


def _is_scalar(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    rank = _get_dim_num(lw, e, recv, callee)
    return lw.compare("==", rank, Val(C.U64, const=0), e)


def _attr_pointer(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    index, at = lw._tensor_index(e, "attribute")
    targs = callee.template_args or []
    t = lw._template_arg_value(targs[0]) if targs else None
    if isinstance(t, Scalar):
        kind = "float" if t.is_float else "bool" if t.kind == "bool" else "str" if t.name == "int8_t" else "int"
    elif isinstance(t, HostT) and t.kind == "int_list":
        kind, t = "list_int", C.I64
    else:
        raise Unsupported(f"GetAttrPointer<{t}> is not modelled", e)
    return Val(HostT("attr_ptr", f"const {t}*"), obj=AttrRef(index, kind, t, at))


def _attr_getter(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    index, at = lw._tensor_index(e, "attribute")
    kind, t = _ATTR_GETTERS[callee.member]
    return Val(HostT("attr_ptr", f"const {t}*"), obj=AttrRef(index, kind, t, at))


def _list_size(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    values = lw._attr_value(recv.obj, e) if handle_kind(recv) == "attr_ptr" else recv  # type: ignore[arg-type]
    if handle_kind(values) != "int_list":
        raise Unsupported(f"GetSize on {recv.ctype}", e)
    return Val(C.U64, lw.emit(hd.ListSizeOp(lw.ssa(values, e)), e).results[0])


def _list_data(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    values = lw._attr_value(recv.obj, e) if handle_kind(recv) == "attr_ptr" else recv  # type: ignore[arg-type]
    if handle_kind(values) != "int_list":
        raise Unsupported(f"GetData on {recv.ctype}", e)
    return Val(HostT("list_data"), values.ssa)


def _core_num(kind: hd.CoreKind) -> Method:
    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        count = Val(C.I64, lw.emit(hd.CoreNumOp(lw.ssa(recv, e), kind), e).results[0])
        return lw.convert(count, C.U32, e)  # the platform getters return uint32_t

    return method


def _mem_size(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    if len(e.args) != 2:
        raise Unsupported("GetCoreMemSize takes a CoreMemType and a uint64_t to fill", e)
    space = lw.expr(e.args[0])
    if not (isinstance(space.ctype, C.EnumT) and space.const in hd.MemSpace.__members__):
        raise Unsupported("GetCoreMemSize needs a constant CoreMemType", e)
    size = lw.emit(hd.MemSizeOp(lw.ssa(recv, e), hd.MemSpace[str(space.const)]), e).results[0]
    if str(space.const) in ("UB", "L1"):
        # PlatformAscendC keeps 256 bytes of UB and of L1 back for the matmul server (kfc) on the 910B family, the
        # 910_93 included (asc-devkit platform_ascendc.cpp, LOCAL_RESERV_SIZE); the fe::PlatFormInfos getter below
        # reports the whole memory
        soc = lw.emit(hd.SocVersionOp(lw.ssa(recv, e)), e).results[0]
        is_910b = lw.emit(arith.CmpiOp(soc, lw.const_ssa(hd.SOC_VERSIONS["ASCEND910B"], C.I64, e), "eq"), e)
        reserve = lw.emit(arith.SelectOp(is_910b.results[0], lw.const_ssa(LOCAL_RESERVED_BYTES, C.I64, e),
                                         lw.const_ssa(0, C.I64, e)), e)
        size = lw.emit(arith.SubiOp(size, reserve.results[0]), e).results[0]
    lw.assign(e.args[1], Val(C.U64, size), e)  # the size comes back through the reference argument
    return Val(C.VoidT())


# what PlatformAscendC::GetCoreMemSize takes off UB and L1 on the 910B family (see _mem_size)
LOCAL_RESERVED_BYTES = 256


def _local_mem_size(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`platformInfo->GetLocalMemSize(fe::LocalMemType::UB, size)` on the fe::PlatFormInfos: the chip's memory."""
    if len(e.args) != 2 or not isinstance(e.args[0], A.Name):
        raise Unsupported("GetLocalMemSize takes a LocalMemType and a uint64_t to fill", e)
    space = e.args[0].qname.parts[-1].name
    if space not in hd.MemSpace.__members__:
        raise Unsupported(f"GetLocalMemSize of {space}", e)
    size = Val(C.U64, lw.emit(hd.MemSizeOp(lw.ssa(lw._platform(e), e), hd.MemSpace[space]), e).results[0])
    lw.assign(e.args[1], size, e)
    return Val(C.VoidT())


def _platform_res(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`platformInfo->GetPlatformRes("AICoreintrinsicDtypeMap", "Intrinsic_mmad", value)`: the chip's entry,
    through the std::string reference argument; true where the chip has it (host_eval_chips.platform_res)."""
    label, key = (lw.const_eval(a) for a in e.args[:2]) if len(e.args) == 3 else (None, None)
    if not (isinstance(label, str) and isinstance(key, str)):
        raise Unsupported("GetPlatformRes takes a literal label and key and a std::string to fill", e)
    value = lw.emit(hd.PlatformResOp(lw.ssa(lw._platform(e), e), label, key), e).results[0]
    lw.assign(e.args[2], Val(HostT("string"), value), e)
    empty = lw.emit(hd.StrEqOp(value, ""), e).results[0]
    found = lw.emit(arith.XOrIOp(empty, lw.const_ssa(1, C.BOOL, e)), e).results[0]
    return Val(C.BOOL, found)


def _str_find(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`s.find("literal")` on a std::string the host reads (an attribute, a platform entry): its position, or
    std::string::npos (all ones, as the i64 -1 here)."""
    literal = lw.const_eval(e.args[0]) if len(e.args) == 1 else None
    if not isinstance(literal, str) or recv.ssa is None:
        raise Unsupported("std::string::find of anything but one literal is not modelled", e)
    return Val(C.U64, lw.emit(hd.StrFindOp(recv.ssa, literal), e).results[0])


def _str_empty(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    if recv.ssa is None:
        raise Unsupported("std::string::empty on a string the host lowering does not hold", e)
    return Val(C.BOOL, lw.emit(hd.StrEqOp(recv.ssa, ""), e).results[0])


def _info_core_num(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`platformInfo->GetCoreNum()` on the fe::PlatFormInfos: the vector cores, as PlatformAscendC's GetCoreNum."""
    return _core_num(hd.CoreKind.AIV)(lw, e, lw._platform(e), callee)


def _lib_workspace(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    size = Val(C.I64, lw.emit(hd.LibWorkspaceSizeOp(lw.ssa(recv, e)), e).results[0])
    return lw.convert(size, C.U32, e)  # uint32_t GetLibApiWorkSpaceSize()


def _soc_version(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    version = Val(C.I64, lw.emit(hd.SocVersionOp(lw.ssa(recv, e)), e).results[0])
    return lw.convert(version, C.I32, e)  # compared with platform_ascendc::SocVersion values


def _npu_arch(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`platform.GetCurNpuArch()`: the NpuArch enum, whose DAV_<n> values host_names reads as n (__NPU_ARCH__)."""
    arch = Val(C.I64, lw.emit(hd.ChipFactOp(lw.ssa(recv, e), "npu_arch"), e).results[0])
    return lw.convert(arch, C.U32, e)  # enum class NpuArch : uint32_t


def _handle(kind: str) -> Method:
    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        for a in e.args:
            lw.expr(a)
        return Val(HostT(kind))

    return method


def _workspace_sizes(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    count = lw.const_eval(e.args[0]) if e.args else None
    # (GetWorkspaceSizes(n) sets the size of the context's workspace vector to n: GetWorkspaceNum reads it)
    lw.workspace_count = count if isinstance(count, int) else None
    return Val(HostT("workspace"), obj=count if isinstance(count, int) else None)


def _workspace_num(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """GetWorkspaceNum(): the size of the context's workspace vector, which GetWorkspaceSizes(n) sets to n
    (gert::TilingContext: `workspace->SetSize(workspace_count)`, then GetSize()); the count of the call the lowering
    passed last. ops-nn dynamic_quant checks it is positive after GetWorkspaceSizes(1)."""
    count = getattr(lw, "workspace_count", None)
    if count is None:
        raise Unsupported("GetWorkspaceNum before a GetWorkspaceSizes(n) of a constant n is not modelled", e)
    return Val(C.U64, const=count)


def _tiling_data(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    targs = callee.template_args or []
    t = lw._template_arg_value(targs[0]) if targs else None
    if not isinstance(t, C.TilingT | C.ClassT):
        raise Unsupported("GetTilingData needs the tiling struct as its template argument", e)
    lw._check_struct(t.name, e)
    lw.structs_used.append((t.name, "context"))
    op = lw.emit(hd.TilingDataOp(lw._context(e), t.name), e)
    return Val(HostT("tiling", t.name), op.results[0], obj=TilingRef(t.name))


def _setter(op_cls: type, ctype: Scalar) -> Method:
    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        if len(e.args) != 1:
            raise Unsupported(f"{callee.member} takes one value", e)
        value = lw.ssa(lw.convert(lw.expr(e.args[0]), ctype, e), e)
        lw.emit(op_cls(lw._context(e), value), e)
        lw.last_set[callee.member] = (value, lw.builder.insertion_point.block)
        return Val(C.VoidT())

    return method


def _getter(setter: str, ctype: Scalar) -> Method:
    """`GetBlockDim()` / `GetTilingKey()` on the tiling context: the value the function set last, where that set
    encloses the read (not one under control flow the read is outside of)."""

    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        found = lw.last_set.get(setter)
        if found is None or not _encloses(found[1], lw.builder.insertion_point.block):
            raise Unsupported(f"TilingContext::{callee.member} before {setter}, or after one under control flow, "
                              "is not modelled", e)
        return Val(ctype, found[0])

    return method


def _set_local_memory_size(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`SetLocalMemorySize(bytes)` / its new name `SetDynUBufSize(bytes)`: the UB a SIMT kernel takes as its
    dynamic unified buffer (CANN TilingContext reference; 0, none, unless set), kept in the result
    (TilingResult.local_memory_size); it returns ge::GRAPH_SUCCESS. The simulator's kernels do not run SIMT code,
    so a launch reads nothing of it (moe_init_routing sets the whole UB on a 910B, UB minus its SIMT reserve on
    the 950)."""
    _setter(hd.SetLocalMemorySizeOp, C.U32)(lw, e, recv, replace(callee, member="SetLocalMemorySize"))
    return Val(C.U32, const=0)


def _local_memory_size(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`GetLocalMemorySize()` / `GetDynUBufSize()`: the value set last, 0 when the function set none."""
    if "SetLocalMemorySize" not in lw.last_set:
        return Val(C.U32, const=0)
    return _getter("SetLocalMemorySize", C.U32)(lw, e, recv, callee)


def _encloses(outer: Block, inner: Block | None) -> bool:
    while inner is not None:
        if inner is outer:
            return True
        parent = inner.parent_op()
        inner = parent.parent_block() if parent is not None else None
    return False


def _no_effect(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    for a in e.args:
        lw.expr(a)
    return Val(C.VoidT())


def _same(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    return recv


def _deterministic(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`GetDeterministic()`: the session's deterministic-computation option, 0 (off) unless a user turns it on
    (torch.use_deterministic_algorithms, ACL_OP_DETERMINISTIC); the benchmarks' runs leave it off."""
    return Val(C.I32, const=0)


def _deterministic_level(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`GetDeterministicLevel()`: the level of that option (int32_t; INT32_MAX when it cannot be read), 0 while it
    is off, as `_deterministic` has it."""
    return Val(C.I32, const=0)


def _input_is_view(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`InputIsView(i)`: whether input i is a strided view of another tensor's memory; a launch gives each input
    as a contiguous tensor of its own, so false (ops-nn scatter_nd_update's arch22 tiling then takes the
    contiguous stride and never reads GetInputStride)."""
    for a in e.args:
        lw.expr(a)
    return Val(C.BOOL, const=0)


METHODS: dict[str, dict[str, Method]] = {
    "context": {
        "GetInputShape": _tensor_ref(), "GetOptionalInputShape": _tensor_ref(optional=True),
        "GetOutputShape": _tensor_ref(output=True), "GetInputTensor": _tensor_ref(kind="tensor"),
        "GetOptionalInputTensor": _tensor_ref(optional=True, kind="tensor"),
        "GetInputDesc": _tensor_ref(kind="desc"), "GetOptionalInputDesc": _tensor_ref(optional=True, kind="desc"),
        "GetOutputDesc": _tensor_ref(output=True, kind="desc"), "GetInputDataType": _input_data_type,
        "GetDynamicInputTensor": _dynamic_ref("tensor"), "GetDynamicInputShape": _dynamic_ref("storage_shape"),
        "GetDynamicInputDesc": _dynamic_ref("desc"), "GetComputeNodeInputNum": _input_count,
        "GetComputeNodeOutputNum": _output_count,
        "GetAttrs": _handle("attrs"), "GetPlatformInfo": _handle("platform_info"),
        "GetRawTilingData": _handle("raw_tiling"), "GetWorkspaceSizes": _workspace_sizes,
        "GetWorkspaceNum": _workspace_num,
        "GetTilingData": _tiling_data,
        "SetBlockDim": _setter(hd.SetBlockDimOp, C.U32), "SetTilingKey": _setter(hd.SetTilingKeyOp, C.U64),
        "GetBlockDim": _getter("SetBlockDim", C.U32), "GetTilingKey": _getter("SetTilingKey", C.U64),
        "SetScheduleMode": _no_effect, "SetNeedAtomic": _setter(hd.SetNeedAtomicOp, C.BOOL),
        "SetAicpuBlockDim": _no_effect,
        "SetLocalMemorySize": _set_local_memory_size, "SetDynUBufSize": _set_local_memory_size,
        "GetLocalMemorySize": _local_memory_size, "GetDynUBufSize": _local_memory_size,
        "GetNodeName": _handle("node_name"), "GetNodeType": host_compile_info.node_type,
        "GetDeterministic": _deterministic, "GetDeterministicLevel": _deterministic_level,
        "InputIsView": _input_is_view,
        **host_node_info.CONTEXT_METHODS,
        "GetCompileInfo": lambda lw, e, recv, callee: host_compile_info.compile_info(lw, e, callee),
    },
    "parse_context": {**host_compile_info.PARSE_CONTEXT_METHODS, "GetCompiledJson": host_json.compiled_json},
    "json": host_json.METHODS,
    "storage_shape": {
        "GetOriginShape": _shape_of(hd.ShapeKind.ORIGIN), "GetStorageShape": _shape_of(hd.ShapeKind.STORAGE),
    },
    "tensor": {
        "GetShape": _tensor_shape, "GetOriginShape": _shape_of(hd.ShapeKind.ORIGIN),
        "GetStorageShape": _shape_of(hd.ShapeKind.STORAGE), "GetShapeSize": _tensor_shape_size,
        "GetDataType": _dtype, "GetOriginFormat": _nd_format, "GetStorageFormat": _nd_format,
        "GetFormat": _nd_format, "GetData": host_tensor_data.tensor_data,
    },
    "desc": {"GetDataType": _dtype, "GetOriginFormat": _nd_format, "GetStorageFormat": _nd_format,
             "GetFormat": _nd_format},
    "shape": {"GetDim": _get_dim, "GetDimNum": _get_dim_num, "GetShapeSize": _shape_size, "IsScalar": _is_scalar},
    "infer_context": {
        "GetInputShape": _infer_input_shape(), "GetOptionalInputShape": _infer_input_shape(optional=True),
        "GetOutputShape": _infer_output_shape, "GetInputTensor": _tensor_ref(kind="tensor"),
        "GetOptionalInputTensor": _tensor_ref(optional=True, kind="tensor"),
        "GetInputDesc": _tensor_ref(kind="desc"),
        "GetOptionalInputDesc": _tensor_ref(optional=True, kind="desc"),
        "GetOutputDesc": _tensor_ref(output=True, kind="desc"),
        "GetAttrs": _handle("attrs"), "GetNodeName": _handle("node_name"), "GetNodeType": _handle("opaque"),
        "GetComputeNodeInputNum": _input_count, "GetComputeNodeOutputNum": _output_count,
    },
    "shape_buffer": {
        "GetDim": _read_first(_get_dim), "GetDimNum": _read_first(_get_dim_num),
        "GetShapeSize": _read_first(_shape_size), "IsScalar": _read_first(_is_scalar),
        "SetDimNum": _set_dim_num, "SetDim": _set_dim, "AppendDim": _append_dim, "SetScalar": _set_scalar,
    },
    "attrs": {"GetAttrPointer": _attr_pointer, "GetAttrNum": _attr_num,
              **{name: _attr_getter for name in _ATTR_GETTERS}},
    "attr_ptr": {"GetSize": _list_size, "GetData": _list_data},
    "int_list": {"GetSize": _list_size, "GetData": _list_data},
    "platform": {
        "GetCoreNumAiv": _core_num(hd.CoreKind.AIV), "GetCoreNumAic": _core_num(hd.CoreKind.AIC),
        "GetCoreNumVector": _core_num(hd.CoreKind.VECTOR),
        # on the split (910B) architecture GetCoreNum() counts the vector cores
        "GetCoreNum": _core_num(hd.CoreKind.AIV),
        "GetCoreMemSize": _mem_size, "GetLibApiWorkSpaceSize": _lib_workspace, "GetSocVersion": _soc_version,
        "GetCurNpuArch": _npu_arch,
    },
    "platform_info": {"GetLocalMemSize": _local_mem_size, "GetCoreNum": _info_core_num,
                      "GetPlatformRes": _platform_res},
    "raw_tiling": {"GetData": _handle("raw_data"), "GetCapacity": _handle("opaque"), "SetDataSize": _no_effect},
    "string": {"c_str": _same, "data": _same, "find": _str_find, "empty": _str_empty},
    **host_node_info.METHODS,
}  # fmt: skip

# Real API the host lowering does not model: a warning, not an "unknown API" error.
KNOWN_UNMODELLED_CONTEXT = {
    "GetInputInstanceInfo", "GetIrInputInstanceInfo", "GetComputeNodeInfo",
    "GetOptionalInputDataType", "GetOutputTensor", "GetInputFormat", "GetInputStride",
}  # fmt: skip
KNOWN_UNMODELLED_INFER_CONTEXT = {
    "GetDynamicInputShape", "GetDynamicInputDesc", "GetInputInstanceInfo", "GetIrInputInstanceInfo",
    "GetComputeNodeInfo", "GetInputFormat",
    "GetOutputFormat", "GetKernelName",
}  # fmt: skip
KNOWN_UNMODELLED_PLATFORM = {"GetCoreMemBw", "CalcTschBlockDim", "ReserveLocalMemory",
                              "GetResGroupBarrierWorkSpaceSize", "GetSocSpec"}  # fmt: skip
