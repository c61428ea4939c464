//! Integer arithmetic and comparisons at each width: wrapping, shifts past the width, signed and unsigned
//! division (a division by zero is the caller's finding).

use super::{IPred, IntBin};
use crate::dtype::STy;

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
}
