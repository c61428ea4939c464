//! Cast between element types with a RoundMode (dtype.rs has the conversions), in count and repeat form.
//! In repeat form the wider type sets the lanes per repeat (half -> float: 64), and the narrower operand's
//! blocks hold as many elements as the wider one's (strides in 32-byte units: half -> float repeats with
//! srcRepStride 4, dstRepStride 8).

use crate::api::{ApiOp, Args, EnumArg, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::{cast_bits, DType, RoundMode};
use crate::int4;
use crate::memory::Space;
use crate::vector::elem::{load_f32, store_f32, CHUNK};
use crate::vector::{check_count_fits, check_footprint, elementwise, geoms, plan, Form};

#[derive(Debug)]
struct Cast {
    dst_t: DType,
    src_t: DType,
    dst: u32,
    src: u32,
    mode: EnumArg,
    form: Form,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let form = Form::decode(
        a,
        "repeatParams",
        &[("dstBlkStride", "dstRepStride"), ("srcBlkStride", "srcRepStride")],
    )?;
    let mode = a.enum_or_reg("roundMode")?;
    if let EnumArg::Name(n) = &mode {
        RoundMode::parse(n).ok_or_else(|| format!("unknown round mode {n}"))?;
    }
    Ok(Box::new(Cast {
        dst_t: a.dtype_packed("T")?,
        src_t: a.dtype_packed("U")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        mode,
        form,
    }))
}

impl ApiOp for Cast {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let mode = match &self.mode {
            EnumArg::Name(n) => RoundMode::parse(n),
            EnumArg::Reg(sv) => RoundMode::from_index(cx.int(*sv)),
        };
        let Some(mode) = mode else {
            cx.report(code::INVALID_OPERAND, "Cast with an unknown RoundMode".into());
            return Flow::Next;
        };
        if self.dst_t == DType::I4 || self.src_t == DType::I4 {
            return match self.form {
                Form::Count(c) => {
                    let count = cx.int(c);
                    cast_int4_count(cx, self.dst, self.src, self.dst_t, self.src_t, mode, count)
                }
                _ => {
                    cx.report(
                        code::NOT_MODELLED,
                        "Cast to or from int4b_t with a mask and repeats".into(),
                    );
                    Flow::Stop
                }
            };
        }
        let g = geoms(cx, &[self.dst, self.src], &[self.dst_t, self.src_t]);
        let names = ["dst", "src"];
        let Some(p) = plan(cx, &self.form, &g, "Cast") else {
            return Flow::Next;
        };
        check_count_fits(cx, &self.form, &g, &names, "Cast");
        let Some(mem) = check_footprint(cx, &g, &p.runs, &names, "Cast") else {
            return Flow::Next;
        };
        let (st, dt) = (self.src_t, self.dst_t);
        // int32 -> half is the dequantising conversion: each value times the DEQSCALE register (SetDeqScale)
        let scale = match (st, dt, cx.core.deq_scale) {
            (DType::I32, DType::F16, Some(s)) if s != 1.0 => Some(s),
            _ => None,
        };
        elementwise(cx, mem, &p, &g, "Cast", &mut |srcs, out, m, _| match scale {
            Some(s) => deq_kernel(s, mode, srcs[0], out, m),
            None => cast_kernel(st, dt, mode, srcs[0], out, m),
        });
        Flow::Next
    }
}

/// int32 -> half times the dequantisation scale, rounded once to half.
fn deq_kernel(scale: f32, mode: RoundMode, src: &[u8], out: &mut [u8], m: usize) {
    for k in 0..m {
        let x = DType::I32.load_bits(&src[k * 4..]) as u32 as i32 as f64 * scale as f64;
        let bits = cast_bits(DType::F64, DType::F16, mode, DType::F64.from_f64(x));
        DType::F16.store_bits(&mut out[k * 2..], bits);
    }
}

/// SetDeqScale(scale) / SetDeqScale(scale, offset, signMode): sets DEQSCALE for later int32 -> half Casts.
#[derive(Debug)]
struct SetDeqScale {
    scale: crate::program::Sv,
    offset: Option<crate::program::Sv>,
}

fn decode_deq(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(SetDeqScale {
        scale: a.sv("scale")?,
        offset: a.opt_sv("offset")?,
    }))
}

impl ApiOp for SetDeqScale {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        if self.offset.is_some_and(|o| cx.int(o) != 0) {
            cx.report(
                code::NOT_MODELLED,
                "SetDeqScale with a non-zero offset: the simulator models the scale only".into(),
            );
            return Flow::Stop;
        }
        cx.core.deq_scale = Some(cx.float(self.scale) as f32);
        Flow::Next
    }
}

/// Converts `m` elements; exact widenings and round-to-nearest narrowings of floats take the fast slice
/// paths, everything else the element-wise conversion of dtype.rs.
pub fn cast_kernel(st: DType, dt: DType, mode: RoundMode, src: &[u8], out: &mut [u8], m: usize) {
    let nearest = matches!(mode, RoundMode::None | RoundMode::Rint);
    let fast = match (st, dt) {
        (DType::F16, DType::F32) | (DType::BF16, DType::F32) => true,
        (DType::F32, DType::F16) | (DType::F32, DType::BF16) => nearest,
        _ => false,
    };
    if fast {
        let mut a = [0f32; CHUNK];
        let a = &mut a[..m];
        load_f32(st, src, a);
        store_f32(dt, a, out);
        return;
    }
    if st == DType::F16 && dt == DType::F16 && mode == RoundMode::None {
        out[..m * 2].copy_from_slice(&src[..m * 2]);
        return;
    }
    let (ss, ds) = (st.size(), dt.size());
    for k in 0..m {
        let bits = st.load_bits(&src[k * ss..]);
        dt.store_bits(&mut out[k * ds..], cast_bits(st, dt, mode, bits));
    }
}

// ---------------------------------------------------------------- int4b_t
// Cast to and from int4b_t (two elements to a byte, crate::int4), in count form.
//
// asc-devkit's Cast page lists half -> int4b_t (CAST_RINT / FLOOR / CEIL / ROUND / TRUNC, and CAST_NONE on
// some chips) and int4b_t -> half (CAST_NONE); int16_t <-> int4b_t and int4b_t -> bfloat16_t (CAST_NONE) on
// others. Its notes: a count must be even (two elements fill a byte), and an int4b_t tensor takes half the
// bytes of as many int8_t. dav_c220's CastIntrinsicsImpl asserts on CAST_ODD for half -> int4b_t. The
// element-wise planner of vector/plan.rs works in whole bytes per element, so this path reads and writes the
// nibbles itself; the mask / repeat forms are left to a finding.

/// Whether `src -> dst` with `mode` is a conversion the Cast page lists for int4b_t.
fn int4_documented(src: DType, dst: DType, mode: RoundMode) -> bool {
    match (src, dst) {
        (DType::F16, DType::I4) => mode != RoundMode::Odd,
        (DType::I16, DType::I4) | (DType::I4, DType::F16 | DType::BF16 | DType::I16) => mode == RoundMode::None,
        _ => false,
    }
}

/// Cast of `count` elements from `src` (`st`) to `dst` (`dt`), one of them int4b_t.
pub fn cast_int4_count(cx: &mut Ctx, dst: u32, src: u32, dt: DType, st: DType, mode: RoundMode, count: i64) -> Flow {
    if !int4_documented(st, dt, mode) {
        cx.report(
            code::INVALID_OPERAND,
            format!(
                "Cast from {} to {} with {mode:?}: not a conversion the Cast page lists",
                st.name(),
                dt.name()
            ),
        );
        return Flow::Next;
    }
    if count < 0 || count % 2 != 0 {
        cx.report(
            code::INVALID_OPERAND,
            format!("Cast of {count} elements to or from int4b_t: the count must be even (two elements to a byte)"),
        );
        return Flow::Next;
    }
    let (dh, sh) = (cx.handle(dst), cx.handle(src));
    let (dbytes, sbytes) = (dt.bytes_of(count), st.bytes_of(count));
    for (h, bytes, name) in [(dh, dbytes, "dst"), (sh, sbytes, "src")] {
        if h.len >= 0 && bytes > h.len {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "Cast of {count} elements takes {bytes} bytes of {name}, which holds {} bytes",
                    h.len
                ),
            );
            return Flow::Next;
        }
    }
    let (Space::Local(dm), Space::Local(sm)) = (dh.space, sh.space) else {
        cx.report(
            code::INVALID_OPERAND,
            "Cast: both operands must be LocalTensors in local memory".into(),
        );
        return Flow::Next;
    };
    let Some(s_at) = cx.range(sh, 0, sbytes, false, st.size(), "Cast") else {
        return Flow::Next;
    };
    let Some(d_at) = cx.range(dh, 0, dbytes, true, dt.size(), "Cast") else {
        return Flow::Next;
    };
    cx.check_local_write(dm, d_at, dbytes as usize, dh.alloc, "Cast");
    let n = count as usize;
    let (src_bytes, src_init) = {
        let mem = cx.local(sm);
        let r = s_at..s_at + sbytes as usize;
        (mem.data.as_slice()[r.clone()].to_vec(), mem.init[r].to_vec())
    };
    // each element's value and whether its source bytes were written
    let elem = |k: usize| -> (u64, bool) {
        if st == DType::I4 {
            (int4::get(&src_bytes, k), src_init[k / 2] == 1)
        } else {
            let s = st.size();
            (
                st.load_bits(&src_bytes[k * s..]),
                src_init[k * s..(k + 1) * s].iter().all(|&b| b == 1),
            )
        }
    };
    let mem = cx.local(dm);
    let out = &mut mem.data.as_mut_slice()[d_at..d_at + dbytes as usize];
    let mut init = vec![1u8; dbytes as usize];
    for k in 0..n {
        let (bits, ok) = elem(k);
        let v = cast_bits(st, dt, mode, bits);
        if dt == DType::I4 {
            int4::set(out, k, v);
            if !ok {
                init[k / 2] = 0;
            }
        } else {
            let s = dt.size();
            dt.store_bits(&mut out[k * s..], v);
            if !ok {
                init[k * s..(k + 1) * s].fill(0);
            }
        }
    }
    mem.init[d_at..d_at + dbytes as usize].copy_from_slice(&init);
    Flow::Next
}

pub fn register(r: &mut Registry) {
    r.add_all(&["Cast"], &["count", "mask", "bitmask"], decode);
    r.add_all(&["SetDeqScale"], &["half", "scale_offset"], decode_deq);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int32_to_half_times_the_deq_scale() {
        let src: Vec<u8> = [3i32, -8, 70000].iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut out = vec![0u8; 6];
        deq_kernel(0.5, RoundMode::None, &src, &mut out, 3);
        let got: Vec<f32> = out
            .chunks_exact(2)
            .map(|c| half::f16::from_le_bytes([c[0], c[1]]).to_f32())
            .collect();
        // 1.5, -4, and 35000 rounded to half (35008: half's step is 32 there)
        assert_eq!(got, vec![1.5, -4.0, 35008.0]);
    }

    #[test]
    fn float_to_half_rounds_each_way() {
        let vals = [1.0f32 + 2f32.powi(-11), -(1.0f32 + 2f32.powi(-11)), 70000.0];
        let src: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut out = vec![0u8; 6];
        let get = |o: &[u8], i: usize| half::f16::from_le_bytes([o[2 * i], o[2 * i + 1]]).to_f32();
        cast_kernel(DType::F32, DType::F16, RoundMode::Ceil, &src, &mut out, 3);
        assert_eq!(get(&out, 0), 1.0 + 2f32.powi(-10));
        assert_eq!(get(&out, 1), -1.0);
        assert_eq!(get(&out, 2), f32::INFINITY);
        cast_kernel(DType::F32, DType::F16, RoundMode::Trunc, &src, &mut out, 3);
        assert_eq!(get(&out, 0), 1.0);
        assert_eq!(get(&out, 2), 65504.0);
        cast_kernel(DType::F32, DType::F16, RoundMode::Rint, &src, &mut out, 3);
        assert_eq!(get(&out, 0), 1.0);
    }

    #[test]
    fn half_to_int32_rounds_with_the_mode() {
        let vals = [2.5f32, -2.5, 3.7];
        let src: Vec<u8> = vals
            .iter()
            .flat_map(|v| half::f16::from_f32(*v).to_le_bytes())
            .collect();
        let mut out = vec![0u8; 12];
        let get = |o: &[u8], i: usize| i32::from_le_bytes([o[4 * i], o[4 * i + 1], o[4 * i + 2], o[4 * i + 3]]);
        cast_kernel(DType::F16, DType::I32, RoundMode::Round, &src, &mut out, 3);
        assert_eq!([get(&out, 0), get(&out, 1), get(&out, 2)], [3, -3, 4]);
        cast_kernel(DType::F16, DType::I32, RoundMode::Rint, &src, &mut out, 3);
        assert_eq!([get(&out, 0), get(&out, 1), get(&out, 2)], [2, -2, 4]);
        cast_kernel(DType::F16, DType::I32, RoundMode::Floor, &src, &mut out, 3);
        assert_eq!([get(&out, 0), get(&out, 1), get(&out, 2)], [2, -3, 3]);
    }
}
