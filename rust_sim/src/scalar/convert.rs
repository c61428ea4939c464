//! Conversions between scalar types (arith's extsi / extui / trunci / fptosi / sitofp / extf / truncf ...).

use super::ConvOp;
use crate::dtype::STy;

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
    fn conversions_follow_c() {
        assert_eq!(convert(ConvOp::ExtSI, STy::I8, STy::I32, 0xFF), 0xFFFF_FFFF);
        assert_eq!(convert(ConvOp::ExtUI, STy::I8, STy::I32, 0xFF), 0xFF);
        assert_eq!(convert(ConvOp::TruncI, STy::I32, STy::I8, 0x1234), 0x34);
        let f = STy::F32.from_f64(-2.7);
        assert_eq!(STy::I32.sext(convert(ConvOp::FPToSI, STy::F32, STy::I32, f)), -2);
        let h = convert(ConvOp::TruncF, STy::F32, STy::F16, STy::F32.from_f64(1.0 / 3.0));
        assert_eq!(h, half::f16::from_f32(1.0 / 3.0).to_bits() as u64);
    }
}
