//! Mask (predicate) registers: one bit per byte lane of a vector register (asc-devkit reg_compute:
//! `MaskReg` is the compiler's `vector_bool`). An instruction on elements of `T` reads element i as active
//! when the bit of its first byte lane is set; the mask instructions for `T` (`plt_b32`, `pset_b16`, ...) set
//! or clear all `sizeof(T)` bits of an element together.

use crate::dtype::DType;

/// `MaskPattern` of reg_compute/kernel_reg_compute_utils.h, by its enumerator value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaskPattern {
    /// every element
    All,
    /// the first n elements (`VL1` .. `VL128`); all of them when the register holds fewer
    First(usize),
    /// the lowest 1/n of the register's elements (`H`: n = 2, `Q`: n = 4)
    Fraction(usize),
    /// no element (`ALLF`)
    AllFalse,
}

impl MaskPattern {
    /// The pattern of enumerator value `v`: ALL = 0, VL1, VL2, VL3, VL4, VL8, VL16, VL32, VL64, VL128 (1..9),
    /// M3 = 10, M4, H, Q (10..13), ALLF = 15. H and Q are "the lowest half / quarter elements"
    /// (asc-devkit include/c_api/reg_compute/reg_vector.h:44-45, the pset_b* patterns CreateMask maps to).
    /// M3 and M4 are not modelled: "Multiples of 3 (4) elements are set to True" (reg_vector.h:42-43) does
    /// not say whether the lanes whose index is a multiple of 3 are meant or the longest prefix of a length
    /// that is one.
    pub fn from_value(v: i64) -> Result<MaskPattern, String> {
        const FIRST: [usize; 9] = [1, 2, 3, 4, 8, 16, 32, 64, 128];
        match v {
            0 => Ok(MaskPattern::All),
            1..=9 => Ok(MaskPattern::First(FIRST[(v - 1) as usize])),
            12 => Ok(MaskPattern::Fraction(2)),
            13 => Ok(MaskPattern::Fraction(4)),
            15 => Ok(MaskPattern::AllFalse),
            10 | 11 => Err(format!(
                "CreateMask with MaskPattern::{} is not modelled (the headers' 'multiples of {} elements' \
                 does not say which lanes)",
                ["M3", "M4"][(v - 10) as usize],
                v - 7
            )),
            _ => Err(format!("CreateMask: {v} is no MaskPattern value")),
        }
    }

    /// The pattern of enumerator `name` (`ALL`, `VL16`, `MaskPattern::ALLF`, ...).
    pub fn from_name(name: &str) -> Result<MaskPattern, String> {
        const NAMES: [&str; 14] = [
            "ALL", "VL1", "VL2", "VL3", "VL4", "VL8", "VL16", "VL32", "VL64", "VL128", "M3", "M4", "H", "Q",
        ];
        let bare = name.rsplit("::").next().unwrap_or(name);
        match NAMES.iter().position(|n| *n == bare) {
            Some(v) => MaskPattern::from_value(v as i64),
            None if bare == "ALLF" => Ok(MaskPattern::AllFalse),
            None => Err(format!("CreateMask: '{name}' is no MaskPattern")),
        }
    }
}

/// A predicate register: `bits[b]` is the bit of byte lane b.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaskReg {
    pub bits: Vec<bool>,
}

impl MaskReg {
    /// No lane set, for a register of `width` bytes.
    pub fn none(width: usize) -> MaskReg {
        MaskReg {
            bits: vec![false; width],
        }
    }

    /// The first `n` elements of `t` set (their byte lanes), the rest clear.
    pub fn first(width: usize, t: DType, n: usize) -> MaskReg {
        let mut m = MaskReg::none(width);
        let lanes = (n * t.size()).min(width);
        m.bits[..lanes].iter_mut().for_each(|b| *b = true);
        m
    }

    /// Whether element `i` of type `t` is active: the bit of its first byte lane.
    pub fn active(&self, t: DType, i: usize) -> bool {
        self.bits.get(i * t.size()).copied().unwrap_or(false)
    }

    /// How many elements of `t` are active.
    pub fn count(&self, t: DType) -> usize {
        (0..self.bits.len() / t.size()).filter(|&i| self.active(t, i)).count()
    }
}

/// `UnPack<part>(dst, src)` of MaskRegs (asc-devkit docs .../Reg矢量计算/MaskReg计算/UnPack.md): the low
/// (`part` 0, LOWEST) or high (1, HIGHEST) half of src's bits, each bit spread to two with the upper one 0: a
/// b16 mask's first half elements as a b32 mask.
pub fn unpack(src: &MaskReg, part: usize) -> MaskReg {
    let half = src.bits.len() / 2;
    let mut out = MaskReg::none(src.bits.len());
    for j in 0..half {
        out.bits[2 * j] = src.bits[part * half + j];
    }
    out
}

/// `Pack<part>(dst, src)` of MaskRegs (MaskReg计算/Pack.md): src's even bits into the low (LOWEST) or high
/// (HIGHEST) half of dst. What the other half holds the page does not say; 0 here.
pub fn pack(src: &MaskReg, part: usize) -> MaskReg {
    let half = src.bits.len() / 2;
    let mut out = MaskReg::none(src.bits.len());
    for j in 0..half {
        out.bits[part * half + j] = src.bits[2 * j];
    }
    out
}

/// `UpdateMask<T>(count)`: a mask of the first min(count, lanes) elements of `T`, and `count` reduced by one
/// register of elements, not below 0 (`plt_b*` with POST_UPDATE; dav_3510 kernel_reg_compute_maskreg_impl.h
/// spells the post-update out as `count > VL ? count - VL : 0`). A loop over a tensor calls it once per
/// register: the last call's mask covers only the tail.
pub fn update_mask(width: usize, t: DType, count: &mut u32) -> MaskReg {
    let lanes = (width / t.size()) as u32;
    let n = (*count).min(lanes);
    *count = (*count).saturating_sub(lanes);
    MaskReg::first(width, t, n as usize)
}

/// `CreateMask<T, pattern>()`.
pub fn create_mask(width: usize, t: DType, pattern: MaskPattern) -> MaskReg {
    match pattern {
        MaskPattern::All => MaskReg::first(width, t, width / t.size()),
        MaskPattern::First(n) => MaskReg::first(width, t, n),
        MaskPattern::Fraction(n) => MaskReg::first(width, t, width / t.size() / n),
        MaskPattern::AllFalse => MaskReg::none(width),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn mask_unpack_spreads_a_half_and_pack_takes_the_even_bits() {
        // a b16 mask of elements 0..3 (byte lanes 0..6) and element 70 (lanes 140, 141) of 128
        let mut m = super::MaskReg::none(256);
        (0..6).chain(140..142).for_each(|b| m.bits[b] = true);
        let low = super::unpack(&m, 0);
        assert!((0..3).all(|i| low.active(DType::U32, i)) && !low.active(DType::U32, 3));
        assert_eq!(low.bits.iter().filter(|b| **b).count(), 6); // each bit into two, the upper one 0
        assert!(!low.bits[1] && low.bits[2]);
        let high = super::unpack(&m, 1); // lanes 128.. : element 70 of b16 is b32 element 6 of the high half
        assert_eq!(
            (0..64).filter(|&i| high.active(DType::U32, i)).collect::<Vec<_>>(),
            vec![6]
        );
        // Pack takes every even bit back: LOWEST into lanes 0..128
        assert_eq!(super::pack(&low, 0).bits[..6], m.bits[..6]);
        let packed = super::pack(&m, 1);
        assert_eq!(
            (0..256).filter(|&b| packed.bits[b]).collect::<Vec<_>>(),
            vec![128, 129, 130, 198]
        );
    }

    use super::*;

    #[test]
    fn update_mask_covers_one_register_then_the_tail() {
        // 100 floats in 256-byte registers: 64 lanes, then the 36-element tail, then nothing
        let mut count = 100u32;
        let m = update_mask(256, DType::F32, &mut count);
        assert_eq!((m.count(DType::F32), count), (64, 36));
        let m = update_mask(256, DType::F32, &mut count);
        assert_eq!((m.count(DType::F32), count), (36, 0));
        assert!(m.active(DType::F32, 35) && !m.active(DType::F32, 36));
        // a float element owns 4 byte lanes: lanes 0..144 set, 144.. clear
        assert!(m.bits[143] && !m.bits[144]);
        let m = update_mask(256, DType::F32, &mut count);
        assert_eq!((m.count(DType::F32), count), (0, 0));
    }

    #[test]
    fn update_mask_counts_half_lanes() {
        let mut count = 130u32;
        let m = update_mask(256, DType::F16, &mut count);
        assert_eq!((m.count(DType::F16), count), (128, 2));
        // the same bits read as floats: every element's first lane is set
        assert_eq!(m.count(DType::F32), 64);
    }

    #[test]
    fn create_mask_patterns() {
        assert_eq!(create_mask(256, DType::F32, MaskPattern::All).count(DType::F32), 64);
        assert_eq!(
            create_mask(256, DType::F16, MaskPattern::from_value(6).unwrap()).count(DType::F16),
            16
        );
        // VL128 on floats: the register holds only 64
        assert_eq!(
            create_mask(256, DType::F32, MaskPattern::from_value(9).unwrap()).count(DType::F32),
            64
        );
        assert_eq!(
            create_mask(256, DType::F32, MaskPattern::from_value(15).unwrap()).count(DType::F32),
            0
        );
        // H and Q: the lowest half and quarter of the elements (64 floats: 32 and 16; 128 halves: 64, 32)
        let h = create_mask(256, DType::F32, MaskPattern::from_value(12).unwrap());
        assert_eq!(h.count(DType::F32), 32);
        assert!(h.bits[127] && !h.bits[128]);
        assert_eq!(
            create_mask(256, DType::F16, MaskPattern::from_name("MaskPattern::Q").unwrap()).count(DType::F16),
            32
        );
        assert!(MaskPattern::from_value(10)
            .unwrap_err()
            .contains("MaskPattern::M3 is not modelled"));
        assert!(MaskPattern::from_value(14).is_err());
        assert_eq!(MaskPattern::from_name("MaskPattern::VL8"), Ok(MaskPattern::First(8)));
        assert_eq!(MaskPattern::from_name("ALLF"), Ok(MaskPattern::AllFalse));
        assert!(MaskPattern::from_name("M4")
            .unwrap_err()
            .contains("MaskPattern::M4 is not modelled (the headers' 'multiples of 4 elements'"));
    }
}
