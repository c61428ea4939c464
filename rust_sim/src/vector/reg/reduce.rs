//! Register `Reduce<ReduceType>(dstReg, srcReg, mask)` and `Arange(dstReg, start)`.
//!
//! Reduce (asc-devkit reg_compute/kernel_reg_compute_vec_reduce_intf.h: `Reduce<type = SUM, T, U, mode =
//! ZEROING>`; dav_3510/kernel_reg_compute_vec_reduce_impl.h:37-60 `vcadd`, :106-118 `vcmax`, :177-189 `vcmin`):
//! the active elements of src folded into element 0 of dst ("the Reduce result is in the first element", example
//! 02_reg_vector_compute/reduce/reduce.asc:114); ZEROING is the only mode (impl :49-51), so the other elements
//! of dst are 0. The sum may widen (impl :43-47: int16 -> int32, uint16 -> uint32; otherwise T is U); integer
//! sums wrap at T's width. The order the hardware adds floats in is not documented: the model folds the
//! register's lanes in adjacent pairs (inactive lanes as 0), rounding each step to T, as rust_sim's tensor-level
//! reduction does (vector/reduce/tree.rs). Max and Min of floats give NaN for a NaN operand (vector::binary's
//! fmax/fmin, as the register Max/Min do). A Max or Min over no active element is ASC958 (its value is not
//! documented).
//!
//! Arange (kernel_reg_compute_vec_arange_intf.h:34; impl vec_arange_impl.h:47-64 `vci` with IndexOrder
//! INCREASE_ORDER by default): element i is `start + i` (example arange/arange.asc:30-31), every element, no
//! mask; floats in f32 rounded once to T, integers wrap. DECREASE_ORDER is ASC958 (the headers do not say
//! whether it counts down from start or reverses the lanes).

use crate::dtype::DType;
use crate::vector::binary::{fmax, fmin};
use crate::vector::reduce::tree::fold_adjacent_pairs;
use crate::vector::reg::file::VReg;
use crate::vector::reg::mask::MaskReg;

/// `ReduceType` (impl/utils/common_types.h:25-30).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceKind {
    Sum,
    Max,
    Min,
}

impl ReduceKind {
    pub fn from_name(name: &str) -> Result<ReduceKind, String> {
        Ok(match name.rsplit("::").next().unwrap_or(name) {
            "SUM" => ReduceKind::Sum,
            "MAX" => ReduceKind::Max,
            "MIN" => ReduceKind::Min,
            other => return Err(format!("ReduceType::{other} is not modelled")),
        })
    }
}

/// `Reduce<kind, T, U>(dst, src, mask)`: the fold of src's active elements (of `u`) into element 0 of dst (of `t`).
pub fn reduce(kind: ReduceKind, t: DType, u: DType, dst: &mut VReg, src: &VReg, mask: &MaskReg) -> Result<(), String> {
    if kind != ReduceKind::Sum && t != u {
        return Err(format!("Reduce {kind:?} from {} into {}", u.name(), t.name()));
    }
    let active: Vec<usize> = (0..src.lanes(u)).filter(|&i| mask.active(u, i)).collect();
    let value = if u.is_float() {
        let x = |i: usize| u.to_f64(src.get(u, i)) as f32;
        let r = match kind {
            ReduceKind::Sum => {
                let lanes = (0..src.lanes(u))
                    .map(|i| if mask.active(u, i) { x(i) } else { 0.0 })
                    .collect();
                fold_adjacent_pairs(t, lanes)
            }
            ReduceKind::Max | ReduceKind::Min => {
                let Some((&first, rest)) = active.split_first() else {
                    return Err(format!("Reduce {kind:?} over no active element"));
                };
                let f = if kind == ReduceKind::Max { fmax } else { fmin };
                rest.iter().fold(x(first), |acc, &i| f(acc, x(i)))
            }
        };
        t.from_f64(r as f64)
    } else {
        let x = |i: usize| u.to_i64(src.get(u, i));
        let r = match kind {
            ReduceKind::Sum => active.iter().fold(0i64, |acc, &i| acc.wrapping_add(x(i))),
            ReduceKind::Max | ReduceKind::Min => {
                let vals = active.iter().map(|&i| x(i));
                let r = if kind == ReduceKind::Max {
                    vals.max()
                } else {
                    vals.min()
                };
                r.ok_or_else(|| format!("Reduce {kind:?} over no active element"))?
            }
        };
        t.from_i64(r)
    };
    *dst = VReg::zeroed(dst.bytes.len());
    dst.set(t, 0, value);
    Ok(())
}

/// `Arange(dst, start)`: element i is start + i (`start` as bits of `t`).
pub fn arange(t: DType, dst: &mut VReg, start: u64) {
    for i in 0..dst.lanes(t) {
        let v = if t.is_float() {
            t.from_f64((t.to_f64(start) as f32 + i as f32) as f64)
        } else {
            t.from_i64(t.to_i64(start).wrapping_add(i as i64))
        };
        dst.set(t, i, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vector::reg::mask::{create_mask, update_mask, MaskPattern};

    const W: usize = 256;

    #[test]
    fn reduce_sum_folds_the_active_lanes_into_element_0() {
        let f = DType::F32;
        let mut src = VReg::zeroed(W);
        for i in 0..64 {
            src.set(f, i, ((i + 1) as f32).to_bits() as u64);
        }
        let mut n = 10u32; // 1 + 2 + ... + 10 = 55
        let ten = update_mask(W, f, &mut n);
        let mut dst = VReg::zeroed(W);
        dst.set(f, 5, (3.0f32).to_bits() as u64);
        reduce(ReduceKind::Sum, f, f, &mut dst, &src, &ten).unwrap();
        assert_eq!(f.to_f64(dst.get(f, 0)), 55.0);
        assert_eq!(dst.get(f, 5), 0); // ZEROING: the rest of dst is 0

        // the fold's order shows in rounding: 2^24, 0, 1, 1 in adjacent pairs is (2^24 + 0) + (1 + 1), exact
        // (16777218); adding left to right would lose each 1 to ties-to-even (16777216)
        let mut src = VReg::zeroed(W);
        src.set(f, 0, (16_777_216.0f32).to_bits() as u64);
        src.set(f, 2, (1.0f32).to_bits() as u64);
        src.set(f, 3, (1.0f32).to_bits() as u64);
        let all = create_mask(W, f, MaskPattern::All);
        reduce(ReduceKind::Sum, f, f, &mut dst, &src, &all).unwrap();
        assert_eq!(f.to_f64(dst.get(f, 0)), 16_777_218.0);
    }

    #[test]
    fn reduce_max_min_with_a_nan_and_an_int16_sum_widening_to_int32() {
        let f = DType::F32;
        let mut src = VReg::zeroed(W);
        for (i, x) in [3.0f32, -7.0, 5.0].iter().enumerate() {
            src.set(f, i, x.to_bits() as u64);
        }
        let mut n = 3u32;
        let three = update_mask(W, f, &mut n);
        let mut dst = VReg::zeroed(W);
        reduce(ReduceKind::Max, f, f, &mut dst, &src, &three).unwrap();
        assert_eq!(f.to_f64(dst.get(f, 0)), 5.0);
        reduce(ReduceKind::Min, f, f, &mut dst, &src, &three).unwrap();
        assert_eq!(f.to_f64(dst.get(f, 0)), -7.0);
        src.set(f, 1, f32::NAN.to_bits() as u64);
        reduce(ReduceKind::Max, f, f, &mut dst, &src, &three).unwrap();
        assert!(f.to_f64(dst.get(f, 0)).is_nan());
        let none = create_mask(W, f, MaskPattern::AllFalse);
        assert!(reduce(ReduceKind::Max, f, f, &mut dst, &src, &none).is_err());
        // int16 -> int32: 128 lanes of 30000 sum to 3,840,000 (no int16 wrap)
        let (h, w) = (DType::I16, DType::I32);
        let mut src = VReg::zeroed(W);
        for i in 0..128 {
            src.set(h, i, h.from_i64(30000));
        }
        reduce(
            ReduceKind::Sum,
            w,
            h,
            &mut dst,
            &src,
            &create_mask(W, h, MaskPattern::All),
        )
        .unwrap();
        assert_eq!(w.to_i64(dst.get(w, 0)), 3_840_000);
        assert!(reduce(ReduceKind::Max, w, h, &mut dst, &src, &none).is_err());
    }

    #[test]
    fn arange_counts_up_from_the_start() {
        let mut dst = VReg::zeroed(W);
        arange(DType::I32, &mut dst, DType::I32.from_i64(-2));
        assert_eq!(
            (
                DType::I32.to_i64(dst.get(DType::I32, 0)),
                DType::I32.to_i64(dst.get(DType::I32, 63))
            ),
            (-2, 61)
        );
        let h = DType::F16;
        arange(h, &mut dst, h.from_f64(2040.0));
        // 2040 + 9 = 2049 is no half: rounds to even, 2048
        assert_eq!((h.to_f64(dst.get(h, 1)), h.to_f64(dst.get(h, 9))), (2041.0, 2048.0));
        let i8t = DType::I8;
        arange(i8t, &mut dst, i8t.from_i64(100));
        assert_eq!(i8t.to_i64(dst.get(i8t, 255)), (100 + 255 - 256) as i64);
    }
}
