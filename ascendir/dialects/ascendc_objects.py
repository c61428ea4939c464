"""The objects a kernel declares (TPipe, TQue, TBuf, GlobalTensor, a Matmul object, other library objects) and
the queue/buffer protocol on them: InitBuffer, AllocTensor/FreeTensor, EnQue/DeQue, TBuf::Get and the
LocalMemAllocator's tensors. Separate because these ops' operand types carry the facts the queue rules check,
and they verify that a tensor stays in its container's position.
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from ascendir.dialects.ascendc_types import (
    UNKNOWN_POSITION,
    GlobalTensorType,
    LocalTensorType,
    ObjectType,
    TBufType,
    TPipeType,
    TQueType,
)


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
