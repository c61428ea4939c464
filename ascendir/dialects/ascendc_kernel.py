"""The kernel op of the `ascendc` dialect (a `__global__ __aicore__` entry, classes and helpers inlined into
it) and its terminator, with the two ops for what the lowering could not resolve: an opaque call (already
reported) and an undefined value. Separate: the frame every other op lives in.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import FunctionType, StringAttr
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.ir import Attribute, Region
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_result_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, IsTerminator, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException


# on a kernel whose symbol is not its source name (KernelOp.source_name): the name the source gives it
SOURCE_NAME_ATTR = "ascendc.source_name"
# on an op whose result has no IR type (`none`, or a cell of it): the C construct the lowering could not type
# (ascendir/lower/unmodelled.py), which the simulator program names where it cannot hold the value
UNMODELLED_TYPE_ATTR = "ascendc.unmodelled_type"
# on an ascendc.undef: the name (or text) of the C value the lowering left without one, which the simulator names
# where the value is used as a size, an offset or a condition
UNDEF_WHAT_ATTR = "ascendc.undef_what"
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


@irdl_op_definition
class OpaqueCallOp(IRDLOperation):
    """A call the lowering could not resolve (already reported); kept so later passes see the arguments."""

    name = "ascendc.opaque_call"
    callee = prop_def(StringAttr)
    args = var_operand_def()
    result = opt_result_def()
    assembly_format = "$callee `(` $args `)` attr-dict `:` functional-type($args, $result)"


@irdl_op_definition
class LeftOutOp(IRDLOperation):
    """Where the lowering left a statement out (an ASC103 gap): `what` is the gap's message; the op's location
    is the gap's. It computes nothing; the simulator reports it when a core reaches it (ASC958), since what
    the statement would have done may change the kernel's results, while a gap no core reaches stays silent."""

    name = "ascendc.left_out"
    what = prop_def(StringAttr)
    assembly_format = "$what attr-dict"

    def __init__(self, what: str) -> None:
        super().__init__(properties={"what": StringAttr(what)})


@irdl_op_definition
class UndefOp(IRDLOperation):
    """A value of the given type whose contents are unknown (an uninitialised local, an opaque result)."""

    name = "ascendc.undef"
    result = result_def()
    assembly_format = "attr-dict `:` type($result)"
