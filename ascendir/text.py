"""AscendIR's text form: printing and parsing a module, so that print -> parse -> print gives the same text.

    text = print_ir(module, debuginfo=True)
    module = parse_ir(text, "kernel.mlir")

xDSL 0.74's custom form of `scf.while` calls `print_operation_type`, which prints the op's `loc(...)` too when
locations are on: the location lands between the type and the first region, where the op's parser does not
accept it, and the printer adds it again at the end. `IRPrinter` prints that type without the location; the
location at the op's end is the one every op has.
"""

from __future__ import annotations

import io

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.printer import Printer


class IRPrinter(Printer):
    """xDSL's printer, with the location of an op in custom form printed once, after the op."""

    _in_custom_form: bool = False

    def print_op(self, op: Operation) -> None:
        outer = self._in_custom_form
        # what Printer.print_op decides: whether `op` prints itself (and then gets its location at its end)
        self._in_custom_form = not self.print_generic_format and type(op).print is not Operation.print
        try:
            super().print_op(op)
        finally:
            self._in_custom_form = outer

    def print_operation_type(self, op: Operation) -> None:
        if self._in_custom_form:
            self.print_function_type(op.operand_types, op.result_types)
        else:
            super().print_operation_type(op)


def print_ir(op: Operation, debuginfo: bool = False, generic: bool = False) -> str:
    """The text form of `op` (a module, usually), with source locations when `debuginfo`."""
    out = io.StringIO()
    IRPrinter(stream=out, print_debuginfo=debuginfo, print_generic_format=generic).print_op(op)
    return out.getvalue()


def parse_ir(text: str, name: str = "<ir>") -> ModuleOp:
    """Parses AscendIR text (every dialect of `ascendir.context`); raises xDSL's ParseError."""
    from ascendir.context import make_context

    return Parser(make_context(), text, name).parse_module()
