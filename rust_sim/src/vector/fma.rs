//! AscendC::Fma<config, T>(dst, src0, src1, src2[, sharedTmpBuffer], count): dst = src0 * src1 + src2 fused, one
//! rounding (Ascend 950 only: the 220x library compiles the call to nothing). The library issues the vector
//! unit's FusedMulDstAdd on half or float (asc-devkit fma_common_impl.h, read for the facts): float is f32's
//! mul_add; half is the exact sum rounded once to half to nearest even, computed exactly in integers (every half
//! is a multiple of 2^-24, the product of 2^-48) and rounded to odd in f64 before the last rounding, so no double
//! rounding creeps in. The sharedTmpBuffer is not used on that path.

use half::f16;

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::dequant::read_raw;

const WHAT: &str = "Fma";

#[derive(Debug)]
struct Fma {
    t: DType,
    dst: u32,
    src: [u32; 3],
    count: Sv,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(Fma {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: [a.handle("src0")?, a.handle("src1")?, a.handle("src2")?],
        count: a.sv("count")?,
    }))
}

/// A half as an integer multiple of 2^-24 (finite halves only).
fn half_units(h: f16) -> i128 {
    (h.to_f64() * (1u64 << 24) as f64) as i128
}

/// `v` * 2^-48 as f64 rounded to odd: truncated to 53 significant bits, the last set if anything was cut.
fn to_f64_odd(v: i128) -> f64 {
    let neg = v < 0;
    let mut m = v.unsigned_abs();
    let bits = 128 - m.leading_zeros() as i32;
    let mut exp = -48;
    if bits > 53 {
        let cut = bits - 53;
        let sticky = m & ((1u128 << cut) - 1) != 0;
        m = (m >> cut) | sticky as u128;
        exp += cut;
    }
    let x = m as f64 * 2f64.powi(exp);
    if neg {
        -x
    } else {
        x
    }
}

/// half(a * b + c) with one rounding.
pub fn fma_half(a: f16, b: f16, c: f16) -> f16 {
    if !(a.is_finite() && b.is_finite() && c.is_finite()) {
        return f16::from_f64(a.to_f64() * b.to_f64() + c.to_f64());
    }
    let exact = half_units(a) * half_units(b) + (half_units(c) << 24);
    f16::from_f64(to_f64_odd(exact))
}

impl ApiOp for Fma {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        if !matches!(t, DType::F16 | DType::F32) {
            cx.report(
                code::INVALID_OPERAND,
                format!("{WHAT} takes half or float, not {}", t.name()),
            );
            return Flow::Next;
        }
        let n = cx.uint(self.count) as usize;
        let sz = t.size();
        let mut ins = Vec::with_capacity(3);
        for &h in &self.src {
            let Some(v) = read_raw(cx, h, n * sz, sz, WHAT) else {
                return Flow::Next;
            };
            ins.push(v);
        }
        crate::timing::vector_pass(cx.core, n as u64, sz as u64);
        let mut out = vec![0u8; n * sz];
        for (e, o) in out.chunks_exact_mut(sz).enumerate() {
            let r = e * sz..(e + 1) * sz;
            let (a, b, c) = (&ins[0].0[r.clone()], &ins[1].0[r.clone()], &ins[2].0[r]);
            if t == DType::F16 {
                let h = |x: &[u8]| f16::from_le_bytes([x[0], x[1]]);
                o.copy_from_slice(&fma_half(h(a), h(b), h(c)).to_le_bytes());
            } else {
                let f = |x: &[u8]| f32::from_le_bytes([x[0], x[1], x[2], x[3]]);
                o.copy_from_slice(&f(a).mul_add(f(b), f(c)).to_le_bytes());
            }
        }
        let init: Vec<u8> = (0..n * sz)
            .map(|i| {
                (ins.iter()
                    .all(|(_, f)| f[i - i % sz..i - i % sz + sz].iter().all(|&b| b == 1))) as u8
            })
            .collect();
        let dst = cx.handle(self.dst);
        if let Some(d) = cx.range(dst, 0, (n * sz) as i64, true, sz, WHAT) {
            cx.store_bytes(dst, d, &out, &init, t, WHAT);
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["Fma"], &["tmp", "plain"], decode);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_rounds_once() {
        // (1 + 2^-10)(1 - 2^-11) = 1 + 2^-11 - 2^-21: unfused it rounds to 1, and 2048 + 1 ties to even 2048;
        // fused, 2049 + 2^-11 - 2^-21 is past the tie: 2050
        let (a, b) = (f16::from_bits(0x3C01), f16::from_bits(0x3BFF));
        assert_eq!(fma_half(a, b, f16::from_f32(2048.0)).to_f32(), 2050.0);
        assert_eq!(fma_half(f16::ONE, f16::ONE, f16::from_f32(2048.0)).to_f32(), 2048.0);
        assert_eq!(to_f64_odd(3 << 48), 3.0);
        assert_eq!(to_f64_odd(-(5 << 47)), -2.5);
    }
}
