//! The operations' names in the program text (rust_sim/PROGRAM.md): `addi`, `cmpi.slt`, `extsi`, ...

use super::{ConvOp, FPred, FloatBin, IPred, IntBin, UnaryOp};

pub fn parse_int_bin(name: &str) -> Option<IntBin> {
    Some(match name {
        "addi" => IntBin::Add,
        "subi" => IntBin::Sub,
        "muli" => IntBin::Mul,
        "divsi" => IntBin::DivS,
        "divui" => IntBin::DivU,
        "remsi" => IntBin::RemS,
        "remui" => IntBin::RemU,
        "andi" => IntBin::And,
        "ori" => IntBin::Or,
        "xori" => IntBin::Xor,
        "shli" => IntBin::Shl,
        "shrsi" => IntBin::ShrS,
        "shrui" => IntBin::ShrU,
        "maxsi" => IntBin::MaxS,
        "minsi" => IntBin::MinS,
        "maxui" => IntBin::MaxU,
        "minui" => IntBin::MinU,
        "ceildivsi" => IntBin::CeilDivS,
        "ceildivui" => IntBin::CeilDivU,
        "floordivsi" => IntBin::FloorDivS,
        _ => return None,
    })
}

pub fn parse_float_bin(name: &str) -> Option<FloatBin> {
    Some(match name {
        "addf" => FloatBin::Add,
        "subf" => FloatBin::Sub,
        "mulf" => FloatBin::Mul,
        "divf" => FloatBin::Div,
        "maximumf" => FloatBin::Maximum,
        "minimumf" => FloatBin::Minimum,
        "maxnumf" => FloatBin::Maxnum,
        "minnumf" => FloatBin::Minnum,
        "powf" => FloatBin::Pow,
        "atan2" => FloatBin::Atan2,
        "copysign" => FloatBin::CopySign,
        _ => return None,
    })
}

pub fn parse_unary(name: &str) -> Option<UnaryOp> {
    Some(match name {
        "negf" => UnaryOp::Negf,
        "absf" => UnaryOp::Absf,
        "absi" => UnaryOp::Absi,
        "sqrt" => UnaryOp::Sqrt,
        "rsqrt" => UnaryOp::Rsqrt,
        "exp" => UnaryOp::Exp,
        "exp2" => UnaryOp::Exp2,
        "expm1" => UnaryOp::Expm1,
        "log" => UnaryOp::Log,
        "log2" => UnaryOp::Log2,
        "log10" => UnaryOp::Log10,
        "log1p" => UnaryOp::Log1p,
        "floor" => UnaryOp::Floor,
        "ceil" => UnaryOp::Ceil,
        "round" => UnaryOp::Round,
        "roundeven" => UnaryOp::RoundEven,
        "trunc" => UnaryOp::Trunc,
        "sin" => UnaryOp::Sin,
        "cos" => UnaryOp::Cos,
        "tan" => UnaryOp::Tan,
        "tanh" => UnaryOp::Tanh,
        "sinh" => UnaryOp::Sinh,
        "cosh" => UnaryOp::Cosh,
        "asin" => UnaryOp::Asin,
        "acos" => UnaryOp::Acos,
        "atan" => UnaryOp::Atan,
        "erf" => UnaryOp::Erf,
        "cbrt" => UnaryOp::Cbrt,
        "ctlz" => UnaryOp::Ctlz,
        "cttz" => UnaryOp::Cttz,
        "ctpop" => UnaryOp::Ctpop,
        _ => return None,
    })
}

pub fn parse_ipred(name: &str) -> Option<IPred> {
    Some(match name {
        "eq" => IPred::Eq,
        "ne" => IPred::Ne,
        "slt" => IPred::Slt,
        "sle" => IPred::Sle,
        "sgt" => IPred::Sgt,
        "sge" => IPred::Sge,
        "ult" => IPred::Ult,
        "ule" => IPred::Ule,
        "ugt" => IPred::Ugt,
        "uge" => IPred::Uge,
        _ => return None,
    })
}

pub fn parse_fpred(name: &str) -> Option<FPred> {
    Some(match name {
        "false" => FPred::False,
        "oeq" => FPred::Oeq,
        "ogt" => FPred::Ogt,
        "oge" => FPred::Oge,
        "olt" => FPred::Olt,
        "ole" => FPred::Ole,
        "one" => FPred::One,
        "ord" => FPred::Ord,
        "ueq" => FPred::Ueq,
        "ugt" => FPred::Ugt,
        "uge" => FPred::Uge,
        "ult" => FPred::Ult,
        "ule" => FPred::Ule,
        "une" => FPred::Une,
        "uno" => FPred::Uno,
        "true" => FPred::True,
        _ => return None,
    })
}

pub fn parse_conv(name: &str) -> Option<ConvOp> {
    Some(match name {
        "extsi" => ConvOp::ExtSI,
        "extui" => ConvOp::ExtUI,
        "trunci" => ConvOp::TruncI,
        "extf" => ConvOp::ExtF,
        "truncf" => ConvOp::TruncF,
        "sitofp" => ConvOp::SIToFP,
        "uitofp" => ConvOp::UIToFP,
        "fptosi" => ConvOp::FPToSI,
        "fptoui" => ConvOp::FPToUI,
        "bitcast" => ConvOp::Bitcast,
        _ => return None,
    })
}
