//! The library's high-level vector APIs (adv_api): element-wise math (Sigmoid, Tanh, Gelu, Sin, Log, Power,
//! SwiGLU, ...), Sum / Mean, Arange, Broadcast (SoftMax / LogSoftMax: softmax.rs). Their documented formulas,
//! computed in f32 and rounded once to the element type (Sigmoid on 16-bit types: step by step, as the library's
//! instructions round; sigmoid_in); the shared temporary buffers they take are not touched (their
//! contents are unspecified after the call).

use crate::api::{ApiOp, Arg, Args, Pipe, Registry, StackArray};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::Space;
use crate::program::Sv;
use crate::vector::elem::{load_f32, store_f32, CHUNK};
use crate::vector::reduce::{mean_of, repeats_then_tree};
use crate::vector::{check_footprint, elementwise, Geom, Plan, Run};

/// The element-wise functions, by API name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fun {
    Sigmoid,
    Tanh,
    Gelu,
    FasterGelu,
    Silu,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Asinh,
    Acosh,
    Atanh,
    Log,
    Log2,
    Log10,
    Erf,
    Erfc,
    Floor,
    Ceil,
    Round,
    Rint,
    Trunc,
    Frac,
    Sign,
    Exp,
    // two tensors (or a tensor and a scalar)
    Power,
    Hypot,
    Fmod,
    SwiGlu,
    GeGlu,
    ReGlu,
    ClampMax,
    ClampMin,
}

fn fun(name: &str) -> Option<Fun> {
    Some(match name {
        "Sigmoid" => Fun::Sigmoid,
        "Tanh" => Fun::Tanh,
        "Gelu" | "FasterGeluV2" => Fun::Gelu,
        "FasterGelu" => Fun::FasterGelu,
        "Silu" => Fun::Silu,
        "Sin" => Fun::Sin,
        "Cos" => Fun::Cos,
        "Tan" => Fun::Tan,
        "Asin" => Fun::Asin,
        "Acos" => Fun::Acos,
        "Atan" => Fun::Atan,
        "Sinh" => Fun::Sinh,
        "Cosh" => Fun::Cosh,
        "Asinh" => Fun::Asinh,
        "Acosh" => Fun::Acosh,
        "Atanh" => Fun::Atanh,
        "Log" => Fun::Log,
        "Log2" => Fun::Log2,
        "Log10" => Fun::Log10,
        "Erf" => Fun::Erf,
        "Erfc" => Fun::Erfc,
        "Floor" => Fun::Floor,
        "Ceil" => Fun::Ceil,
        "Round" => Fun::Round,
        "Rint" => Fun::Rint,
        "Trunc" => Fun::Trunc,
        "Frac" => Fun::Frac,
        "Sign" => Fun::Sign,
        "Exp" => Fun::Exp,
        "Power" => Fun::Power,
        "Hypot" => Fun::Hypot,
        "Fmod" => Fun::Fmod,
        "SwiGLU" => Fun::SwiGlu,
        "GeGLU" => Fun::GeGlu,
        "ReGlu" => Fun::ReGlu,
        "ClampMax" => Fun::ClampMax,
        "ClampMin" => Fun::ClampMin,
        _ => return None,
    })
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Sigmoid on a 16-bit type as the library computes it: Muls by -1, Exp, Adds 1, then Div of 1 by that, each a
/// vector instruction on T whose result is rounded to T (asc-devkit impl/adv_api/detail/activation/sigmoid/
/// sigmoid_impl.h, SigmoidIntrinsicsImpl). Rounded once instead, a half result can differ by an ulp or two
/// (NPUKernelBench's MulSigmoidMulAddCustom, whose torch reference rounds each fp16 op the same way).
fn sigmoid_in(t: DType, x: f32) -> f32 {
    let round = |v: f32| match t {
        DType::F16 => half::f16::from_f32(v).to_f32(),
        DType::BF16 => half::bf16::from_f32(v).to_f32(),
        _ => v,
    };
    let e = round((-x).exp());
    let d = round(1.0 + e);
    round(1.0 / d)
}

/// GELU, tanh approximation (the library's formula): x / (1 + exp(-1.5957691 * (x + 0.044715 x^3))).
fn gelu(x: f32) -> f32 {
    x / (1.0 + (-1.595_769 * (x + 0.044715 * x * x * x)).exp())
}

fn apply(f: Fun, x: f32, y: f32, s: f32) -> f32 {
    match f {
        Fun::Sigmoid => sigmoid(x),
        Fun::Tanh => x.tanh(),
        Fun::Gelu => gelu(x),
        Fun::FasterGelu => x * sigmoid(1.702 * x),
        Fun::Silu => x * sigmoid(x),
        Fun::Sin => x.sin(),
        Fun::Cos => x.cos(),
        Fun::Tan => x.tan(),
        Fun::Asin => x.asin(),
        Fun::Acos => x.acos(),
        Fun::Atan => x.atan(),
        Fun::Sinh => x.sinh(),
        Fun::Cosh => x.cosh(),
        Fun::Asinh => x.asinh(),
        Fun::Acosh => x.acosh(),
        Fun::Atanh => x.atanh(),
        Fun::Log => x.ln(),
        Fun::Log2 => x.log2(),
        Fun::Log10 => x.log10(),
        Fun::Erf => crate::scalar::erf(x as f64) as f32,
        Fun::Erfc => 1.0 - crate::scalar::erf(x as f64) as f32,
        Fun::Floor => x.floor(),
        Fun::Ceil => x.ceil(),
        Fun::Round => x.round(),
        Fun::Rint => x.round_ties_even(),
        Fun::Trunc => x.trunc(),
        Fun::Frac => x - x.trunc(),
        Fun::Sign => {
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                0.0
            }
        }
        Fun::Exp => x.exp(),
        Fun::Power => x.powf(y),
        Fun::Hypot => x.hypot(y),
        Fun::Fmod => x % y,
        // dst = src0 * act(src1)
        Fun::SwiGlu => x * (y * sigmoid(s * y)),
        Fun::GeGlu => x * gelu(y),
        Fun::ReGlu => x * y.max(0.0),
        Fun::ClampMax => x.min(s),
        Fun::ClampMin => x.max(s),
    }
}

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

fn decode_axpy(a: &Args) -> Result<Box<dyn ApiOp>, String> {
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

fn decode_arange(a: &Args) -> Result<Box<dyn ApiOp>, String> {
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

// ---------------------------------------------------------------------------------------------------------
// Sum / Mean over the last axis: SumParams / MeanParams {outter, inner, n}

#[derive(Debug)]
struct RowReduce {
    mean: bool,
    t: DType,
    /// Mean<half, accType = float>: summed and scaled in float, cast to half once
    float_acc: bool,
    dst: u32,
    src: u32,
    outter: Sv,
    inner: Sv,
    n: Sv,
}

fn decode_row_reduce(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let p = if a.api == "Mean" { "meanParams" } else { "sumParams" };
    Ok(Box::new(RowReduce {
        mean: a.api == "Mean",
        t: a.dtype("T")?,
        float_acc: a.api == "Mean"
            && a.dtype("accType")
                .is_ok_and(|acc| acc.size() > a.dtype("T").map_or(4, |t| t.size())),
        dst: a.handle("dstTensor")?,
        src: a.handle("srcTensor")?,
        outter: a.field(p, "outter")?,
        inner: a.field(p, "inner")?,
        n: a.field(p, "n")?,
    }))
}

impl ApiOp for RowReduce {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        let sz = t.size();
        let (rows, inner, n) = (
            cx.uint(self.outter) as usize,
            cx.uint(self.inner) as usize,
            cx.uint(self.n) as usize,
        );
        let src = cx.handle(self.src);
        let total = rows * inner;
        crate::timing::vector_pass(cx.core, total as u64, sz as u64);
        let Some(at) = cx.range(src, 0, (total * sz) as i64, false, sz, "Sum") else {
            return Flow::Next;
        };
        let Space::Local(mem) = src.space else {
            return Flow::Next;
        };
        let mut vals = vec![0f32; total];
        let init = {
            let local = cx.local(mem);
            load_f32(t, &local.data.as_slice()[at..at + total * sz], &mut vals);
            crate::memory::all_ones(&local.init[at..at + total * sz])
        };
        // the library's order (reduce/order.rs): a tree per repeat, then trees of those; Mean scales the sum
        let acc_t = if self.float_acc { DType::F32 } else { t };
        let out: Vec<f32> = (0..rows)
            .map(|r| {
                let s = repeats_then_tree(acc_t, &vals[r * inner..r * inner + n.min(inner)]);
                if self.mean {
                    mean_of(t, s, n, self.float_acc)
                } else {
                    s
                }
            })
            .collect();
        let dst = cx.handle(self.dst);
        let mut bytes = vec![0u8; rows * sz];
        store_f32(t, &out, &mut bytes);
        if let Some(d) = cx.range(dst, 0, bytes.len() as i64, true, sz, "Sum") {
            cx.store_bytes(dst, d, &bytes, &vec![init as u8; bytes.len()], t, "Sum");
        }
        Flow::Next
    }
}

// ---------------------------------------------------------------------------------------------------------
// Broadcast<T, dim, axis>(dst, src, dstShape[dim], srcShape[dim]): numpy broadcasting of a size-1 axis

#[derive(Debug)]
struct Broadcast {
    t: DType,
    dst: u32,
    src: u32,
    dims: u32,
    dst_shape: StackArray,
    src_shape: StackArray,
}

fn decode_broadcast(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let dst_shape = a.array("dstShape", 0, 0, "uint32_t[dim] array")?;
    let src_shape = a.array("srcShape", 0, 0, "uint32_t[dim] array")?;
    let dims = a.targ("dim").and_then(|d| d.parse().ok()).unwrap_or(dst_shape.len);
    Ok(Box::new(Broadcast {
        t: a.dtype("T")?,
        dst: a.handle("dstLocal")?,
        src: a.handle("srcLocal")?,
        dims,
        dst_shape,
        src_shape,
    }))
}

impl ApiOp for Broadcast {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        let sz = t.size();
        let read = |cx: &Ctx, shape: StackArray| -> Vec<usize> {
            (0..self.dims as usize).map(|i| shape.get(cx, i) as usize).collect()
        };
        let (ds, ss) = (read(cx, self.dst_shape), read(cx, self.src_shape));
        if ds.iter().zip(&ss).any(|(d, s)| *s != *d && *s != 1) {
            cx.report(
                code::INVALID_OPERAND,
                format!("Broadcast from shape {ss:?} to {ds:?}: each source axis must equal the destination's or be 1"),
            );
            return Flow::Next;
        }
        let (dn, sn): (usize, usize) = (ds.iter().product(), ss.iter().product());
        // the destination's elements, written once
        crate::timing::vector_pass(cx.core, dn as u64, sz as u64);
        let (src, dst) = (cx.handle(self.src), cx.handle(self.dst));
        let Some(at) = cx.range(src, 0, (sn * sz) as i64, false, sz, "Broadcast") else {
            return Flow::Next;
        };
        let Space::Local(mem) = src.space else {
            return Flow::Next;
        };
        let (data, init) = {
            let local = cx.local(mem);
            (
                local.data.as_slice()[at..at + sn * sz].to_vec(),
                local.init[at..at + sn * sz].to_vec(),
            )
        };
        let mut out = vec![0u8; dn * sz];
        let mut flags = vec![0u8; dn * sz];
        for i in 0..dn {
            // the source element of destination element i
            let (mut rem, mut j, mut sstride) = (i, 0usize, 1usize);
            let mut coords = vec![0usize; ds.len()];
            for k in (0..ds.len()).rev() {
                coords[k] = rem % ds[k];
                rem /= ds[k];
            }
            for k in (0..ds.len()).rev() {
                if ss[k] != 1 {
                    j += coords[k] * sstride;
                }
                sstride *= ss[k];
            }
            out[i * sz..(i + 1) * sz].copy_from_slice(&data[j * sz..(j + 1) * sz]);
            flags[i * sz..(i + 1) * sz].copy_from_slice(&init[j * sz..(j + 1) * sz]);
        }
        if let Some(d) = cx.range(dst, 0, out.len() as i64, true, sz, "Broadcast") {
            cx.store_bytes(dst, d, &out, &flags, t, "Broadcast");
        }
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
