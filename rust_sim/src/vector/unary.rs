//! Element-wise unary instructions: Exp, Ln, Sqrt, Rsqrt, Reciprocal, Abs, Relu, Not, Copy.
//!
//! Floats compute in f32 and round once to the element type. The hardware's Exp/Ln/Sqrt are accurate to the
//! element type's precision for half and to a few ulp for float; f32 library functions meet that.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::vector::binary::relu;
use crate::vector::elem::{load_f32, load_i64, store_f32, store_i64, CHUNK};
use crate::vector::{check_count_fits, check_footprint, elementwise, geoms, plan, Form};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Exp,
    Ln,
    Sqrt,
    Rsqrt,
    Reciprocal,
    Abs,
    Relu,
    Not,
    Copy,
}

#[derive(Debug)]
struct Unary {
    op: UnOp,
    t: DType,
    dst: u32,
    src: u32,
    form: Form,
    name: String,
}

const STRIDES: [(&str, &str); 2] = [("dstBlkStride", "dstRepStride"), ("srcBlkStride", "srcRepStride")];

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let op = match a.api.as_str() {
        "Exp" => UnOp::Exp,
        "Ln" => UnOp::Ln,
        "Sqrt" => UnOp::Sqrt,
        "Rsqrt" => UnOp::Rsqrt,
        "Reciprocal" => UnOp::Reciprocal,
        "Abs" => UnOp::Abs,
        "Relu" => UnOp::Relu,
        "Not" => UnOp::Not,
        "Copy" => UnOp::Copy,
        other => return Err(format!("not a unary op: {other}")),
    };
    let form = if a.api == "Copy" {
        // Copy(dst, src, mask, repeatTime, CopyRepeatParams{dstStride, srcStride, dstRepeatSize, srcRepeatSize})
        Form::decode(
            a,
            "repeatParams",
            &[("dstStride", "dstRepeatSize"), ("srcStride", "srcRepeatSize")],
        )?
    } else {
        Form::decode(a, "repeatParams", &STRIDES)?
    };
    Ok(Box::new(Unary {
        op,
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        form,
        name: a.api.clone(),
    }))
}

impl ApiOp for Unary {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let g = geoms(cx, &[self.dst, self.src], &[self.t, self.t]);
        let names = ["dst", "src"];
        let Some(p) = plan(cx, &self.form, &g, &self.name) else {
            return Flow::Next;
        };
        check_count_fits(cx, &self.form, &g, &names, &self.name);
        let Some(mem) = check_footprint(cx, &g, &p.runs, &names, &self.name) else {
            return Flow::Next;
        };
        let (op, t) = (self.op, self.t);
        elementwise(cx, mem, &p, &g, &self.name, &mut |srcs, out, m, _| {
            unary_kernel(op, t, srcs[0], out, m)
        });
        Flow::Next
    }
}

/// Applies `op` to `m` elements of type `t`.
pub fn unary_kernel(op: UnOp, t: DType, src: &[u8], out: &mut [u8], m: usize) {
    if op == UnOp::Copy {
        out[..m * t.size()].copy_from_slice(&src[..m * t.size()]);
        return;
    }
    if t.is_float() && op != UnOp::Not {
        let mut a = [0f32; CHUNK];
        let a = &mut a[..m];
        load_f32(t, src, a);
        apply_f32(op, a);
        store_f32(t, a, out);
    } else {
        let mut a = [0i64; CHUNK];
        let a = &mut a[..m];
        load_i64(t, src, a);
        match op {
            UnOp::Abs => a.iter_mut().for_each(|x| *x = x.wrapping_abs()),
            UnOp::Relu => a.iter_mut().for_each(|x| *x = (*x).max(0)),
            UnOp::Not => a.iter_mut().for_each(|x| *x = !*x),
            _ => {}
        }
        store_i64(t, a, out);
    }
}

pub fn apply_f32(op: UnOp, a: &mut [f32]) {
    match op {
        UnOp::Exp => a.iter_mut().for_each(|x| *x = x.exp()),
        UnOp::Ln => a.iter_mut().for_each(|x| *x = x.ln()),
        UnOp::Sqrt => a.iter_mut().for_each(|x| *x = x.sqrt()),
        UnOp::Rsqrt => a.iter_mut().for_each(|x| *x = 1.0 / x.sqrt()),
        UnOp::Reciprocal => a.iter_mut().for_each(|x| *x = 1.0 / *x),
        UnOp::Abs => a.iter_mut().for_each(|x| *x = x.abs()),
        UnOp::Relu => a.iter_mut().for_each(|x| *x = relu(*x)),
        UnOp::Not | UnOp::Copy => {}
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(
        &["Exp", "Ln", "Sqrt", "Rsqrt", "Reciprocal", "Abs", "Relu", "Not"],
        &["count", "mask", "bitmask"],
        decode,
    );
    r.add_all(&["Copy"], &["mask", "bitmask"], decode);
}
