//! Register-API instructions on one core's registers: `LoadAlign` / `StoreAlign` (whole registers between UB
//! and the register file) and the predicated arithmetic (`Duplicate`, `Add`, `Sub`, `Mul`, `Div`, `Max`,
//! `Min`, `Adds`, `Muls`, `Maxs`, `Mins`, `Abs`, `Sqrt`, `Exp`, `Relu`, `Neg`, `Ln` / `Log`).
//!
//! Predication (asc-devkit reg_compute/*_intf.h: every arithmetic form defaults to `MaskMergeMode::ZEROING`;
//! dav_3510 implements MERGING as the zeroing result copied into dst under the mask): an inactive element is 0
//! under ZEROING and keeps dst's old value under MERGING. `StoreAlign` with a mask writes only the active
//! elements; the UB bytes of the others keep their values. Floats compute in f32 and round once to the element
//! type (as rust_sim's tensor instructions do); integers wrap at their width.

use crate::dtype::DType;
use crate::vector::binary::{fmax, fmin, relu};
use crate::vector::reg::file::VReg;
use crate::vector::reg::mask::MaskReg;

/// `MaskMergeMode` (reg_compute/kernel_reg_compute_utils.h: UNKNOWN = 0, MERGING = 1, ZEROING = 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MergeMode {
    Zeroing,
    Merging,
}

impl MergeMode {
    pub fn from_value(v: i64) -> Result<MergeMode, String> {
        match v {
            1 => Ok(MergeMode::Merging),
            2 => Ok(MergeMode::Zeroing),
            _ => Err(format!(
                "MaskMergeMode value {v} is neither MERGING (1) nor ZEROING (2)"
            )),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegBinOp {
    Add,
    Sub,
    Mul,
    Div,
    Max,
    Min,
    /// ShiftLefts / ShiftRights by a scalar (integers only: [`shift`])
    ShiftLeft,
    ShiftRight,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegUnOp {
    Abs,
    Sqrt,
    Exp,
    /// max(x, 0) (dav_3510 vec_unary_impl.h:206-216, `vrelu`, int32 / half / float); a NaN stays NaN, as the
    /// tensor-level Relu (vector::binary::relu)
    Relu,
    /// -x (vec_unary_impl.h:694-705, `vneg`; integers wrap: -(-128) is -128 in int8)
    Neg,
    /// the natural logarithm: `Ln`, and `Log` (vec_unary_impl.h:481-500: LnCompute for both), floats only
    Ln,
}

/// `LoadAlign(dstReg, ubAddr)`: the register's `width` bytes from `ub` (the UB bytes from the address on).
/// A load that would read past `ub` is an error naming how many bytes are missing.
pub fn load_align(dst: &mut VReg, ub: &[u8]) -> Result<(), String> {
    let n = dst.bytes.len();
    if ub.len() < n {
        return Err(format!(
            "LoadAlign reads {n} bytes, {} past the end of the buffer",
            n - ub.len()
        ));
    }
    dst.bytes.copy_from_slice(&ub[..n]);
    Ok(())
}

/// `StoreAlign(ubAddr, srcReg, mask)`: the active elements of `src` into `ub` (every element without a mask);
/// the bytes of inactive elements are not written. An active element past the end of `ub` is an error.
pub fn store_align(ub: &mut [u8], src: &VReg, t: DType, mask: Option<&MaskReg>) -> Result<(), String> {
    let size = t.size();
    for i in 0..src.lanes(t) {
        if mask.is_some_and(|m| !m.active(t, i)) {
            continue;
        }
        let end = (i + 1) * size;
        if end > ub.len() {
            return Err(format!(
                "StoreAlign writes element {i} ({end} bytes), past the end of the buffer ({} bytes)",
                ub.len()
            ));
        }
        ub[i * size..end].copy_from_slice(&src.bytes[i * size..end]);
    }
    Ok(())
}

/// Writes `value(i)` into the active elements of `dst`; inactive ones become 0 (ZEROING) or keep their value.
fn predicated(dst: &mut VReg, t: DType, mask: &MaskReg, mode: MergeMode, value: impl Fn(usize) -> u64) {
    for i in 0..dst.lanes(t) {
        if mask.active(t, i) {
            dst.set(t, i, value(i));
        } else if mode == MergeMode::Zeroing {
            dst.set(t, i, 0);
        }
    }
}

/// `Duplicate(dstReg, scalar, mask)`: `bits` (the scalar already in `t`) in every active element.
pub fn duplicate(dst: &mut VReg, t: DType, bits: u64, mask: &MaskReg, mode: MergeMode) {
    predicated(dst, t, mask, mode, |_| bits);
}

/// `Duplicate(dst, src, mask)`, the Tensor mode: `src`'s lowest element into the lanes the mask selects (docs
/// .../Reg矢量计算/数据填充/Duplicate.md, `pos` LOWEST).
pub fn duplicate_lowest(dst: &mut VReg, t: DType, src: &VReg, mask: &MaskReg, mode: MergeMode) {
    duplicate(dst, t, src.get(t, 0), mask, mode);
}

fn float_op(op: RegBinOp, a: f32, b: f32) -> f32 {
    match op {
        RegBinOp::Add => a + b,
        RegBinOp::Sub => a - b,
        RegBinOp::Mul => a * b,
        RegBinOp::Div => a / b,
        RegBinOp::Max => fmax(a, b),
        RegBinOp::Min => fmin(a, b),
        RegBinOp::ShiftLeft | RegBinOp::ShiftRight => f32::NAN, // refused before (apply)
    }
}

/// `ShiftLefts` / `ShiftRights(dst, src, n, mask)` on one element of integer type `t` (asc-devkit docs
/// .../Reg矢量计算/逻辑计算/ShiftLefts.md, ShiftRights.md): unsigned types shift logically; signed ones
/// arithmetically, a left shift keeping the sign bit and dropping the bits below it ("次高位被丢弃": int16
/// 0b1010101010101010 << 1 is 0b1101010101010100), a right shift copying the sign. A shift past the type's width
/// gives 0 (a signed right shift of a negative value -1); a negative shift "is undefined", and a signed left shift
/// by exactly the width is not described: both are refused.
pub fn shift(left: bool, t: DType, a: u64, n: i64) -> Result<u64, String> {
    let bits = 8 * t.size() as i64;
    let name = if left { "ShiftLefts" } else { "ShiftRights" };
    if n < 0 {
        return Err(format!("{name} by {n}: a negative shift is undefined (the page)"));
    }
    let v = t.to_i64(a);
    if !t.is_signed() {
        let u = a & (u64::MAX >> (64 - bits));
        return Ok(if n >= bits {
            0
        } else if left {
            t.from_i64((u << n) as i64)
        } else {
            u >> n
        });
    }
    if !left {
        return Ok(t.from_i64(v >> n.min(63)));
    }
    if n > bits {
        return Ok(0);
    }
    if n == bits {
        return Err(format!(
            "ShiftLefts of {} by its width {bits} (not described)",
            t.name()
        ));
    }
    let low = (1u64 << (bits - 1)) - 1;
    let sign = if v < 0 { 1u64 << (bits - 1) } else { 0 };
    let shifted = if n >= bits - 1 { 0 } else { ((v as u64) << n) & low };
    Ok(t.from_i64((sign | shifted) as i64))
}

fn int_op(op: RegBinOp, a: i64, b: i64) -> Result<i64, String> {
    Ok(match op {
        RegBinOp::Add => a.wrapping_add(b),
        RegBinOp::Sub => a.wrapping_sub(b),
        RegBinOp::Mul => a.wrapping_mul(b),
        RegBinOp::Max => a.max(b),
        RegBinOp::Min => a.min(b),
        RegBinOp::ShiftLeft | RegBinOp::ShiftRight => return Err("a shift outside apply".to_string()),
        // integer Div (vec_binary_impl.h:1416-1430: int16 / uint16 / int32 / uint32 are one `vdiv`): the quotient
        // of non-negative operands is exact (the 64-bit form's emulation, :620-676, rounds it down); how the
        // instruction rounds a negative operand, or what a zero divisor gives at these widths, is not documented
        RegBinOp::Div if b == 0 => return Err("integer Div by zero (its result is not documented)".to_string()),
        RegBinOp::Div if a < 0 || b < 0 => {
            return Err(format!(
                "integer Div {a} / {b}: the rounding of a negative operand is not documented"
            ))
        }
        RegBinOp::Div => a / b,
    })
}

/// One element of `op` on bits of `t`.
fn apply(op: RegBinOp, t: DType, a: u64, b: u64) -> Result<u64, String> {
    if matches!(op, RegBinOp::ShiftLeft | RegBinOp::ShiftRight) {
        if t.is_float() {
            return Err(format!("a shift of {} elements (integers only)", t.name()));
        }
        return shift(op == RegBinOp::ShiftLeft, t, a, t.to_i64(b));
    }
    if t.is_float() {
        let r = float_op(op, t.to_f64(a) as f32, t.to_f64(b) as f32);
        Ok(t.from_f64(r as f64))
    } else {
        Ok(t.from_i64(int_op(op, t.to_i64(a), t.to_i64(b))?))
    }
}

/// `Add(dstReg, src0Reg, src1Reg, mask)` and its siblings, element by element over the active lanes.
pub fn binary(
    op: RegBinOp,
    t: DType,
    dst: &mut VReg,
    a: &VReg,
    b: &VReg,
    mask: &MaskReg,
    mode: MergeMode,
) -> Result<(), String> {
    let values = (0..dst.lanes(t))
        .map(|i| {
            if mask.active(t, i) {
                apply(op, t, a.get(t, i), b.get(t, i))
            } else {
                Ok(0)
            }
        })
        .collect::<Result<Vec<u64>, String>>()?;
    predicated(dst, t, mask, mode, |i| values[i]);
    Ok(())
}

/// Div's flush-to-zero algorithms (Div.md: DivAlgo::*_FTZ_TRUE, "其他模式下Subnormal均被FTZ"): a subnormal
/// result becomes a zero of its sign. (The page speaks of results; inputs are taken as they are.)
pub fn flush_subnormals(t: DType, dst: &mut VReg) {
    // the smallest normal magnitude: half's 2^-14; bfloat16 has float's exponent range
    let tiny = match t {
        DType::F16 => 6.103515625e-05,
        DType::F32 | DType::BF16 => f32::MIN_POSITIVE as f64,
        _ => return,
    };
    for i in 0..dst.lanes(t) {
        let v = t.to_f64(dst.get(t, i));
        if v != 0.0 && v.abs() < tiny {
            dst.set(t, i, t.from_f64(if v < 0.0 { -0.0 } else { 0.0 }));
        }
    }
}

/// `MulAddDst(dstReg, src0Reg, src1Reg, mask)` (docs .../Reg矢量计算/复合计算/MulAddDst.md): dst = src0 * src1 +
/// dst on the active lanes, "在硬件层面单条指令完成乘加融合计算" (one fused instruction, more precise than Mul then
/// Add): floats as f64's fused multiply-add rounded to `t` (the product of two f32 / half / bf16 is exact in f64;
/// the sum is rounded there and again to `t`, which differs from one rounding only on rare ties), integers
/// wrapping. With `dst_factor`, `MulDstAdd(dstReg, src0Reg, src1Reg, mask)` (MulDstAdd.md, "融合乘加"): dst = dst *
/// src0 + src1, the same fused operation with dst as a factor. Both pages support only ZEROING ("MERGING模式当前不
/// 支持"): the caller refuses MERGING.
pub fn mul_add_dst(t: DType, dst: &mut VReg, a: &VReg, b: &VReg, mask: &MaskReg, dst_factor: bool) {
    let values: Vec<u64> = (0..dst.lanes(t))
        .map(|i| {
            let (x, y, z) = if dst_factor {
                (dst.get(t, i), a.get(t, i), b.get(t, i))
            } else {
                (a.get(t, i), b.get(t, i), dst.get(t, i))
            };
            if t.is_float() {
                t.from_f64(t.to_f64(x).mul_add(t.to_f64(y), t.to_f64(z)))
            } else {
                t.from_i64(t.to_i64(x).wrapping_mul(t.to_i64(y)).wrapping_add(t.to_i64(z)))
            }
        })
        .collect();
    predicated(dst, t, mask, MergeMode::Zeroing, |i| values[i]);
}

/// `Adds(dstReg, srcReg, scalar, mask)` (and `Muls`, `Maxs`, `Mins`): `op` with the scalar (bits of `t`) as
/// the second operand of every element.
pub fn binary_scalar(
    op: RegBinOp,
    t: DType,
    dst: &mut VReg,
    src: &VReg,
    scalar: u64,
    mask: &MaskReg,
    mode: MergeMode,
) -> Result<(), String> {
    let values = (0..dst.lanes(t))
        .map(|i| {
            if mask.active(t, i) {
                apply(op, t, src.get(t, i), scalar)
            } else {
                Ok(0)
            }
        })
        .collect::<Result<Vec<u64>, String>>()?;
    predicated(dst, t, mask, mode, |i| values[i]);
    Ok(())
}

/// `Abs(dstReg, srcReg, mask)`, `Sqrt`, `Exp`, `Relu`, `Neg`, `Ln`: Sqrt, Exp and Ln on floats only.
pub fn unary(op: RegUnOp, t: DType, dst: &mut VReg, src: &VReg, mask: &MaskReg, mode: MergeMode) -> Result<(), String> {
    if !t.is_float() && !matches!(op, RegUnOp::Abs | RegUnOp::Relu | RegUnOp::Neg) {
        return Err(format!("{op:?} of {} registers is not modelled", t.name()));
    }
    let one = |bits: u64| -> u64 {
        if !t.is_float() {
            let v = t.to_i64(bits);
            return t.from_i64(match op {
                RegUnOp::Relu => v.max(0),
                RegUnOp::Neg => v.wrapping_neg(),
                _ => v.wrapping_abs(),
            });
        }
        let x = t.to_f64(bits) as f32;
        let r = match op {
            RegUnOp::Abs => x.abs(),
            RegUnOp::Sqrt => x.sqrt(),
            RegUnOp::Exp => x.exp(),
            RegUnOp::Relu => relu(x),
            RegUnOp::Neg => -x,
            RegUnOp::Ln => x.ln(),
        };
        t.from_f64(r as f64)
    };
    predicated(dst, t, mask, mode, |i| one(src.get(t, i)));
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn shifts_follow_the_pages_examples_and_limits() {
        let (i16t, u16t) = (DType::I16, DType::U16);
        let x = 0b1010_1010_1010_1010u64;
        // ShiftLefts.md: logical for unsigned, arithmetic (sign kept) for signed
        assert_eq!(super::shift(true, u16t, x, 1).unwrap(), 0b0101_0101_0101_0100);
        assert_eq!(super::shift(true, i16t, x, 1).unwrap(), 0b1101_0101_0101_0100);
        assert_eq!(super::shift(true, i16t, x, 3).unwrap(), 0b1101_0101_0101_0000);
        // ShiftRights.md: 1010.. >> 1 logical 0101..; arithmetic copies the sign
        assert_eq!(super::shift(false, u16t, x, 1).unwrap(), 0b0101_0101_0101_0101);
        assert_eq!(super::shift(false, i16t, x, 1).unwrap(), 0b1101_0101_0101_0101);
        assert_eq!(super::shift(false, i16t, x, 3).unwrap(), 0b1111_0101_0101_0101);
        // past the width: 0, a negative value shifted right -1
        assert_eq!(super::shift(true, u16t, x, 17).unwrap(), 0);
        assert_eq!(super::shift(true, i16t, x, 17).unwrap(), 0);
        assert_eq!(DType::I16.to_i64(super::shift(false, i16t, x, 40).unwrap()), -1);
        assert!(super::shift(true, i16t, x, -1).is_err());
        assert!(super::shift(true, i16t, x, 16).is_err());
        assert_eq!(super::shift(true, DType::U32, 3, 31).unwrap(), 1 << 31);
    }

    use super::*;
    use crate::vector::reg::mask::{create_mask, update_mask, MaskPattern};

    use crate::vector::reg::test_regs::{f, floats, W};

    #[test]
    fn flush_to_zero_clears_subnormal_results_only() {
        let mut d = floats(&[1e-40, -1e-40, f32::MIN_POSITIVE, 3.0]);
        flush_subnormals(DType::F32, &mut d);
        assert_eq!([f(&d, 0), f(&d, 2), f(&d, 3)], [0.0, f32::MIN_POSITIVE, 3.0]);
        assert!(f(&d, 1) == 0.0 && f(&d, 1).is_sign_negative(), "a zero of its sign");
    }

    #[test]
    fn mul_add_dst_adds_the_product_to_dst_in_one_rounding_and_zeroes_the_rest() {
        let (a, b) = (
            floats(&[2.0, 1.0 + f32::EPSILON, 3.0]),
            floats(&[5.0, 1.0 - f32::EPSILON, 4.0]),
        );
        let mut d = floats(&[1.0, -1.0, 7.0]);
        mul_add_dst(DType::F32, &mut d, &a, &b, &MaskReg::first(W, DType::F32, 2), false);
        assert_eq!(f(&d, 0), 11.0);
        // (1 + e)(1 - e) - 1 = -e^2: fused it is kept; a rounded product (1.0) would give 0
        assert_eq!(f(&d, 1), -f32::EPSILON * f32::EPSILON);
        assert_eq!(f(&d, 2), 0.0, "an inactive lane is zeroed");
        let mut i = VReg::zeroed(W);
        let (mut x, mut y) = (VReg::zeroed(W), VReg::zeroed(W));
        x.set(DType::I16, 0, DType::I16.from_i64(300));
        y.set(DType::I16, 0, DType::I16.from_i64(300));
        i.set(DType::I16, 0, DType::I16.from_i64(-7));
        mul_add_dst(DType::I16, &mut i, &x, &y, &MaskReg::first(W, DType::I16, 1), false);
        assert_eq!(
            DType::I16.to_i64(i.get(DType::I16, 0)),
            (90_000i64 - 7) as i16 as i64,
            "wraps"
        );
    }

    #[test]
    fn mul_dst_add_multiplies_dst_and_adds_the_second_source() {
        let (a, b) = (floats(&[5.0, 1.0 - f32::EPSILON]), floats(&[1.0, -1.0]));
        let mut d = floats(&[2.0, 1.0 + f32::EPSILON]);
        mul_add_dst(DType::F32, &mut d, &a, &b, &MaskReg::first(W, DType::F32, 2), true);
        assert_eq!(f(&d, 0), 11.0, "dst * src0 + src1");
        assert_eq!(f(&d, 1), -f32::EPSILON * f32::EPSILON, "fused");
    }

    #[test]
    fn add_zeroing_clears_and_merging_keeps_inactive_lanes() {
        let a = floats(&[1.0, 2.0, 3.0, 4.0]);
        let b = floats(&[10.0, 20.0, 30.0, 40.0]);
        let mut count = 2u32;
        let mask = update_mask(W, DType::F32, &mut count); // lanes 0 and 1
        let mut dst = floats(&[-1.0, -1.0, -1.0, -1.0]);
        binary(RegBinOp::Add, DType::F32, &mut dst, &a, &b, &mask, MergeMode::Zeroing).unwrap();
        assert_eq!([f(&dst, 0), f(&dst, 1), f(&dst, 2), f(&dst, 3)], [11.0, 22.0, 0.0, 0.0]);
        let mut dst = floats(&[-1.0, -1.0, -1.0, -1.0]);
        binary(RegBinOp::Add, DType::F32, &mut dst, &a, &b, &mask, MergeMode::Merging).unwrap();
        assert_eq!(
            [f(&dst, 0), f(&dst, 1), f(&dst, 2), f(&dst, 3)],
            [11.0, 22.0, -1.0, -1.0]
        );
    }

    #[test]
    fn duplicate_lowest_broadcasts_element_zero_under_the_mode() {
        let src = floats(&[2.5, 7.0, 9.0]);
        let mut count = 3u32;
        let mask = update_mask(W, DType::F32, &mut count); // lanes 0..3
        let mut dst = floats(&[-1.0, -1.0, -1.0, -1.0]);
        duplicate_lowest(&mut dst, DType::F32, &src, &mask, MergeMode::Merging);
        assert_eq!([f(&dst, 0), f(&dst, 1), f(&dst, 2), f(&dst, 3)], [2.5, 2.5, 2.5, -1.0]);
        duplicate_lowest(&mut dst, DType::F32, &src, &mask, MergeMode::Zeroing);
        assert_eq!([f(&dst, 2), f(&dst, 3), f(&dst, 63)], [2.5, 0.0, 0.0]);
    }

    #[test]
    fn sub_mul_div_max_min_on_floats() {
        let a = floats(&[6.0, -3.0]);
        let b = floats(&[4.0, 2.0]);
        let all = create_mask(W, DType::F32, MaskPattern::All);
        let cases = [
            (RegBinOp::Sub, [2.0, -5.0]),
            (RegBinOp::Mul, [24.0, -6.0]),
            (RegBinOp::Div, [1.5, -1.5]),
            (RegBinOp::Max, [6.0, 2.0]),
            (RegBinOp::Min, [4.0, -3.0]),
        ];
        for (op, want) in cases {
            let mut dst = VReg::zeroed(W);
            binary(op, DType::F32, &mut dst, &a, &b, &all, MergeMode::Zeroing).unwrap();
            assert_eq!([f(&dst, 0), f(&dst, 1)], want, "{op:?}");
        }
    }

    #[test]
    fn max_and_min_give_nan_for_a_nan_operand_as_the_vector_unit_does() {
        // the same rule as the tensor-level Max/Min (vector::binary::fmax/fmin); f32::max would drop the NaN
        let a = floats(&[f32::NAN, 1.0]);
        let b = floats(&[2.0, f32::NAN]);
        let all = create_mask(W, DType::F32, MaskPattern::All);
        for op in [RegBinOp::Max, RegBinOp::Min] {
            let mut dst = VReg::zeroed(W);
            binary(op, DType::F32, &mut dst, &a, &b, &all, MergeMode::Zeroing).unwrap();
            assert!(f(&dst, 0).is_nan() && f(&dst, 1).is_nan(), "{op:?}");
        }
    }

    #[test]
    fn half_rounds_once_and_integers_wrap() {
        // half: 2049 is not representable (11 significand bits): 2048 + 1 rounds to even, 2048
        let t = DType::F16;
        let mut a = VReg::zeroed(W);
        let mut b = VReg::zeroed(W);
        a.set(t, 0, t.from_f64(2048.0));
        b.set(t, 0, t.from_f64(1.0));
        let all = create_mask(W, t, MaskPattern::All);
        let mut dst = VReg::zeroed(W);
        binary(RegBinOp::Add, t, &mut dst, &a, &b, &all, MergeMode::Zeroing).unwrap();
        assert_eq!(t.to_f64(dst.get(t, 0)), 2048.0);
        // int16: 32767 + 1 wraps to -32768
        let t = DType::I16;
        let mut a = VReg::zeroed(W);
        a.set(t, 5, t.from_i64(32767));
        let mut dst = VReg::zeroed(W);
        binary_scalar(RegBinOp::Add, t, &mut dst, &a, t.from_i64(1), &all, MergeMode::Zeroing).unwrap();
        assert_eq!(t.to_i64(dst.get(t, 5)), -32768);
        assert_eq!(t.to_i64(dst.get(t, 0)), 1);
        // int16 Div: a zero divisor in an active lane is refused, by name
        assert!(binary(RegBinOp::Div, t, &mut dst, &a, &a, &all, MergeMode::Zeroing)
            .unwrap_err()
            .contains("Div by zero"));
    }

    #[test]
    fn muls_and_duplicate_under_a_tail_mask() {
        let src = floats(&[1.0, 2.0, 3.0]);
        let mut count = 66u32; // second register of 66 floats: the 2-element tail
        update_mask(W, DType::F32, &mut count);
        let tail = update_mask(W, DType::F32, &mut count);
        let mut dst = floats(&[9.0, 9.0, 9.0]);
        binary_scalar(
            RegBinOp::Mul,
            DType::F32,
            &mut dst,
            &src,
            0.5f32.to_bits() as u64,
            &tail,
            MergeMode::Merging,
        )
        .unwrap();
        assert_eq!([f(&dst, 0), f(&dst, 1), f(&dst, 2)], [0.5, 1.0, 9.0]);
        duplicate(&mut dst, DType::F32, 7.0f32.to_bits() as u64, &tail, MergeMode::Zeroing);
        assert_eq!([f(&dst, 0), f(&dst, 1), f(&dst, 2), f(&dst, 63)], [7.0, 7.0, 0.0, 0.0]);
    }

    #[test]
    fn integer_div_of_non_negative_operands_and_relu_neg_ln() {
        let t = DType::I32;
        let mut a = VReg::zeroed(W);
        let mut b = VReg::zeroed(W);
        for (i, (x, y)) in [(7, 2), (9, 3), (-7, 2), (5, 0)].iter().enumerate() {
            a.set(t, i, t.from_i64(*x));
            b.set(t, i, t.from_i64(*y));
        }
        let mut n = 2u32;
        let two = update_mask(W, t, &mut n);
        let mut dst = VReg::zeroed(W);
        binary(RegBinOp::Div, t, &mut dst, &a, &b, &two, MergeMode::Zeroing).unwrap();
        assert_eq!((t.to_i64(dst.get(t, 0)), t.to_i64(dst.get(t, 1))), (3, 3));
        // lanes 2 (a negative dividend) and 3 (a zero divisor) are refused once active
        let mut n = 3u32;
        let three = update_mask(W, t, &mut n);
        let e = binary(RegBinOp::Div, t, &mut dst, &a, &b, &three, MergeMode::Zeroing).unwrap_err();
        assert!(e.contains("negative operand"), "{e}");
        // Relu / Neg on int8 (wrapping) and floats, Ln of floats
        let i8t = DType::I8;
        let mut s = VReg::zeroed(W);
        s.set(i8t, 0, i8t.from_i64(-128));
        s.set(i8t, 1, i8t.from_i64(5));
        let all8 = create_mask(W, i8t, MaskPattern::All);
        unary(RegUnOp::Neg, i8t, &mut dst, &s, &all8, MergeMode::Zeroing).unwrap();
        assert_eq!((i8t.to_i64(dst.get(i8t, 0)), i8t.to_i64(dst.get(i8t, 1))), (-128, -5));
        unary(RegUnOp::Relu, i8t, &mut dst, &s, &all8, MergeMode::Zeroing).unwrap();
        assert_eq!((i8t.to_i64(dst.get(i8t, 0)), i8t.to_i64(dst.get(i8t, 1))), (0, 5));
        let src = floats(&[-2.0, f32::NAN, 1.0, 0.0]);
        let all = create_mask(W, DType::F32, MaskPattern::All);
        unary(RegUnOp::Relu, DType::F32, &mut dst, &src, &all, MergeMode::Zeroing).unwrap();
        assert_eq!(f(&dst, 0), 0.0);
        assert!(f(&dst, 1).is_nan());
        unary(RegUnOp::Neg, DType::F32, &mut dst, &src, &all, MergeMode::Zeroing).unwrap();
        assert_eq!((f(&dst, 0), f(&dst, 2)), (2.0, -1.0));
        unary(RegUnOp::Ln, DType::F32, &mut dst, &src, &all, MergeMode::Zeroing).unwrap();
        assert_eq!((f(&dst, 2), f(&dst, 3)), (0.0, f32::NEG_INFINITY));
        assert!(f(&dst, 0).is_nan()); // ln of a negative
        assert!(unary(RegUnOp::Ln, DType::I32, &mut dst, &src, &all, MergeMode::Zeroing).is_err());
    }

    #[test]
    fn unary_ops() {
        let src = floats(&[-4.0, 4.0, 0.0]);
        let all = create_mask(W, DType::F32, MaskPattern::All);
        let mut dst = VReg::zeroed(W);
        unary(RegUnOp::Abs, DType::F32, &mut dst, &src, &all, MergeMode::Zeroing).unwrap();
        assert_eq!([f(&dst, 0), f(&dst, 1)], [4.0, 4.0]);
        unary(RegUnOp::Sqrt, DType::F32, &mut dst, &src, &all, MergeMode::Zeroing).unwrap();
        assert!(f(&dst, 0).is_nan());
        assert_eq!(f(&dst, 1), 2.0);
        unary(RegUnOp::Exp, DType::F32, &mut dst, &src, &all, MergeMode::Zeroing).unwrap();
        assert_eq!(f(&dst, 2), 1.0);
        assert!(unary(RegUnOp::Sqrt, DType::I32, &mut dst, &src, &all, MergeMode::Zeroing).is_err());
    }

    #[test]
    fn load_and_masked_store_keep_unwritten_bytes() {
        let mut ub: Vec<u8> = (0..W as u32).flat_map(|i| (i as f32).to_bits().to_le_bytes()).collect();
        let mut r = VReg::zeroed(W);
        load_align(&mut r, &ub[4 * 8..]).unwrap(); // from element 8
        assert_eq!(f(&r, 0), 8.0);
        assert_eq!(f(&r, 63), 71.0);
        let mut count = 3u32;
        let mask = update_mask(W, DType::F32, &mut count);
        let out = floats(&[-1.0, -2.0, -3.0, -4.0]);
        store_align(&mut ub, &out, DType::F32, Some(&mask)).unwrap();
        let at = |ub: &[u8], i: usize| f32::from_le_bytes(ub[4 * i..4 * i + 4].try_into().unwrap());
        assert_eq!([at(&ub, 0), at(&ub, 2), at(&ub, 3)], [-1.0, -3.0, 3.0]);
        // a load past the buffer's end, and an active element stored past it, are errors
        assert!(load_align(&mut r, &ub[4 * 250..]).unwrap_err().contains("past the end"));
        assert!(store_align(&mut ub[..8], &out, DType::F32, Some(&mask))
            .unwrap_err()
            .contains("element 2"));
        // inactive elements past the end are not written, so not an error
        let mut count = 2u32;
        let two = update_mask(W, DType::F32, &mut count);
        store_align(&mut ub[..8], &out, DType::F32, Some(&two)).unwrap();
    }
}
