//! ReduceAll / ReduceAny<T, pattern>(dst, src[, sharedTmpBuffer], srcShape[2], srcInnerPad): whether every / any
//! element of each row (AR) or column (RA) of a [first, last] tensor is true, for float and uint8_t.
//!
//! asc-devkit's 220x implementations (impl/adv_api/detail/reduce/reduce_all/reduce_all_v220_impl.h:34-82,
//! reduce_any/reduce_any_v220_impl.h) compute them as Min / Max: float with Min<float> / Max<float> along
//! either axis; uint8_t AR cast to half and reduced with Min / Max (exact for 0..255); uint8_t RA as int16 pairs
//! combined with And / Or (reduce_all_v220_impl.h:60-68), a bitwise AND / OR of the bytes down each column,
//! which equals Min / Max for the documented 0 / 1 inputs and differs for other bytes. The rows are `last`
//! elements apart, or `last` rounded up to 32 bytes with srcInnerPad. The AR form writes `first` results, the
//! RA form `last`. Not checked: the temporary space the library needs (GetReduceAll/AnyMaxMinTmpSize); NaN
//! inputs to the float form (the vector Min / Max's NaN rule is not documented) follow f32::min / max.

use crate::api::{ApiOp, Args, Pipe, Registry, StackArray};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::Space;
use crate::program::Sv;

#[derive(Debug)]
struct ReduceAllAny {
    /// ReduceAll (true) or ReduceAny
    all: bool,
    t: DType,
    dst: u32,
    src: u32,
    /// srcShape, (first, last axis)
    shape: StackArray,
    inner_pad: Option<Sv>,
    last_axis: bool,
    name: &'static str,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let shape = a.array("srcShape", 0, 0, "uint32_t[2] array")?;
    let all = a.api == "ReduceAll";
    Ok(Box::new(ReduceAllAny {
        all,
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        shape,
        inner_pad: a.opt_sv("srcInnerPad")?,
        last_axis: a.targ("pattern").unwrap_or("AR").ends_with("AR"),
        name: if all { "ReduceAll" } else { "ReduceAny" },
    }))
}

/// Combines `vals` (f32 values, or bytes as f32) the way the library does: Min / Max, or for uint8_t down the
/// first axis a bitwise AND / OR.
pub fn combine(all: bool, bitwise: bool, vals: &[f32]) -> f32 {
    if bitwise {
        let bytes = vals.iter().map(|&v| v as u8);
        let b = if all {
            bytes.fold(0xFF, |a, b| a & b)
        } else {
            bytes.fold(0, |a, b| a | b)
        };
        return b as f32;
    }
    if all {
        vals.iter().copied().fold(f32::INFINITY, f32::min)
    } else {
        vals.iter().copied().fold(f32::NEG_INFINITY, f32::max)
    }
}

impl ApiOp for ReduceAllAny {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        if !matches!(t, DType::F32 | DType::U8) {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "{} supports float and uint8_t only (asc-devkit's static_assert), not {t:?}",
                    self.name
                ),
            );
            return Flow::Stop;
        }
        let sz = t.size();
        let [first, last] = self.shape.first(cx, u64::MAX).map(|n| n as usize);
        let padded = self.inner_pad.is_none_or(|p| cx.uint(p) != 0);
        let stride = if padded {
            (last * sz).div_ceil(32) * 32 / sz
        } else {
            last
        };
        let src = cx.handle(self.src);
        let total = if first == 0 { 0 } else { (first - 1) * stride + last };
        let Some(s) = cx.range(src, 0, (total * sz) as i64, false, sz, self.name) else {
            return Flow::Next;
        };
        let Space::Local(mem) = src.space else {
            return Flow::Next;
        };
        crate::timing::vector_pass(cx.core, total as u64, sz as u64);
        let local = cx.local(mem);
        let bytes = &local.data.as_slice()[s..s + total * sz];
        let init = &local.init[s..s + total * sz];
        let vals: Vec<f32> = (0..total)
            .map(|e| match t {
                DType::U8 => bytes[e] as f32,
                _ => f32::from_le_bytes(bytes[e * 4..e * 4 + 4].try_into().unwrap_or([0; 4])),
            })
            .collect();
        let known = |e: usize| init[e * sz..(e + 1) * sz].iter().all(|&b| b != 0);
        let (out, out_known): (Vec<f32>, Vec<bool>) = if self.last_axis {
            (0..first)
                .map(|r| {
                    let row = r * stride..r * stride + last;
                    (combine(self.all, false, &vals[row.clone()]), row.into_iter().all(known))
                })
                .unzip()
        } else {
            (0..last)
                .map(|c| {
                    let col: Vec<f32> = (0..first).map(|r| vals[r * stride + c]).collect();
                    let k = (0..first).all(|r| known(r * stride + c));
                    (combine(self.all, t == DType::U8, &col), k)
                })
                .unzip()
        };
        let mut data = vec![0u8; out.len() * sz];
        crate::vector::elem::store_f32(t, &out, &mut data);
        let flags: Vec<u8> = out_known
            .iter()
            .flat_map(|&k| std::iter::repeat_n(k as u8, sz))
            .collect();
        let dst = cx.handle(self.dst);
        if let Some(d) = cx.range(dst, 0, data.len() as i64, true, sz, self.name) {
            cx.store_bytes(dst, d, &data, &flags, t, self.name);
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["ReduceAll", "ReduceAny"], &["pattern", "pattern_tmp"], decode);
}

#[cfg(test)]
mod tests {
    use super::combine;

    #[test]
    fn all_is_the_minimum_and_any_the_maximum() {
        assert_eq!(combine(true, false, &[1.0, 1.0, 0.0]), 0.0);
        assert_eq!(combine(true, false, &[1.0, 2.0]), 1.0);
        assert_eq!(combine(false, false, &[0.0, 0.0, 1.0]), 1.0);
        assert_eq!(combine(false, false, &[0.0, 0.0]), 0.0);
    }

    #[test]
    fn uint8_down_the_first_axis_is_bitwise() {
        // 2 & 1 = 0 though both are non-zero (the library's int16 And), 2 | 1 = 3
        assert_eq!(combine(true, true, &[2.0, 1.0]), 0.0);
        assert_eq!(combine(false, true, &[2.0, 1.0]), 3.0);
        assert_eq!(combine(true, true, &[1.0, 1.0, 1.0]), 1.0);
    }
}
