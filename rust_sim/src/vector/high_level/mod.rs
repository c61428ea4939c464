//! The library's high-level vector APIs (adv_api): element-wise math (Sigmoid, Tanh, Gelu, Sin, Log, Power,
//! SwiGLU, ...), Sum / Mean, Arange, Broadcast (SoftMax / LogSoftMax: softmax.rs). Their documented formulas,
//! computed in f32 and rounded once to the element type (Sigmoid on 16-bit types: step by step, as the library's
//! instructions round; sigmoid_in); the shared temporary buffers they take are not touched (their
//! contents are unspecified after the call).
//!
//! This file holds the element-wise calls; math.rs their formulas, sequence.rs Axpy and Arange (element by
//! element from scalars), rows.rs Sum / Mean along the last axis and Broadcast.

mod math;
mod rows;
mod sequence;

use math::{apply, fun, sigmoid_in, Fun};
use rows::{decode_broadcast, decode_row_reduce};
use sequence::{decode_arange, decode_axpy};

use crate::api::{ApiOp, Arg, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::elem::{load_f32, store_f32, CHUNK};
use crate::vector::{check_footprint, elementwise, Geom, Plan, Run};

#[derive(Debug, Clone, Copy)]
enum Operand {
    Tensor(u32),
    Scalar(Sv),
}

#[derive(Debug)]
struct Elementwise {
    f: Fun,
    t: DType,
    dst: u32,
    a: Operand,
    b: Option<Operand>,
    scalar: Option<Sv>,
    count: Option<Sv>,
    name: String,
}

const DST_NAMES: [&str; 4] = ["dst", "dstTensor", "dstLocal", "output"];
// (src0Scalar: Power's scalar-base form, Power(dst, base, exponents, n))
const SRC_NAMES: [&str; 9] = [
    "src",
    "srcTensor",
    "srcLocal",
    "src0",
    "src0Tensor",
    "srcTensor0",
    "src0Local",
    "x",
    "src0Scalar",
];
const SRC1_NAMES: [&str; 6] = ["src1", "src1Tensor", "srcTensor1", "src1Local", "src1Scalar", "y"];

fn find<'a>(a: &'a Args, names: &[&str]) -> Option<&'a Arg> {
    names.iter().find_map(|n| a.get(n))
}

fn operand(arg: Option<&Arg>) -> Option<Operand> {
    match arg? {
        Arg::Handle(h) => Some(Operand::Tensor(*h)),
        Arg::Reg(sv) => Some(Operand::Scalar(*sv)),
        _ => None,
    }
}

fn decode_elementwise(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let f = fun(&a.api).ok_or("not an element-wise library function")?;
    let dst = match find(a, &DST_NAMES) {
        Some(Arg::Handle(h)) => *h,
        _ => return Err("no destination tensor".into()),
    };
    let src = operand(find(a, &SRC_NAMES)).ok_or("no source operand")?;
    let b = operand(find(a, &SRC1_NAMES));
    let scalar = ["scalarValue", "beta", "scalar"].iter().find_map(|n| a.sv(n).ok());
    let count = ["calCount", "count", "dataSize"].iter().find_map(|n| a.sv(n).ok());
    Ok(Box::new(Elementwise {
        f,
        t: a.dtype("T")?,
        dst,
        a: src,
        b,
        scalar,
        count,
        name: a.api.clone(),
    }))
}

/// A plan of `n` contiguous elements at the given tensors.
pub fn contiguous(geoms: &[Geom], n: u64) -> Plan {
    let mut addr = [0i64; 4];
    for (i, g) in geoms.iter().enumerate().take(4) {
        addr[i] = g.h.addr;
    }
    let runs = if n == 0 {
        vec![]
    } else {
        vec![Run {
            addr,
            n: n as u32,
            lane: 0,
            rep: 0,
        }]
    };
    Plan {
        runs,
        lanes: 64,
        repeats: n.div_ceil(64),
        elements: n,
    }
}

impl ApiOp for Elementwise {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        let sz = t.size();
        let dst = cx.handle(self.dst);
        let mut g = vec![Geom { h: dst, size: sz }];
        let mut scalars = [0f32; 2];
        for (i, op) in [Some(self.a), self.b].into_iter().enumerate() {
            match op {
                Some(Operand::Tensor(h)) => g.push(Geom {
                    h: cx.handle(h),
                    size: sz,
                }),
                Some(Operand::Scalar(sv)) => scalars[i] = t.to_f64(cx.value_as(sv, t)) as f32,
                None => {}
            }
        }
        let n = match self.count {
            Some(c) => cx.uint(c),
            None => (dst.len.max(0) as usize / sz) as u64,
        };
        crate::timing::vector_pass(cx.core, n, sz as u64);
        for (i, gg) in g.iter().enumerate() {
            if gg.h.len >= 0 && (n as i64) * sz as i64 > gg.h.len {
                cx.report(
                    code::INVALID_OPERAND,
                    format!(
                        "{} works on {n} elements, but its operand {i} holds {}",
                        self.name,
                        gg.h.len / sz as i64
                    ),
                );
                return Flow::Next;
            }
        }
        let p = contiguous(&g, n);
        let names = ["dst", "src0", "src1"];
        let Some(mem) = check_footprint(cx, &g, &p.runs, &names, &self.name) else {
            return Flow::Next;
        };
        let s = self.scalar.map(|v| cx.float(v) as f32).unwrap_or(1.0);
        let f = self.f;
        let (a_tensor, b_tensor) = (
            matches!(self.a, Operand::Tensor(_)),
            matches!(self.b, Some(Operand::Tensor(_))),
        );
        // ClampMax/Min(dst, src, scalar): the scalar is the limit
        let limit = if matches!(f, Fun::ClampMax | Fun::ClampMin) {
            self.b.map(|_| scalars[1]).unwrap_or(s)
        } else {
            s
        };
        elementwise(cx, mem, &p, &g, &self.name, &mut |srcs, out, m, _| {
            let mut x = [0f32; CHUNK];
            let mut y = [0f32; CHUNK];
            let mut k = 0;
            if a_tensor {
                load_f32(t, srcs[k], &mut x[..m]);
                k += 1;
            } else {
                x[..m].fill(scalars[0]);
            }
            if b_tensor {
                load_f32(t, srcs[k], &mut y[..m]);
            } else {
                y[..m].fill(scalars[1]);
            }
            for i in 0..m {
                x[i] = match f {
                    Fun::Sigmoid if matches!(t, DType::F16 | DType::BF16) => sigmoid_in(t, x[i]),
                    _ => apply(f, x[i], y[i], limit),
                };
            }
            store_f32(t, &x[..m], out);
        });
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    let unary = [
        "Sigmoid",
        "Tanh",
        "Gelu",
        "FasterGelu",
        "FasterGeluV2",
        "Silu",
        "Sin",
        "Cos",
        "Tan",
        "Asin",
        "Acos",
        "Atan",
        "Sinh",
        "Cosh",
        "Asinh",
        "Acosh",
        "Atanh",
        "Log",
        "Log2",
        "Log10",
        "Erf",
        "Erfc",
        "Floor",
        "Ceil",
        "Round",
        "Rint",
        "Trunc",
        "Frac",
        "Sign",
        "Power",
        "Hypot",
        "Fmod",
        "SwiGLU",
        "GeGLU",
        "ReGlu",
        "ClampMax",
        "ClampMin",
    ];
    let forms = [
        "plain",
        "tmp",
        "whole",
        "tmp_whole",
        "count",
        "tmp_count",
        "whole_tmp",
        "scalar_exp_tmp_count",
        "scalar_exp_count",
        "scalar_exp_tmp",
        "scalar_exp_whole",
        "scalar_base_tmp_count",
        "scalar_base_count",
        "scalar_base_tmp",
        "scalar_base_whole",
    ];
    r.add_all(&unary, &forms, decode_elementwise);
    r.add_all(&["Exp"], &["taylor", "taylor_tmp"], decode_elementwise);
    r.add("Axpy.tmp", decode_axpy);
    r.add_all(&["Arange", "ArithProgression"], &["plain"], decode_arange);
    r.add_all(&["Sum", "Mean"], &["plain", "tmp"], decode_row_reduce);
    r.add_all(&["Broadcast", "BroadCast"], &["plain", "tmp"], decode_broadcast);
}
