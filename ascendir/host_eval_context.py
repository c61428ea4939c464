"""The `host` dialect's ops in the host evaluator (HostFunctions): tensor queries, shape buffers, attributes,
the platform, the context's effects and the tiling struct's fields, on the run's TilingContextState.
"""

from __future__ import annotations

import struct
from math import prod
from typing import Any, cast

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, MemRefType
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.ir import Attribute, Operation
from xdsl.utils.comparisons import to_signed, to_unsigned

from ascendir.dialects import host
from ascendir.dialects.host import GE_DATA_TYPE_SIZES, MAX_DIM_NUM, CoreKind, MemSpace
from ascendir.host_eval_arith import int_width, round_float
from ascendir.host_eval_chips import ChipNumbers, platform_res
from ascendir.host_eval_types import (
    FieldValue,
    HostEvalError,
    InferShapeContextState,
    ShapeBuffer,
    TensorSpec,
    TilingContextState,
    TilingStruct,
    ge_dtype,
)


def _field_value(interpreter: Interpreter, value: Any, typ: Attribute, unsigned: bool) -> FieldValue:
    """A tiling field value as the C++ struct would hold it."""
    if isinstance(value, ShapedArray):
        assert isinstance(typ, MemRefType)
        element_type = typ.element_type
        return [cast(int | float, _field_value(interpreter, v, element_type, unsigned)) for v in value.data]
    if isinstance(typ, IntegerType | IndexType):
        width = int_width(interpreter, typ)
        if width == 1:
            return 1 if value else 0
        return to_unsigned(int(value), width) if unsigned else to_signed(int(value), width)
    return round_float(float(value), typ)


@register_impls
class HostFunctions(InterpreterFunctions):
    """Interpreter implementations of the `host` dialect ops."""

    @impl(host.InputShapeOp)
    def run_input_shape(
        self, interpreter: Interpreter, op: host.InputShapeOp, args: PythonValues
    ) -> PythonValues:
        spec = cast(TilingContextState, args[0]).tensor(query_index(op, args, "input"), output=False)
        return (_shape_of(spec, op.kind.data),)

    @impl(host.OutputShapeOp)
    def run_output_shape(
        self, interpreter: Interpreter, op: host.OutputShapeOp, args: PythonValues
    ) -> PythonValues:
        spec = cast(TilingContextState, args[0]).tensor(query_index(op, args, "output"), output=True)
        return (_shape_of(spec, op.kind.data),)

    @impl(host.DynamicInputIndexOp)
    def run_dynamic_input_index(
        self, interpreter: Interpreter, op: host.DynamicInputIndexOp, args: PythonValues
    ) -> PythonValues:
        state = cast(TilingContextState, args[0])
        ir_index = to_signed(int(args[1]), 64)
        if ir_index < 0:
            raise HostEvalError(f"GetDynamicInputTensor({ir_index}, ...): the input index is negative")
        found = state.inputs.dynamic_index(ir_index, to_signed(int(args[2]), 64))
        return (len(state.inputs.inputs) + (1 << 32) if found is None else found,)

    @impl(host.InputCountOp)
    def run_input_count(
        self, interpreter: Interpreter, op: host.InputCountOp, args: PythonValues
    ) -> PythonValues:
        return (sum(1 for t in cast(TilingContextState, args[0]).inputs.inputs if t is not None),)

    @impl(host.HasInputOp)
    def run_has_input(
        self, interpreter: Interpreter, op: host.HasInputOp, args: PythonValues
    ) -> PythonValues:
        state = cast(TilingContextState, args[0])
        index = query_index(op, args, "input")
        return (index < len(state.inputs.inputs) and state.inputs.inputs[index] is not None,)

    @impl(host.ShapeDimOp)
    def run_shape_dim(
        self, interpreter: Interpreter, op: host.ShapeDimOp, args: PythonValues
    ) -> PythonValues:
        shape, dim = cast(tuple[int, ...], args[0]), cast(int, args[1])
        if not 0 <= dim < len(shape):
            raise HostEvalError(f"GetDim({dim}) on a shape of rank {len(shape)} {list(shape)}")
        return (shape[dim],)

    @impl(host.ShapeDimNumOp)
    def run_shape_dim_num(
        self, interpreter: Interpreter, op: host.ShapeDimNumOp, args: PythonValues
    ) -> PythonValues:
        return (len(cast(tuple[int, ...], args[0])),)

    @impl(host.ShapeSizeOp)
    def run_shape_size(
        self, interpreter: Interpreter, op: host.ShapeSizeOp, args: PythonValues
    ) -> PythonValues:
        # gert::Shape::GetShapeSize() of a scalar (rank 0) is 1, as prod() of nothing
        return (prod(cast(tuple[int, ...], args[0])),)

    @impl(host.InputDtypeOp)
    def run_input_dtype(
        self, interpreter: Interpreter, op: host.InputDtypeOp, args: PythonValues
    ) -> PythonValues:
        spec = cast(TilingContextState, args[0]).tensor(query_index(op, args, "input"), output=False)
        return (ge_dtype(spec.dtype),)

    @impl(host.OutputDtypeOp)
    def run_output_dtype(
        self, interpreter: Interpreter, op: host.OutputDtypeOp, args: PythonValues
    ) -> PythonValues:
        spec = cast(TilingContextState, args[0]).tensor(query_index(op, args, "output"), output=True)
        return (ge_dtype(spec.dtype),)

    @impl(host.DtypeSizeOp)
    def run_dtype_size(
        self, interpreter: Interpreter, op: host.DtypeSizeOp, args: PythonValues
    ) -> PythonValues:
        dtype = cast(int, args[0])
        if dtype not in GE_DATA_TYPE_SIZES:
            raise HostEvalError(f"GetSizeByDataType of unknown ge::DataType {dtype}")
        return (GE_DATA_TYPE_SIZES[dtype],)

    @impl(host.OutputShapeBufferOp)
    def run_output_shape_buffer(
        self, interpreter: Interpreter, op: host.OutputShapeBufferOp, args: PythonValues
    ) -> PythonValues:
        state = cast(InferShapeContextState, args[0])
        return (state.output_shapes.setdefault(query_index(op, args, "output"), ShapeBuffer()),)

    @impl(host.ShapeLocalOp)
    def run_shape_local(
        self, interpreter: Interpreter, op: host.ShapeLocalOp, args: PythonValues
    ) -> PythonValues:
        return (ShapeBuffer(),)

    @impl(host.ShapeReadOp)
    def run_shape_read(
        self, interpreter: Interpreter, op: host.ShapeReadOp, args: PythonValues
    ) -> PythonValues:
        return (cast(ShapeBuffer, args[0]).value(),)

    @impl(host.ShapeEqOp)
    def run_shape_eq(self, interpreter: Interpreter, op: host.ShapeEqOp, args: PythonValues) -> PythonValues:
        return (int(tuple(args[0]) == tuple(args[1])),)

    @impl(host.MakeShapeOp)
    def run_make_shape(
        self, interpreter: Interpreter, op: host.MakeShapeOp, args: PythonValues
    ) -> PythonValues:
        if len(args) > MAX_DIM_NUM:
            # gert::Shape's initializer-list constructor then leaves the shape empty
            raise HostEvalError(f"a gert::Shape of {len(args)} dims; it holds at most {MAX_DIM_NUM}")
        return (tuple(to_signed(int(v), 64) for v in args),)

    @impl(host.ShapeAssignOp)
    def run_shape_assign(
        self, interpreter: Interpreter, op: host.ShapeAssignOp, args: PythonValues
    ) -> PythonValues:
        buffer, value = cast(ShapeBuffer, args[0]), cast(tuple[int, ...], args[1])
        buffer.dims[: len(value)] = value
        buffer.rank = len(value)
        buffer.written = True
        return ()

    @impl(host.ShapeSetDimNumOp)
    def run_shape_set_dim_num(
        self, interpreter: Interpreter, op: host.ShapeSetDimNumOp, args: PythonValues
    ) -> PythonValues:
        buffer, rank = cast(ShapeBuffer, args[0]), to_unsigned(int(args[1]), 64)  # size_t
        if rank > MAX_DIM_NUM:
            raise HostEvalError(f"SetDimNum({rank}): a gert::Shape holds at most {MAX_DIM_NUM} dims")
        buffer.rank = rank
        buffer.written = True
        return ()

    @impl(host.ShapeSetDimOp)
    def run_shape_set_dim(
        self, interpreter: Interpreter, op: host.ShapeSetDimOp, args: PythonValues
    ) -> PythonValues:
        buffer, dim = cast(ShapeBuffer, args[0]), to_unsigned(int(args[1]), 64)  # size_t
        if dim >= buffer.rank:
            # gert's SetDim writes the array and raises the rank to `dim`, not `dim + 1`: the dim written
            # stays outside the shape. A missing SetDimNum / AppendDim, either way.
            raise HostEvalError(f"SetDim({dim}) on a shape of rank {buffer.rank} {list(buffer.value())}; "
                                "SetDimNum first (or AppendDim)")
        buffer.dims[dim] = to_signed(int(args[2]), 64)
        buffer.written = True
        return ()

    @impl(host.ShapeAppendDimOp)
    def run_shape_append_dim(
        self, interpreter: Interpreter, op: host.ShapeAppendDimOp, args: PythonValues
    ) -> PythonValues:
        buffer = cast(ShapeBuffer, args[0])
        if buffer.rank >= MAX_DIM_NUM:
            raise HostEvalError(
                f"AppendDim on a shape of {buffer.rank} dims does nothing (at most {MAX_DIM_NUM})"
            )
        buffer.dims[buffer.rank] = to_signed(int(args[1]), 64)
        buffer.rank += 1
        buffer.written = True
        return ()

    @impl(host.AttrOp)
    def run_attr(self, interpreter: Interpreter, op: host.AttrOp, args: PythonValues) -> PythonValues:
        state = cast(TilingContextState, args[0])
        index = query_index(op, args, "attribute")
        stored = op.stored.data if op.stored is not None else None
        kind = stored or op.kind  # (read as the OpDef declares it first, when the getter's type differs)
        value = _attr_as(state.attr(index), kind)
        ok = {
            "int": isinstance(value, int) and not isinstance(value, bool),
            "float": isinstance(value, int | float) and not isinstance(value, bool),
            "bool": isinstance(value, bool),
            "str": isinstance(value, str),
            "list_int": isinstance(value, list) and all(isinstance(v, int) for v in value),
        }[kind]
        if not ok:
            raise HostEvalError(
                f"{state.func_name} reads attribute {index} as {kind} but was given {value!r}"
            )
        if stored is not None:
            value, kind = _reinterpreted(value, stored, op.kind), op.kind
        if kind == "float":
            return (round_float(float(cast(float, value)), op.result.type),)
        if kind == "list_int":
            return (tuple(cast(list[int], value)),)
        return (value,)

    @impl(host.HasAttrOp)
    def run_has_attr(self, interpreter: Interpreter, op: host.HasAttrOp, args: PythonValues) -> PythonValues:
        attrs = cast(TilingContextState, args[0]).inputs.attrs
        index = query_index(op, args, "attribute")
        return (index < len(attrs) and attrs[index] is not None,)

    @impl(host.StrEqOp)
    def run_str_eq(self, interpreter: Interpreter, op: host.StrEqOp, args: PythonValues) -> PythonValues:
        return (args[0] == op.literal.data,)

    @impl(host.StrConstOp)
    def run_str_const(self, interpreter: Interpreter, op: host.StrConstOp, args: PythonValues) -> PythonValues:
        return (op.literal.data,)

    @impl(host.StrFindOp)
    def run_str_find(self, interpreter: Interpreter, op: host.StrFindOp, args: PythonValues) -> PythonValues:
        return (str(args[0]).find(op.literal.data),)

    @impl(host.StrNullOp)
    def run_str_null(self, interpreter: Interpreter, op: host.StrNullOp, args: PythonValues) -> PythonValues:
        return (None,)  # (a text is a str: the null pointer is the one value that is not)

    @impl(host.StrIsNullOp)
    def run_str_is_null(self, interpreter: Interpreter, op: host.StrIsNullOp, args: PythonValues) -> PythonValues:
        return (args[0] is None,)

    @impl(host.StrCharOp)
    def run_str_char(self, interpreter: Interpreter, op: host.StrCharOp, args: PythonValues) -> PythonValues:
        text, position = _c_string(args[0], "read a character of"), to_signed(int(args[1]), 64)
        if not 0 <= position <= len(text):
            raise HostEvalError(f"character {position} of the C string {text!r} read, past its terminator")
        code = ord(text[position]) if position < len(text) else 0  # (at the end: its '\0')
        return (to_signed(code & 0xFF, 8),)

    @impl(host.StrAdvanceOp)
    def run_str_advance(self, interpreter: Interpreter, op: host.StrAdvanceOp, args: PythonValues) -> PythonValues:
        text, count = _c_string(args[0], "move a pointer into"), to_signed(int(args[1]), 64)
        if not 0 <= count <= len(text):
            raise HostEvalError(f"a pointer into the C string {text!r} moved by {count}, outside the string")
        return (text[count:],)

    @impl(host.ListSizeOp)
    def run_list_size(
        self, interpreter: Interpreter, op: host.ListSizeOp, args: PythonValues
    ) -> PythonValues:
        return (len(cast(tuple[int, ...], args[0])),)

    @impl(host.ListGetOp)
    def run_list_get(self, interpreter: Interpreter, op: host.ListGetOp, args: PythonValues) -> PythonValues:
        values, position = cast(tuple[int, ...], args[0]), cast(int, args[1])
        if not 0 <= position < len(values):
            raise HostEvalError(f"list attribute element {position} read, but the list has {len(values)}")
        return (values[position],)

    @impl(host.PlatformOp)
    def run_platform(self, interpreter: Interpreter, op: host.PlatformOp, args: PythonValues) -> PythonValues:
        return (cast(TilingContextState, args[0]).chip,)

    @impl(host.CoreNumOp)
    def run_core_num(self, interpreter: Interpreter, op: host.CoreNumOp, args: PythonValues) -> PythonValues:
        chip = cast(ChipNumbers, args[0])
        kind = op.kind.data
        count = {
            CoreKind.AIV: chip.aiv_cores,
            CoreKind.AIC: chip.aic_cores,
            CoreKind.VECTOR: chip.vector_cores,
        }[kind]
        return (count,)

    @impl(host.MemSizeOp)
    def run_mem_size(self, interpreter: Interpreter, op: host.MemSizeOp, args: PythonValues) -> PythonValues:
        chip = cast(ChipNumbers, args[0])
        space = op.space.data
        size = {
            MemSpace.UB: chip.ub,
            MemSpace.L1: chip.l1,
            MemSpace.L0_A: chip.l0a,
            MemSpace.L0_B: chip.l0b,
            MemSpace.L0_C: chip.l0c,
            MemSpace.L2: chip.l2,
            MemSpace.HBM: chip.hbm,
        }[space]
        if size is None:
            raise HostEvalError(f"the {space.value} size of chip {chip.name} is not known")
        return (size,)

    @impl(host.SocVersionOp)
    def run_soc_version(
        self, interpreter: Interpreter, op: host.SocVersionOp, args: PythonValues
    ) -> PythonValues:
        return (host.SOC_VERSIONS.get(cast(ChipNumbers, args[0]).soc, host.SOC_VERSIONS["ASCEND910B"]),)

    @impl(host.ChipFactOp)
    def run_chip_fact(self, interpreter: Interpreter, op: host.ChipFactOp, args: PythonValues) -> PythonValues:
        return (getattr(cast(ChipNumbers, args[0]), op.fact.data),)

    @impl(host.PlatformResOp)
    def run_platform_res(self, interpreter: Interpreter, op: host.PlatformResOp, args: PythonValues) -> PythonValues:
        return (platform_res(cast(ChipNumbers, args[0]), op.label.data, op.key.data),)

    @impl(host.LibWorkspaceSizeOp)
    def run_lib_workspace_size(
        self, interpreter: Interpreter, op: host.LibWorkspaceSizeOp, args: PythonValues
    ) -> PythonValues:
        return (cast(ChipNumbers, args[0]).lib_workspace,)

    @impl(host.SetBlockDimOp)
    def run_set_block_dim(
        self, interpreter: Interpreter, op: host.SetBlockDimOp, args: PythonValues
    ) -> PythonValues:
        state = cast(TilingContextState, args[0])
        # SetBlockDim takes a uint32_t
        state.block_dim = to_unsigned(int(args[1]), 32)
        return ()

    @impl(host.SetLocalMemorySizeOp)
    def run_set_local_memory_size(
        self, interpreter: Interpreter, op: host.SetLocalMemorySizeOp, args: PythonValues
    ) -> PythonValues:
        state = cast(TilingContextState, args[0])
        state.local_memory_size = to_unsigned(int(args[1]), 32)  # it takes a uint32_t
        return ()

    @impl(host.SetNeedAtomicOp)
    def run_set_need_atomic(
        self, interpreter: Interpreter, op: host.SetNeedAtomicOp, args: PythonValues
    ) -> PythonValues:
        state = cast(TilingContextState, args[0])
        state.need_atomic = bool(int(args[1]))  # the last call wins, as the context keeps one flag
        return ()

    @impl(host.SetTilingKeyOp)
    def run_set_tiling_key(
        self, interpreter: Interpreter, op: host.SetTilingKeyOp, args: PythonValues
    ) -> PythonValues:
        state = cast(TilingContextState, args[0])
        state.tiling_key = to_unsigned(int(args[1]), 64)  # SetTilingKey takes a uint64_t
        return ()

    @impl(host.SetWorkspaceOp)
    def run_set_workspace(
        self, interpreter: Interpreter, op: host.SetWorkspaceOp, args: PythonValues
    ) -> PythonValues:
        state = cast(TilingContextState, args[0])
        state.workspace[op.index.value.data] = to_unsigned(int(args[1]), 64)  # size_t
        return ()

    @impl(host.WorkspaceGetOp)
    def run_workspace_get(self, interpreter: Interpreter, op: host.WorkspaceGetOp, args: PythonValues) -> PythonValues:
        state, index = cast(TilingContextState, args[0]), op.index.value.data
        if index not in state.workspace:
            raise HostEvalError(f"{state.func_name} reads workspace size {index} before it sets it (the runtime's "
                                "array holds an unknown value there)")
        return (state.workspace[index],)

    @impl(host.TilingDataOp)
    def run_tiling_data(
        self, interpreter: Interpreter, op: host.TilingDataOp, args: PythonValues
    ) -> PythonValues:
        state = cast(TilingContextState, args[0])
        name = op.result.type.struct_name.data
        if state.buffer is None:
            state.buffer = TilingStruct(name, bound=True, saved=True)
        elif state.buffer.struct_name != name:
            state.notes.append(
                f"tiling buffer used as {name} after being written as {state.buffer.struct_name}"
            )
            state.buffer = TilingStruct(name, dict(state.buffer.fields), bound=True, saved=True)
        return (state.buffer,)

    @impl(host.TilingLocalOp)
    def run_tiling_local(
        self, interpreter: Interpreter, op: host.TilingLocalOp, args: PythonValues
    ) -> PythonValues:
        data = TilingStruct(op.result.type.struct_name.data)
        context_state(interpreter).locals.append(data)
        return (data,)

    @impl(host.TilingSetOp)
    def run_tiling_set(
        self, interpreter: Interpreter, op: host.TilingSetOp, args: PythonValues
    ) -> PythonValues:
        data = cast(TilingStruct, args[0])
        name = op.field.data
        value = _field_value(interpreter, args[-1], op.value.type, op.is_unsigned is not None)
        if data.saved and not data.bound:
            context_state(interpreter).notes.append(
                f"field {name} of {data.struct_name} set after SaveToBuffer; the saved tiling does not have it"
            )
        if op.position is None:
            data.fields[name] = value
            return ()
        position = cast(int, args[1])
        if position < 0:
            raise HostEvalError(f"negative index {position} into tiling field {name}")
        current = data.fields.get(name, [])
        items: list[int | float] = list(current) if isinstance(current, list) else [current]
        items.extend([0] * (position + 1 - len(items)))  # arrays are zero-filled like the C++ struct
        items[position] = cast(int | float, value)
        data.fields[name] = items
        return ()

    @impl(host.TilingGetOp)
    def run_tiling_get(
        self, interpreter: Interpreter, op: host.TilingGetOp, args: PythonValues
    ) -> PythonValues:
        data = cast(TilingStruct, args[0])
        name = op.field.data
        value: FieldValue = data.fields.get(name, 0)
        if name not in data.fields:
            context_state(interpreter).notes.append(
                f"field {name} of {data.struct_name} read before it was set (reads 0)"
            )
        if op.position is not None:
            position = cast(int, args[1])
            items = value if isinstance(value, list) else [value]
            value = items[position] if 0 <= position < len(items) else 0
        if isinstance(value, list):
            raise HostEvalError(f"tiling field {name} is an array; read it with an index")
        if isinstance(op.result.type, IntegerType):
            return (to_signed(int(value), op.result.type.width.data),)
        return (round_float(float(value), op.result.type),)

    @impl(host.TilingSaveOp)
    def run_tiling_save(
        self, interpreter: Interpreter, op: host.TilingSaveOp, args: PythonValues
    ) -> PythonValues:
        data, state = cast(TilingStruct, args[0]), cast(TilingContextState, args[1])
        if op.bind is not None:
            # SetDataPtr: the local struct is the context's buffer (its fields so far and every later set)
            data.bound = data.saved = True
            state.buffer = data
            return ()
        if data.bound:
            return ()  # SetDataSize on the context's own buffer: nothing to copy
        # SaveToBuffer copies the struct as it is now; later setters do not reach the context
        state.buffer = TilingStruct(data.struct_name, copy_fields(data.fields), bound=False, saved=True)
        data.saved = True
        return ()


def _reinterpreted(value: Any, stored: str, kind: str) -> Any:
    """An attribute stored as `stored` (int64, float32, a one-byte bool, a NUL-terminated string) read through a
    getter of `kind`, as GetAttrPointer<T>'s reinterpret_cast does: its bytes (little-endian), those past its own
    taken as zero (the lowering says so where it reads one)."""
    if stored == "int":
        data = int(value).to_bytes(8, "little", signed=True)
    elif stored == "float":
        data = struct.pack("<f", float(value))
    elif stored == "bool":
        data = bytes([1 if value else 0])
    else:
        data = str(value).encode() + b"\0"
    if kind == "int":
        return int.from_bytes(data[:8].ljust(8, b"\0"), "little", signed=True)
    if kind == "float":
        return cast(float, struct.unpack("<f", data[:4].ljust(4, b"\0"))[0])
    if kind == "bool":
        return data[0] != 0
    end = data.find(b"\0")
    if end < 0:
        raise HostEvalError(f"a {stored} attribute read as a string has no terminator in its {len(data)} bytes")
    return data[:end].decode("latin-1")


def _c_string(value: Any, what: str) -> str:
    """The text a `const char*` points to; a null pointer dereferenced is the tiling function's crash."""
    if value is None:
        raise HostEvalError(f"the tiling function tries to {what} a null C string (a nullptr const char*)")
    return str(value)


def query_index(op: Operation, args: PythonValues, what: str) -> int:
    """The tensor index of a query: its `index` property plus its `at` operand's value (a loop variable) when
    it has one (args holds the context, then `at`)."""
    index = cast(IntegerAttr, op.properties["index"]).value.data
    if len(args) > 1:
        index += to_signed(int(args[1]), 64)
    if index < 0:
        raise HostEvalError(f"the {what} index is {index}; the context has no {what} there")
    return index


def _shape_of(spec: TensorSpec, kind: host.ShapeKind) -> tuple[int, ...]:
    if kind == host.ShapeKind.STORAGE and spec.storage_shape is not None:
        return tuple(spec.storage_shape)
    return tuple(spec.shape)


def copy_fields(fields: dict[str, FieldValue]) -> dict[str, FieldValue]:
    return {k: list(v) if isinstance(v, list) else v for k, v in fields.items()}


STATE_KEY = "context"


def context_state(interpreter: Interpreter) -> TilingContextState:
    return cast(TilingContextState, interpreter.get_data(HostFunctions, STATE_KEY, lambda: None))


def _attr_as(value: Any, kind: str) -> Any:
    """An attribute's value as the op reads it with a getter of `kind`, where the framework's storage makes
    the two agree: the harness's 1/0 for a bool attribute (the binding converts it to the attribute's declared
    type), a bool read as an int, and an int read from a list attribute, which lands on the first word of the
    runtime's ContinuousVector (its capacity: the element count for an attribute made from a list)."""
    if kind == "bool" and isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return bool(value)
    if kind == "int" and isinstance(value, bool):
        return int(value)
    if kind == "int" and isinstance(value, list | tuple) and all(isinstance(v, int) for v in value):
        return len(value)
    return value
