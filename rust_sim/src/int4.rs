//! int4b_t in memory: two 4-bit two's-complement elements per byte, element 2k in the low nibble of byte k and
//! element 2k + 1 in the high one. asc-devkit's kernel_tensor_impl.h reads element `offset` of a GlobalTensor as
//! `byte[offset / 2] >> (4 * (offset % 2))` and writes it under the mask 0xf0 (even) / 0x0f (odd); a tensor of n
//! elements takes n / 2 bytes, and an element offset into it moves offset / 2 bytes.
//!
//! Only the calls that accept int4b_t (the vector Cast to and from half, DataCopy / DataCopyPad, which count
//! bytes or whole elements of it) take such operands: api::Args::dtype refers the others to a finding.

/// The bytes `count` elements of `bits` bits each take (the program's element sizes: 4 for int4b_t, so an
/// element offset into such a tensor moves offset / 2 bytes, rounded down as asc-devkit's `offset / INT4_TWO`).
#[inline]
pub fn bytes(count: i64, bits: u32) -> i64 {
    count.wrapping_mul(bits as i64).div_euclid(8)
}

/// The value of a nibble (the low 4 bits of `bits`) as a signed integer in [-8, 7].
#[inline]
pub fn sext(bits: u64) -> i64 {
    (((bits & 0xF) as i64) << 60) >> 60
}

/// Element `i` of a packed int4 array, as its 4 bits.
#[inline]
pub fn get(bytes: &[u8], i: usize) -> u64 {
    ((bytes[i / 2] >> (4 * (i % 2))) & 0xF) as u64
}

/// Sets element `i` of a packed int4 array to the low 4 bits of `bits`, keeping the other nibble of its byte.
#[inline]
pub fn set(bytes: &mut [u8], i: usize, bits: u64) {
    let shift = 4 * (i % 2);
    let keep = if i.is_multiple_of(2) { 0xF0 } else { 0x0F };
    bytes[i / 2] = (bytes[i / 2] & keep) | (((bits & 0xF) as u8) << shift);
}

/// Packs values (each in [-8, 7]; wider ones keep their low 4 bits) two to a byte.
pub fn pack(values: &[i64]) -> Vec<u8> {
    let mut out = vec![0u8; values.len().div_ceil(2)];
    for (i, v) in values.iter().enumerate() {
        set(&mut out, i, *v as u64);
    }
    out
}

/// The first `count` elements of a packed int4 array, sign-extended.
pub fn unpack(bytes: &[u8], count: usize) -> Vec<i64> {
    (0..count).map(|i| sext(get(bytes, i))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::{cast_bits, DType, RoundMode};
    use half::f16;

    #[test]
    fn pack_puts_the_even_element_in_the_low_nibble() {
        assert_eq!(pack(&[1, 2]), vec![0x21]);
        assert_eq!(pack(&[-1, 7, -8]), vec![0x7F, 0x08]);
        assert_eq!(unpack(&[0x7F, 0x08], 3), vec![-1, 7, -8]);
        let all: Vec<i64> = (-8..8).collect();
        assert_eq!(unpack(&pack(&all), all.len()), all);
    }

    #[test]
    fn set_keeps_the_other_nibble() {
        let mut b = vec![0xA5u8];
        set(&mut b, 0, 3);
        assert_eq!(b, vec![0xA3]);
        set(&mut b, 1, -2i64 as u64);
        assert_eq!(b, vec![0xE3]);
        assert_eq!((sext(get(&b, 0)), sext(get(&b, 1))), (3, -2));
    }

    #[test]
    fn element_counts_are_half_bytes() {
        assert_eq!(DType::I4.bits(), 4);
        assert_eq!(DType::I4.bytes_of(64), 32);
        assert_eq!(DType::I4.bytes_of(7), 3);
        assert_eq!(DType::I8.bytes_of(7), 7);
        assert_eq!(DType::parse("i4"), Some(DType::I4));
        assert_eq!(DType::I4.to_i64(0xF), -1);
        assert_eq!(DType::I4.from_i64(-3), 0xD);
    }

    fn half_to_int4(x: f32, mode: RoundMode) -> i64 {
        sext(cast_bits(
            DType::F16,
            DType::I4,
            mode,
            f16::from_f32(x).to_bits() as u64,
        ))
    }

    #[test]
    fn half_to_int4_rounds_with_the_mode_and_saturates() {
        assert_eq!(half_to_int4(2.5, RoundMode::Rint), 2);
        assert_eq!(half_to_int4(3.5, RoundMode::Rint), 4);
        assert_eq!(half_to_int4(-2.5, RoundMode::Rint), -2);
        assert_eq!(half_to_int4(2.5, RoundMode::Round), 3);
        assert_eq!(half_to_int4(-2.5, RoundMode::Round), -3);
        assert_eq!(half_to_int4(-2.5, RoundMode::Floor), -3);
        assert_eq!(half_to_int4(-2.5, RoundMode::Ceil), -2);
        assert_eq!(half_to_int4(-2.7, RoundMode::Trunc), -2);
        assert_eq!(half_to_int4(7.4, RoundMode::Rint), 7);
        assert_eq!(half_to_int4(9.0, RoundMode::Rint), 7);
        assert_eq!(half_to_int4(-100.0, RoundMode::Rint), -8);
        assert_eq!(half_to_int4(f32::NAN, RoundMode::Rint), 0);
    }

    #[test]
    fn int4_to_half_is_exact() {
        for v in -8..8i64 {
            let h = cast_bits(DType::I4, DType::F16, RoundMode::None, v as u64 & 0xF);
            assert_eq!(f16::from_bits(h as u16).to_f64(), v as f64);
        }
    }
}
