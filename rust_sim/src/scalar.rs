//! The scalar unit's arithmetic: MLIR arith/math semantics at each width, on canonical register bits.
//!
//! Integers wrap; shifts by the width or more give 0 (arithmetic right shifts the sign); division by zero is
//! reported by the caller and gives 0. Floats of 16 bits compute in f32 and round once.

use crate::dtype::STy;

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

/// A scalar integer division or remainder by zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DivByZero;

/// `a op b` at width `ty`; Err for a division by zero (the result is then 0).
#[inline]
pub fn int_bin(op: IntBin, ty: STy, a: u64, b: u64) -> Result<u64, DivByZero> {
    let bits = ty.bits();
    let (sa, sb) = (ty.sext(a), ty.sext(b));
    let (ua, ub) = (ty.zext(a), ty.zext(b));
    let r: u64 = match op {
        IntBin::Add => ua.wrapping_add(ub),
        IntBin::Sub => ua.wrapping_sub(ub),
        IntBin::Mul => ua.wrapping_mul(ub),
        IntBin::DivS => {
            if sb == 0 {
                return Err(DivByZero);
            }
            sa.wrapping_div(sb) as u64
        }
        IntBin::DivU => {
            if ub == 0 {
                return Err(DivByZero);
            }
            ua / ub
        }
        IntBin::RemS => {
            if sb == 0 {
                return Err(DivByZero);
            }
            sa.wrapping_rem(sb) as u64
        }
        IntBin::RemU => {
            if ub == 0 {
                return Err(DivByZero);
            }
            ua % ub
        }
        IntBin::CeilDivS => {
            if sb == 0 {
                return Err(DivByZero);
            }
            let q = sa.wrapping_div(sb);
            (if (sa % sb != 0) && ((sa < 0) == (sb < 0)) {
                q + 1
            } else {
                q
            }) as u64
        }
        IntBin::CeilDivU => {
            if ub == 0 {
                return Err(DivByZero);
            }
            ua.div_ceil(ub)
        }
        IntBin::FloorDivS => {
            if sb == 0 {
                return Err(DivByZero);
            }
            let q = sa.wrapping_div(sb);
            (if (sa % sb != 0) && ((sa < 0) != (sb < 0)) {
                q - 1
            } else {
                q
            }) as u64
        }
        IntBin::And => ua & ub,
        IntBin::Or => ua | ub,
        IntBin::Xor => ua ^ ub,
        IntBin::Shl => {
            if ub >= bits as u64 {
                0
            } else {
                ua << ub
            }
        }
        IntBin::ShrU => {
            if ub >= bits as u64 {
                0
            } else {
                ua >> ub
            }
        }
        IntBin::ShrS => {
            let s = ub.min(63);
            (sa >> s) as u64
        }
        IntBin::MaxS => sa.max(sb) as u64,
        IntBin::MinS => sa.min(sb) as u64,
        IntBin::MaxU => ua.max(ub),
        IntBin::MinU => ua.min(ub),
    };
    Ok(ty.norm(r))
}

#[inline]
pub fn float_bin(op: FloatBin, ty: STy, a: u64, b: u64) -> u64 {
    let (x, y) = (ty.to_f64(a), ty.to_f64(b));
    let r = if ty == STy::F64 {
        float_op64(op, x, y)
    } else {
        float_op32(op, x as f32, y as f32) as f64
    };
    ty.from_f64(r)
}

fn float_op32(op: FloatBin, x: f32, y: f32) -> f32 {
    match op {
        FloatBin::Add => x + y,
        FloatBin::Sub => x - y,
        FloatBin::Mul => x * y,
        FloatBin::Div => x / y,
        FloatBin::Maximum => {
            if x.is_nan() || y.is_nan() {
                f32::NAN
            } else {
                x.max(y)
            }
        }
        FloatBin::Minimum => {
            if x.is_nan() || y.is_nan() {
                f32::NAN
            } else {
                x.min(y)
            }
        }
        FloatBin::Maxnum => x.max(y),
        FloatBin::Minnum => x.min(y),
        FloatBin::Pow => x.powf(y),
        FloatBin::Atan2 => x.atan2(y),
        FloatBin::CopySign => x.copysign(y),
    }
}

fn float_op64(op: FloatBin, x: f64, y: f64) -> f64 {
    match op {
        FloatBin::Add => x + y,
        FloatBin::Sub => x - y,
        FloatBin::Mul => x * y,
        FloatBin::Div => x / y,
        FloatBin::Maximum => {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                x.max(y)
            }
        }
        FloatBin::Minimum => {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                x.min(y)
            }
        }
        FloatBin::Maxnum => x.max(y),
        FloatBin::Minnum => x.min(y),
        FloatBin::Pow => x.powf(y),
        FloatBin::Atan2 => x.atan2(y),
        FloatBin::CopySign => x.copysign(y),
    }
}

#[inline]
pub fn unary(op: UnaryOp, ty: STy, a: u64) -> u64 {
    if !ty.is_float() {
        let s = ty.sext(a);
        let u = ty.zext(a);
        let bits = ty.bits();
        let r = match op {
            UnaryOp::Absi => s.wrapping_abs() as u64,
            UnaryOp::Ctlz => (u.leading_zeros() - (64 - bits)) as u64,
            UnaryOp::Cttz => u.trailing_zeros().min(bits) as u64,
            UnaryOp::Ctpop => u.count_ones() as u64,
            _ => u,
        };
        return ty.norm(r);
    }
    let x = ty.to_f64(a);
    let r = if ty == STy::F64 {
        unary64(op, x)
    } else {
        unary32(op, x as f32) as f64
    };
    ty.from_f64(r)
}

fn unary32(op: UnaryOp, x: f32) -> f32 {
    match op {
        UnaryOp::Negf => -x,
        UnaryOp::Absf | UnaryOp::Absi => x.abs(),
        UnaryOp::Sqrt => x.sqrt(),
        UnaryOp::Rsqrt => 1.0 / x.sqrt(),
        UnaryOp::Exp => x.exp(),
        UnaryOp::Exp2 => x.exp2(),
        UnaryOp::Expm1 => x.exp_m1(),
        UnaryOp::Log => x.ln(),
        UnaryOp::Log2 => x.log2(),
        UnaryOp::Log10 => x.log10(),
        UnaryOp::Log1p => x.ln_1p(),
        UnaryOp::Floor => x.floor(),
        UnaryOp::Ceil => x.ceil(),
        UnaryOp::Round => x.round(),
        UnaryOp::RoundEven => x.round_ties_even(),
        UnaryOp::Trunc => x.trunc(),
        UnaryOp::Sin => x.sin(),
        UnaryOp::Cos => x.cos(),
        UnaryOp::Tan => x.tan(),
        UnaryOp::Tanh => x.tanh(),
        UnaryOp::Sinh => x.sinh(),
        UnaryOp::Cosh => x.cosh(),
        UnaryOp::Asin => x.asin(),
        UnaryOp::Acos => x.acos(),
        UnaryOp::Atan => x.atan(),
        UnaryOp::Erf => erf(x as f64) as f32,
        UnaryOp::Cbrt => x.cbrt(),
        UnaryOp::Ctlz | UnaryOp::Cttz | UnaryOp::Ctpop => x,
    }
}

fn unary64(op: UnaryOp, x: f64) -> f64 {
    match op {
        UnaryOp::Negf => -x,
        UnaryOp::Absf | UnaryOp::Absi => x.abs(),
        UnaryOp::Sqrt => x.sqrt(),
        UnaryOp::Rsqrt => 1.0 / x.sqrt(),
        UnaryOp::Exp => x.exp(),
        UnaryOp::Exp2 => x.exp2(),
        UnaryOp::Expm1 => x.exp_m1(),
        UnaryOp::Log => x.ln(),
        UnaryOp::Log2 => x.log2(),
        UnaryOp::Log10 => x.log10(),
        UnaryOp::Log1p => x.ln_1p(),
        UnaryOp::Floor => x.floor(),
        UnaryOp::Ceil => x.ceil(),
        UnaryOp::Round => x.round(),
        UnaryOp::RoundEven => x.round_ties_even(),
        UnaryOp::Trunc => x.trunc(),
        UnaryOp::Sin => x.sin(),
        UnaryOp::Cos => x.cos(),
        UnaryOp::Tan => x.tan(),
        UnaryOp::Tanh => x.tanh(),
        UnaryOp::Sinh => x.sinh(),
        UnaryOp::Cosh => x.cosh(),
        UnaryOp::Asin => x.asin(),
        UnaryOp::Acos => x.acos(),
        UnaryOp::Atan => x.atan(),
        UnaryOp::Erf => erf(x),
        UnaryOp::Cbrt => x.cbrt(),
        UnaryOp::Ctlz | UnaryOp::Cttz | UnaryOp::Ctpop => x,
    }
}

/// erf by its Taylor series near 0 and the continued fraction of erfc beyond (|error| < 1e-15).
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let ax = x.abs();
    if ax < 2.5 {
        // sum_{n} (-1)^n x^(2n+1) / (n! (2n+1)) * 2/sqrt(pi)
        let mut term = ax;
        let mut sum = ax;
        let x2 = ax * ax;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x2 / n;
            sum += term / (2.0 * n + 1.0);
            if n > 200.0 {
                break;
            }
        }
        let r = sum * 2.0 / std::f64::consts::PI.sqrt();
        return if x < 0.0 { -r } else { r };
    }
    // erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + 1/2/(x + 1/(x + 3/2/(x + ...))))
    let mut f = ax;
    let mut k = 60.0;
    while k > 0.0 {
        f = ax + (k / 2.0) / f;
        k -= 1.0;
    }
    let erfc = (-ax * ax).exp() / std::f64::consts::PI.sqrt() / f;
    let r = 1.0 - erfc;
    if x < 0.0 {
        -r
    } else {
        r
    }
}

#[inline]
pub fn cmpi(pred: IPred, ty: STy, a: u64, b: u64) -> bool {
    let (sa, sb) = (ty.sext(a), ty.sext(b));
    let (ua, ub) = (ty.zext(a), ty.zext(b));
    match pred {
        IPred::Eq => ua == ub,
        IPred::Ne => ua != ub,
        IPred::Slt => sa < sb,
        IPred::Sle => sa <= sb,
        IPred::Sgt => sa > sb,
        IPred::Sge => sa >= sb,
        IPred::Ult => ua < ub,
        IPred::Ule => ua <= ub,
        IPred::Ugt => ua > ub,
        IPred::Uge => ua >= ub,
    }
}

#[inline]
pub fn cmpf(pred: FPred, ty: STy, a: u64, b: u64) -> bool {
    let (x, y) = (ty.to_f64(a), ty.to_f64(b));
    let unordered = x.is_nan() || y.is_nan();
    match pred {
        FPred::False => false,
        FPred::True => true,
        FPred::Oeq => !unordered && x == y,
        FPred::Ogt => !unordered && x > y,
        FPred::Oge => !unordered && x >= y,
        FPred::Olt => !unordered && x < y,
        FPred::Ole => !unordered && x <= y,
        FPred::One => !unordered && x != y,
        FPred::Ord => !unordered,
        FPred::Ueq => unordered || x == y,
        FPred::Ugt => unordered || x > y,
        FPred::Uge => unordered || x >= y,
        FPred::Ult => unordered || x < y,
        FPred::Ule => unordered || x <= y,
        FPred::Une => unordered || x != y,
        FPred::Uno => unordered,
    }
}

/// Converts register bits of type `from` to `to` (C / MLIR conversion rules; float to integer truncates
/// toward zero and saturates, NaN gives 0).
#[inline]
pub fn convert(op: ConvOp, from: STy, to: STy, a: u64) -> u64 {
    match op {
        ConvOp::ExtSI => to.norm(from.sext(a) as u64),
        ConvOp::ExtUI | ConvOp::TruncI => to.norm(from.zext(a)),
        ConvOp::ExtF | ConvOp::TruncF => to.from_f64(from.to_f64(a)),
        ConvOp::SIToFP => to.from_f64(from.sext(a) as f64),
        ConvOp::UIToFP => to.from_f64(from.zext(a) as f64),
        ConvOp::FPToSI => {
            let x = from.to_f64(a);
            let v = match to.bits() {
                1 => (x != 0.0) as i64,
                8 => x as i8 as i64,
                16 => x as i16 as i64,
                32 => x as i32 as i64,
                _ => x as i64,
            };
            to.norm(v as u64)
        }
        ConvOp::FPToUI => {
            let x = from.to_f64(a);
            let v = match to.bits() {
                1 => (x != 0.0) as u64,
                8 => x as u8 as u64,
                16 => x as u16 as u64,
                32 => x as u32 as u64,
                _ => x as u64,
            };
            to.norm(v)
        }
        ConvOp::Bitcast => to.norm(a),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_ops_wrap_and_compare_by_signedness() {
        assert_eq!(int_bin(IntBin::Add, STy::I8, 0x7F, 1), Ok(0x80));
        assert_eq!(
            int_bin(IntBin::DivS, STy::I32, (-7i32) as u32 as u64, 2),
            Ok((-3i32) as u32 as u64)
        );
        assert_eq!(int_bin(IntBin::DivU, STy::I32, 7, 0), Err(DivByZero));
        assert!(cmpi(IPred::Slt, STy::I32, 0xFFFF_FFFF, 0));
        assert!(!cmpi(IPred::Ult, STy::I32, 0xFFFF_FFFF, 0));
        assert_eq!(int_bin(IntBin::ShrS, STy::I16, 0x8000, 15), Ok(0xFFFF));
        assert_eq!(int_bin(IntBin::CeilDivU, STy::I32, 7, 2), Ok(4));
        assert_eq!(
            int_bin(IntBin::FloorDivS, STy::I32, (-7i32) as u32 as u64, 2),
            Ok((-4i32) as u32 as u64)
        );
    }

    #[test]
    fn conversions_follow_c() {
        assert_eq!(convert(ConvOp::ExtSI, STy::I8, STy::I32, 0xFF), 0xFFFF_FFFF);
        assert_eq!(convert(ConvOp::ExtUI, STy::I8, STy::I32, 0xFF), 0xFF);
        assert_eq!(convert(ConvOp::TruncI, STy::I32, STy::I8, 0x1234), 0x34);
        let f = STy::F32.from_f64(-2.7);
        assert_eq!(STy::I32.sext(convert(ConvOp::FPToSI, STy::F32, STy::I32, f)), -2);
        let h = convert(ConvOp::TruncF, STy::F32, STy::F16, STy::F32.from_f64(1.0 / 3.0));
        assert_eq!(h, half::f16::from_f32(1.0 / 3.0).to_bits() as u64);
    }

    #[test]
    fn float_ops_round_once_at_their_width() {
        let h = |x: f32| half::f16::from_f32(x).to_bits() as u64;
        let r = float_bin(FloatBin::Add, STy::F16, h(1.0), h(0.0004));
        assert_eq!(
            r,
            (half::f16::from_f32(1.0) + half::f16::from_f32(0.0004)).to_bits() as u64
        );
        assert!((erf(0.5) - 0.5204998778130465).abs() < 1e-14);
        assert!((erf(3.0) - 0.9999779095030014).abs() < 1e-14);
    }
}
