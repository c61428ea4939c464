//! AscendC::AscendDequant(dst, src, deqScale[, sharedTmpBuffer], params | calCount | -): int32_t data times a
//! per-column scale (a tensor of float, bfloat16_t or uint64_t, or one float / bfloat16_t value) into float,
//! half or bfloat16_t, in the library's order on the 220x chips (asc-devkit ascend_dequant_common_impl.h, read
//! for the facts):
//! - the source is m rows of n int32_t (DequantParams, or for the forms without it one row per deqScale length:
//!   {srcSize / scaleSize, scaleSize, scaleSize}); with the default DEQUANT_WITH_SINGLE_ROW, {1, n, calCount}
//!   whose calCount is a whole number of dst's 32-byte blocks and divides n becomes {n / calCount, calCount,
//!   calCount};
//! - each int32_t is cast to float (to nearest even), the first calCount columns of each row multiplied by the
//!   scale in float (a uint64_t scale's low 32 bits are the float; bfloat16_t is widened), the other columns
//!   left unscaled, then cast to dstT: half to nearest even (CAST_NONE), bfloat16_t with CAST_RINT;
//! - dst rows start every n rounded up to dst's 32-byte block (n halves become a multiple of 16), the padding
//!   not written;
//! - the calCount form dequantises calCount elements, a last partial row scaled column by column.
//!
//! A caller's sharedTmpBuffer must hold the float scale (calCount rounded up to 8) and at least one source row
//! of floats; a smaller one is reported (ASC959), as the library asserts. Its contents are not modelled.

use half::bf16;

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::elem::store_f32;
use crate::vector::sizes::{checked_bytes, report_oversized};

const WHAT: &str = "AscendDequant";

#[derive(Debug)]
enum Scale {
    Tensor(u32),
    Value(Sv),
}

#[derive(Debug)]
enum Shape {
    /// DequantParams {m, n, calCount}
    Params([Sv; 3]),
    /// calCount elements, rows as long as the scale tensor
    Count(Sv),
    /// the whole source, rows as long as the scale tensor
    Whole,
}

#[derive(Debug)]
struct Dequant {
    dst_t: DType,
    scale_t: DType,
    multi_row: bool,
    dst: u32,
    src: u32,
    scale: Scale,
    tmp: Option<u32>,
    shape: Shape,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let scalar = a.overload.starts_with("scalar");
    let shape = if a.has("params.m") {
        Shape::Params([
            a.field("params", "m")?,
            a.field("params", "n")?,
            a.field("params", "calCount")?,
        ])
    } else if a.has("calCount") {
        Shape::Count(a.sv("calCount")?)
    } else {
        Shape::Whole
    };
    // a scale value's type, where the call leaves scaleT to deduction from an expression the lowering does not
    // type, is its register's
    let scale_t = match a.dtype("scaleT") {
        Err(_) if scalar => a.sv("deqScale")?.ty.dtype(),
        t => t?,
    };
    Ok(Box::new(Dequant {
        dst_t: a.dtype("dstT")?,
        scale_t,
        multi_row: a.targ("mode").is_some_and(|m| m.contains("MULTI") || m == "1"),
        dst: a.handle("dstTensor")?,
        src: a.handle("srcTensor")?,
        scale: if scalar {
            Scale::Value(a.sv("deqScale")?)
        } else {
            Scale::Tensor(a.handle("deqScale")?)
        },
        tmp: if a.has("sharedTmpBuffer") {
            Some(a.handle("sharedTmpBuffer")?)
        } else {
            None
        },
        shape,
    }))
}

/// The (dstT, scaleT) pairs the 220x library accepts: a scale tensor of uint64_t for half, float or
/// bfloat16_t for float or bfloat16_t; a scale value of float or bfloat16_t for float or bfloat16_t.
pub fn types_valid(dst: DType, scale: DType, tensor: bool) -> bool {
    let wide = matches!(dst, DType::F32 | DType::BF16) && matches!(scale, DType::F32 | DType::BF16);
    wide || (tensor && dst == DType::F16 && scale == DType::U64)
}

/// DequantParams after the library's DEQUANT_WITH_SINGLE_ROW rewrite of one long row into rows of calCount.
pub fn single_row(m: usize, n: usize, cal: usize, dst: DType) -> (usize, usize, usize) {
    let block = 32 / dst.size();
    if m == 1 && cal > 0 && cal.is_multiple_of(block) && n.is_multiple_of(cal) {
        (n / cal, cal, cal)
    } else {
        (m, n, cal)
    }
}

/// Dequantises `src` (`total` elements in rows of `n`, the first `cal` columns scaled) into floats at the
/// positions of `dst`'s rows of `dst_inner`; returns (position, value) pairs in order.
pub fn dequantise(src: &[i32], scale: &[f32], n: usize, cal: usize, dst_inner: usize) -> Vec<(usize, f32)> {
    src.iter()
        .enumerate()
        .map(|(i, &v)| {
            let (r, c) = (i / n, i % n);
            let x = v as f32;
            (r * dst_inner + c, if c < cal { x * scale[c] } else { x })
        })
        .collect()
}

/// The bytes and initialised flags of `len` bytes at the start of local tensor `h`, after the range check.
pub(crate) fn read_raw(cx: &mut Ctx, h: u32, len: usize, elem: usize, what: &str) -> Option<(Vec<u8>, Vec<u8>)> {
    let hd = cx.handle(h);
    let at = cx.range(hd, 0, len as i64, false, elem, what)?;
    let crate::memory::Space::Local(mem) = hd.space else {
        return None;
    };
    let local = cx.local(mem);
    Some((
        local.data.as_slice()[at..at + len].to_vec(),
        local.init[at..at + len].to_vec(),
    ))
}

/// A scale element as float: a uint64_t's low 32 bits are a float's.
fn scale_value(t: DType, b: &[u8]) -> f32 {
    match t {
        DType::U64 | DType::F32 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        DType::BF16 => bf16::from_le_bytes([b[0], b[1]]).to_f32(),
        _ => t.to_f64(t.load_bits(b)) as f32,
    }
}

impl Dequant {
    fn elements(&self, cx: &Ctx, h: u32, t: DType) -> usize {
        (cx.handle(h).len.max(0) as usize) / t.size()
    }

    /// (m, n, calCount, elements to dequantise), before the single-row rewrite; None (reported) where invalid.
    fn shape(&self, cx: &mut Ctx) -> Option<(usize, usize, usize, usize)> {
        let src_size = self.elements(cx, self.src, DType::I32);
        let (m, n, cal, total) = match self.shape {
            Shape::Params(f) => {
                let (m, n, cal) = (cx.uint(f[0]) as usize, cx.uint(f[1]) as usize, cx.uint(f[2]) as usize);
                if !n.is_multiple_of(8) || cal == 0 || cal > n {
                    cx.report(
                        code::INVALID_OPERAND,
                        format!(
                            "{WHAT}'s DequantParams {{m {m}, n {n}, calCount {cal}}}: n must be a multiple of 8 \
                             (32 bytes of int32_t) and calCount in (0, n]"
                        ),
                    );
                    return None;
                }
                // m * n int32_t: two uint32_t fields, whose bytes can pass u64 ({2^31, 2^31, 8} wrapped to 0
                // bytes and dequantised nothing, silently)
                if checked_bytes(&[m, n, 4]).is_none() {
                    report_oversized(cx, WHAT, format!("DequantParams {{m {m}, n {n}}}"));
                    return None;
                }
                (m, n, cal, m * n)
            }
            Shape::Count(_) | Shape::Whole => {
                let Scale::Tensor(s) = self.scale else {
                    return None;
                };
                let scale_size = self.elements(cx, s, self.scale_t);
                if scale_size == 0 || !src_size.is_multiple_of(scale_size) {
                    cx.report(
                        code::INVALID_OPERAND,
                        format!(
                            "{WHAT} without DequantParams needs srcTensor's {src_size} elements to be a multiple of \
                             deqScale's {scale_size}"
                        ),
                    );
                    return None;
                }
                let total = match self.shape {
                    Shape::Count(c) => cx.uint(c) as usize,
                    _ => src_size,
                };
                if total == 0 || total > src_size {
                    cx.report(
                        code::INVALID_OPERAND,
                        format!("{WHAT}'s calCount {total} is not in (0, srcTensor's {src_size} elements]"),
                    );
                    return None;
                }
                (src_size / scale_size, scale_size, scale_size, total)
            }
        };
        Some((m, n, cal, total))
    }
}

impl ApiOp for Dequant {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let tensor = matches!(self.scale, Scale::Tensor(_));
        if !types_valid(self.dst_t, self.scale_t, tensor) {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "{WHAT} does not take dstT {} with a deqScale {} of {} on 220x: the library accepts a scale \
                     tensor of uint64_t for half, float or bfloat16_t for float or bfloat16_t, a scale value of \
                     float or bfloat16_t for float or bfloat16_t",
                    self.dst_t.name(),
                    if tensor { "tensor" } else { "value" },
                    self.scale_t.name()
                ),
            );
            return Flow::Next;
        }
        let Some((m, n, cal, total)) = self.shape(cx) else {
            return Flow::Next;
        };
        let pure = matches!(self.shape, Shape::Params(_));
        let (m, n, cal) = if self.multi_row {
            (m, n, cal)
        } else {
            single_row(m, n, cal, self.dst_t)
        };
        let total = if pure { m * n } else { total };
        if let Some(tmp) = self.tmp {
            let need = (cal.next_multiple_of(8) + n) * 4;
            let have = cx.handle(tmp).len;
            if have >= 0 && (have as usize) < need {
                cx.report(
                    code::INVALID_OPERAND,
                    format!(
                        "{WHAT}'s sharedTmpBuffer holds {have} bytes, under the {need} its shape needs (the float \
                         scale, calCount {cal} rounded up to 8, and one row of {n} floats)"
                    ),
                );
                return Flow::Next;
            }
        }
        crate::timing::vector_pass(cx.core, total as u64, 4);
        let Some((src_bytes, src_init)) = read_raw(cx, self.src, total * 4, 4, WHAT) else {
            return Flow::Next;
        };
        let (scale, scale_init) = match self.scale {
            Scale::Tensor(h) => {
                let sz = self.scale_t.size();
                let Some((b, init)) = read_raw(cx, h, cal * sz, sz, WHAT) else {
                    return Flow::Next;
                };
                let v: Vec<f32> = b.chunks_exact(sz).map(|c| scale_value(self.scale_t, c)).collect();
                (v, crate::memory::all_ones(&init))
            }
            Scale::Value(sv) => {
                let bits = cx.value_as(sv, self.scale_t);
                (vec![self.scale_t.to_f64(bits) as f32; cal], true)
            }
        };
        let src: Vec<i32> = src_bytes
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let dsz = self.dst_t.size();
        let dst_inner = n.next_multiple_of(32 / dsz);
        let vals = dequantise(&src, &scale, n, cal, dst_inner);
        let Some(&(last, _)) = vals.last() else {
            return Flow::Next;
        };
        let span = (last + 1) * dsz;
        let dst = cx.handle(self.dst);
        let Some(d) = cx.range(dst, 0, span as i64, true, dsz, WHAT) else {
            return Flow::Next;
        };
        // padding between rows keeps its bytes: write row by row
        let mut row_bytes = Vec::with_capacity(n * dsz);
        let mut row_init = Vec::with_capacity(n * dsz);
        for (r, row) in vals.chunks(n).enumerate() {
            row_bytes.clear();
            row_init.clear();
            for (i, &(_, v)) in row.iter().enumerate() {
                let mut b = [0u8; 4];
                // half to nearest even, bfloat16_t with CAST_RINT: also to nearest even
                store_f32(self.dst_t, &[v], &mut b[..dsz]);
                row_bytes.extend_from_slice(&b[..dsz]);
                let k = (r * n + i) * 4;
                let ok = crate::memory::all_ones(&src_init[k..k + 4]) && (i >= cal || scale_init);
                row_init.extend(std::iter::repeat_n(ok as u8, dsz));
            }
            let hd = cx.handle(self.dst);
            cx.store_bytes(hd, d + r * dst_inner * dsz, &row_bytes, &row_init, self.dst_t, WHAT);
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(
        &["AscendDequant"],
        &[
            "tmp_params",
            "params",
            "tmp_count",
            "count",
            "tmp",
            "whole",
            "scalar_tmp_params",
            "scalar_params",
        ],
        decode,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::f16;

    #[test]
    fn scales_the_first_calcount_columns_and_pads_rows() {
        // 2 rows of 8, calCount 5: columns 5..8 keep the int value; half rows start every 16
        let src: Vec<i32> = (0..16).map(|i| i - 3).collect();
        let scale = [0.5f32, 2.0, -1.0, 0.25, 3.0];
        let v = dequantise(&src, &scale, 8, 5, 16);
        assert_eq!(v[0], (0, -1.5));
        assert_eq!(v[4], (4, 3.0));
        assert_eq!(v[5], (5, 2.0));
        assert_eq!(v[8], (16, 2.5)); // row 1 column 0: 5 * 0.5
        assert_eq!(v[15], (23, 12.0));
    }

    #[test]
    fn int32_to_float_rounds_to_nearest_even_before_the_scale() {
        // 2^24 + 1 is not a float: it rounds to 2^24 (even), then times 1
        let v = dequantise(&[16_777_217, 16_777_219], &[1.0, 1.0], 8, 8, 8);
        assert_eq!(v[0].1, 16_777_216.0);
        assert_eq!(v[1].1, 16_777_220.0);
    }

    #[test]
    fn single_row_rewrite_needs_a_whole_dst_block() {
        // {1, 16, 8}: 8 floats are one block, so two rows; 8 bfloat16 are half a block, so unchanged
        assert_eq!(single_row(1, 16, 8, DType::F32), (2, 8, 8));
        assert_eq!(single_row(1, 16, 8, DType::BF16), (1, 16, 8));
        assert_eq!(single_row(1, 64, 16, DType::F16), (4, 16, 16));
        assert_eq!(single_row(2, 64, 16, DType::F16), (2, 64, 16));
    }

    #[test]
    fn half_rounds_to_nearest_even_and_uint64_scale_is_its_low_float() {
        let mut b = [0u8; 2];
        // 2049 is between halves 2048 and 2050: ties to even 2048
        store_f32(DType::F16, &[2049.0], &mut b);
        assert_eq!(f16::from_le_bytes(b).to_f32(), 2048.0);
        store_f32(DType::F16, &[2051.0], &mut b);
        assert_eq!(f16::from_le_bytes(b).to_f32(), 2052.0);
        let mut s = [0u8; 8];
        s[..4].copy_from_slice(&0.75f32.to_le_bytes());
        s[4..].copy_from_slice(&[0xff; 4]);
        assert_eq!(scale_value(DType::U64, &s), 0.75);
        assert!(types_valid(DType::F16, DType::U64, true) && !types_valid(DType::F16, DType::F32, true));
        assert!(!types_valid(DType::F16, DType::U64, false) && types_valid(DType::BF16, DType::F32, false));
    }
}
