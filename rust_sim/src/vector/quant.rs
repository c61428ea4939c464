//! AscendC::AscendQuant(dst, src[, sharedTmpBuffer], scale, offset[, counts]): float or half data quantised to
//! int8_t as round(src * scale + offset), in the library's order on the 220x chips (asc-devkit
//! ascend_quant_pre_impl.h, read for the facts; the vendor's API page gives the rounding, round half to even):
//! everything is computed in half: a float source, scale and offset are first cast to half (to nearest even),
//! then one half multiply and one half add, each rounded to half, then the cast to int8_t, to nearest even and
//! saturated to [-128, 127].
//! - per tensor: one float scale and offset;
//! - per channel: a scale tensor of T (scaleCount of them, one per column of calCount / scaleCount rows) with
//!   one offset of T or an offset tensor of T (offsetCount == scaleCount).
//!
//! A float scale (and offset) tensor is cast to half in place: the library reuses its memory, so after the
//! call its first scaleCount * 2 bytes hold the halves, and the simulator writes them there too.
//! A sharedTmpBuffer under 64 bytes (no 32 halves to work in) is reported (ASC959), as the library asserts;
//! a non-default AscendQuantConfig (static counts) is reported as not modelled.

use half::f16;

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::dequant::read_raw;

const WHAT: &str = "AscendQuant";

#[derive(Debug)]
enum Param {
    Value(Sv),
    Tensor(u32),
}

#[derive(Debug)]
struct Quant {
    t: DType,
    config: Option<String>,
    dst: u32,
    src: u32,
    tmp: Option<u32>,
    scale: Param,
    offset: Param,
    cal_count: Option<Sv>,
    scale_count: Option<Sv>,
    offset_count: Option<Sv>,
}

fn opt_handle(a: &Args, name: &str) -> Result<Option<u32>, String> {
    if a.has(name) {
        a.handle(name).map(Some)
    } else {
        Ok(None)
    }
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let scale = match opt_handle(a, "scaleTensor")? {
        Some(h) => Param::Tensor(h),
        None => Param::Value(a.sv("scale")?),
    };
    let offset = match opt_handle(a, "offsetTensor")? {
        Some(h) => Param::Tensor(h),
        None => Param::Value(a.sv("offset")?),
    };
    Ok(Box::new(Quant {
        t: a.dtype("T")?,
        config: a.targ("config").map(str::to_string),
        dst: a.handle("dstTensor")?,
        src: a.handle("srcTensor")?,
        tmp: opt_handle(a, "sharedTmpBuffer")?,
        scale,
        offset,
        cal_count: a.opt_sv("calCount")?,
        scale_count: a.opt_sv("scaleCount")?,
        offset_count: a.opt_sv("offsetCount")?,
    }))
}

/// One element: round(half(half(x * scale) + offset)) to nearest even, saturated to int8_t (NaN gives 0).
/// The half product is exact in f32 and the half sum exact in f64, so each is rounded once, as the vector
/// unit's half Mul and Add are.
pub fn quantise(x: f16, scale: f16, offset: f16) -> i8 {
    let prod = f16::from_f32(x.to_f32() * scale.to_f32());
    let sum = f16::from_f64(prod.to_f64() + offset.to_f64());
    let v = sum.to_f64();
    if v.is_nan() {
        return 0;
    }
    v.round_ties_even().clamp(-128.0, 127.0) as i8
}

/// `n` elements of type `t` (half or float) at the start of local tensor `h`, as halves (a float rounded to
/// nearest even), with their initialised flags per element.
fn read_halves(cx: &mut Ctx, h: u32, n: usize, t: DType) -> Option<(Vec<f16>, Vec<bool>)> {
    let sz = t.size();
    let (b, init) = read_raw(cx, h, n * sz, sz, WHAT)?;
    let vals = b
        .chunks_exact(sz)
        .map(|c| match t {
            DType::F32 => f16::from_f32(f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            _ => f16::from_le_bytes([c[0], c[1]]),
        })
        .collect();
    let ok = init.chunks_exact(sz).map(crate::memory::all_ones).collect();
    Some((vals, ok))
}

impl Quant {
    fn elements(&self, cx: &Ctx, h: u32) -> usize {
        (cx.handle(h).len.max(0) as usize) / self.t.size()
    }

    fn count(&self, cx: &Ctx, given: Option<Sv>, h: u32) -> usize {
        given.map_or_else(|| self.elements(cx, h), |sv| cx.uint(sv) as usize)
    }

    fn invalid(&self, cx: &mut Ctx, message: String) -> Flow {
        cx.report(code::INVALID_OPERAND, format!("{WHAT}{message}"));
        Flow::Next
    }

    /// The scale or offset of each column: one value (a float cast to half, or a T cast to half), or the
    /// first `k` elements of a tensor; for a float tensor, the halves are written over its first bytes.
    fn per_column(&self, cx: &mut Ctx, p: &Param, k: usize) -> Option<(Vec<f16>, bool)> {
        match *p {
            Param::Value(sv) => {
                let v = if sv.ty.is_float() {
                    cx.float(sv)
                } else {
                    cx.int(sv) as f64
                };
                Some((vec![f16::from_f32(v as f32); k], true))
            }
            Param::Tensor(h) => {
                let (vals, ok) = read_halves(cx, h, k, self.t)?;
                if self.t == DType::F32 {
                    let hd = cx.handle(h);
                    if let Some(d) = cx.range(hd, 0, (k * 2) as i64, true, 2, WHAT) {
                        let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
                        let init: Vec<u8> = ok.iter().flat_map(|&o| [o as u8; 2]).collect();
                        cx.store_bytes(hd, d, &bytes, &init, DType::F16, WHAT);
                    }
                }
                Some((vals, ok.iter().all(|&o| o)))
            }
        }
    }
}

impl ApiOp for Quant {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        if let Some(c) = self
            .config
            .as_deref()
            .filter(|c| !c.ends_with("ASCEND_QUANT_DEFAULT_CFG"))
        {
            cx.report(
                code::NOT_MODELLED,
                format!(
                    "{WHAT} with the AscendQuantConfig '{c}' (static counts and work size) is not simulated; \
                     the default ASCEND_QUANT_DEFAULT_CFG is"
                ),
            );
            return Flow::Stop;
        }
        if !matches!(self.t, DType::F16 | DType::F32) {
            return self.invalid(cx, format!(" quantises half or float data, not {}", self.t.name()));
        }
        if let Some(tmp) = self.tmp {
            let have = cx.handle(tmp).len;
            if (0..64).contains(&have) {
                return self.invalid(
                    cx,
                    format!(
                        "'s sharedTmpBuffer holds {have} bytes: the library works in blocks of 32 halves and \
                         needs at least 64"
                    ),
                );
            }
        }
        let src_size = self.elements(cx, self.src);
        let cal = self.count(cx, self.cal_count, self.src);
        let per_channel = matches!(self.scale, Param::Tensor(_));
        let k = match (&self.scale, &self.offset) {
            (Param::Tensor(s), off) => {
                let k = self.count(cx, self.scale_count, *s);
                if let Param::Tensor(o) = off {
                    let ko = self.count(cx, self.offset_count, *o);
                    if ko != k {
                        return self.invalid(cx, format!("'s offsetCount {ko} differs from its scaleCount {k}"));
                    }
                }
                k
            }
            _ => cal,
        };
        if cal == 0 || cal > src_size || k == 0 || !cal.is_multiple_of(k) {
            let what = if per_channel {
                format!(", a positive multiple of scaleCount {k}")
            } else {
                String::new()
            };
            return self.invalid(
                cx,
                format!("'s calCount {cal} must be in (0, srcTensor's {src_size} elements]{what}"),
            );
        }
        crate::timing::vector_pass(cx.core, cal as u64, self.t.size() as u64);
        let Some((x, x_ok)) = read_halves(cx, self.src, cal, self.t) else {
            return Flow::Next;
        };
        let Some((scale, s_ok)) = self.per_column(cx, &self.scale, k) else {
            return Flow::Next;
        };
        let Some((offset, o_ok)) = self.per_column(cx, &self.offset, k) else {
            return Flow::Next;
        };
        let bytes: Vec<u8> = x
            .iter()
            .enumerate()
            .map(|(i, &v)| quantise(v, scale[i % k], offset[i % k]) as u8)
            .collect();
        let init: Vec<u8> = x_ok.iter().map(|&o| (o && s_ok && o_ok) as u8).collect();
        let dst = cx.handle(self.dst);
        if let Some(d) = cx.range(dst, 0, cal as i64, true, 1, WHAT) {
            cx.store_bytes(dst, d, &bytes, &init, DType::I8, WHAT);
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(
        &["AscendQuant"],
        &[
            "tensor_tmp_count",
            "tensor_count",
            "tensor_tmp",
            "tensor",
            "channel_tmp_count",
            "channel_count",
            "channel_tmp",
            "channel",
            "channel_offsets_tmp_count",
            "channel_offsets_count",
            "channel_offsets_tmp",
            "channel_offsets",
        ],
        decode,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(x: f32, s: f32, o: f32) -> i8 {
        quantise(f16::from_f32(x), f16::from_f32(s), f16::from_f32(o))
    }

    #[test]
    fn rounds_half_to_even() {
        assert_eq!(q(0.5, 1.0, 0.0), 0);
        assert_eq!(q(1.5, 1.0, 0.0), 2);
        assert_eq!(q(2.5, 1.0, 0.0), 2);
        assert_eq!(q(-2.5, 1.0, 0.0), -2);
        assert_eq!(q(-3.5, 1.0, 0.0), -4);
        assert_eq!(q(1.25, 2.0, 0.0), 2); // 2.5 -> 2
        assert_eq!(q(3.0, 1.0, 0.5), 4); // 3.5 -> 4
    }

    #[test]
    fn saturates_at_127_and_minus_128() {
        assert_eq!(q(127.4, 1.0, 0.0), 127);
        assert_eq!(q(127.5, 1.0, 0.0), 127);
        assert_eq!(q(1000.0, 1.0, 0.0), 127);
        assert_eq!(q(-128.5, 1.0, 0.0), -128);
        assert_eq!(q(-1e4, 10.0, 0.0), -128); // -1e5 overflows half: -inf saturates
        assert_eq!(q(f32::NAN, 1.0, 0.0), 0);
    }

    #[test]
    fn each_step_rounds_to_half() {
        // 0.1 is not a half (0.0999755859375); times 25 is 2.4993896484375, which rounds to half 2.5 (spacing
        // 2^-9 there), then to even 2
        let x = f16::from_f32(0.1);
        assert_eq!(x.to_f32(), 0.099975586);
        assert_eq!(quantise(x, f16::from_f32(25.0), f16::ZERO), 2);
        // the product rounds to half before the offset: (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 -> half 1 + 2^-9
        let a = f16::from_bits(0x3C01);
        let p = f16::from_f32(a.to_f32() * a.to_f32());
        assert_eq!(p, f16::from_bits(0x3C02));
        // + 125.5 is 126.5039..., which rounds to half 126.5 (spacing 1/16 there), then to even 126; in f32
        // without the half steps it would round to 127
        assert_eq!(quantise(a, a, f16::from_f32(125.5)), 126);
    }
}
