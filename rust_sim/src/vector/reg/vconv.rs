//! Register `Cast<T, U, trait>(dstReg, srcReg, mask)`: element conversion between registers of different types
//! (asc-devkit reg_compute/kernel_reg_compute_vec_vconv_intf.h:33-35; dav_3510/kernel_reg_compute_vec_vconv_impl.h).
//!
//! The trait (`CastTrait`, kernel_reg_compute_utils.h:207-212) carries a RegLayout, a SatMode, a MaskMergeMode
//! and a RoundMode. What each selects, as the headers and examples give it:
//! - *Layout*: a widening cast reads one part of the source: with T twice U's width element i of dst is
//!   `cvt(src[2i + part])`, RegLayout::ZERO the even elements and ONE the odd ones (the example
//!   02_reg_vector_compute/cast/cast.asc:36-44: "y[i] = floor(x[i*2])" after a DIST_UNPACK_B16 load); four
//!   times the width (u8/s8 -> 32 bits, impl :44-47, `Part_T`) reads `src[4i + part]`, parts ZERO..THREE. A
//!   narrowing cast writes one part of dst: dst[2i + part] = cvt(src[i]) (cast.asc:58-63, "y[i*2] = round(x[i])",
//!   then a DIST_PACK_B32 store); the other parts are 0 here (ZEROING; what they hold is not documented, and the
//!   PACK store that follows every such cast in the examples and kernels does not read them). Same width: element
//!   for element. A size-changing cast with RegLayout::UNKNOWN names no part: ASC958.
//! - *Mask*: the elements of the wider type are the predicate's elements (cast.asc:32 builds the mask of a half
//!   -> int32 cast for int32, :54 that of a float -> int16 cast for float). MERGING is the ZEROING result copied
//!   into dst under the mask (impl :98-104, `CopyMerging`), for layout UNKNOWN or ZERO only (impl :540-545).
//! - *Round mode*: CAST_RINT (to nearest, ties to even), CAST_ROUND (ties away from zero, utils
//!   kernel_utils_mode.h:94-101), CAST_FLOOR, CAST_CEIL, CAST_TRUNC, CAST_ODD. CAST_NONE means RINT for
//!   float -> half, half -> int8 and half -> uint8 (impl :161, :177-180); elsewhere a rounding cast with
//!   CAST_NONE is ASC958 (bfloat16 <- float refuses it outright, impl :181-184). Exact conversions (a widening
//!   float cast, int -> wider int or float that holds it) need no mode.
//! - *Saturation*: SatMode::SAT clamps a value outside the destination's range to its nearest bound (a float
//!   to the largest finite value); NO_SAT wraps an integer narrowing to the destination's low bits. An
//!   out-of-range float -> integer without SAT, or any out-of-range narrowing with SatMode::UNKNOWN, is ASC958
//!   (the headers pass the mode to the instruction without saying what it gives), as are the values in range
//!   cast exactly under every mode. A float NaN cast to an integer is 0 (rust_sim's tensor Cast).

use crate::dtype::{cast_bits, round_to_float, DType, RoundMode};
use crate::vector::reg::file::VReg;
use crate::vector::reg::mask::MaskReg;
use crate::vector::reg::ops::MergeMode;

/// `RegLayout` (kernel_reg_compute_utils.h:138): UNKNOWN = -1, ZERO, ONE, TWO, THREE.
pub fn layout_from_name(name: &str) -> Result<Option<usize>, String> {
    Ok(match name.rsplit("::").next().unwrap_or(name) {
        "UNKNOWN" => None,
        "ZERO" => Some(0),
        "ONE" => Some(1),
        "TWO" => Some(2),
        "THREE" => Some(3),
        other => return Err(format!("'{other}' is no RegLayout")),
    })
}

/// `SatMode` (kernel_reg_compute_utils.h:140): UNKNOWN = -1, NO_SAT, SAT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SatMode {
    Unknown,
    NoSat,
    Sat,
    /// not a CastTrait value: a float narrowing under CTRL[60] = 1 and CTRL[48] = 0 (ctrl.rs), where inf gives
    /// +-MAX and NaN gives 0 ("inf输出会被饱和为±MAX，NaN输出会被饱和为0", SetCtrlSpr(ISASI).md)
    SatInfNan,
}

impl SatMode {
    pub fn from_name(name: &str) -> Result<SatMode, String> {
        Ok(match name.rsplit("::").next().unwrap_or(name) {
            "UNKNOWN" => SatMode::Unknown,
            "NO_SAT" => SatMode::NoSat,
            "SAT" => SatMode::Sat,
            other => return Err(format!("'{other}' is no SatMode")),
        })
    }
}

/// A CastTrait's fields, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastTrait {
    pub layout: Option<usize>,
    pub sat: SatMode,
    pub mode: MergeMode,
    /// None: RoundMode::UNKNOWN (the default castTrait)
    pub round: Option<RoundMode>,
}

/// The range of integer type `t` as f64 bounds.
fn int_range(t: DType) -> (f64, f64) {
    if t.is_signed() {
        let half = (2f64).powi(8 * t.size() as i32 - 1);
        (-half, half - 1.0)
    } else {
        (0.0, (2f64).powi(8 * t.size() as i32) - 1.0)
    }
}

/// The largest finite value of float type `t`.
fn max_finite(t: DType) -> f64 {
    match t {
        DType::F16 => 65504.0,
        DType::BF16 => 3.3895313892515355e38,
        _ => f32::MAX as f64,
    }
}

/// The round mode a rounding conversion U -> T uses, or why none.
fn round_mode(t: DType, u: DType, trait_: &CastTrait) -> Result<RoundMode, String> {
    match trait_.round {
        Some(RoundMode::None) | None => {
            let none_is_rint = matches!(
                (t, u),
                (DType::F16, DType::F32) | (DType::I8, DType::F16) | (DType::U8, DType::F16)
            );
            if none_is_rint {
                Ok(RoundMode::Rint)
            } else {
                Err(format!(
                    "Cast {} -> {} rounds, and the trait names no RoundMode (CAST_NONE / UNKNOWN) the headers \
                     define for it",
                    u.name(),
                    t.name()
                ))
            }
        }
        Some(r) => Ok(r),
    }
}

/// One element: bits of `u` to bits of `t` under the trait.
pub fn convert(t: DType, u: DType, trait_: &CastTrait, bits: u64) -> Result<u64, String> {
    if u.is_float() {
        let x = u.to_f64(bits);
        if t.is_float() {
            let exact = t.size() > u.size() || t == u;
            if exact && t != u {
                return Ok(t.from_f64(x));
            }
            let r = round_mode(t, u, trait_)?;
            let y = round_to_float(x, t, r);
            if trait_.sat == SatMode::SatInfNan && (y.is_nan() || y.is_infinite()) {
                return Ok(if y.is_nan() {
                    0
                } else {
                    t.from_f64(y.signum() * max_finite(t))
                });
            }
            if y.is_infinite() && x.is_finite() && trait_.sat == SatMode::Sat {
                return Ok(t.from_f64(x.signum() * max_finite(t)));
            }
            return Ok(t.from_f64(y));
        }
        if x.is_nan() {
            return Ok(0);
        }
        let r = round_mode(t, u, trait_)?;
        let rounded = crate::dtype::round_integral(x, r);
        let (lo, hi) = int_range(t);
        if (rounded < lo || rounded > hi) && trait_.sat != SatMode::Sat {
            return Err(format!(
                "Cast {} -> {} of {x}: out of range without SatMode::SAT (what the instruction gives is not \
                 documented)",
                u.name(),
                t.name()
            ));
        }
        return Ok(cast_bits(u, t, r, bits));
    }
    if t.is_float() {
        let v = u.to_i64(bits) as f64;
        let exact = round_to_float(v, t, RoundMode::Rint) == v;
        let r = if exact {
            RoundMode::Rint
        } else {
            round_mode(t, u, trait_)?
        };
        return Ok(t.from_f64(round_to_float(v, t, r)));
    }
    // integer -> integer
    let v = if u.is_signed() { u.to_i64(bits) } else { bits as i64 };
    let (lo, hi) = int_range(t);
    if (v as f64) < lo || (v as f64) > hi {
        return match trait_.sat {
            SatMode::Sat | SatMode::SatInfNan => Ok(t.from_i64((v as f64).clamp(lo, hi) as i64)),
            SatMode::NoSat => Ok(t.from_i64(v)),
            SatMode::Unknown => Err(format!(
                "Cast {} -> {} of {v}: out of range with SatMode::UNKNOWN (saturate or wrap is not documented)",
                u.name(),
                t.name()
            )),
        };
    }
    Ok(t.from_i64(v))
}

/// `Cast<T, U, trait>(dst, src, mask)`.
pub fn cast(t: DType, u: DType, trait_: &CastTrait, dst: &mut VReg, src: &VReg, mask: &MaskReg) -> Result<(), String> {
    let (ts, us) = (t.size(), u.size());
    let mut out = VReg::zeroed(dst.bytes.len());
    if ts == us {
        for i in 0..src.lanes(u) {
            if mask.active(t, i) {
                out.set(t, i, convert(t, u, trait_, src.get(u, i))?);
            }
        }
    } else {
        let Some(part) = trait_.layout else {
            return Err(format!(
                "Cast {} -> {} changes the element width and the trait's RegLayout is UNKNOWN (which part is not said)",
                u.name(),
                t.name()
            ));
        };
        let ratio = if ts > us { ts / us } else { us / ts };
        if part >= ratio {
            return Err(format!(
                "Cast {} -> {}: RegLayout {part} is past the {ratio} parts of the element",
                u.name(),
                t.name()
            ));
        }
        if ts > us {
            // widening: dst element i from src element ratio*i + part; the predicate's elements are T's
            for i in 0..dst.lanes(t) {
                if mask.active(t, i) {
                    out.set(t, i, convert(t, u, trait_, src.get(u, ratio * i + part))?);
                }
            }
        } else {
            // narrowing: src element i into dst element ratio*i + part; the predicate's elements are U's
            for i in 0..src.lanes(u) {
                if mask.active(u, i) {
                    out.set(t, ratio * i + part, convert(t, u, trait_, src.get(u, i))?);
                }
            }
        }
    }
    if trait_.mode == MergeMode::Merging {
        if trait_.layout.is_some_and(|p| p > 0) {
            return Err("Cast with MaskMergeMode::MERGING and a RegLayout other than ZERO".to_string());
        }
        for i in 0..dst.lanes(t) {
            if mask.active(t, i) {
                dst.set(t, i, out.get(t, i));
            }
        }
    } else {
        *dst = out;
    }
    Ok(())
}

/// `Truncate<T, roundMode>(dst, src, mask)` (vec_vconv_intf.h:36-39; dav_3510 vec_vconv_impl.h:345-362, `vtrc`):
/// each active float rounded to an integral value of its own type with the mode, CAST_NONE as RINT; ZEROING only.
pub fn truncate(t: DType, round: RoundMode, dst: &mut VReg, src: &VReg, mask: &MaskReg) -> Result<(), String> {
    if !matches!(t, DType::F16 | DType::BF16 | DType::F32) {
        return Err(format!("Truncate of {} (half, bfloat16 and float only)", t.name()));
    }
    let round = if round == RoundMode::None {
        RoundMode::Rint
    } else {
        round
    };
    for i in 0..dst.lanes(t) {
        let v = if mask.active(t, i) {
            t.from_f64(crate::dtype::round_integral(t.to_f64(src.get(t, i)), round))
        } else {
            0
        };
        dst.set(t, i, v);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vector::reg::mask::{create_mask, update_mask, MaskPattern};

    const W: usize = 256;

    fn tr(layout: Option<usize>, sat: SatMode, round: Option<RoundMode>) -> CastTrait {
        CastTrait {
            layout,
            sat,
            mode: MergeMode::Zeroing,
            round,
        }
    }

    #[test]
    fn half_to_float_reads_the_even_or_odd_halves() {
        let (h, f) = (DType::F16, DType::F32);
        let mut src = VReg::zeroed(W);
        for i in 0..128 {
            src.set(h, i, h.from_f64(i as f64 + 0.5));
        }
        let all = create_mask(W, f, MaskPattern::All);
        let mut dst = VReg::zeroed(W);
        cast(f, h, &tr(Some(0), SatMode::Unknown, None), &mut dst, &src, &all).unwrap();
        assert_eq!((f.to_f64(dst.get(f, 0)), f.to_f64(dst.get(f, 3))), (0.5, 6.5));
        cast(f, h, &tr(Some(1), SatMode::Unknown, None), &mut dst, &src, &all).unwrap();
        assert_eq!((f.to_f64(dst.get(f, 0)), f.to_f64(dst.get(f, 63))), (1.5, 127.5));
        // no layout for a widening cast: refused, by name
        let e = cast(f, h, &tr(None, SatMode::Unknown, None), &mut dst, &src, &all).unwrap_err();
        assert!(e.contains("RegLayout is UNKNOWN"), "{e}");
    }

    #[test]
    fn float_to_half_rounds_to_nearest_even_into_the_even_lanes() {
        let (h, f) = (DType::F16, DType::F32);
        let mut src = VReg::zeroed(W);
        // 2049 lies halfway between the halves 2048 and 2050: CAST_NONE means RINT, ties to even: 2048
        src.set(f, 0, (2049.0f32).to_bits() as u64);
        src.set(f, 1, (2051.0f32).to_bits() as u64); // halfway 2050 / 2052: 2052
        src.set(f, 2, f32::NAN.to_bits() as u64);
        src.set(f, 3, (1e6f32).to_bits() as u64); // past 65504
        let mut n = 4u32;
        let four = update_mask(W, f, &mut n);
        let mut dst = VReg::zeroed(W);
        dst.set(h, 1, h.from_f64(9.0));
        cast(
            h,
            f,
            &tr(Some(0), SatMode::NoSat, Some(RoundMode::None)),
            &mut dst,
            &src,
            &four,
        )
        .unwrap();
        let at = |d: &VReg, i| h.to_f64(d.get(h, i));
        assert_eq!((at(&dst, 0), at(&dst, 2)), (2048.0, 2052.0));
        assert!(at(&dst, 4).is_nan());
        assert_eq!(at(&dst, 6), f64::INFINITY);
        // the odd lanes are 0 (ZEROING) and element 4 of the source is outside the mask
        assert_eq!((dst.get(h, 1), dst.get(h, 8)), (0, 0));
        // SAT: the overflow saturates to the largest half
        cast(
            h,
            f,
            &tr(Some(1), SatMode::Sat, Some(RoundMode::Rint)),
            &mut dst,
            &src,
            &four,
        )
        .unwrap();
        assert_eq!((at(&dst, 7), at(&dst, 1)), (65504.0, 2048.0));
    }

    #[test]
    fn float_to_int_round_modes_and_saturation() {
        let (f, i32t, i16t) = (DType::F32, DType::I32, DType::I16);
        let mut src = VReg::zeroed(W);
        for (i, x) in [2.5f32, -2.5, 3.7, f32::NAN].iter().enumerate() {
            src.set(f, i, x.to_bits() as u64);
        }
        let all = create_mask(W, f, MaskPattern::All);
        let mut dst = VReg::zeroed(W);
        let got = |d: &VReg| (0..4).map(|i| i32t.to_i64(d.get(i32t, i))).collect::<Vec<_>>();
        let cases = [
            (RoundMode::Rint, [2, -2, 4, 0]),
            (RoundMode::Round, [3, -3, 4, 0]),
            (RoundMode::Floor, [2, -3, 3, 0]),
            (RoundMode::Ceil, [3, -2, 4, 0]),
            (RoundMode::Trunc, [2, -2, 3, 0]),
        ];
        for (r, want) in cases {
            cast(i32t, f, &tr(None, SatMode::NoSat, Some(r)), &mut dst, &src, &all).unwrap();
            assert_eq!(got(&dst), want, "{r:?}");
        }
        // CAST_NONE names no rounding for float -> int32
        assert!(cast(
            i32t,
            f,
            &tr(None, SatMode::NoSat, Some(RoundMode::None)),
            &mut dst,
            &src,
            &all
        )
        .is_err());
        // float -> int16 (narrowing into the even lanes): 40000 saturates under SAT, is refused without it
        src.set(f, 1, (40000.0f32).to_bits() as u64);
        cast(
            i16t,
            f,
            &tr(Some(0), SatMode::Sat, Some(RoundMode::Round)),
            &mut dst,
            &src,
            &all,
        )
        .unwrap();
        assert_eq!(
            (i16t.to_i64(dst.get(i16t, 0)), i16t.to_i64(dst.get(i16t, 2))),
            (3, 32767)
        );
        let e = cast(
            i16t,
            f,
            &tr(Some(0), SatMode::NoSat, Some(RoundMode::Round)),
            &mut dst,
            &src,
            &all,
        );
        assert!(e.unwrap_err().contains("out of range"));
    }

    #[test]
    fn int_casts_widen_exactly_and_narrow_by_sat_mode() {
        let (i16t, i32t, f) = (DType::I16, DType::I32, DType::F32);
        let mut src = VReg::zeroed(W);
        src.set(i32t, 0, i32t.from_i64(70000));
        src.set(i32t, 1, i32t.from_i64(-5));
        let all = create_mask(W, i32t, MaskPattern::All);
        let mut dst = VReg::zeroed(W);
        cast(i16t, i32t, &tr(Some(0), SatMode::Sat, None), &mut dst, &src, &all).unwrap();
        assert_eq!(
            (i16t.to_i64(dst.get(i16t, 0)), i16t.to_i64(dst.get(i16t, 2))),
            (32767, -5)
        );
        cast(i16t, i32t, &tr(Some(0), SatMode::NoSat, None), &mut dst, &src, &all).unwrap();
        assert_eq!(i16t.to_i64(dst.get(i16t, 0)), 70000 - 65536);
        assert!(cast(i16t, i32t, &tr(Some(0), SatMode::Unknown, None), &mut dst, &src, &all).is_err());
        // int32 -> float: 16777217 is not a float; CAST_RINT ties to even (16777216), CAST_CEIL goes up
        src.set(i32t, 0, i32t.from_i64(16_777_217));
        cast(
            f,
            i32t,
            &tr(None, SatMode::Unknown, Some(RoundMode::Rint)),
            &mut dst,
            &src,
            &all,
        )
        .unwrap();
        assert_eq!((f.to_f64(dst.get(f, 0)), f.to_f64(dst.get(f, 1))), (16_777_216.0, -5.0));
        cast(
            f,
            i32t,
            &tr(None, SatMode::Unknown, Some(RoundMode::Ceil)),
            &mut dst,
            &src,
            &all,
        )
        .unwrap();
        assert_eq!(f.to_f64(dst.get(f, 0)), 16_777_218.0);
        // exact values need no round mode
        src.set(i32t, 0, i32t.from_i64(12));
        cast(f, i32t, &tr(None, SatMode::Unknown, None), &mut dst, &src, &all).unwrap();
        assert_eq!(f.to_f64(dst.get(f, 0)), 12.0);
    }

    #[test]
    fn truncate_rounds_to_integral_values_of_the_same_type() {
        let f = DType::F32;
        let mut src = VReg::zeroed(W);
        for (i, x) in [2.5f32, -2.5, 3.7, f32::NAN, -0.4].iter().enumerate() {
            src.set(f, i, x.to_bits() as u64);
        }
        let mut n = 5u32;
        let five = update_mask(W, f, &mut n);
        let mut dst = VReg::zeroed(W);
        dst.set(f, 9, (1.0f32).to_bits() as u64);
        let got = |d: &VReg| (0..5).map(|i| f.to_f64(d.get(f, i))).collect::<Vec<_>>();
        truncate(f, RoundMode::None, &mut dst, &src, &five).unwrap(); // CAST_NONE is RINT: ties to even
        let g = got(&dst);
        assert_eq!((g[0], g[1], g[2], g[4]), (2.0, -2.0, 4.0, -0.0));
        assert!(g[3].is_nan() && dst.get(f, 9) == 0); // NaN stays; ZEROING outside the mask
        truncate(f, RoundMode::Floor, &mut dst, &src, &five).unwrap();
        let g = got(&dst);
        assert_eq!((g[0], g[1], g[2], g[4]), (2.0, -3.0, 3.0, -1.0));
        truncate(f, RoundMode::Round, &mut dst, &src, &five).unwrap();
        assert_eq!((got(&dst)[0], got(&dst)[1]), (3.0, -3.0));
        assert!(truncate(DType::I32, RoundMode::Rint, &mut dst, &src, &five).is_err());
    }

    #[test]
    fn merging_keeps_the_inactive_elements() {
        let (i32t, f) = (DType::I32, DType::F32);
        let mut src = VReg::zeroed(W);
        src.set(f, 0, (1.5f32).to_bits() as u64);
        src.set(f, 1, (2.5f32).to_bits() as u64);
        let mut n = 1u32;
        let one = update_mask(W, f, &mut n);
        let mut dst = VReg::zeroed(W);
        dst.set(i32t, 1, 99);
        let mut t = tr(None, SatMode::NoSat, Some(RoundMode::Rint));
        t.mode = MergeMode::Merging;
        cast(i32t, f, &t, &mut dst, &src, &one).unwrap();
        assert_eq!((dst.get(i32t, 0), dst.get(i32t, 1)), (2, 99));
        t.mode = MergeMode::Zeroing;
        cast(i32t, f, &t, &mut dst, &src, &one).unwrap();
        assert_eq!(dst.get(i32t, 1), 0);
    }
}
