"""The types of the `ascendc` dialect: the TPositions a tensor or queue lives in, and the runtime objects
(`!ascendc.tpipe`, `!ascendc.tque<VECIN, 2>`, `!ascendc.tbuf<VECCALC>`, `!ascendc.global_tensor<f16>`,
`!ascendc.local_tensor<f16, VECIN>`, `!ascendc.gm_ptr<f16>`), events, enums, parameter and tiling structs and
library objects. Separate because every op module and every pass reads them, and none of them needs an op.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer


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
