//! Register compare, select and the logic instructions: `Compare` / `Compares` (a MaskReg result), `Select` (by a
//! MaskReg), `And` / `Or` / `Xor` / `Not` on vector registers and on mask registers, and the mask `Select`.
//!
//! Facts (asc-devkit): reg_compute/kernel_reg_compute_vec_cmpsel_intf.h:33-40 (the signatures; CMPMODE defaults
//! to EQ), dav_3510/kernel_reg_compute_vec_cmpsel_impl.h:125-148 (`vcmp_<mode>(dst, src0, src1, mask)` for
//! elements under 8 bytes), :166-189 (`vcmps_<mode>` with the scalar converted to the element type), :197-209
//! (`vsel` on the same-width unsigned view: Select moves bits, whatever T is); CMPMODE's values are
//! impl/basic_api/utils/kernel_utils_mode.h:111-118 (LT, GT, EQ, LE, GE, NE). What Select picks for a set mask
//! bit is the first source: ops-math sign.h:69 selects `ones` under `x > 0` to build sign(x), and the
//! example 02_reg_vector_compute/select/select.asc:35 computes z = select(x, y, mask).
//!
//! Lanes the mask leaves out: Compare's result bit is 0 there (the compare writes a predicate for the active
//! elements only; the headers give Compare no MaskMergeMode, so it is read as the ZEROING every other
//! predicated instruction defaults to). The predicate logic (`pand` / `por` / `pxor` / `pnot` under a mask,
//! dav_3510/kernel_reg_compute_maskreg_impl.h:127-141) is per byte lane and likewise 0 outside the mask.
//! Float compares follow IEEE 754: a NaN operand compares unequal to everything (EQ, LT, GT, LE, GE false, NE
//! true).

use crate::dtype::DType;
use crate::vector::reg::file::VReg;
use crate::vector::reg::mask::MaskReg;
use crate::vector::reg::ops::MergeMode;

/// `CMPMODE` (kernel_utils_mode.h:111-118).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpMode {
    Lt,
    Gt,
    Eq,
    Le,
    Ge,
    Ne,
}

impl CmpMode {
    /// The mode of enumerator `name` (`GT`, `CMPMODE::GT`, `AscendC::CMPMODE::LE`).
    pub fn from_name(name: &str) -> Result<CmpMode, String> {
        Ok(match name.rsplit("::").next().unwrap_or(name) {
            "LT" => CmpMode::Lt,
            "GT" => CmpMode::Gt,
            "EQ" => CmpMode::Eq,
            "LE" => CmpMode::Le,
            "GE" => CmpMode::Ge,
            "NE" => CmpMode::Ne,
            other => return Err(format!("'{other}' is no CMPMODE")),
        })
    }

    fn holds(self, ord: Option<std::cmp::Ordering>) -> bool {
        use std::cmp::Ordering::*;
        match (self, ord) {
            (CmpMode::Ne, None) => true,
            (_, None) => false, // a NaN operand
            (CmpMode::Lt, Some(o)) => o == Less,
            (CmpMode::Gt, Some(o)) => o == Greater,
            (CmpMode::Eq, Some(o)) => o == Equal,
            (CmpMode::Le, Some(o)) => o != Greater,
            (CmpMode::Ge, Some(o)) => o != Less,
            (CmpMode::Ne, Some(o)) => o != Equal,
        }
    }
}

/// How two elements of `t` (bits) order: floats by value (None for a NaN), integers by their signedness.
fn order(t: DType, a: u64, b: u64) -> Option<std::cmp::Ordering> {
    if t.is_float() {
        t.to_f64(a).partial_cmp(&t.to_f64(b))
    } else if t.is_signed() {
        Some(t.to_i64(a).cmp(&t.to_i64(b)))
    } else {
        Some(a.cmp(&b))
    }
}

/// Sets element `i` of `t` in `dst` (all `sizeof(T)` of its byte lanes) to `on`.
fn set_element(dst: &mut MaskReg, t: DType, i: usize, on: bool) {
    let n = t.size();
    dst.bits[i * n..(i + 1) * n].iter_mut().for_each(|b| *b = on);
}

/// `Compare<T, mode>(dst, src0, src1, mask)`: element i of `dst` set when it is active and `src0[i] mode
/// src1[i]` holds; clear otherwise.
pub fn compare(t: DType, mode: CmpMode, dst: &mut MaskReg, a: &VReg, b: &VReg, mask: &MaskReg) {
    for i in 0..a.lanes(t) {
        let on = mask.active(t, i) && mode.holds(order(t, a.get(t, i), b.get(t, i)));
        set_element(dst, t, i, on);
    }
}

/// `Compares<T, mode>(dst, src, scalar, mask)`: Compare against `scalar` (bits of `t`) in every element.
pub fn compare_scalar(t: DType, mode: CmpMode, dst: &mut MaskReg, a: &VReg, scalar: u64, mask: &MaskReg) {
    for i in 0..a.lanes(t) {
        let on = mask.active(t, i) && mode.holds(order(t, a.get(t, i), scalar));
        set_element(dst, t, i, on);
    }
}

/// `Select(dst, src0, src1, mask)`: element i is src0's where the mask has it, src1's elsewhere.
pub fn select(t: DType, dst: &mut VReg, a: &VReg, b: &VReg, mask: &MaskReg) {
    for i in 0..a.lanes(t) {
        let v = if mask.active(t, i) { a.get(t, i) } else { b.get(t, i) };
        dst.set(t, i, v);
    }
}

/// A bitwise operation of the logic instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogicOp {
    And,
    Or,
    Xor,
    /// `Not` (one source: the second is ignored)
    Not,
}

impl LogicOp {
    pub fn from_name(name: &str) -> Option<LogicOp> {
        Some(match name {
            "And" => LogicOp::And,
            "Or" => LogicOp::Or,
            "Xor" => LogicOp::Xor,
            "Not" => LogicOp::Not,
            _ => return None,
        })
    }

    fn bits(self, a: u64, b: u64) -> u64 {
        match self {
            LogicOp::And => a & b,
            LogicOp::Or => a | b,
            LogicOp::Xor => a ^ b,
            LogicOp::Not => !a,
        }
    }
}

/// `And(dstReg, src0Reg, src1Reg, mask)` (and `Or`, `Xor`; `Not(dstReg, srcReg, mask)`) on the bits of each
/// element of `t` (kernel_reg_compute_vec_binary_intf.h:61-68, vec_unary_intf.h:65-66; ZEROING by default).
pub fn logic(op: LogicOp, t: DType, dst: &mut VReg, a: &VReg, b: &VReg, mask: &MaskReg, mode: MergeMode) {
    let keep = u64::MAX >> (64 - 8 * t.size());
    for i in 0..a.lanes(t) {
        if mask.active(t, i) {
            dst.set(t, i, op.bits(a.get(t, i), b.get(t, i)) & keep);
        } else if mode == MergeMode::Zeroing {
            dst.set(t, i, 0);
        }
    }
}

/// The predicate forms (`And(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask)`, `Or`, `Xor`,
/// `Not(dst, src, mask)`; kernel_reg_compute_maskreg_intf.h:43-52): byte lane by byte lane, 0 outside `mask`.
pub fn mask_logic(op: LogicOp, dst: &mut MaskReg, a: &MaskReg, b: &MaskReg, mask: &MaskReg) {
    for (lane, bit) in dst.bits.iter_mut().enumerate() {
        let (x, y) = (a.bits[lane] as u64, b.bits[lane] as u64);
        *bit = mask.bits[lane] && op.bits(x, y) & 1 == 1;
    }
}

/// The mask `Select(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask)` (maskreg_intf.h:64): src0's
/// bit where `mask` is set, src1's elsewhere, byte lane by byte lane.
pub fn mask_select(dst: &mut MaskReg, a: &MaskReg, b: &MaskReg, mask: &MaskReg) {
    for (lane, bit) in dst.bits.iter_mut().enumerate() {
        *bit = if mask.bits[lane] { a.bits[lane] } else { b.bits[lane] };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vector::reg::mask::{create_mask, update_mask, MaskPattern};

    use crate::vector::reg::test_regs::{f, floats, W};

    #[test]
    fn compare_sets_active_true_elements_and_a_nan_is_unequal() {
        let t = DType::F32;
        let a = floats(&[1.0, 2.0, f32::NAN, 5.0, 7.0]);
        let b = floats(&[2.0, 2.0, 1.0, 4.0, 1.0]);
        let mut count = 4u32; // element 4 (7 > 1) is outside the mask
        let mask = update_mask(W, t, &mut count);
        let mut dst = create_mask(W, t, MaskPattern::All); // stale bits must not survive
        let want = |mode, expect: [bool; 5]| {
            let mut d = dst.clone();
            compare(t, mode, &mut d, &a, &b, &mask);
            let got: Vec<bool> = (0..5).map(|i| d.active(t, i)).collect();
            assert_eq!(got, expect, "{mode:?}");
            // every byte lane of an element follows it, and the lanes past the mask are clear
            assert_eq!(d.bits[4..8], [d.active(t, 1); 4]);
            assert!(!d.active(t, 63));
        };
        want(CmpMode::Lt, [true, false, false, false, false]);
        want(CmpMode::Gt, [false, false, false, true, false]);
        want(CmpMode::Eq, [false, true, false, false, false]);
        want(CmpMode::Le, [true, true, false, false, false]);
        want(CmpMode::Ge, [false, true, false, true, false]);
        want(CmpMode::Ne, [true, false, true, true, false]);
        compare(t, CmpMode::Gt, &mut dst, &a, &b, &mask);
        assert_eq!(dst.count(t), 1);
    }

    #[test]
    fn compares_reads_signed_and_unsigned_integers_by_their_type() {
        let all_i16 = create_mask(W, DType::I16, MaskPattern::All);
        let mut a = VReg::zeroed(W);
        a.set(DType::I16, 0, DType::I16.from_i64(-1)); // 0xFFFF: -1 as int16, 65535 as uint16
        a.set(DType::I16, 1, DType::I16.from_i64(3));
        let mut dst = MaskReg::none(W);
        compare_scalar(DType::I16, CmpMode::Gt, &mut dst, &a, DType::I16.from_i64(0), &all_i16);
        assert_eq!((dst.active(DType::I16, 0), dst.active(DType::I16, 1)), (false, true));
        compare_scalar(DType::U16, CmpMode::Gt, &mut dst, &a, 0, &all_i16);
        assert_eq!((dst.active(DType::U16, 0), dst.active(DType::U16, 1)), (true, true));
        // element 2 holds 0: not > 0
        assert!(!dst.active(DType::U16, 2));
        assert_eq!(CmpMode::from_name("AscendC::CMPMODE::GE"), Ok(CmpMode::Ge));
        assert!(CmpMode::from_name("CMPMODE::GG").is_err());
    }

    #[test]
    fn select_takes_src0_under_the_mask_and_src1_elsewhere() {
        let t = DType::F32;
        let ones = floats(&[1.0; 4]);
        let zeros = floats(&[0.0; 4]);
        let x = floats(&[3.0, -2.0, 0.0, f32::NAN]);
        let mut gt = MaskReg::none(W);
        compare_scalar(t, CmpMode::Gt, &mut gt, &x, 0, &create_mask(W, t, MaskPattern::All));
        let mut dst = floats(&[9.0; 4]);
        select(t, &mut dst, &ones, &zeros, &gt);
        assert_eq!([f(&dst, 0), f(&dst, 1), f(&dst, 2), f(&dst, 3)], [1.0, 0.0, 0.0, 0.0]);
        // half: 128 lanes, bits moved as they are
        let h = DType::F16;
        let mut a = VReg::zeroed(W);
        let b = VReg::zeroed(W);
        a.set(h, 127, 0x7E00); // a half NaN's bits survive the select unchanged
        let mut d = VReg::zeroed(W);
        select(h, &mut d, &a, &b, &create_mask(W, h, MaskPattern::All));
        assert_eq!(d.get(h, 127), 0x7E00);
    }

    #[test]
    fn vector_logic_zeroing_and_merging() {
        let t = DType::U16;
        let mut a = VReg::zeroed(W);
        let mut b = VReg::zeroed(W);
        for i in 0..3 {
            a.set(t, i, 0b1100);
            b.set(t, i, 0b1010);
        }
        let mut count = 2u32;
        let mask = update_mask(W, t, &mut count);
        let mut dst = VReg::zeroed(W);
        dst.set(t, 2, 77);
        let cases = [
            (LogicOp::And, 0b1000),
            (LogicOp::Or, 0b1110),
            (LogicOp::Xor, 0b0110),
            (LogicOp::Not, 0xFFF3),
        ];
        for (op, want) in cases {
            let mut d = dst.clone();
            logic(op, t, &mut d, &a, &b, &mask, MergeMode::Merging);
            assert_eq!((d.get(t, 0), d.get(t, 1), d.get(t, 2)), (want, want, 77), "{op:?}");
            logic(op, t, &mut d, &a, &b, &mask, MergeMode::Zeroing);
            assert_eq!(d.get(t, 2), 0, "{op:?}");
        }
    }

    #[test]
    fn mask_logic_and_mask_select_per_byte_lane() {
        let f = DType::F32;
        let mut n = 2u32;
        let two = update_mask(W, f, &mut n); // byte lanes 0..8
        let mut n = 3u32;
        let three = update_mask(W, f, &mut n); // byte lanes 0..12
        let all = create_mask(W, f, MaskPattern::All);
        let mut dst = MaskReg::none(W);
        mask_logic(LogicOp::Xor, &mut dst, &two, &three, &all);
        assert_eq!((dst.count(f), dst.active(f, 2)), (1, true));
        mask_logic(LogicOp::Not, &mut dst, &two, &two, &three);
        assert_eq!(
            (dst.active(f, 1), dst.active(f, 2), dst.active(f, 3)),
            (false, true, false)
        );
        mask_logic(LogicOp::Or, &mut dst, &two, &three, &two);
        assert_eq!(dst.count(f), 2);
        mask_select(&mut dst, &two, &all, &three);
        // lanes 0..8 from `two` (set), 8..12 from `two` (clear), 12.. from `all` (set)
        assert_eq!(
            (dst.active(f, 1), dst.active(f, 2), dst.active(f, 3)),
            (true, false, true)
        );
    }
}
