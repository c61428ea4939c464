//! The calls computed element by element from scalars: Axpy with its scratch buffer, Arange / ArithProgression.

use super::{contiguous, find};
use crate::api::{ApiOp, Arg, Args, Pipe};
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::elem::{load_f32, store_f32, CHUNK};
use crate::vector::{check_footprint, elementwise, Geom};

// ---------------------------------------------------------------------------------------------------------
// Axpy with a scratch buffer: dst (T) += src (U) * scalar

#[derive(Debug)]
struct AxpyTmp {
    t: DType,
    u: DType,
    dst: u32,
    src: u32,
    scalar: Sv,
    count: Sv,
}

pub(super) fn decode_axpy(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let t = a.dtype("T")?;
    Ok(Box::new(AxpyTmp {
        t,
        u: a.dtype("U").unwrap_or(t),
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        scalar: a.sv("scalarValue")?,
        count: a.sv("calCount")?,
    }))
}

impl ApiOp for AxpyTmp {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let (t, u) = (self.t, self.u);
        let g = vec![
            Geom {
                h: cx.handle(self.dst),
                size: t.size(),
            },
            Geom {
                h: cx.handle(self.src),
                size: u.size(),
            },
            Geom {
                h: cx.handle(self.dst),
                size: t.size(),
            },
        ];
        let p = contiguous(&g, cx.uint(self.count));
        crate::timing::vector_pass(cx.core, p.elements, t.size().max(u.size()) as u64);
        let Some(mem) = check_footprint(cx, &g, &p.runs, &["dst", "src", "dst"], "Axpy") else {
            return Flow::Next;
        };
        let s = cx.float(self.scalar) as f32;
        elementwise(cx, mem, &p, &g, "Axpy", &mut |srcs, out, m, _| {
            let mut x = [0f32; CHUNK];
            let mut d = [0f32; CHUNK];
            load_f32(u, srcs[0], &mut x[..m]);
            load_f32(t, srcs[1], &mut d[..m]);
            for i in 0..m {
                d[i] += x[i] * s;
            }
            store_f32(t, &d[..m], out);
        });
        Flow::Next
    }
}

// ---------------------------------------------------------------------------------------------------------
// Arange / ArithProgression: dst[i] = first + i * diff

#[derive(Debug)]
struct Arange {
    t: DType,
    dst: u32,
    first: Sv,
    diff: Sv,
    count: Sv,
}

pub(super) fn decode_arange(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let dst = match find(a, &["dst", "dstLocal"]) {
        Some(Arg::Handle(h)) => *h,
        _ => return Err("no destination".into()),
    };
    Ok(Box::new(Arange {
        t: a.dtype("T")?,
        dst,
        first: a.sv("firstValue")?,
        diff: a.sv("diffValue")?,
        count: a.sv("count")?,
    }))
}

impl ApiOp for Arange {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        let g = vec![Geom {
            h: cx.handle(self.dst),
            size: t.size(),
        }];
        let p = contiguous(&g, cx.uint(self.count));
        crate::timing::vector_pass(cx.core, p.elements, t.size() as u64);
        let Some(mem) = check_footprint(cx, &g, &p.runs, &["dst"], "Arange") else {
            return Flow::Next;
        };
        let (first, diff) = (
            t.to_f64(cx.value_as(self.first, t)),
            t.to_f64(cx.value_as(self.diff, t)),
        );
        let sz = t.size();
        elementwise(cx, mem, &p, &g, "Arange", &mut |_, out, m, e0| {
            for k in 0..m {
                let v = first + (e0 + k as u64) as f64 * diff;
                let bits = if t.is_float() {
                    t.from_f64(v)
                } else {
                    t.from_i64(v as i64)
                };
                t.store_bits(&mut out[k * sz..(k + 1) * sz], bits);
            }
        });
        Flow::Next
    }
}
