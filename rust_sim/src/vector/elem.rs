//! Typed views of element bytes: chunks of elements loaded into f32 (floats) or i64 (integers) working
//! arrays and stored back, with the `half` crate's slice conversions for 16-bit floats.

use half::slice::HalfFloatSliceExt;
use half::{bf16, f16};

use crate::dtype::DType;

/// Elements per chunk of working arrays.
pub const CHUNK: usize = 1024;

/// Bytes aligned to 8, for typed views.
pub struct Scratch {
    words: Vec<u64>,
}

impl Scratch {
    pub fn new() -> Scratch {
        Scratch { words: Vec::new() }
    }

    pub fn bytes(&mut self, n: usize) -> &mut [u8] {
        let words = n.div_ceil(8);
        if self.words.len() < words {
            self.words.resize(words, 0);
        }
        // SAFETY: the words hold at least n bytes
        unsafe { std::slice::from_raw_parts_mut(self.words.as_mut_ptr() as *mut u8, n) }
    }
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch::new()
    }
}

#[inline]
fn typed<T>(bytes: &[u8]) -> Option<&[T]> {
    let size = std::mem::size_of::<T>();
    if !bytes.len().is_multiple_of(size) || !(bytes.as_ptr() as usize).is_multiple_of(std::mem::align_of::<T>()) {
        return None;
    }
    // SAFETY: length and alignment checked; T is a plain number type for which every bit pattern is valid
    Some(unsafe { std::slice::from_raw_parts(bytes.as_ptr() as *const T, bytes.len() / size) })
}

#[inline]
fn typed_mut<T>(bytes: &mut [u8]) -> Option<&mut [T]> {
    let size = std::mem::size_of::<T>();
    if !bytes.len().is_multiple_of(size) || !(bytes.as_ptr() as usize).is_multiple_of(std::mem::align_of::<T>()) {
        return None;
    }
    // SAFETY: as above, and the borrow is unique
    Some(unsafe { std::slice::from_raw_parts_mut(bytes.as_mut_ptr() as *mut T, bytes.len() / size) })
}

/// Loads `out.len()` float elements of type `t` from `src`.
pub fn load_f32(t: DType, src: &[u8], out: &mut [f32]) {
    let n = out.len();
    match t {
        DType::F32 => {
            if let Some(s) = typed::<f32>(&src[..n * 4]) {
                out.copy_from_slice(s);
            } else {
                for (o, c) in out.iter_mut().zip(src.chunks_exact(4)) {
                    *o = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                }
            }
        }
        DType::F16 => {
            if let Some(s) = typed::<f16>(&src[..n * 2]) {
                s.convert_to_f32_slice(out);
            } else {
                for (o, c) in out.iter_mut().zip(src.chunks_exact(2)) {
                    *o = f16::from_le_bytes([c[0], c[1]]).to_f32();
                }
            }
        }
        DType::BF16 => {
            for (o, c) in out.iter_mut().zip(src.chunks_exact(2)) {
                *o = bf16::from_le_bytes([c[0], c[1]]).to_f32();
            }
        }
        _ => {
            let size = t.size();
            for (o, c) in out.iter_mut().zip(src.chunks_exact(size)) {
                *o = t.to_f64(t.load_bits(c)) as f32;
            }
        }
    }
}

/// Stores float values as elements of type `t` (rounding to nearest even).
pub fn store_f32(t: DType, vals: &[f32], dst: &mut [u8]) {
    let n = vals.len();
    match t {
        DType::F32 => {
            if let Some(d) = typed_mut::<f32>(&mut dst[..n * 4]) {
                d.copy_from_slice(vals);
            } else {
                for (c, v) in dst.chunks_exact_mut(4).zip(vals) {
                    c.copy_from_slice(&v.to_le_bytes());
                }
            }
        }
        DType::F16 => {
            if let Some(d) = typed_mut::<f16>(&mut dst[..n * 2]) {
                d.convert_from_f32_slice(vals);
            } else {
                for (c, v) in dst.chunks_exact_mut(2).zip(vals) {
                    c.copy_from_slice(&f16::from_f32(*v).to_le_bytes());
                }
            }
        }
        DType::BF16 => {
            for (c, v) in dst.chunks_exact_mut(2).zip(vals) {
                c.copy_from_slice(&bf16::from_f32(*v).to_le_bytes());
            }
        }
        _ => {
            let size = t.size();
            for (c, v) in dst.chunks_exact_mut(size).zip(vals) {
                t.store_bits(c, t.from_f64(*v as f64));
            }
        }
    }
}

/// Loads integer elements, sign- or zero-extended to i64.
pub fn load_i64(t: DType, src: &[u8], out: &mut [i64]) {
    let size = t.size();
    match t {
        DType::I32 => {
            for (o, c) in out.iter_mut().zip(src.chunks_exact(4)) {
                *o = i32::from_le_bytes([c[0], c[1], c[2], c[3]]) as i64;
            }
        }
        DType::I16 => {
            for (o, c) in out.iter_mut().zip(src.chunks_exact(2)) {
                *o = i16::from_le_bytes([c[0], c[1]]) as i64;
            }
        }
        _ => {
            for (o, c) in out.iter_mut().zip(src.chunks_exact(size)) {
                *o = t.to_i64(t.load_bits(c));
            }
        }
    }
}

/// Stores integers, wrapping to the element width.
pub fn store_i64(t: DType, vals: &[i64], dst: &mut [u8]) {
    let size = t.size();
    match t {
        DType::I32 | DType::U32 => {
            for (c, v) in dst.chunks_exact_mut(4).zip(vals) {
                c.copy_from_slice(&(*v as u32).to_le_bytes());
            }
        }
        DType::I16 | DType::U16 => {
            for (c, v) in dst.chunks_exact_mut(2).zip(vals) {
                c.copy_from_slice(&(*v as u16).to_le_bytes());
            }
        }
        _ => {
            for (c, v) in dst.chunks_exact_mut(size).zip(vals) {
                t.store_bits(c, t.from_i64(*v));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_round_trips_through_f32() {
        let vals = [1.0f32, -2.5, 65504.0, 1e-7, 0.1];
        let mut bytes = vec![0u8; vals.len() * 2];
        store_f32(DType::F16, &vals, &mut bytes);
        let mut back = [0f32; 5];
        load_f32(DType::F16, &bytes, &mut back);
        for (v, b) in vals.iter().zip(back) {
            assert_eq!(f16::from_f32(*v).to_f32(), b);
        }
    }

    #[test]
    fn integers_wrap_on_store() {
        let mut bytes = vec![0u8; 4];
        store_i64(DType::I16, &[40000, -1], &mut bytes);
        let mut back = [0i64; 2];
        load_i64(DType::I16, &bytes, &mut back);
        assert_eq!(back, [40000 - 65536, -1]);
        let mut u = [0i64; 2];
        load_i64(DType::U16, &bytes, &mut u);
        assert_eq!(u, [40000, 65535]);
    }
}
