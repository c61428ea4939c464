//! The scalar unit's arithmetic: MLIR arith/math semantics at each width, on canonical register bits.
//!
//! Integers wrap; shifts by the width or more give 0 (arithmetic right shifts the sign); division by zero is
//! reported by the caller and gives 0. Floats of 16 bits compute in f32 and round once.
//!
//! This file holds the operations; names.rs their names in the program text, int.rs the integer arithmetic
//! and comparisons, float.rs the float ones (with the math functions), convert.rs the conversions.

mod convert;
mod float;
mod int;
mod names;

pub use convert::convert;
pub use float::{cmpf, erf, float_bin, unary};
pub use int::{cmpi, int_bin, DivByZero};
pub use names::{parse_conv, parse_float_bin, parse_fpred, parse_int_bin, parse_ipred, parse_unary};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntBin {
    Add,
    Sub,
    Mul,
    DivS,
    DivU,
    RemS,
    RemU,
    And,
    Or,
    Xor,
    Shl,
    ShrS,
    ShrU,
    MaxS,
    MinS,
    MaxU,
    MinU,
    CeilDivS,
    CeilDivU,
    FloorDivS,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatBin {
    Add,
    Sub,
    Mul,
    Div,
    Maximum,
    Minimum,
    Maxnum,
    Minnum,
    Pow,
    Atan2,
    CopySign,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Negf,
    Absf,
    Absi,
    Sqrt,
    Rsqrt,
    Exp,
    Exp2,
    Expm1,
    Log,
    Log2,
    Log10,
    Log1p,
    Floor,
    Ceil,
    Round,
    RoundEven,
    Trunc,
    Sin,
    Cos,
    Tan,
    Tanh,
    Sinh,
    Cosh,
    Asin,
    Acos,
    Atan,
    Erf,
    Cbrt,
    Ctlz,
    Cttz,
    Ctpop,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IPred {
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    Ult,
    Ule,
    Ugt,
    Uge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FPred {
    False,
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    Uno,
    True,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvOp {
    ExtSI,
    ExtUI,
    TruncI,
    ExtF,
    TruncF,
    SIToFP,
    UIToFP,
    FPToSI,
    FPToUI,
    Bitcast,
}
