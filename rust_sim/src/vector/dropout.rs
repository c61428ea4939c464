//! AscendC::DropOut<T, isInitBitMode, dropOutMode>(dst, src, mask[, sharedTmpBuffer], keepProb, info): src
//! kept where the mask says, scaled by 1 / keepProb, over info.firstAxis rows of info.srcLastAxis elements, in the
//! library's order on the 220x chips (asc-devkit dropout_impl.h, dropout_c220_impl.h, dropout_membase_impl.h,
//! read for the facts):
//! - the mode: dropOutMode 1-4, or for 0 from the shape: maskLastAxis bytes per row greater than srcLastAxis is
//!   byte mode with padded mask rows (1), equal is byte mode (2), srcLastAxis = 8 * maskLastAxis is bit mode (3),
//!   anything else bit mode with padded rows (4);
//! - byte mode: dst = (half(mask byte) * src) * divValue, each a vector Mul rounded to T (float: the mask cast
//!   to half, then float); bit mode: dst = (bit ? src : 0) * divValue, bit i of byte j for element 8j + i, the
//!   Select's scalar 0 from the compare mask the library clears first (with isInitBitMode the caller has, so
//!   the template argument does not change the result);
//! - divValue = 1.0f / keepProb in float, then cast to T;
//! - padded mask rows (modes 1 and 4) are first packed in place by a GatherMask: the mask tensor's first
//!   firstAxis * srcLastAxis bytes (bits) hold the rows' used parts after the call, as on the hardware.
//!
//! A sharedTmpBuffer under what one piece needs (byte mode: 32 halves, 64 bytes, or for float 32 halves and 32
//! floats; bit mode: the 256 bytes the compare-mask reset uses) is reported (ASC959), as the library asserts.

use half::f16;

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::dequant::read_raw;

const WHAT: &str = "DropOut";

#[derive(Debug)]
struct DropOut {
    t: DType,
    mode: Option<u32>,
    dst: u32,
    src: u32,
    mask: u32,
    tmp: Option<u32>,
    keep_prob: Sv,
    info: [Sv; 3],
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let mode = match a.targ("dropOutMode") {
        Some(v) => Some(
            v.parse::<u32>()
                .map_err(|_| format!("DropOut's dropOutMode '{v}' is not a number"))?,
        ),
        None => None,
    };
    Ok(Box::new(DropOut {
        t: a.dtype("T")?,
        mode,
        dst: a.handle("dstLocal")?,
        src: a.handle("srcLocal")?,
        mask: a.handle("maskLocal")?,
        tmp: if a.has("sharedTmpBuffer") {
            Some(a.handle("sharedTmpBuffer")?)
        } else {
            None
        },
        keep_prob: a.sv("keepProb")?,
        info: [
            a.field("info", "firstAxis")?,
            a.field("info", "srcLastAxis")?,
            a.field("info", "maskLastAxis")?,
        ],
    }))
}

/// The library's mode for dropOutMode 0, from the shape.
pub fn auto_mode(src_last: usize, mask_last: usize) -> u32 {
    if src_last < mask_last {
        1
    } else if src_last == mask_last {
        2
    } else if src_last == mask_last * 8 {
        3
    } else {
        4
    }
}

/// Byte mode, half: (half(m) * x) rounded to half, times div rounded to half.
pub fn byte_half(m: u8, x: f16, div: f16) -> f16 {
    let v = f16::from_f32(m as f32 * x.to_f32());
    f16::from_f32(v.to_f32() * div.to_f32())
}

/// Byte mode, float: the mask byte exact in float, two float multiplies.
pub fn byte_float(m: u8, x: f32, div: f32) -> f32 {
    (m as f32 * x) * div
}

/// Whether element `e` is kept in a bit mask.
pub fn bit_kept(mask: &[u8], e: usize) -> bool {
    mask[e / 8] >> (e % 8) & 1 == 1
}

/// Packs `rows` rows of `row` bytes spaced `stride` apart to the front, as the library's GatherMask does.
pub fn pack_rows(mask: &[u8], rows: usize, row: usize, stride: usize) -> Vec<u8> {
    (0..rows)
        .flat_map(|r| mask[r * stride..r * stride + row].iter().copied())
        .collect()
}

impl DropOut {
    fn invalid(&self, cx: &mut Ctx, message: String) -> Flow {
        cx.report(code::INVALID_OPERAND, format!("{WHAT}{message}"));
        Flow::Next
    }
}

impl ApiOp for DropOut {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        if !matches!(t, DType::F16 | DType::F32) {
            return self.invalid(cx, format!(" takes half or float data on 220x, not {}", t.name()));
        }
        let [rows, src_last, mask_last] = self.info.map(|sv| cx.uint(sv) as usize);
        let keep = cx.float(self.keep_prob) as f32;
        if !(keep > 0.0 && keep < 1.0) {
            return self.invalid(cx, format!("'s keepProb {keep} is not in (0, 1)"));
        }
        let mode = self.mode.unwrap_or_else(|| auto_mode(src_last, mask_last));
        if !(1..=4).contains(&mode) {
            return self.invalid(cx, format!("'s dropOutMode {mode} is not 0-4"));
        }
        let bits = mode >= 3;
        // bytes of mask each row uses
        let used = if bits { src_last / 8 } else { src_last };
        let misaligned = mode == 1 || mode == 4;
        // a padded mask row shorter than its used bytes would have GatherMask read past the mask
        if (misaligned && (used % 2 != 0 || mask_last % 32 != 0 || used > mask_last)) || (bits && src_last % 8 != 0) {
            return self.invalid(
                cx,
                format!(
                    "'s shape (srcLastAxis {src_last}, maskLastAxis {mask_last}) does not fit mode {mode}: padded \
                     mask rows must be 32-byte multiples holding an even number of used bytes (no more than the \
                     row), and a bit mask 8 elements a byte"
                ),
            );
        }
        if let Some(tmp) = self.tmp {
            let have = cx.handle(tmp).len;
            let need = if bits {
                256
            } else if t == DType::F16 {
                64
            } else {
                192
            };
            if have >= 0 && (have as usize) < need {
                return self.invalid(
                    cx,
                    format!("'s sharedTmpBuffer holds {have} bytes, under the {need} it needs"),
                );
            }
        }
        let n = rows * src_last;
        // firstAxis * srcLastAxis elements must have a size in bytes (both are uint32_t: the product fits a
        // usize, its bytes may not)
        if n.checked_mul(t.size()).and_then(|b| i64::try_from(b).ok()).is_none() {
            return self.invalid(
                cx,
                format!("'s shape ({rows} rows of {src_last}) is more elements than any tensor holds"),
            );
        }
        let mask_span = if misaligned { rows * mask_last } else { rows * used };
        let Some((mut mask, mut mask_init)) = read_raw(cx, self.mask, mask_span, 1, WHAT) else {
            return Flow::Next;
        };
        if misaligned {
            mask = pack_rows(&mask, rows, used, mask_last);
            mask_init = pack_rows(&mask_init, rows, used, mask_last);
            let hd = cx.handle(self.mask);
            if let Some(d) = cx.range(hd, 0, mask.len() as i64, true, 1, WHAT) {
                cx.store_bytes(hd, d, &mask, &mask_init, DType::U8, WHAT);
            }
        }
        let sz = t.size();
        crate::timing::vector_pass(cx.core, n as u64, sz as u64);
        let Some((src, src_init)) = read_raw(cx, self.src, n * sz, sz, WHAT) else {
            return Flow::Next;
        };
        let div = 1.0f32 / keep;
        let mut out = vec![0u8; n * sz];
        let mut init = vec![0u8; n * sz];
        for e in 0..n {
            let x = &src[e * sz..(e + 1) * sz];
            let m_init = if bits { mask_init[e / 8] } else { mask_init[e] };
            let o = &mut out[e * sz..(e + 1) * sz];
            if t == DType::F16 {
                let (xv, d) = (f16::from_le_bytes([x[0], x[1]]), f16::from_f32(div));
                let v = if bits {
                    let kept = if bit_kept(&mask, e) { xv } else { f16::ZERO };
                    f16::from_f32(kept.to_f32() * d.to_f32())
                } else {
                    byte_half(mask[e], xv, d)
                };
                o.copy_from_slice(&v.to_le_bytes());
            } else {
                let xv = f32::from_le_bytes([x[0], x[1], x[2], x[3]]);
                let v = if bits {
                    (if bit_kept(&mask, e) { xv } else { 0.0 }) * div
                } else {
                    byte_float(mask[e], xv, div)
                };
                o.copy_from_slice(&v.to_le_bytes());
            }
            let ok = m_init == 1 && src_init[e * sz..(e + 1) * sz].iter().all(|&b| b == 1);
            init[e * sz..(e + 1) * sz].fill(ok as u8);
        }
        let dst = cx.handle(self.dst);
        if let Some(d) = cx.range(dst, 0, (n * sz) as i64, true, sz, WHAT) {
            cx.store_bytes(dst, d, &out, &init, t, WHAT);
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["DropOut"], &["tmp", "plain"], decode);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_from_the_shape() {
        assert_eq!(auto_mode(30, 64), 1);
        assert_eq!(auto_mode(64, 64), 2);
        assert_eq!(auto_mode(64, 8), 3);
        assert_eq!(auto_mode(64, 32), 4);
    }

    #[test]
    fn byte_mode_rounds_each_multiply() {
        // keepProb 0.3: 1 / 0.3 in float is 3.3333333, in half 3.333984375 (spacing 2^-9); x = 1.5: 5.0009765625,
        // half 5.0; x = half 0.1 (0.0999755859375): 0.33331298828125 -> half 0.333251953125
        let div = f16::from_f32(1.0 / 0.3);
        assert_eq!(div.to_f32(), 3.333_984_4);
        assert_eq!(byte_half(1, f16::from_f32(1.5), div).to_f32(), 5.0);
        assert_eq!(byte_half(1, f16::from_f32(0.1), div), f16::from_bits(13653));
        // a mask byte of 2 doubles the element; 0 keeps the sign of a negative source
        assert_eq!(byte_half(2, f16::from_f32(1.5), f16::ONE).to_f32(), 3.0);
        assert!(byte_float(0, -2.0, 4.0).is_sign_negative());
    }

    #[test]
    fn bits_are_lsb_first_and_padded_rows_pack() {
        let m = [0b0000_0101u8, 0b1000_0000];
        let kept: Vec<usize> = (0..16).filter(|&e| bit_kept(&m, e)).collect();
        assert_eq!(kept, vec![0, 2, 15]);
        assert_eq!(pack_rows(&[1, 2, 9, 9, 3, 4, 9, 9], 2, 2, 4), vec![1, 2, 3, 4]);
    }
}
