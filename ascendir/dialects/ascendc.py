"""The `ascendc` dialect: one op per AscendC API concept, types for its objects.

Scalar C++ (arithmetic, control flow, mutable locals) is not here: the lowering uses `arith`, `scf` and
`memref` cells for it. This dialect holds what is AscendC-specific:

* types for the runtime objects (`!ascendc.tpipe`, `!ascendc.tque<VECIN, 2>`, `!ascendc.tbuf<VECCALC>`,
  `!ascendc.global_tensor<f16>`, `!ascendc.local_tensor<f16, VECIN>`, `!ascendc.gm_ptr<f16>`, events,
  parameter structs and tiling structs);
* dedicated ops for the queue/buffer protocol, whose operand types carry the facts the verifier needs;
* one op per API family for everything else (`ascendc.vec_binary "Add" ...`). Each call keeps the API
  name, the catalog overload it resolved to and its C++ arguments in order, so rules and the simulator
  read the meaning of an argument from the catalog instead of from op-specific code.

Element types use the builtin types with signedness (`si32`, `ui8`, `f16`, `bf16`, `f32`, `i1` for bool);
scalar SSA values use signless integers as `arith` requires.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    UNKNOWN_LOC,
    ArrayAttr,
    FunctionType,
    IntegerAttr,
    IntAttr,
    StringAttr,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, Region, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, IsTerminator, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

# The TPositions a LocalTensor or queue can live in; `?` is a position the lowering could not determine.
POSITIONS = (
    "GM", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "VECIN", "VECOUT", "VECCALC",
    "SPM", "TSCM", "C2PIPE2GM", "C2PIPE2LOCAL", "?",
)  # fmt: skip
UNKNOWN_POSITION = "?"


def _parse_position(parser: AttrParser) -> str:
    if parser.parse_optional_characters("?") is not None:
        return UNKNOWN_POSITION
    name = parser.parse_identifier()
    if name not in POSITIONS:
        parser.raise_error(f"unknown TPosition '{name}'")
    return name


# ----------------------------------------------------------------------------------------------------
# Types
# ----------------------------------------------------------------------------------------------------


@irdl_attr_definition
class TPipeType(ParametrizedAttribute, TypeAttribute):
    """The kernel's TPipe: owner of every queue and buffer allocation."""

    name = "ascendc.tpipe"


@irdl_attr_definition
class TQueType(ParametrizedAttribute, TypeAttribute):
    """`TQue<position, depth>`: a queue of buffers moving between two pipes. `source` is set for a
    `TQueBind<source, position>` whose source is not the one TQue<position> implies (TQueBind<VECIN, VECOUT>: a
    copy through UB, MTE2 to MTE3), printed `<VECOUT, 1, from VECIN>`."""

    name = "ascendc.tque"

    position: StringAttr
    depth: IntAttr
    source: StringAttr

    def __init__(self, position: str, depth: int, source: str = "") -> None:
        super().__init__(StringAttr(position), IntAttr(depth), StringAttr(source))

    def print_parameters(self, printer: Printer) -> None:
        source = f", from {self.source.data}" if self.source.data else ""
        printer.print_string(f"<{self.position.data}, {self.depth.data}{source}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr, IntAttr, StringAttr]:
        with parser.in_angle_brackets():
            position = _parse_position(parser)
            parser.parse_punctuation(",")
            depth = parser.parse_integer()
            source = ""
            if parser.parse_optional_punctuation(",") is not None:
                parser.parse_keyword("from")
                source = _parse_position(parser)
        return (StringAttr(position), IntAttr(depth), StringAttr(source))


@irdl_attr_definition
class TBufType(ParametrizedAttribute, TypeAttribute):
    """`TBuf<position>`: one block of scratch memory without queue semantics."""

    name = "ascendc.tbuf"

    position: StringAttr

    def __init__(self, position: str) -> None:
        super().__init__(StringAttr(position))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.position.data}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr]:
        with parser.in_angle_brackets():
            return (StringAttr(_parse_position(parser)),)


@irdl_attr_definition
class GlobalTensorType(ParametrizedAttribute, TypeAttribute):
    """`GlobalTensor<T>`: a view of global memory."""

    name = "ascendc.global_tensor"

    element_type: Attribute

    def __init__(self, element_type: Attribute) -> None:
        super().__init__(element_type)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.element_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute]:
        with parser.in_angle_brackets():
            return (parser.parse_type(),)


@irdl_attr_definition
class LocalTensorType(ParametrizedAttribute, TypeAttribute):
    """`LocalTensor<T>` in an on-chip TPosition (`?` when the lowering could not tell which)."""

    name = "ascendc.local_tensor"

    element_type: Attribute
    position: StringAttr

    def __init__(self, element_type: Attribute, position: str = UNKNOWN_POSITION) -> None:
        super().__init__(element_type, StringAttr(position))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.element_type)
            printer.print_string(f", {self.position.data}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, StringAttr]:
        with parser.in_angle_brackets():
            element_type = parser.parse_type()
            parser.parse_punctuation(",")
            position = _parse_position(parser)
        return (element_type, StringAttr(position))


@irdl_attr_definition
class GmPtrType(ParametrizedAttribute, TypeAttribute):
    """A `__gm__ T*` pointer (kernel arguments are `!ascendc.gm_ptr<ui8>`, i.e. GM_ADDR)."""

    name = "ascendc.gm_ptr"

    element_type: Attribute

    def __init__(self, element_type: Attribute) -> None:
        super().__init__(element_type)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.element_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute]:
        with parser.in_angle_brackets():
            return (parser.parse_type(),)


class _NamedType(ParametrizedAttribute, TypeAttribute):
    """A type identified by one name: `!ascendc.struct<"DataCopyParams">`. Each subclass declares the
    `type_name` parameter itself: irdl only makes parameters of the decorated class's own annotations."""

    type_name: StringAttr

    def __init__(self, type_name: str) -> None:
        super().__init__(StringAttr(type_name))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.type_name.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr]:
        with parser.in_angle_brackets():
            return (StringAttr(parser.parse_str_literal()),)


@irdl_attr_definition
class StructType(_NamedType):
    """A parameter struct passed to an API (`DataCopyParams`, `BinaryRepeatParams`, `MmadParams`, ...)."""

    name = "ascendc.struct"

    type_name: StringAttr


@irdl_attr_definition
class TilingType(_NamedType):
    """The kernel's tiling data, a struct the host filled (`GET_TILING_DATA(td, tiling)`)."""

    name = "ascendc.tiling"

    type_name: StringAttr


@irdl_attr_definition
class EnumType(_NamedType):
    """A value of an AscendC enum (`RoundMode`, `CMPMODE`, `HardEvent`, `TPosition`, ...)."""

    name = "ascendc.enum"

    type_name: StringAttr


@irdl_attr_definition
class EventIdType(_NamedType):
    """An event id allocated for one HardEvent (`pipe.AllocEventID<HardEvent::MTE2_V>()`)."""

    name = "ascendc.event_id"

    type_name: StringAttr


@irdl_attr_definition
class ObjectType(_NamedType):
    """An AscendC library object with methods (`Matmul`, `TQueSync`, ...) or a class kept opaque."""

    name = "ascendc.object"

    type_name: StringAttr


# ----------------------------------------------------------------------------------------------------
# The kernel
# ----------------------------------------------------------------------------------------------------

# on a kernel whose symbol is not its source name (KernelOp.source_name): the name the source gives it
SOURCE_NAME_ATTR = "ascendc.source_name"
KERNEL_TYPES = ("default", "aiv", "aic", "mix_aic_1_1", "mix_aic_1_2", "mix_aiv_1_0", "mix_aic_1_0", "mix_vector_core")


@irdl_op_definition
class KernelOp(IRDLOperation):
    """A `__global__ __aicore__` entry point; classes and helpers are inlined into its body."""

    name = "ascendc.kernel"

    body = region_def()
    sym_name = prop_def(StringAttr)
    function_type = prop_def(FunctionType)
    kernel_type = prop_def(StringAttr)

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface())

    def __init__(self, name: str, arg_types: Sequence[Attribute], body: Region, kernel_type: str = "default"):
        super().__init__(
            regions=[body],
            properties={
                "sym_name": StringAttr(name),
                "function_type": FunctionType.from_lists(list(arg_types), []),
                "kernel_type": StringAttr(kernel_type),
            },
        )

    @property
    def source_name(self) -> str:
        """The entry's name in the source. The symbol differs where one source entry gave several kernels (one
        per tiling key of a kernel too large to lower whole, or two entries of one name), since a module's
        symbols are unique; such a kernel keeps the source's name in SOURCE_NAME_ATTR."""
        attr = self.attributes.get(SOURCE_NAME_ATTR)
        return attr.data if isinstance(attr, StringAttr) else self.sym_name.data

    def verify_(self) -> None:
        if self.kernel_type.data not in KERNEL_TYPES:
            raise VerifyException(f"unknown kernel type '{self.kernel_type.data}'")
        if self.body.blocks and tuple(self.body.block.arg_types) != self.function_type.inputs.data:
            raise VerifyException("kernel block arguments must match the kernel's argument types")

    @classmethod
    def parse(cls, parser: Parser) -> KernelOp:
        name, inputs, _, region, extra, _, _ = parse_func_op_like(
            parser, reserved_attr_names=("sym_name", "function_type")
        )
        kernel_type = "default"
        if extra is not None and "kernel_type" in extra.data:
            found = extra.data["kernel_type"]
            assert isinstance(found, StringAttr)
            kernel_type = found.data
        op = KernelOp(name, inputs, region, kernel_type)
        if extra is not None:
            op.attributes |= {k: v for k, v in extra.data.items() if k != "kernel_type"}
        return op

    def print(self, printer: Printer) -> None:
        print_func_op_like(
            printer,
            self.sym_name,
            self.function_type,
            self.body,
            {**self.attributes, "kernel_type": self.kernel_type},
            reserved_attr_names=("sym_name", "function_type"),
        )


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Ends the kernel body."""

    name = "ascendc.return"
    assembly_format = "attr-dict"
    traits = traits_def(IsTerminator())


# ----------------------------------------------------------------------------------------------------
# Objects: the pipe, queues, buffers and global tensors a kernel declares
# ----------------------------------------------------------------------------------------------------


class _DeclOp(IRDLOperation):
    """Declares one runtime object; `var_name` is the C++ name (member or local) for messages."""

    var_name = prop_def(StringAttr)
    assembly_format = "$var_name attr-dict `:` type($result)"


@irdl_op_definition
class TPipeOp(_DeclOp):
    """`TPipe pipe;`"""

    name = "ascendc.tpipe"
    result = result_def(TPipeType)


@irdl_op_definition
class TQueOp(_DeclOp):
    """`TQue<TPosition::VECIN, 1> inQueueX;`"""

    name = "ascendc.tque"
    result = result_def(TQueType)


@irdl_op_definition
class TBufOp(_DeclOp):
    """`TBuf<TPosition::VECCALC> tmpBuf;`"""

    name = "ascendc.tbuf"
    result = result_def(TBufType)


@irdl_op_definition
class GlobalTensorOp(_DeclOp):
    """`GlobalTensor<half> xGm;` (empty until SetGlobalBuffer)."""

    name = "ascendc.global_tensor"
    result = result_def(GlobalTensorType)


@irdl_op_definition
class InitBufferOp(IRDLOperation):
    """`pipe.InitBuffer(que, num, len)` / `pipe.InitBuffer(tbuf, len)`: `num` buffers of `len` bytes."""

    name = "ascendc.init_buffer"
    pipe = operand_def(TPipeType)
    buffer = operand_def(TQueType | TBufType)
    num = opt_operand_def()
    length = operand_def()
    assembly_format = (
        "$pipe `,` $buffer (`num` $num^ `:` type($num))? `len` $length attr-dict "
        "`:` type($pipe) `,` type($buffer) `,` type($length)"
    )

    def verify_(self) -> None:
        if isinstance(self.buffer.type, TBufType) and self.num is not None:
            raise VerifyException("a TBuf has exactly one buffer: InitBuffer takes no buffer count")


@irdl_op_definition
class AllocTensorOp(IRDLOperation):
    """`que.AllocTensor<T>()`: takes a free buffer of the queue."""

    name = "ascendc.alloc_tensor"
    queue = operand_def(TQueType)
    result = result_def(LocalTensorType)
    assembly_format = "$queue attr-dict `:` type($queue) `->` type($result)"

    def verify_(self) -> None:
        _check_same_position(self.queue.type, self.result.type, "AllocTensor")


@irdl_op_definition
class FreeTensorOp(IRDLOperation):
    """`que.FreeTensor(t)`: returns the buffer to the queue."""

    name = "ascendc.free_tensor"
    queue = operand_def(TQueType)
    tensor = operand_def(LocalTensorType)
    assembly_format = "$queue `,` $tensor attr-dict `:` type($queue) `,` type($tensor)"


@irdl_op_definition
class EnQueOp(IRDLOperation):
    """`que.EnQue(t)`: hands the buffer to the consuming pipe; true if the queue had room."""

    name = "ascendc.enque"
    queue = operand_def(TQueType)
    tensor = operand_def(LocalTensorType)
    result = result_def()
    assembly_format = "$queue `,` $tensor attr-dict `:` type($queue) `,` type($tensor) `->` type($result)"


@irdl_op_definition
class DeQueOp(IRDLOperation):
    """`que.DeQue<T>()`: waits for the producing pipe and takes the oldest enqueued buffer."""

    name = "ascendc.deque"
    queue = operand_def(TQueType)
    result = result_def(LocalTensorType)
    assembly_format = "$queue attr-dict `:` type($queue) `->` type($result)"

    def verify_(self) -> None:
        _check_same_position(self.queue.type, self.result.type, "DeQue")


@irdl_op_definition
class TBufGetOp(IRDLOperation):
    """`buf.Get<T>()` / `buf.Get<T>(count)` / `buf.GetWithOffset<T>(count, byteOffset)`."""

    name = "ascendc.tbuf_get"
    buffer = operand_def(TBufType)
    count = opt_operand_def()
    byte_offset = opt_operand_def()
    result = result_def(LocalTensorType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "$buffer (`count` $count^ `:` type($count))? (`offset` $byte_offset^ `:` type($byte_offset))? "
        "attr-dict `:` type($buffer) `->` type($result)"
    )

    def verify_(self) -> None:
        if self.byte_offset is not None and self.count is None:
            raise VerifyException("GetWithOffset needs an element count")
        _check_same_position(self.buffer.type, self.result.type, "Get")


@irdl_op_definition
class LocalAllocOp(IRDLOperation):
    """`allocator.Alloc<T, N>()` / `allocator.Alloc<pos, T>(n)` on a TPipe-free `LocalMemAllocator`:
    the next `count` elements of the allocator's memory, with no queue behind them."""

    name = "ascendc.local_alloc"
    allocator = operand_def(ObjectType)
    count = operand_def()
    result = result_def(LocalTensorType)
    assembly_format = "$allocator `count` $count attr-dict `:` type($allocator) `,` type($count) `->` type($result)"

    def verify_(self) -> None:
        assert isinstance(self.allocator.type, ObjectType)
        if not self.allocator.type.type_name.data.startswith("LocalMemAllocator"):
            raise VerifyException("local_alloc needs a LocalMemAllocator")


@irdl_op_definition
class LocalTensorAtOp(IRDLOperation):
    """`LocalTensor<T> t(TPosition::VECIN, addr, count)`: a tensor placed by hand at a byte address of
    its position's memory (no pipe, queue or allocator behind it)."""

    name = "ascendc.local_tensor_at"
    address = operand_def()
    count = operand_def()
    result = result_def(LocalTensorType)
    assembly_format = "$address `count` $count attr-dict `:` type($address) `,` type($count) `->` type($result)"


def _check_same_position(container: Attribute, tensor: Attribute, api: str) -> None:
    assert isinstance(container, TQueType | TBufType) and isinstance(tensor, LocalTensorType)
    if UNKNOWN_POSITION not in (container.position.data, tensor.position.data) and (
        container.position.data != tensor.position.data
    ):
        raise VerifyException(
            f"{api} returns a tensor in {container.position.data}, not {tensor.position.data}"
        )


# ----------------------------------------------------------------------------------------------------
# Tensors and pointers
# ----------------------------------------------------------------------------------------------------


@irdl_op_definition
class SetGlobalBufferOp(IRDLOperation):
    """`xGm.SetGlobalBuffer((__gm__ T*)ptr, count)`; without a count the tensor's size is 0."""

    name = "ascendc.set_global_buffer"
    tensor = operand_def(GlobalTensorType)
    pointer = operand_def(GmPtrType)
    count = opt_operand_def()
    assembly_format = (
        "$tensor `,` $pointer (`count` $count^ `:` type($count))? attr-dict `:` type($tensor) `,` type($pointer)"
    )


@irdl_op_definition
class SubTensorOp(IRDLOperation):
    """`t[offset]`: the same memory from element `offset` on."""

    name = "ascendc.subtensor"
    tensor = operand_def(LocalTensorType | GlobalTensorType)
    offset = operand_def()
    result = result_def(LocalTensorType | GlobalTensorType)
    assembly_format = "$tensor `[` $offset `]` attr-dict `:` type($tensor) `,` type($offset) `->` type($result)"

    def verify_(self) -> None:
        if self.tensor.type != self.result.type:
            raise VerifyException("a sub-tensor has the type of the tensor it is taken from")


@irdl_op_definition
class GetValueOp(IRDLOperation):
    """`t.GetValue(i)` (or reading `t(i)`): a scalar read through the scalar pipe."""

    name = "ascendc.get_value"
    tensor = operand_def(LocalTensorType | GlobalTensorType)
    index = operand_def()
    result = result_def()
    assembly_format = "$tensor `[` $index `]` attr-dict `:` type($tensor) `,` type($index) `->` type($result)"


@irdl_op_definition
class SetValueOp(IRDLOperation):
    """`t.SetValue(i, v)`: a scalar write through the scalar pipe."""

    name = "ascendc.set_value"
    tensor = operand_def(LocalTensorType | GlobalTensorType)
    index = operand_def()
    value = operand_def()
    assembly_format = (
        "$tensor `[` $index `]` `,` $value attr-dict `:` type($tensor) `,` type($index) `,` type($value)"
    )


@irdl_op_definition
class ReinterpretCastOp(IRDLOperation):
    """`t.ReinterpretCast<U>()`: the same bytes seen as another element type."""

    name = "ascendc.reinterpret_cast"
    tensor = operand_def(LocalTensorType)
    result = result_def(LocalTensorType)
    assembly_format = "$tensor attr-dict `:` type($tensor) `->` type($result)"


@irdl_op_definition
class GmPtrOffsetOp(IRDLOperation):
    """`ptr + n` on a `__gm__ T*`: advances by `n` elements of T."""

    name = "ascendc.gm_ptr_offset"
    pointer = operand_def(GmPtrType)
    offset = operand_def()
    result = result_def(GmPtrType)
    assembly_format = "$pointer `,` $offset attr-dict `:` type($pointer) `,` type($offset)  `->` type($result)"


@irdl_op_definition
class GmPtrCastOp(IRDLOperation):
    """`(__gm__ T*)ptr`, `reinterpret_cast<__gm__ T*>(ptr)`."""

    name = "ascendc.gm_ptr_cast"
    pointer = operand_def(GmPtrType)
    result = result_def(GmPtrType)
    assembly_format = "$pointer attr-dict `:` type($pointer) `->` type($result)"


@irdl_op_definition
class GmPtrFromIntOp(IRDLOperation):
    """`reinterpret_cast<__gm__ T*>(word)`: an integer used as a GM address (a tensor list's pointer table holds
    its tensors' addresses as uint64 words)."""

    name = "ascendc.gm_ptr_from_int"
    value = operand_def()
    result = result_def(GmPtrType)
    assembly_format = "$value attr-dict `:` type($value) `->` type($result)"


@irdl_op_definition
class GmPtrToIntOp(IRDLOperation):
    """`(uint64_t)ptr`: a GM pointer's address as an integer."""

    name = "ascendc.gm_ptr_to_int"
    pointer = operand_def(GmPtrType)
    result = result_def()
    assembly_format = "$pointer attr-dict `:` type($pointer) `->` type($result)"


@irdl_op_definition
class GmLoadOp(IRDLOperation):
    """`ptr[i]` / `*ptr` read through a raw `__gm__` pointer."""

    name = "ascendc.gm_load"
    pointer = operand_def(GmPtrType)
    index = operand_def()
    result = result_def()
    assembly_format = "$pointer `[` $index `]` attr-dict `:` type($pointer) `,` type($index) `->` type($result)"


@irdl_op_definition
class GmStoreOp(IRDLOperation):
    """`ptr[i] = v` through a raw `__gm__` pointer."""

    name = "ascendc.gm_store"
    pointer = operand_def(GmPtrType)
    index = operand_def()
    value = operand_def()
    assembly_format = (
        "$pointer `[` $index `]` `,` $value attr-dict `:` type($pointer) `,` type($index) `,` type($value)"
    )


# ----------------------------------------------------------------------------------------------------
# Tiling data
# ----------------------------------------------------------------------------------------------------


@irdl_op_definition
class GetTilingDataOp(IRDLOperation):
    """`GET_TILING_DATA(td, tiling)`, or a hand-parsed `reinterpret_cast<__gm__ S*>(tiling)`."""

    name = "ascendc.get_tiling_data"
    pointer = operand_def(GmPtrType)
    result = result_def(TilingType)
    assembly_format = "$pointer attr-dict `:` type($pointer) `->` type($result)"


@irdl_op_definition
class TilingFieldOp(IRDLOperation):
    """Reads `td.field` (`field` may be a dotted path into nested structs; `index` for array fields)."""

    name = "ascendc.tiling_field"
    tiling = operand_def(TilingType)
    field = prop_def(StringAttr)
    index = opt_operand_def()
    result = result_def()
    assembly_format = (
        "$tiling $field (`[` $index^ `:` type($index) `]`)? attr-dict `:` type($tiling) `->` type($result)"
    )


@irdl_op_definition
class TilingKeyIsOp(IRDLOperation):
    """`TILING_KEY_IS(k)`: true when the host chose tiling key `k`."""

    name = "ascendc.tiling_key_is"
    key = prop_def(IntegerAttr)
    result = result_def()
    assembly_format = "$key attr-dict `->` type($result)"


@irdl_op_definition
class CoreIsOp(IRDLOperation):
    """`ASCEND_IS_AIV` / `ASCEND_IS_AIC`: which kind of core runs this copy of a mixed kernel."""

    name = "ascendc.core_is"
    core = prop_def(StringAttr)
    result = result_def()
    assembly_format = "$core attr-dict `->` type($result)"

    def verify_(self) -> None:
        if self.core.data not in ("AIV", "AIC"):
            raise VerifyException(f"core kind must be AIV or AIC, not '{self.core.data}'")


# ----------------------------------------------------------------------------------------------------
# Values the generic calls take: enums and parameter structs
# ----------------------------------------------------------------------------------------------------


@irdl_op_definition
class EnumConstantOp(IRDLOperation):
    """An enumerator such as `RoundMode::CAST_RINT`, `CMPMODE::LT`, `HardEvent::MTE2_V`."""

    name = "ascendc.enum_constant"
    value = prop_def(StringAttr)
    result = result_def(EnumType)
    assembly_format = "$value attr-dict `:` type($result)"


@irdl_op_definition
class StructInitOp(IRDLOperation):
    """A parameter struct built from field values: `DataCopyParams{1, len, 0, 0}`; missing fields are 0."""

    name = "ascendc.struct_init"
    fields = prop_def(ArrayAttr[StringAttr])
    values = var_operand_def()
    result = result_def(StructType | TilingType | ObjectType)
    assembly_format = "$fields `(` $values `)` attr-dict `:` functional-type($values, $result)"

    def verify_(self) -> None:
        if len(self.fields.data) != len(self.values):
            raise VerifyException(f"{len(self.fields.data)} field names for {len(self.values)} values")


@irdl_op_definition
class StructGetOp(IRDLOperation):
    """Reads one field of a parameter struct."""

    name = "ascendc.struct_get"
    struct = operand_def(StructType | TilingType | ObjectType)
    field = prop_def(StringAttr)
    result = result_def()
    assembly_format = "$struct $field attr-dict `:` type($struct) `->` type($result)"


@irdl_op_definition
class StructSetOp(IRDLOperation):
    """A copy of a parameter struct with one field replaced (`p.blockLen = n` on a struct cell)."""

    name = "ascendc.struct_set"
    struct = operand_def(StructType | TilingType | ObjectType)
    field = prop_def(StringAttr)
    value = operand_def()
    result = result_def(StructType | TilingType | ObjectType)
    assembly_format = "$struct $field `,` $value attr-dict `:` type($struct) `,` type($value) `->` type($result)"

    def verify_(self) -> None:
        if self.struct.type != self.result.type:
            raise VerifyException("struct_set keeps the struct type")


# ----------------------------------------------------------------------------------------------------
# API calls, one op per family
# ----------------------------------------------------------------------------------------------------


class ApiCallOp(IRDLOperation):
    """A call of a catalogued AscendC API.

    `api` names the catalog entry, `overload` the overload the call resolved to (empty when the lowering
    already reported that none matched), `template_args` the explicit template arguments (types, integers,
    or enumerator names), and `args` the C++ arguments in order: the catalog overload's parameter i
    describes `args[i]`.
    """

    FAMILY: ClassVar[str]

    api = prop_def(StringAttr)
    overload = prop_def(StringAttr)
    template_args = opt_prop_def(ArrayAttr)
    args = var_operand_def()
    result = opt_result_def()

    assembly_format = "$api `(` $args `)` attr-dict `:` functional-type($args, $result)"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        api: str,
        args: Sequence[SSAValue],
        *,
        overload: str = "",
        template_args: Sequence[Attribute] = (),
        result_type: Attribute | None = None,
    ) -> None:
        properties: dict[str, Attribute] = {"api": StringAttr(api), "overload": StringAttr(overload)}
        if template_args:
            properties["template_args"] = ArrayAttr(list(template_args))
        # Operation.__init__ directly, as Op.create does: the IRDL constructor costs 3-4x more and the
        # lowering builds hundreds of these per kernel (the module is verified as a whole afterwards). The
        # location is the default one; naming it saves xDSL looking that up for each op.
        Operation.__init__(self, operands=list(args), result_types=[result_type] if result_type else [],
                           properties=properties, location=UNKNOWN_LOC)

    def verify_(self) -> None:
        from ascendir.dialects.families import check_call

        check_call(self)


def _family_op(op_name: str, family_name: str, doc: str) -> type[ApiCallOp]:
    """Declares the op of one API family; the class body is the same, the family decides the checks."""
    cls = type(
        "".join(part.capitalize() for part in family_name.split("_")) + "Op",
        (ApiCallOp,),
        {
            "name": op_name,
            "FAMILY": family_name,
            "__annotations__": {"FAMILY": ClassVar[str]},
            "__doc__": doc,
            "__module__": __name__,
        },
    )
    return irdl_op_definition(cls)


PipeCallOp = _family_op("ascendc.pipe_call", "pipe", "TPipe methods other than InitBuffer (Reset, AllocEventID, ...).")
QueueCallOp = _family_op("ascendc.queue_call", "queue", "TQue queries (VacantInQue, HasTensorInQue, ...).")
BufferCallOp = _family_op("ascendc.buffer_call", "buffer", "TBuf methods not covered by tbuf_get.")
GlobalTensorCallOp = _family_op(
    "ascendc.global_tensor_call", "global_tensor", "GlobalTensor methods (GetSize, SetL2CacheHint, ...)."
)
LocalTensorCallOp = _family_op(
    "ascendc.local_tensor_call", "local_tensor", "LocalTensor methods (GetSize, GetLength, SetSize, ...)."
)
DataCopyOp = _family_op("ascendc.data_copy", "data_copy", "DataCopy and DataCopyPad in all their forms.")
VecBinaryOp = _family_op("ascendc.vec_binary", "vec_binary", "Element-wise tensor-tensor ops (Add, Mul, Max, ...).")
VecScalarOp = _family_op("ascendc.vec_scalar", "vec_scalar", "Tensor-scalar ops (Adds, Muls, LeakyRelu, ...).")
VecUnaryOp = _family_op("ascendc.vec_unary", "vec_unary", "Element-wise unary ops (Exp, Ln, Abs, Relu, ...).")
DuplicateOp = _family_op("ascendc.duplicate", "duplicate", "Duplicate: fills a tensor with a scalar.")
CastOp = _family_op("ascendc.cast", "cast", "Cast between element types with a RoundMode.")
CompareOp = _family_op("ascendc.compare", "compare", "Compare / CompareScalar: a bit mask per element.")
SelectOp = _family_op("ascendc.select", "select", "Select by a bit mask.")
ReduceOp = _family_op("ascendc.reduce", "reduce", "ReduceSum/Max/Min, WholeReduce*, BlockReduce*.")
BrcbOp = _family_op("ascendc.brcb", "brcb", "Brcb: broadcasts each source element to a 32-byte block.")
GatherOp = _family_op("ascendc.gather", "gather", "Gather, GatherMask, CreateVecIndex.")
TransposeOp = _family_op("ascendc.transpose", "transpose", "Transpose of 16x16 blocks and its extended forms.")
SortOp = _family_op("ascendc.sort", "sort", "Sort and MrgSort.")
HighLevelOp = _family_op(
    "ascendc.high_level", "high_level", "Library operators with temp space (SoftMax, LayerNorm, Sigmoid, ...)."
)
MaskOp = _family_op("ascendc.mask", "mask", "Vector mask state: SetMaskCount, SetMaskNorm, SetVectorMask, ...")
CubeOp = _family_op("ascendc.cube", "cube", "Cube unit: LoadData, Mmad, Fixpipe.")
MatmulCallOp = _family_op("ascendc.matmul_call", "matmul", "Methods of the high-level Matmul object.")
SyncOp = _family_op("ascendc.sync", "sync", "SetFlag, WaitFlag, PipeBarrier, SyncAll, cross-core flags, atomics.")
SystemOp = _family_op("ascendc.system", "system", "GetBlockIdx, GetBlockNum, workspace and core queries.")

FAMILY_OPS: dict[str, type[ApiCallOp]] = {
    op.FAMILY: op
    for op in (
        PipeCallOp, QueueCallOp, BufferCallOp, GlobalTensorCallOp, LocalTensorCallOp, DataCopyOp,
        VecBinaryOp, VecScalarOp, VecUnaryOp, DuplicateOp, CastOp, CompareOp, SelectOp, ReduceOp, BrcbOp,
        GatherOp, TransposeOp, SortOp, HighLevelOp, MaskOp, CubeOp, MatmulCallOp, SyncOp, SystemOp,
    )
}  # fmt: skip


@irdl_op_definition
class MatmulObjectOp(_DeclOp):
    """`Matmul<A, B, C, Bias, CFG> mm;`; the type arguments are kept as the op's `config` text."""

    name = "ascendc.matmul"
    config = prop_def(StringAttr)
    result = result_def(ObjectType)
    assembly_format = "$var_name $config attr-dict `:` type($result)"


@irdl_op_definition
class ObjectOp(_DeclOp):
    """An instance of another library class (`TQueSync<PIPE_S, PIPE_V> sync;`)."""

    name = "ascendc.object"
    result = result_def(ObjectType)


@irdl_op_definition
class OpaqueCallOp(IRDLOperation):
    """A call the lowering could not resolve (already reported); kept so later passes see the arguments."""

    name = "ascendc.opaque_call"
    callee = prop_def(StringAttr)
    args = var_operand_def()
    result = opt_result_def()
    assembly_format = "$callee `(` $args `)` attr-dict `:` functional-type($args, $result)"


@irdl_op_definition
class UndefOp(IRDLOperation):
    """A value of the given type whose contents are unknown (an uninitialised local, an opaque result)."""

    name = "ascendc.undef"
    result = result_def()
    assembly_format = "attr-dict `:` type($result)"


ASCENDC = Dialect(
    "ascendc",
    [
        KernelOp, ReturnOp, TPipeOp, TQueOp, TBufOp, GlobalTensorOp, InitBufferOp, AllocTensorOp,
        FreeTensorOp, EnQueOp, DeQueOp, TBufGetOp, LocalAllocOp, LocalTensorAtOp, SetGlobalBufferOp, SubTensorOp, GetValueOp, SetValueOp,
        ReinterpretCastOp, GmPtrOffsetOp, GmPtrCastOp, GmLoadOp, GmStoreOp, GetTilingDataOp, TilingFieldOp,
        GmPtrFromIntOp, GmPtrToIntOp,
        TilingKeyIsOp, CoreIsOp, EnumConstantOp, StructInitOp, StructGetOp, StructSetOp, MatmulObjectOp, ObjectOp,
        OpaqueCallOp, UndefOp, *FAMILY_OPS.values(),
    ],
    [
        TPipeType, TQueType, TBufType, GlobalTensorType, LocalTensorType, GmPtrType, StructType, TilingType,
        EnumType, EventIdType, ObjectType,
    ],
)  # fmt: skip
