//! AscendC::AscendAntiQuant<InputDataType, OutputDataType, isTranspose>(dst, src, [offset,] scale
//! [, sharedTmpBuffer], k[, shapeInfo]): int8_t data dequantised as dst = scale * (src + offset) into half or
//! bfloat16_t, by the vendor's formulas, in the library's order on the 220x chips (asc-devkit
//! ascend_antiquant_impl.h / ascend_antiquant_c220_impl.h and the API page, read for the facts):
//! - not transposed: src is k rows of N = srcSize / k; offset and scale have G rows of N, groupSize = k / G,
//!   dst[i][j] = scale[i / groupSize][j] * (src[i][j] + offset[i / groupSize][j]);
//! - transposed: src is N rows of k; offset and scale have N rows of G, groupSize = k / G,
//!   dst[i][j] = scale[i][j / groupSize] * (src[i][j] + offset[i][j / groupSize]);
//! - per tensor: one offset and one scale value;
//! - G from the AntiQuantShapeInfo (offsetHeight/Width, scaleHeight/Width), else the scale's or the offset's
//!   ShapeInfo, else 1 (per channel);
//! - half: the int8_t cast to half (exact), one half Add of the offset and one half Mul by the scale, each
//!   rounded to half; bfloat16_t: int8_t to half to float, the offset and scale widened to float, Add and Mul
//!   in float, the result cast with CAST_RINT (to nearest even).
//!
//! The forms without offset scale only. The documented formulas are followed for any G (the library has several
//! paths by shape and buffer size; they were not each checked against them). int4b_t sources are reported as
//! not modelled; the sharedTmpBuffer's contents are not modelled.

use half::{bf16, f16};

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::dequant::read_raw;

const WHAT: &str = "AscendAntiQuant";

#[derive(Debug)]
enum Param {
    Value(Sv),
    Tensor(u32),
}

#[derive(Debug)]
struct AntiQuant {
    src_t: DType,
    out_t: DType,
    transpose: bool,
    dst: u32,
    src: u32,
    offset: Option<Param>,
    scale: Param,
    k: Sv,
    /// offsetHeight, offsetWidth, scaleHeight, scaleWidth
    shape: [Option<Sv>; 4],
}

fn param(a: &Args, name: &str) -> Result<Param, String> {
    match a.handle(name) {
        Ok(h) => Ok(Param::Tensor(h)),
        Err(_) => Ok(Param::Value(a.sv(name)?)),
    }
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let field = |f: &str| a.opt_field("shapeInfo", f);
    Ok(Box::new(AntiQuant {
        src_t: a.dtype("InputDataType")?,
        out_t: a.dtype("OutputDataType")?,
        transpose: a.targ("isTranspose").is_some_and(|v| v == "true" || v == "1"),
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        offset: if a.has("offset") {
            Some(param(a, "offset")?)
        } else {
            None
        },
        scale: param(a, "scale")?,
        k: a.sv("k")?,
        shape: [
            field("offsetHeight")?,
            field("offsetWidth")?,
            field("scaleHeight")?,
            field("scaleWidth")?,
        ],
    }))
}

/// One element into half: half(half(x + offset) * scale); without an offset, half(x * scale).
pub fn antiquant_half(x: i8, offset: Option<f16>, scale: f16) -> f16 {
    let mut v = f16::from_f32(x as f32);
    if let Some(o) = offset {
        v = f16::from_f64(v.to_f64() + o.to_f64());
    }
    f16::from_f64(v.to_f64() * scale.to_f64())
}

/// One element into bfloat16_t: the sum and product in float, rounded to bfloat16_t once.
pub fn antiquant_bf16(x: i8, offset: Option<f32>, scale: f32) -> bf16 {
    let mut v = x as f32;
    if let Some(o) = offset {
        v += o;
    }
    bf16::from_f32(v * scale)
}

impl AntiQuant {
    /// `n` elements of the output type at the start of tensor `h` (or the value, n times) as f64.
    fn values(&self, cx: &mut Ctx, p: &Param, n: usize) -> Option<(Vec<f64>, bool)> {
        let t = self.out_t;
        match *p {
            Param::Value(sv) => Some((vec![t.to_f64(cx.value_as(sv, t)); n], true)),
            Param::Tensor(h) => {
                let (b, init) = read_raw(cx, h, n * 2, 2, WHAT)?;
                let v = b.chunks_exact(2).map(|c| t.to_f64(t.load_bits(c))).collect();
                Some((v, crate::memory::all_ones(&init)))
            }
        }
    }

    /// The groups along k: from the shapeInfo's height (not transposed) or width, else the scale tensor's
    /// ShapeInfo, else the offset tensor's (asc-devkit's antiquant example sets only the offset's), else 1.
    fn groups(&self, cx: &Ctx) -> usize {
        let (h, w) = (self.shape[2].or(self.shape[0]), self.shape[3].or(self.shape[1]));
        let given = if self.transpose { w } else { h };
        if let Some(g) = given.map(|sv| cx.uint(sv) as usize).filter(|&g| g > 0) {
            return g;
        }
        let tensors = [Some(&self.scale), self.offset.as_ref()];
        for p in tensors.into_iter().flatten() {
            if let Param::Tensor(h) = *p {
                if let Some((rows, cols, _)) = crate::vector::softmax_flash::tensor_shape(cx, h) {
                    return if self.transpose { cols } else { rows };
                }
            }
        }
        1
    }
}

impl ApiOp for AntiQuant {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        if self.src_t != DType::I8 {
            cx.report(
                code::NOT_MODELLED,
                format!("{WHAT} from {} is not simulated (int8_t is)", self.src_t.name()),
            );
            return Flow::Stop;
        }
        if !matches!(self.out_t, DType::F16 | DType::BF16) {
            cx.report(
                code::INVALID_OPERAND,
                format!("{WHAT} writes half or bfloat16_t on 220x, not {}", self.out_t.name()),
            );
            return Flow::Next;
        }
        let total = cx.handle(self.src).len.max(0) as usize;
        let k = cx.uint(self.k) as usize;
        let per_tensor = matches!(self.scale, Param::Value(_));
        let g = if per_tensor { 1 } else { self.groups(cx) };
        if k == 0 || !total.is_multiple_of(k) || g == 0 || !k.is_multiple_of(g) {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "{WHAT}'s k {k} must divide srcTensor's {total} elements, and the {g} groups of its offset and \
                     scale must divide k"
                ),
            );
            return Flow::Next;
        }
        let n = total / k;
        let group = k / g;
        let params = if per_tensor { 1 } else { n * g };
        // the passes run on the half (or bfloat16) values the first Cast makes
        crate::timing::vector_pass(cx.core, total as u64, 2);
        let Some((src, src_init)) = read_raw(cx, self.src, total, 1, WHAT) else {
            return Flow::Next;
        };
        let Some((scale, s_ok)) = self.values(cx, &self.scale, params) else {
            return Flow::Next;
        };
        let offset = match &self.offset {
            Some(p) => match self.values(cx, p, params) {
                Some(v) => Some(v),
                None => return Flow::Next,
            },
            None => None,
        };
        let o_ok = offset.as_ref().is_none_or(|o| o.1);
        // the parameter of element (i, j) of src's rows
        let index = |e: usize| -> usize {
            if per_tensor {
                return 0;
            }
            if self.transpose {
                let (i, j) = (e / k, e % k);
                i * g + j / group
            } else {
                let (i, j) = (e / n, e % n);
                (i / group) * n + j
            }
        };
        let mut bytes = vec![0u8; total * 2];
        for (e, (&x, out)) in src.iter().zip(bytes.chunks_exact_mut(2)).enumerate() {
            let p = index(e);
            let off = offset.as_ref().map(|o| o.0[p]);
            let v = match self.out_t {
                DType::F16 => antiquant_half(x as i8, off.map(f16::from_f64), f16::from_f64(scale[p])).to_le_bytes(),
                _ => antiquant_bf16(x as i8, off.map(|o| o as f32), scale[p] as f32).to_le_bytes(),
            };
            out.copy_from_slice(&v);
        }
        let init: Vec<u8> = src_init
            .iter()
            .flat_map(|&b| [(b == 1 && s_ok && o_ok) as u8; 2])
            .collect();
        let dst = cx.handle(self.dst);
        if let Some(d) = cx.range(dst, 0, (total * 2) as i64, true, 2, WHAT) {
            cx.store_bytes(dst, d, &bytes, &init, self.out_t, WHAT);
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(
        &["AscendAntiQuant"],
        &[
            "tensor_tmp",
            "scale_tmp",
            "tensor",
            "scalar_tmp",
            "scale_scalar_tmp",
            "scalar",
        ],
        decode,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_rounds_the_sum_before_the_scale() {
        // 1 + 0.0004 rounds to half 1.0 (spacing 2^-10 = 0.000977), so times 3 is 3, not 3.0012
        let off = f16::from_f32(0.0004);
        assert_eq!(antiquant_half(1, Some(off), f16::from_f32(3.0)).to_f32(), 3.0);
        // -128 + 0.5 = -127.5, times 0.5 = -63.75
        assert_eq!(
            antiquant_half(-128, Some(f16::from_f32(0.5)), f16::from_f32(0.5)).to_f32(),
            -63.75
        );
        // the product rounds to nearest even: 127 * 1.0009765625 = 127.124..., half spacing 1/16 -> 127.125
        assert_eq!(antiquant_half(127, None, f16::from_bits(0x3C01)).to_f32(), 127.125);
    }

    #[test]
    fn bfloat16_computes_in_float_and_rounds_once() {
        // 3 * (bf16 1 + 2^-7) = 3.0234375 in float, halfway between bf16 3.015625 and 3.03125: to even
        let s = bf16::from_bits(0x3F81).to_f32();
        assert_eq!(antiquant_bf16(3, None, s).to_f32(), 3.03125);
        // ties: 257 = 256 + 1 is halfway between bf16 256 and 258: to even 256
        assert_eq!(antiquant_bf16(127, Some(130.0), 1.0).to_f32(), 256.0);
        assert_eq!(antiquant_bf16(127, Some(132.0), 1.0).to_f32(), 260.0);
    }
}
