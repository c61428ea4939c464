//! Float arithmetic, the math functions and comparisons: 16-bit floats compute in f32 and round once, f64 in
//! f64.

use super::{FPred, FloatBin, UnaryOp};
use crate::dtype::STy;

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

/// The float operations at one width, one body for both so they cannot drift apart: `f32` (what the 16-bit
/// floats and f32 compute in, rounding once at their width) and `f64`.
macro_rules! float_ops {
    ($t:ty, $bin:ident, $unary:ident) => {
        fn $bin(op: FloatBin, x: $t, y: $t) -> $t {
            match op {
                FloatBin::Add => x + y,
                FloatBin::Sub => x - y,
                FloatBin::Mul => x * y,
                FloatBin::Div => x / y,
                FloatBin::Maximum => {
                    if x.is_nan() || y.is_nan() {
                        <$t>::NAN
                    } else {
                        x.max(y)
                    }
                }
                FloatBin::Minimum => {
                    if x.is_nan() || y.is_nan() {
                        <$t>::NAN
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

        fn $unary(op: UnaryOp, x: $t) -> $t {
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
                // erf is computed in f64 at both widths (an identity cast at f64)
                UnaryOp::Erf => erf(x as f64) as $t,
                UnaryOp::Cbrt => x.cbrt(),
                UnaryOp::Ctlz | UnaryOp::Cttz | UnaryOp::Ctpop => x,
            }
        }
    };
}

float_ops!(f32, float_op32, unary32);
float_ops!(f64, float_op64, unary64);

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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn both_widths_share_one_body() {
        // float_ops! makes the f32 and f64 forms from one text: the same NaN rule, and erf in f64 at both
        for (op, nan) in [
            (FloatBin::Maximum, true),
            (FloatBin::Minimum, true),
            (FloatBin::Maxnum, false),
        ] {
            assert_eq!(float_op32(op, f32::NAN, 1.0).is_nan(), nan, "{op:?}");
            assert_eq!(float_op64(op, f64::NAN, 1.0).is_nan(), nan, "{op:?}");
        }
        assert_eq!(unary32(UnaryOp::Erf, 0.5), erf(0.5) as f32);
        assert_eq!(unary64(UnaryOp::Erf, 0.5), erf(0.5));
        assert_eq!(unary32(UnaryOp::Rsqrt, 4.0), 0.5);
        assert_eq!(unary64(UnaryOp::RoundEven, 2.5), 2.0);
    }
}
