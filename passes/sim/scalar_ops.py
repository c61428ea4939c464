"""arith and math ops -> scalar instructions, named as in MLIR with the operand type as suffix.

`addi.i32`, `cmpi.slt.i64`, `extsi.i16.i32`, `sitofp.i32.f32`, `sqrt.f32`: the Rust interpreter implements
each with the semantics of its MLIR namesake at that width (integers wrap; division by zero is a finding).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith, math
from xdsl.ir import Operation

from passes.sim.registers import NotModelled, Struct, is_object_type, scalar_type

if TYPE_CHECKING:
    from passes.sim.builder import ProgramBuilder

_BINARY = {
    arith.AddiOp: "addi", arith.SubiOp: "subi", arith.MuliOp: "muli", arith.DivSIOp: "divsi",
    arith.DivUIOp: "divui", arith.RemSIOp: "remsi", arith.RemUIOp: "remui", arith.AndIOp: "andi",
    arith.OrIOp: "ori", arith.XOrIOp: "xori", arith.ShLIOp: "shli", arith.ShRSIOp: "shrsi",
    arith.ShRUIOp: "shrui", arith.MaxSIOp: "maxsi", arith.MinSIOp: "minsi", arith.MaxUIOp: "maxui",
    arith.MinUIOp: "minui", arith.CeilDivSIOp: "ceildivsi", arith.CeilDivUIOp: "ceildivui",
    arith.FloorDivSIOp: "floordivsi",
    arith.AddfOp: "addf", arith.SubfOp: "subf", arith.MulfOp: "mulf", arith.DivfOp: "divf",
    arith.MaximumfOp: "maximumf", arith.MinimumfOp: "minimumf", arith.MaxnumfOp: "maxnumf",
    arith.MinnumfOp: "minnumf", math.PowFOp: "powf", math.Atan2Op: "atan2", math.CopySignOp: "copysign",
}  # fmt: skip
_UNARY = {
    arith.NegfOp: "negf", math.AbsFOp: "absf", math.AbsIOp: "absi", math.SqrtOp: "sqrt", math.RsqrtOp: "rsqrt",
    math.ExpOp: "exp", math.Exp2Op: "exp2", math.ExpM1Op: "expm1", math.LogOp: "log", math.Log2Op: "log2",
    math.Log10Op: "log10", math.Log1pOp: "log1p", math.FloorOp: "floor", math.CeilOp: "ceil",
    math.RoundOp: "round", math.RoundEvenOp: "roundeven", math.TruncOp: "trunc", math.SinOp: "sin",
    math.CosOp: "cos", math.TanOp: "tan", math.TanhOp: "tanh", math.SinhOp: "sinh", math.CoshOp: "cosh",
    math.AsinOp: "asin", math.AcosOp: "acos", math.AtanOp: "atan", math.ErfOp: "erf", math.CbrtOp: "cbrt",
    math.CountLeadingZerosOp: "ctlz", math.CountTrailingZerosOp: "cttz", math.CtPopOp: "ctpop",
}  # fmt: skip
_CONVERSIONS = {
    arith.ExtSIOp: "extsi", arith.ExtUIOp: "extui", arith.TruncIOp: "trunci", arith.ExtFOp: "extf",
    arith.TruncFOp: "truncf", arith.SIToFPOp: "sitofp", arith.UIToFPOp: "uitofp", arith.FPToSIOp: "fptosi",
    arith.FPToUIOp: "fptoui", arith.IndexCastOp: "extsi", arith.BitcastOp: "bitcast",
}  # fmt: skip
_CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
_CMPF = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une",
         "uno", "true")


def emit(b: ProgramBuilder, op: Operation) -> None:
    kind = type(op)
    if kind in _BINARY:
        lhs, rhs = op.operands
        _emit_typed(b, op, f"{_BINARY[kind]}.{_type(lhs.type)}", [b.reg(lhs), b.reg(rhs)])
    elif kind in _UNARY:
        (src,) = op.operands
        _emit_typed(b, op, f"{_UNARY[kind]}.{_type(src.type)}", [b.reg(src)])
    elif kind in _CONVERSIONS:
        (src,) = op.operands
        src_t, dst_t = _type(src.type), _type(op.results[0].type)
        name = _CONVERSIONS[kind]
        if kind is arith.IndexCastOp:
            src_w, dst_w = _width(src_t), _width(dst_t)
            name = "extsi" if dst_w > src_w else "trunci" if dst_w < src_w else "mov"
        if name == "mov" or (src_t == dst_t and name in ("extsi", "extui", "trunci", "extf", "truncf")):
            b.values[op.results[0]] = b.reg(src)
            return
        _emit_typed(b, op, f"{name}.{src_t}.{dst_t}", [b.reg(src)])
    elif isinstance(op, arith.CmpiOp):
        pred = _CMPI[op.predicate.value.data]
        _emit_typed(b, op, f"cmpi.{pred}.{_type(op.lhs.type)}", [b.reg(op.lhs), b.reg(op.rhs)])
    elif isinstance(op, arith.CmpfOp):
        pred = _CMPF[op.predicate.value.data]
        _emit_typed(b, op, f"cmpf.{pred}.{_type(op.lhs.type)}", [b.reg(op.lhs), b.reg(op.rhs)])
    elif isinstance(op, arith.SelectOp):
        _select(b, op)
    elif isinstance(op, math.FmaOp):
        a, x, c = op.operands
        _emit_typed(b, op, f"fma.{_type(a.type)}", [b.reg(a), b.reg(x), b.reg(c)])
    else:
        raise NotModelled(f"the op {op.name}")


def _emit_typed(b: ProgramBuilder, op: Operation, opcode: str, operands: list[str]) -> None:
    result = b.define(op.results[0])
    assert isinstance(result, str)
    b.emit(opcode, operands, [result], op)


def _select(b: ProgramBuilder, op: arith.SelectOp) -> None:
    cond = b.reg(op.cond)
    if is_object_type(op.result.type):
        # objects are declared, not held in registers: `c ? q : q` is q; two different ones is a choice at run time
        chosen = b.obj(op.lhs)
        if b.obj(op.rhs) != chosen:
            raise NotModelled("a choice at run time between two objects (`cond ? a : b` of TPipe / TQue / TBuf)")
        b.values[op.result] = chosen
        return
    t, f = b.loc(op.lhs), b.loc(op.rhs)
    result = b.define(op.result)
    if isinstance(result, str) and isinstance(t, str) and isinstance(f, str):
        b.emit("select", [cond, t, f], [result], op)
    elif isinstance(result, Struct) and isinstance(t, Struct) and isinstance(f, Struct):
        for name in dict.fromkeys([*t.fields, *f.fields]):
            tr, ty = t.fields.get(name) or f.fields[name]
            fr, _ = f.fields.get(name) or t.fields[name]
            reg = b.regs.scalar()
            b.emit("select", [cond, tr, fr], [reg], op)
            result.fields[name] = (reg, ty)
    elif isinstance(t, str) and t.startswith("o") and t == f:
        b.values[op.result] = t
    else:
        raise NotModelled(f"a select of {op.lhs.type}")


def _type(t: object) -> str:
    found = scalar_type(t)  # type: ignore[arg-type]
    if found is None:
        raise NotModelled(f"scalar arithmetic on {t}")
    return found


def _width(ty: str) -> int:
    return int(ty.lstrip("ifb").replace("f", "") or 0) if ty[0] == "i" else {"f16": 16, "bf16": 16, "f32": 32,
                                                                                "f64": 64}[ty]
