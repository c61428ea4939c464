"""arith, math and memref ops xDSL 0.74's interpreter lacks, for the host evaluator: C division and remainder
(signed and unsigned, with the zero check), min/max, casts, float arithmetic at the type's precision,
`memref.alloca` and loads/stores with bounds checks.
"""

from __future__ import annotations

import math
import struct
from math import prod
from typing import Any, cast

from xdsl.dialects import arith, builtin, memref
from xdsl.dialects import math as xmath
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, IndexType, IntegerType, MemRefType
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.interpreters.builtin import xtype_for_el_type
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.interpreters.utils.ptr import TypedPtr
from xdsl.ir import Attribute, Operation
from xdsl.utils.comparisons import to_signed, to_unsigned

from ascendir import host_eval_left_out
from ascendir.dialects.host_types import StringType
from ascendir.host_eval_types import HostEvalError


def int_width(interpreter: Interpreter, typ: Attribute) -> int:
    if isinstance(typ, IntegerType):
        return int(typ.width.data)
    if isinstance(typ, IndexType):
        return interpreter.index_bitwidth
    raise HostEvalError(f"expected an integer type, got {typ}")


_FLOAT_FORMATS = {16: "e", 32: "f", 64: "d"}


def _bits_to_bytes(value: Any, typ: Attribute) -> bytes:
    if isinstance(typ, IntegerType):
        width = typ.width.data
        return (int(value) & ((1 << width) - 1)).to_bytes(max(1, width // 8), "little")
    width = getattr(typ, "bitwidth", None)
    if width not in _FLOAT_FORMATS:
        raise HostEvalError(f"bitcast of a {typ} value is not modelled")
    return struct.pack("<" + _FLOAT_FORMATS[width], float(value))


def _bytes_to_value(raw: bytes, typ: Attribute) -> Any:
    if isinstance(typ, IntegerType):
        return to_signed(int.from_bytes(raw, "little"), typ.width.data)
    width = getattr(typ, "bitwidth", None)
    if width not in _FLOAT_FORMATS:
        raise HostEvalError(f"bitcast to {typ} is not modelled")
    return struct.unpack("<" + _FLOAT_FORMATS[width], raw)[0]


def round_float(value: float, typ: Attribute) -> float:
    """Round a Python float to the precision of `typ`, so f32 results match C++ `float` bit for bit."""
    if not math.isfinite(value):
        return value
    try:
        if isinstance(typ, Float32Type):
            return cast(float, struct.unpack("f", struct.pack("f", value))[0])
        if isinstance(typ, Float16Type):
            return cast(float, struct.unpack("e", struct.pack("e", value))[0])
        if isinstance(typ, BFloat16Type):
            bits = struct.unpack("I", struct.pack("f", value))[0]
            bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000  # round to nearest even
            return cast(float, struct.unpack("f", struct.pack("I", bits))[0])
    except OverflowError:
        return math.copysign(math.inf, value)
    return value


def _checked_offset(array: ShapedArray[Any], indices: tuple[int, ...], typ: Attribute) -> None:
    if len(indices) != len(array.shape) or any(not 0 <= i < n for i, n in zip(indices, array.shape)):
        shown = ", ".join(str(i) for i in indices)
        raise HostEvalError(f"index [{shown}] out of bounds for {typ}")


def _int_operands(
    interpreter: Interpreter, op: Operation, args: PythonValues, unsigned: bool
) -> tuple[int, int, int]:
    width = int_width(interpreter, op.results[0].type)
    convert = to_unsigned if unsigned else to_signed
    return convert(int(args[0]), width), convert(int(args[1]), width), width


def c_div(lhs: int, rhs: int) -> int:
    """C integer division: truncates toward zero."""
    quotient = abs(lhs) // abs(rhs)
    return quotient if (lhs >= 0) == (rhs >= 0) else -quotient


def _nonzero(rhs: int) -> None:
    if rhs == 0:
        raise HostEvalError("integer division by zero")


@register_impls
class ArithExtraFunctions(InterpreterFunctions):
    """Integer division with a readable zero-divisor error, unsigned ops, min/max, casts, float division."""

    @impl(arith.DivSIOp)
    def run_divsi(self, interpreter: Interpreter, op: arith.DivSIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=False)
        _nonzero(rhs)
        return (to_signed(c_div(lhs, rhs), width),)

    @impl(arith.RemSIOp)
    def run_remsi(self, interpreter: Interpreter, op: arith.RemSIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=False)
        _nonzero(rhs)
        return (to_signed(lhs - c_div(lhs, rhs) * rhs, width),)

    @impl(arith.DivUIOp)
    def run_divui(self, interpreter: Interpreter, op: arith.DivUIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=True)
        _nonzero(rhs)
        return (to_signed(lhs // rhs, width),)

    @impl(arith.RemUIOp)
    def run_remui(self, interpreter: Interpreter, op: arith.RemUIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=True)
        _nonzero(rhs)
        return (to_signed(lhs % rhs, width),)

    @impl(arith.FloorDivSIOp)
    def run_floordivsi(
        self, interpreter: Interpreter, op: arith.FloorDivSIOp, args: PythonValues
    ) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=False)
        _nonzero(rhs)
        return (to_signed(lhs // rhs, width),)

    @impl(arith.CeilDivSIOp)
    def run_ceildivsi(
        self, interpreter: Interpreter, op: arith.CeilDivSIOp, args: PythonValues
    ) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=False)
        _nonzero(rhs)
        return (to_signed(-(-lhs // rhs), width),)

    @impl(arith.CeilDivUIOp)
    def run_ceildivui(
        self, interpreter: Interpreter, op: arith.CeilDivUIOp, args: PythonValues
    ) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=True)
        _nonzero(rhs)
        return (to_signed(-(-lhs // rhs), width),)

    @impl(arith.BitcastOp)
    def run_bitcast(self, interpreter: Interpreter, op: arith.BitcastOp, args: PythonValues) -> PythonValues:
        """A value's bits as another type of the same width (`*(uint32_t *)&f`, a union of float and int)."""
        src, dst = op.operands[0].type, op.result.type
        raw = _bits_to_bytes(args[0], src)
        return (_bytes_to_value(raw, dst),)

    @impl(arith.MinSIOp)
    def run_minsi(self, interpreter: Interpreter, op: arith.MinSIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, _ = _int_operands(interpreter, op, args, unsigned=False)
        return (min(lhs, rhs),)

    @impl(arith.MaxSIOp)
    def run_maxsi(self, interpreter: Interpreter, op: arith.MaxSIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, _ = _int_operands(interpreter, op, args, unsigned=False)
        return (max(lhs, rhs),)

    @impl(arith.MinUIOp)
    def run_minui(self, interpreter: Interpreter, op: arith.MinUIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=True)
        return (to_signed(min(lhs, rhs), width),)

    @impl(arith.MaxUIOp)
    def run_maxui(self, interpreter: Interpreter, op: arith.MaxUIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=True)
        return (to_signed(max(lhs, rhs), width),)

    @impl(arith.ShRUIOp)
    def run_shrui(self, interpreter: Interpreter, op: arith.ShRUIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=True)
        return (to_signed(lhs >> rhs, width) if rhs < width else 0,)

    @impl(arith.ExtSIOp)
    def run_extsi(self, interpreter: Interpreter, op: arith.ExtSIOp, args: PythonValues) -> PythonValues:
        return (to_signed(int(args[0]), int_width(interpreter, op.input.type)),)

    @impl(arith.ExtUIOp)
    def run_extui(self, interpreter: Interpreter, op: arith.ExtUIOp, args: PythonValues) -> PythonValues:
        return (to_unsigned(int(args[0]), int_width(interpreter, op.input.type)),)

    @impl(arith.TruncIOp)
    def run_trunci(self, interpreter: Interpreter, op: arith.TruncIOp, args: PythonValues) -> PythonValues:
        return (to_signed(int(args[0]), int_width(interpreter, op.result.type)),)

    @impl(arith.SIToFPOp)
    def run_sitofp(self, interpreter: Interpreter, op: arith.SIToFPOp, args: PythonValues) -> PythonValues:
        value = to_signed(int(args[0]), int_width(interpreter, op.input.type))
        return (round_float(float(value), op.result.type),)

    @impl(arith.UIToFPOp)
    def run_uitofp(self, interpreter: Interpreter, op: arith.UIToFPOp, args: PythonValues) -> PythonValues:
        value = to_unsigned(int(args[0]), int_width(interpreter, op.input.type))
        return (round_float(float(value), op.result.type),)

    @impl(arith.FPToSIOp)
    def run_fptosi(self, interpreter: Interpreter, op: arith.FPToSIOp, args: PythonValues) -> PythonValues:
        value = float(args[0])
        if not math.isfinite(value):
            raise HostEvalError(f"{op.name} of {value}")
        return (to_signed(int(value), int_width(interpreter, op.result.type)),)  # int() truncates like C

    @impl(arith.FPToUIOp)
    def run_fptoui(self, interpreter: Interpreter, op: arith.FPToUIOp, args: PythonValues) -> PythonValues:
        value = float(args[0])
        if not math.isfinite(value):
            raise HostEvalError(f"{op.name} of {value}")
        return (to_signed(int(value), int_width(interpreter, op.result.type)),)

    @impl(arith.ExtFOp)
    def run_extf(self, interpreter: Interpreter, op: arith.ExtFOp, args: PythonValues) -> PythonValues:
        return (float(args[0]),)

    @impl(arith.TruncFOp)
    def run_truncf(self, interpreter: Interpreter, op: arith.TruncFOp, args: PythonValues) -> PythonValues:
        return (round_float(float(args[0]), op.result.type),)

    # The stock addf/subf/mulf compute in double precision; C++ float arithmetic rounds every step.
    @impl(arith.AddfOp)
    def run_addf(self, interpreter: Interpreter, op: arith.AddfOp, args: PythonValues) -> PythonValues:
        return (round_float(args[0] + args[1], op.result.type),)

    @impl(arith.SubfOp)
    def run_subf(self, interpreter: Interpreter, op: arith.SubfOp, args: PythonValues) -> PythonValues:
        return (round_float(args[0] - args[1], op.result.type),)

    @impl(arith.MulfOp)
    def run_mulf(self, interpreter: Interpreter, op: arith.MulfOp, args: PythonValues) -> PythonValues:
        return (round_float(args[0] * args[1], op.result.type),)

    @impl(arith.DivfOp)
    def run_divf(self, interpreter: Interpreter, op: arith.DivfOp, args: PythonValues) -> PythonValues:
        lhs, rhs = float(args[0]), float(args[1])
        if rhs == 0.0:
            # IEEE semantics, as in C++: x/0 is +-inf, 0/0 is NaN
            result = (
                math.nan
                if lhs == 0.0 or math.isnan(lhs)
                else math.copysign(math.inf, lhs) * math.copysign(1.0, rhs)
            )
        else:
            result = lhs / rhs
        return (round_float(result, op.result.type),)

    @impl(arith.NegfOp)
    def run_negf(self, interpreter: Interpreter, op: arith.NegfOp, args: PythonValues) -> PythonValues:
        return (-float(args[0]),)

    @impl(arith.MaxnumfOp)
    def run_maxnumf(self, interpreter: Interpreter, op: arith.MaxnumfOp, args: PythonValues) -> PythonValues:
        lhs, rhs = float(args[0]), float(args[1])
        return (rhs if math.isnan(lhs) else lhs if math.isnan(rhs) else max(lhs, rhs),)

    @impl(arith.MinnumfOp)
    def run_minnumf(self, interpreter: Interpreter, op: arith.MinnumfOp, args: PythonValues) -> PythonValues:
        lhs, rhs = float(args[0]), float(args[1])
        return (rhs if math.isnan(lhs) else lhs if math.isnan(rhs) else min(lhs, rhs),)


@register_impls
class MathExtraFunctions(InterpreterFunctions):
    """`std::ceil`, `std::floor`, `std::abs`, `std::pow`, `__builtin_clz*` as the lowering emits them."""

    @impl(xmath.CeilOp)
    def run_ceil(self, interpreter: Interpreter, op: xmath.CeilOp, args: PythonValues) -> PythonValues:
        value = float(args[0])
        return (float(math.ceil(value)) if math.isfinite(value) else value,)

    @impl(xmath.FloorOp)
    def run_floor(self, interpreter: Interpreter, op: xmath.FloorOp, args: PythonValues) -> PythonValues:
        value = float(args[0])
        return (float(math.floor(value)) if math.isfinite(value) else value,)

    @impl(xmath.AbsFOp)
    def run_absf(self, interpreter: Interpreter, op: xmath.AbsFOp, args: PythonValues) -> PythonValues:
        return (abs(float(args[0])),)

    @impl(xmath.AbsIOp)
    def run_absi(self, interpreter: Interpreter, op: xmath.AbsIOp, args: PythonValues) -> PythonValues:
        width = int_width(interpreter, op.result.type)
        return (to_signed(abs(to_signed(int(args[0]), width)), width),)

    @impl(xmath.CountLeadingZerosOp)
    def run_ctlz(self, interpreter: Interpreter, op: xmath.CountLeadingZerosOp, args: PythonValues) -> PythonValues:
        width = int_width(interpreter, op.result.type)
        # __builtin_clz of 0 is undefined in C; math.ctlz defines it as the width
        return (width - to_unsigned(int(args[0]), width).bit_length(),)

    @impl(xmath.PowFOp)
    def run_powf(self, interpreter: Interpreter, op: xmath.PowFOp, args: PythonValues) -> PythonValues:
        try:
            result = math.pow(float(args[0]), float(args[1]))
        except (OverflowError, ValueError):
            result = math.nan
        return (round_float(result, op.result.type),)


@register_impls
class MemRefExtraFunctions(InterpreterFunctions):
    """`memref.alloca` (C++ locals and arrays) and bounds-checked loads and stores."""

    @impl(memref.AllocaOp)
    def run_alloca(self, interpreter: Interpreter, op: memref.AllocaOp, args: PythonValues) -> PythonValues:
        return (_new_array(interpreter, op.memref.type, args),)

    @impl(memref.AllocOp)
    def run_alloc(self, interpreter: Interpreter, op: memref.AllocOp, args: PythonValues) -> PythonValues:
        return (_new_array(interpreter, op.memref.type, args),)

    @impl(memref.LoadOp)
    def run_load(self, interpreter: Interpreter, op: memref.LoadOp, args: PythonValues) -> PythonValues:
        array, *indices = args
        array = cast(ShapedArray[Any], array)
        _checked_offset(array, tuple(indices), op.memref.type)
        left_out = host_eval_left_out.load(array, tuple(indices))
        return (left_out if left_out is not None else array.load(tuple(indices)),)

    @impl(memref.StoreOp)
    def run_store(self, interpreter: Interpreter, op: memref.StoreOp, args: PythonValues) -> PythonValues:
        value, array, *indices = args
        array = cast(ShapedArray[Any], array)
        _checked_offset(array, tuple(indices), op.memref.type)
        if not host_eval_left_out.store(array, tuple(indices), value):
            array.store(tuple(indices), value)
        return ()


class _Strings:
    """The memory of a std::string variable assigned under control flow (a namespace-scope std::string): the
    texts themselves, which a typed buffer cannot hold; empty strings until stored."""

    def __init__(self, shape: list[int]) -> None:
        self.shape = shape
        self._texts: dict[tuple[int, ...], str] = {}

    def load(self, indices: tuple[int, ...]) -> str:
        return self._texts.get(indices, "")

    def store(self, indices: tuple[int, ...], value: str) -> None:
        self._texts[indices] = value


def _new_array(interpreter: Interpreter, typ: Attribute, dynamic_sizes: PythonValues) -> ShapedArray[Any]:
    assert isinstance(typ, MemRefType)
    sizes = iter(int(s) for s in dynamic_sizes)
    shape = [next(sizes) if dim == builtin.DYNAMIC_INDEX else dim for dim in typ.get_shape()]
    if any(dim < 0 for dim in shape):
        raise HostEvalError(f"negative array size {shape}")
    if isinstance(typ.get_element_type(), StringType):
        return _Strings(shape)  # type: ignore[return-value]
    xtype = xtype_for_el_type(typ.get_element_type(), interpreter.index_bitwidth)
    # zero-filled: C++ locals the lowering reads before writing are flagged by the verifier, not here
    return ShapedArray(TypedPtr[Any].zeros(prod(shape), xtype=xtype), shape)
