//! Element types of tensors, scalar register types, and conversions between them with AscendC's round modes.
//!
//! half and bfloat16 go through the `half` crate bit-exactly. Arithmetic on 16-bit floats is done in f32 and
//! rounded once to the element type: f32 carries more than twice the 11 (or 8) significand bits plus two, so
//! the result equals the correctly rounded 16-bit operation for + - * / and sqrt (what numpy computes too).

use half::{bf16, f16};

/// A tensor element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    BF16,
    F32,
    F64,
    /// int4b_t: a 4-bit two's-complement integer, two to a byte in tensors, the element at an even index in the
    /// low nibble (asc-devkit kernel_tensor_impl.h: GlobalTensor::GetValue shifts by 4 * (offset % 2)). Its C++
    /// sizeof is one byte (a struct holding a uint8_t), so `size` is 1 and `bits` 4; crate::int4 packs and unpacks.
    I4,
}

impl DType {
    pub fn parse(name: &str) -> Option<DType> {
        Some(match name {
            "bool" | "i1" => DType::Bool,
            "i8" => DType::I8,
            "u8" => DType::U8,
            "i16" => DType::I16,
            "u16" => DType::U16,
            "i32" => DType::I32,
            "u32" => DType::U32,
            "i64" => DType::I64,
            "u64" => DType::U64,
            "i4" => DType::I4,
            "f16" => DType::F16,
            "bf16" => DType::BF16,
            "f32" => DType::F32,
            "f64" => DType::F64,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::I8 => "int8_t",
            DType::U8 => "uint8_t",
            DType::I16 => "int16_t",
            DType::U16 => "uint16_t",
            DType::I32 => "int32_t",
            DType::U32 => "uint32_t",
            DType::I64 => "int64_t",
            DType::U64 => "uint64_t",
            DType::I4 => "int4b_t",
            DType::F16 => "half",
            DType::BF16 => "bfloat16_t",
            DType::F32 => "float",
            DType::F64 => "double",
        }
    }

    pub fn size(self) -> usize {
        match self {
            DType::Bool | DType::I8 | DType::U8 | DType::I4 => 1,
            DType::I16 | DType::U16 | DType::F16 | DType::BF16 => 2,
            DType::I32 | DType::U32 | DType::F32 => 4,
            DType::I64 | DType::U64 | DType::F64 => 8,
        }
    }

    /// The bits one element takes in a tensor: 4 for int4b_t, else 8 * size.
    pub fn bits(self) -> u32 {
        if self == DType::I4 {
            4
        } else {
            self.size() as u32 * 8
        }
    }

    /// The bytes `count` elements take in a tensor (int4b_t: half the count, an odd count's last nibble not
    /// counted, as asc-devkit's `offset / INT4_TWO`).
    pub fn bytes_of(self, count: i64) -> i64 {
        if self == DType::I4 {
            count.div_euclid(2)
        } else {
            count.wrapping_mul(self.size() as i64)
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, DType::F16 | DType::BF16 | DType::F32 | DType::F64)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, DType::I8 | DType::I16 | DType::I32 | DType::I64 | DType::I4) || self.is_float()
    }

    /// Reads one element from little-endian bytes as raw bits (zero-extended).
    #[inline]
    pub fn load_bits(self, bytes: &[u8]) -> u64 {
        let mut buf = [0u8; 8];
        let n = self.size();
        buf[..n].copy_from_slice(&bytes[..n]);
        u64::from_le_bytes(buf)
    }

    #[inline]
    pub fn store_bits(self, bytes: &mut [u8], bits: u64) {
        let n = self.size();
        bytes[..n].copy_from_slice(&bits.to_le_bytes()[..n]);
    }

    /// The element's value as f64 (exact for every type but 64-bit integers beyond 2^53).
    #[inline]
    pub fn to_f64(self, bits: u64) -> f64 {
        match self {
            DType::Bool => (bits & 0xFF != 0) as u8 as f64,
            DType::I8 => bits as u8 as i8 as f64,
            DType::U8 => bits as u8 as f64,
            DType::I16 => bits as u16 as i16 as f64,
            DType::U16 => bits as u16 as f64,
            DType::I32 => bits as u32 as i32 as f64,
            DType::U32 => bits as u32 as f64,
            DType::I64 => bits as i64 as f64,
            DType::U64 => bits as f64,
            DType::I4 => crate::int4::sext(bits) as f64,
            DType::F16 => f16::from_bits(bits as u16).to_f64(),
            DType::BF16 => bf16::from_bits(bits as u16).to_f64(),
            DType::F32 => f32::from_bits(bits as u32) as f64,
            DType::F64 => f64::from_bits(bits),
        }
    }

    /// An integer element's value (floats truncate toward zero).
    #[inline]
    pub fn to_i64(self, bits: u64) -> i64 {
        match self {
            DType::Bool => (bits & 0xFF != 0) as i64,
            DType::I8 => bits as u8 as i8 as i64,
            DType::U8 => bits as u8 as i64,
            DType::I16 => bits as u16 as i16 as i64,
            DType::U16 => bits as u16 as i64,
            DType::I32 => bits as u32 as i32 as i64,
            DType::U32 => bits as u32 as i64,
            DType::I64 | DType::U64 => bits as i64,
            DType::I4 => crate::int4::sext(bits),
            _ => self.to_f64(bits) as i64,
        }
    }

    /// The bits of `x` in this type: floats round to nearest even, integers wrap (C conversion of an
    /// in-range value; out-of-range floats saturate as Rust's `as` does).
    #[inline]
    pub fn from_f64(self, x: f64) -> u64 {
        match self {
            DType::F16 => f16::from_f64(x).to_bits() as u64,
            DType::BF16 => bf16::from_f64(x).to_bits() as u64,
            DType::F32 => (x as f32).to_bits() as u64,
            DType::F64 => x.to_bits(),
            DType::Bool => (x != 0.0) as u64,
            _ => self.from_i64(x as i64),
        }
    }

    #[inline]
    pub fn from_i64(self, v: i64) -> u64 {
        match self {
            DType::Bool => (v != 0) as u64,
            DType::I8 | DType::U8 => v as u8 as u64,
            DType::I16 | DType::U16 => v as u16 as u64,
            DType::I32 | DType::U32 => v as u32 as u64,
            DType::I64 | DType::U64 => v as u64,
            DType::I4 => v as u64 & 0xF,
            _ => self.from_f64(v as f64),
        }
    }
}

/// The type of a scalar register (MLIR's signless integers and floats).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum STy {
    I1,
    I8,
    I16,
    I32,
    I64,
    F16,
    BF16,
    F32,
    F64,
}

impl STy {
    pub fn parse(name: &str) -> Option<STy> {
        Some(match name {
            "i1" => STy::I1,
            "i8" => STy::I8,
            "i16" => STy::I16,
            "i32" => STy::I32,
            "i64" => STy::I64,
            "f16" => STy::F16,
            "bf16" => STy::BF16,
            "f32" => STy::F32,
            "f64" => STy::F64,
            _ => return None,
        })
    }

    pub fn bits(self) -> u32 {
        match self {
            STy::I1 => 1,
            STy::I8 => 8,
            STy::I16 | STy::F16 | STy::BF16 => 16,
            STy::I32 | STy::F32 => 32,
            STy::I64 | STy::F64 => 64,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, STy::F16 | STy::BF16 | STy::F32 | STy::F64)
    }

    #[inline]
    pub fn mask(self) -> u64 {
        let b = self.bits();
        if b == 64 {
            u64::MAX
        } else {
            (1u64 << b) - 1
        }
    }

    /// Canonical register contents: the low `bits` bits, the rest zero.
    #[inline]
    pub fn norm(self, v: u64) -> u64 {
        v & self.mask()
    }

    #[inline]
    pub fn sext(self, v: u64) -> i64 {
        let b = self.bits();
        if b == 64 {
            v as i64
        } else {
            let shift = 64 - b;
            ((v << shift) as i64) >> shift
        }
    }

    #[inline]
    pub fn zext(self, v: u64) -> u64 {
        v & self.mask()
    }

    #[inline]
    pub fn to_f64(self, v: u64) -> f64 {
        match self {
            STy::F16 => f16::from_bits(v as u16).to_f64(),
            STy::BF16 => bf16::from_bits(v as u16).to_f64(),
            STy::F32 => f32::from_bits(v as u32) as f64,
            STy::F64 => f64::from_bits(v),
            _ => self.sext(v) as f64,
        }
    }

    #[inline]
    pub fn from_f64(self, x: f64) -> u64 {
        match self {
            STy::F16 => f16::from_f64(x).to_bits() as u64,
            STy::BF16 => bf16::from_f64(x).to_bits() as u64,
            STy::F32 => (x as f32).to_bits() as u64,
            STy::F64 => x.to_bits(),
            _ => self.norm(x as i64 as u64),
        }
    }

    /// The element type of the same width that a register of this type holds the bits of.
    pub fn dtype(self) -> DType {
        match self {
            STy::I1 => DType::Bool,
            STy::I8 => DType::I8,
            STy::I16 => DType::I16,
            STy::I32 => DType::I32,
            STy::I64 => DType::I64,
            STy::F16 => DType::F16,
            STy::BF16 => DType::BF16,
            STy::F32 => DType::F32,
            STy::F64 => DType::F64,
        }
    }
}

/// AscendC's RoundMode for Cast.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundMode {
    None,
    Rint,
    Floor,
    Ceil,
    Round,
    Trunc,
    Odd,
}

impl RoundMode {
    pub fn parse(name: &str) -> Option<RoundMode> {
        Some(match name.rsplit("::").next().unwrap_or(name) {
            "CAST_NONE" => RoundMode::None,
            "CAST_RINT" => RoundMode::Rint,
            "CAST_FLOOR" => RoundMode::Floor,
            "CAST_CEIL" => RoundMode::Ceil,
            "CAST_ROUND" => RoundMode::Round,
            "CAST_TRUNC" => RoundMode::Trunc,
            "CAST_ODD" => RoundMode::Odd,
            _ => return None,
        })
    }

    /// The vendor enum's numbering (CAST_NONE = 0, ... CAST_ODD = 6).
    pub fn from_index(i: i64) -> Option<RoundMode> {
        Some(match i {
            0 => RoundMode::None,
            1 => RoundMode::Rint,
            2 => RoundMode::Floor,
            3 => RoundMode::Ceil,
            4 => RoundMode::Round,
            5 => RoundMode::Trunc,
            6 => RoundMode::Odd,
            _ => return None,
        })
    }
}

/// Rounds `x` to an integral value with `mode` (NONE and RINT: to nearest, ties to even).
#[inline]
pub fn round_integral(x: f64, mode: RoundMode) -> f64 {
    match mode {
        RoundMode::None | RoundMode::Rint => x.round_ties_even(),
        RoundMode::Floor => x.floor(),
        RoundMode::Ceil => x.ceil(),
        RoundMode::Round => x.round(),
        RoundMode::Trunc | RoundMode::Odd => x.trunc(),
    }
}

/// (precision bits, minimum normal exponent, maximum finite value) of the floating element types.
fn float_format(t: DType) -> (i32, i32, f64) {
    match t {
        DType::F16 => (11, -14, 65504.0),
        DType::BF16 => (8, -126, 3.3895313892515355e38),
        DType::F32 => (24, -126, f32::MAX as f64),
        _ => (53, -1022, f64::MAX),
    }
}

/// Rounds `x` to float type `t` with a round mode; RINT and NONE to nearest even, ODD to odd (an inexact
/// result takes the neighbour whose last significand bit is 1). Returns the value, representable in `t`.
pub fn round_to_float(x: f64, t: DType, mode: RoundMode) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let (p, emin, max) = float_format(t);
    let e = (x.abs().log2().floor() as i32).max(emin);
    // the spacing of `t` around x; adjust for log2 rounding at binade edges
    let mut exp = e;
    if x.abs() >= (2f64).powi(exp + 1) {
        exp += 1;
    }
    if x.abs() < (2f64).powi(exp) && exp > emin {
        exp -= 1;
    }
    let ulp = (2f64).powi(exp - p + 1);
    let q = x / ulp;
    let lo = q.floor() * ulp;
    let hi = q.ceil() * ulp;
    let pick = if lo == hi {
        lo
    } else {
        match mode {
            RoundMode::Floor => lo,
            RoundMode::Ceil => hi,
            RoundMode::Trunc => {
                if x > 0.0 {
                    lo
                } else {
                    hi
                }
            }
            RoundMode::Round => {
                let dlo = x - lo;
                let dhi = hi - x;
                if dlo < dhi || (dlo == dhi && x < 0.0) {
                    lo
                } else {
                    hi
                }
            }
            RoundMode::Odd => {
                if (q.floor() as i64) & 1 == 1 {
                    lo
                } else {
                    hi
                }
            }
            RoundMode::None | RoundMode::Rint => {
                let dlo = x - lo;
                let dhi = hi - x;
                if dlo < dhi {
                    lo
                } else if dhi < dlo {
                    hi
                } else if (q.floor() as i64) & 1 == 0 {
                    lo
                } else {
                    hi
                }
            }
        }
    };
    if pick.abs() > max {
        let toward_inf = match mode {
            RoundMode::None | RoundMode::Rint | RoundMode::Round => true,
            RoundMode::Ceil => x > 0.0,
            RoundMode::Floor => x < 0.0,
            RoundMode::Trunc | RoundMode::Odd => false,
        };
        return if toward_inf {
            x.signum() * f64::INFINITY
        } else {
            x.signum() * max
        };
    }
    pick
}

/// Converts one element between types with a round mode, as the vector Cast does: float to integer rounds
/// with the mode and saturates (NaN becomes 0); float to float rounds with the mode; a float cast to the same
/// float type rounds to an integral value; integers to narrower integers saturate.
pub fn cast_bits(src: DType, dst: DType, mode: RoundMode, bits: u64) -> u64 {
    if src.is_float() {
        let x = src.to_f64(bits);
        if dst.is_float() {
            if src == dst {
                return if mode == RoundMode::None {
                    bits
                } else {
                    dst.from_f64(round_integral(x, mode))
                };
            }
            if dst.size() >= src.size() && !(src == DType::F16 && dst == DType::BF16) {
                return dst.from_f64(x); // exact widening
            }
            return dst.from_f64(round_to_float(x, dst, mode));
        }
        if x.is_nan() {
            return 0;
        }
        let r = round_integral(x, mode);
        return saturate(dst, r);
    }
    let v = src.to_i64(bits);
    if dst.is_float() {
        return dst.from_f64(round_to_float(
            if src == DType::U64 { bits as f64 } else { v as f64 },
            dst,
            mode,
        ));
    }
    saturate(dst, v as f64)
}

fn saturate(dst: DType, r: f64) -> u64 {
    let (lo, hi): (f64, f64) = match dst {
        DType::Bool => (0.0, 1.0),
        DType::I8 => (-128.0, 127.0),
        DType::U8 => (0.0, 255.0),
        DType::I16 => (-32768.0, 32767.0),
        DType::U16 => (0.0, 65535.0),
        DType::I32 => (-2147483648.0, 2147483647.0),
        DType::U32 => (0.0, 4294967295.0),
        DType::I64 => (-9.223372036854776e18, 9.223372036854776e18),
        DType::U64 => (0.0, 1.8446744073709552e19),
        // int4b_t's range, [-8, 7] (asc-devkit 内置数据类型.md); the vector Cast saturates as to int8
        DType::I4 => (-8.0, 7.0),
        _ => return dst.from_f64(r),
    };
    let c = r.clamp(lo, hi);
    match dst {
        DType::U64 => c as u64,
        _ => dst.from_i64(c as i64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f32_to_f16_round_modes() {
        // 1 + 2^-11 lies halfway between 1 and the next half (1 + 2^-10)
        let x = 1.0 + (2f64).powi(-11);
        assert_eq!(round_to_float(x, DType::F16, RoundMode::Rint), 1.0);
        assert_eq!(round_to_float(x, DType::F16, RoundMode::Round), 1.0 + (2f64).powi(-10));
        assert_eq!(round_to_float(x, DType::F16, RoundMode::Floor), 1.0);
        assert_eq!(round_to_float(x, DType::F16, RoundMode::Ceil), 1.0 + (2f64).powi(-10));
        assert_eq!(round_to_float(-x, DType::F16, RoundMode::Trunc), -1.0);
        assert_eq!(
            round_to_float(-x, DType::F16, RoundMode::Floor),
            -1.0 - (2f64).powi(-10)
        );
        // odd: 1 + 3*2^-12 lies between 1 + 2^-10 (odd last bit) and 1 + 2^-9 (even)
        let y = 1.0 + 3.0 * (2f64).powi(-12);
        assert_eq!(round_to_float(y, DType::F16, RoundMode::Odd), 1.0 + (2f64).powi(-10));
        // overflow: nearest goes to inf, truncation stays at the largest finite half
        assert_eq!(round_to_float(70000.0, DType::F16, RoundMode::Rint), f64::INFINITY);
        assert_eq!(round_to_float(70000.0, DType::F16, RoundMode::Trunc), 65504.0);
    }

    #[test]
    fn rint_matches_half_crate_on_many_values() {
        let mut x = -70000.0f32;
        while x < 70000.0 {
            let via_half = f16::from_f32(x).to_f64();
            assert_eq!(round_to_float(x as f64, DType::F16, RoundMode::Rint), via_half, "{x}");
            x += 1.337;
        }
        // subnormal halves
        for i in 0..2000 {
            let v = (i as f32) * 1.1e-8;
            assert_eq!(
                round_to_float(v as f64, DType::F16, RoundMode::Rint),
                f16::from_f32(v).to_f64(),
                "{v}"
            );
        }
    }

    #[test]
    fn float_to_int_rounds_and_saturates() {
        let f = |x: f32, m| DType::I32.to_i64(cast_bits(DType::F32, DType::I32, m, x.to_bits() as u64));
        assert_eq!(f(2.5, RoundMode::Rint), 2);
        assert_eq!(f(3.5, RoundMode::Rint), 4);
        assert_eq!(f(2.5, RoundMode::Round), 3);
        assert_eq!(f(-2.5, RoundMode::Round), -3);
        assert_eq!(f(-2.5, RoundMode::Floor), -3);
        assert_eq!(f(-2.5, RoundMode::Ceil), -2);
        assert_eq!(f(-2.7, RoundMode::Trunc), -2);
        assert_eq!(f(3e10, RoundMode::Rint), i32::MAX as i64);
        assert_eq!(f(f32::NAN, RoundMode::Rint), 0);
        let g = |x: f32| {
            DType::I8.to_i64(cast_bits(
                DType::F16,
                DType::I8,
                RoundMode::Rint,
                f16::from_f32(x).to_bits() as u64,
            ))
        };
        assert_eq!(g(300.0), 127);
        assert_eq!(g(-300.0), -128);
    }

    #[test]
    fn float_to_same_float_rounds_to_integral() {
        let b = cast_bits(DType::F32, DType::F32, RoundMode::Floor, (-1.5f32).to_bits() as u64);
        assert_eq!(f32::from_bits(b as u32), -2.0);
        let b = cast_bits(DType::F32, DType::F32, RoundMode::Rint, (2.5f32).to_bits() as u64);
        assert_eq!(f32::from_bits(b as u32), 2.0);
    }

    #[test]
    fn register_types_normalise_and_extend() {
        assert_eq!(STy::I8.norm(0x1FF), 0xFF);
        assert_eq!(STy::I8.sext(0xFF), -1);
        assert_eq!(STy::I32.sext(0x8000_0000), -2147483648);
        assert_eq!(STy::I1.sext(1), -1);
    }
}
