//! Register relayout: `Interleave` / `DeInterleave` of two vector registers, `Pack` / `UnPack` between element
//! widths and the register `Gather` by an index register (asc-devkit
//! reg_compute/kernel_reg_compute_vec_duplicate_intf.h:44-48, kernel_reg_compute_pack_intf.h:32-37).
//!
//! The headers define the 64-bit Pack and UnPack through Interleave and DeInterleave of 32-bit words
//! (dav_3510/kernel_reg_compute_pack_impl.h), which fixes all four:
//! - `DeInterleave(d0, d1, s0, s1)`: d0 the even elements of s0 followed by those of s1, d1 the odd ones — Pack
//!   LOWEST is `DeInterleave(dst, dump, src, zero)` (:54-55), the low word of each 64-bit element into the lower
//!   half of dst, zeros above; HIGHEST `DeInterleave(dst, dump, zero, src)` (:56-57), the same words in the upper
//!   half.
//! - `Interleave(d0, d1, s0, s1)`: s0[0], s1[0], s0[1], s1[1], ... — the first half of the pairs in d0, the second in
//!   d1. UnPack LOWEST is `Interleave(dst, dump, src, pad)` (:91-92) with pad the sign words (ShiftRights by 31 for
//!   int32, :84-85) or 0: the lower half of src's elements, sign- or zero-extended; HIGHEST `Interleave(dump, dst,
//!   src, pad)` (:93-94), the upper half.
//! - `Pack<T, U, part>` therefore keeps each U element's low bits ("extract the low 16 bits of uint32_t", example
//!   02_reg_vector_compute/data_relayout/data_relayout.asc:15) in half `part` of dst and zeros the other half;
//!   `UnPack<T, U, part>` widens half `part` of src, sign-extending a signed U. The narrower widths (`vpack`,
//!   `vunpack`, impl :46-47 and :79-80) are read as the same instruction on other element sizes.

use crate::dtype::DType;
use crate::vector::reg::file::VReg;

/// `Interleave<T>(d0, d1, s0, s1)`.
pub fn interleave(t: DType, d0: &mut VReg, d1: &mut VReg, s0: &VReg, s1: &VReg) {
    let n = s0.lanes(t);
    for j in 0..2 * n {
        let (src, i) = (if j % 2 == 0 { s0 } else { s1 }, j / 2);
        let (dst, k) = if j < n { (&mut *d0, j) } else { (&mut *d1, j - n) };
        dst.set(t, k, src.get(t, i));
    }
}

/// `DeInterleave<T>(d0, d1, s0, s1)`.
pub fn deinterleave(t: DType, d0: &mut VReg, d1: &mut VReg, s0: &VReg, s1: &VReg) {
    let n = s0.lanes(t);
    let at = |j: usize| if j < n { s0.get(t, j) } else { s1.get(t, j - n) };
    for k in 0..n {
        d0.set(t, k, at(2 * k));
        d1.set(t, k, at(2 * k + 1));
    }
}

/// `Pack<T, U, part>(dst, src)`: U twice T's width; src's elements truncated to T into half `part` (0 LOWEST,
/// 1 HIGHEST) of dst, the other half 0.
pub fn pack(t: DType, u: DType, part: usize, dst: &mut VReg, src: &VReg) -> Result<(), String> {
    if u.size() != 2 * t.size() {
        return Err(format!("Pack of {} into {}: not half the width", u.name(), t.name()));
    }
    let half = dst.lanes(t) / 2;
    *dst = VReg::zeroed(dst.bytes.len());
    for i in 0..src.lanes(u) {
        let mask = u64::MAX >> (64 - 8 * t.size());
        dst.set(t, part * half + i, src.get(u, i) & mask);
    }
    Ok(())
}

/// `UnPack<T, U, part>(dst, src)`: T twice U's width; half `part` of src's elements extended into dst.
pub fn unpack(t: DType, u: DType, part: usize, dst: &mut VReg, src: &VReg) -> Result<(), String> {
    if t.size() != 2 * u.size() {
        return Err(format!("UnPack of {} into {}: not twice the width", u.name(), t.name()));
    }
    let n = dst.lanes(t);
    for i in 0..n {
        let bits = src.get(u, part * n + i);
        let v = if u.is_signed() {
            t.from_i64(u.to_i64(bits))
        } else {
            bits
        };
        dst.set(t, i, v);
    }
    Ok(())
}

/// `Gather(dst, src, index)` of registers (gather_mask_intf.h:36-37; dav_3510 gather_mask_impl.h:75-99, `vselr` on
/// the same-width unsigned view, the index unsigned of T's width): element i of dst is src[index[i]]. An index past
/// the register's elements is an error (what the instruction reads then is not documented).
pub fn gather(t: DType, dst: &mut VReg, src: &VReg, index: &VReg) -> Result<(), String> {
    let n = src.lanes(t);
    let mut out = VReg::zeroed(dst.bytes.len());
    for i in 0..n {
        let k = index.get(t, i) as usize; // the index's bits, unsigned, at T's width
        if k >= n {
            return Err(format!(
                "Gather: index {k} at element {i} is past the register's {n} elements"
            ));
        }
        out.set(t, i, src.get(t, k));
    }
    *dst = out;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: usize = 256;

    fn counting(t: DType, from: i64) -> VReg {
        let mut r = VReg::zeroed(W);
        for i in 0..r.lanes(t) {
            r.set(t, i, t.from_i64(from + i as i64));
        }
        r
    }

    #[test]
    fn interleave_zips_and_deinterleave_unzips() {
        let t = DType::U32; // 64 lanes
        let (a, b) = (counting(t, 0), counting(t, 100));
        let (mut d0, mut d1) = (VReg::zeroed(W), VReg::zeroed(W));
        interleave(t, &mut d0, &mut d1, &a, &b);
        assert_eq!((0..4).map(|i| d0.get(t, i)).collect::<Vec<_>>(), [0, 100, 1, 101]);
        assert_eq!((d1.get(t, 0), d1.get(t, 1), d1.get(t, 63)), (32, 132, 163));
        let (mut e0, mut e1) = (VReg::zeroed(W), VReg::zeroed(W));
        deinterleave(t, &mut e0, &mut e1, &d0, &d1);
        assert_eq!((e0, e1), (a, b));
    }

    #[test]
    fn gather_picks_src_elements_by_index() {
        let t = DType::F16;
        let src = counting(t, 0); // 128 lanes
        let mut index = VReg::zeroed(W);
        for i in 0..128 {
            index.set(DType::U16, i, (127 - i) as u64); // reversed
        }
        let mut dst = VReg::zeroed(W);
        gather(t, &mut dst, &src, &index).unwrap();
        assert_eq!((t.to_f64(dst.get(t, 0)), t.to_f64(dst.get(t, 127))), (127.0, 0.0));
        // the source may be the destination (the sources are read first)
        let mut same = src.clone();
        let copy = same.clone();
        gather(t, &mut same, &copy, &index).unwrap();
        assert_eq!(same, dst);
        index.set(DType::U16, 5, 128);
        assert!(gather(t, &mut dst, &src, &index)
            .unwrap_err()
            .contains("index 128 at element 5"));
    }

    #[test]
    fn pack_keeps_the_low_bits_in_one_half() {
        let (t, u) = (DType::U16, DType::U32);
        let mut src = VReg::zeroed(W);
        src.set(u, 0, 0x0001_0002);
        src.set(u, 63, 0xABCD_1234);
        let mut dst = counting(t, 7); // overwritten: the other half becomes 0
        pack(t, u, 0, &mut dst, &src).unwrap();
        assert_eq!(
            (dst.get(t, 0), dst.get(t, 63), dst.get(t, 64), dst.get(t, 127)),
            (2, 0x1234, 0, 0)
        );
        pack(t, u, 1, &mut dst, &src).unwrap();
        assert_eq!((dst.get(t, 0), dst.get(t, 64), dst.get(t, 127)), (0, 2, 0x1234));
        assert!(pack(DType::U8, u, 0, &mut dst, &src).is_err());
    }

    #[test]
    fn unpack_extends_one_half_by_signedness() {
        let (t, u) = (DType::I32, DType::I16);
        let mut src = VReg::zeroed(W);
        src.set(u, 0, u.from_i64(-2));
        src.set(u, 64, u.from_i64(-3));
        let mut dst = VReg::zeroed(W);
        unpack(t, u, 0, &mut dst, &src).unwrap();
        assert_eq!((t.to_i64(dst.get(t, 0)), t.to_i64(dst.get(t, 1))), (-2, 0));
        unpack(t, u, 1, &mut dst, &src).unwrap();
        assert_eq!(t.to_i64(dst.get(t, 0)), -3);
        // unsigned: zero-extended
        unpack(DType::U32, DType::U16, 0, &mut dst, &src).unwrap();
        assert_eq!(dst.get(DType::U32, 0), 0xFFFE);
    }
}
