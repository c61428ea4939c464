//! Element-wise tensor-tensor (Add, Sub, Mul, Div, Max, Min, And, Or, AddRelu, SubRelu, MulAddDst) and
//! tensor-scalar (Adds, Muls, Maxs, Mins, ShiftLeft, ShiftRight, LeakyRelu, Axpy) instructions.
//!
//! Floats compute in f32 and round once to the element type; integers wrap at their width.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::elem::{load_f32, load_i64, store_f32, store_i64, CHUNK};
use crate::vector::{check_count_fits, check_footprint, elementwise, elementwise_absorbing, geoms, plan, Form};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Max,
    Min,
    And,
    Or,
    AddRelu,
    SubRelu,
    /// dst = src0 * src1 + dst
    MulAddDst,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarOp {
    Adds,
    Muls,
    Maxs,
    Mins,
    ShiftLeft,
    ShiftRight,
    LeakyRelu,
    /// dst = src * scalar + dst
    Axpy,
}

#[derive(Debug)]
struct Binary {
    op: BinOp,
    t: DType,
    dst: u32,
    src0: u32,
    src1: u32,
    form: Form,
    name: String,
}

const BINARY_STRIDES: [(&str, &str); 3] = [
    ("dstBlkStride", "dstRepStride"),
    ("src0BlkStride", "src0RepStride"),
    ("src1BlkStride", "src1RepStride"),
];
const UNARY_STRIDES: [(&str, &str); 2] = [("dstBlkStride", "dstRepStride"), ("srcBlkStride", "srcRepStride")];

/// The stride fields of an op's operands, dst first, and, for an op that reads dst as its addend (MulAddDst,
/// Axpy: the operand exec appends after the sources), dst's fields again: that read walks dst's own blocks and
/// repeats. An operand with no fields takes the default strides (1 and 8), which read the addend of repeat r
/// 8 blocks on instead of dstRepStride blocks on (catlass's TileVmad steps rows of 512 floats, dstRepStride 64).
fn stride_fields<'a>(fields: &[(&'a str, &'a str)], reads_dst: bool) -> Vec<(&'a str, &'a str)> {
    let mut all = fields.to_vec();
    if reads_dst {
        all.push(fields[0]);
    }
    all
}

fn decode_binary(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let op = match a.api.as_str() {
        "Add" => BinOp::Add,
        "Sub" => BinOp::Sub,
        "Mul" => BinOp::Mul,
        "Div" => BinOp::Div,
        "Max" => BinOp::Max,
        "Min" => BinOp::Min,
        "And" => BinOp::And,
        "Or" => BinOp::Or,
        "AddRelu" => BinOp::AddRelu,
        "SubRelu" => BinOp::SubRelu,
        "MulAddDst" => BinOp::MulAddDst,
        other => return Err(format!("not a binary op: {other}")),
    };
    let fields = stride_fields(&BINARY_STRIDES, op == BinOp::MulAddDst);
    Ok(Box::new(Binary {
        op,
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src0: a.handle("src0")?,
        src1: a.handle("src1")?,
        form: Form::decode(a, "repeatParams", &fields)?,
        name: a.api.clone(),
    }))
}

impl ApiOp for Binary {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let mut hs = vec![self.dst, self.src0, self.src1];
        if self.op == BinOp::MulAddDst {
            hs.push(self.dst);
        }
        let g = geoms(cx, &hs, &vec![self.t; hs.len()]);
        let names = ["dst", "src0", "src1", "dst"];
        let Some(p) = plan(cx, &self.form, &g, &self.name) else {
            return Flow::Next;
        };
        check_count_fits(cx, &self.form, &g, &names, &self.name);
        let Some(mem) = check_footprint(cx, &g, &p.runs, &names, &self.name) else {
            return Flow::Next;
        };
        let (op, t) = (self.op, self.t);
        // And with a zero byte / Or with an all-ones byte decides the result byte whatever the other operand holds
        let absorb = match op {
            BinOp::And => Some(0x00),
            BinOp::Or => Some(0xFF),
            _ => None,
        };
        elementwise_absorbing(
            cx,
            mem,
            &p,
            &g,
            &self.name,
            &mut |srcs, out, m, _| binary_kernel(op, t, srcs, out, m),
            absorb,
        );
        Flow::Next
    }
}

fn binary_kernel(op: BinOp, t: DType, srcs: &[&[u8]], out: &mut [u8], m: usize) {
    if t.is_float() {
        let mut a = [0f32; CHUNK];
        let mut b = [0f32; CHUNK];
        let mut c = [0f32; CHUNK];
        let (a, b, c) = (&mut a[..m], &mut b[..m], &mut c[..m]);
        load_f32(t, srcs[0], a);
        load_f32(t, srcs[1], b);
        match op {
            BinOp::Add => a.iter_mut().zip(b.iter()).for_each(|(x, y)| *x += *y),
            BinOp::Sub => a.iter_mut().zip(b.iter()).for_each(|(x, y)| *x -= *y),
            BinOp::Mul => a.iter_mut().zip(b.iter()).for_each(|(x, y)| *x *= *y),
            BinOp::Div => a.iter_mut().zip(b.iter()).for_each(|(x, y)| *x /= *y),
            BinOp::Max => a.iter_mut().zip(b.iter()).for_each(|(x, y)| *x = fmax(*x, *y)),
            BinOp::Min => a.iter_mut().zip(b.iter()).for_each(|(x, y)| *x = fmin(*x, *y)),
            BinOp::AddRelu => a
                .iter_mut()
                .zip(b.iter())
                .for_each(|(x, y)| *x = relu(round_to(t, *x + *y))),
            BinOp::SubRelu => a
                .iter_mut()
                .zip(b.iter())
                .for_each(|(x, y)| *x = relu(round_to(t, *x - *y))),
            BinOp::MulAddDst => {
                load_f32(t, srcs[2], c);
                for ((x, y), z) in a.iter_mut().zip(b.iter()).zip(c.iter()) {
                    *x = round_to(t, *x * *y) + *z;
                }
            }
            BinOp::And | BinOp::Or => {
                // bitwise ops on a float type: on the bits
                let size = t.size();
                for (k, o) in out.chunks_exact_mut(size).enumerate().take(m) {
                    let x = t.load_bits(&srcs[0][k * size..]);
                    let y = t.load_bits(&srcs[1][k * size..]);
                    t.store_bits(o, if op == BinOp::And { x & y } else { x | y });
                }
                return;
            }
        }
        store_f32(t, a, out);
    } else {
        let mut a = [0i64; CHUNK];
        let mut b = [0i64; CHUNK];
        let mut c = [0i64; CHUNK];
        let (a, b, c) = (&mut a[..m], &mut b[..m], &mut c[..m]);
        load_i64(t, srcs[0], a);
        load_i64(t, srcs[1], b);
        match op {
            BinOp::Add => a.iter_mut().zip(b.iter()).for_each(|(x, y)| *x = x.wrapping_add(*y)),
            BinOp::Sub => a.iter_mut().zip(b.iter()).for_each(|(x, y)| *x = x.wrapping_sub(*y)),
            BinOp::Mul => a.iter_mut().zip(b.iter()).for_each(|(x, y)| *x = x.wrapping_mul(*y)),
            BinOp::Div => a
                .iter_mut()
                .zip(b.iter())
                .for_each(|(x, y)| *x = if *y == 0 { 0 } else { x.wrapping_div(*y) }),
            BinOp::Max => a.iter_mut().zip(b.iter()).for_each(|(x, y)| *x = (*x).max(*y)),
            BinOp::Min => a.iter_mut().zip(b.iter()).for_each(|(x, y)| *x = (*x).min(*y)),
            BinOp::And => a.iter_mut().zip(b.iter()).for_each(|(x, y)| *x &= *y),
            BinOp::Or => a.iter_mut().zip(b.iter()).for_each(|(x, y)| *x |= *y),
            BinOp::AddRelu => a
                .iter_mut()
                .zip(b.iter())
                .for_each(|(x, y)| *x = wrap(t, x.wrapping_add(*y)).max(0)),
            BinOp::SubRelu => a
                .iter_mut()
                .zip(b.iter())
                .for_each(|(x, y)| *x = wrap(t, x.wrapping_sub(*y)).max(0)),
            BinOp::MulAddDst => {
                load_i64(t, srcs[2], c);
                for ((x, y), z) in a.iter_mut().zip(b.iter()).zip(c.iter()) {
                    *x = x.wrapping_mul(*y).wrapping_add(*z);
                }
            }
        }
        store_i64(t, a, out);
    }
}

/// max as the vector unit computes it: a NaN operand gives NaN.
#[inline]
pub fn fmax(x: f32, y: f32) -> f32 {
    if x.is_nan() || y.is_nan() {
        f32::NAN
    } else if x > y {
        x
    } else {
        y
    }
}

#[inline]
pub fn fmin(x: f32, y: f32) -> f32 {
    if x.is_nan() || y.is_nan() {
        f32::NAN
    } else if x < y {
        x
    } else {
        y
    }
}

#[inline]
pub fn relu(x: f32) -> f32 {
    if x > 0.0 || x.is_nan() {
        x
    } else {
        0.0
    }
}

/// Rounds an f32 intermediate to element type `t` (for fused ops that round between steps).
#[inline]
pub fn round_to(t: DType, x: f32) -> f32 {
    match t {
        DType::F16 => half::f16::from_f32(x).to_f32(),
        DType::BF16 => half::bf16::from_f32(x).to_f32(),
        _ => x,
    }
}

#[inline]
fn wrap(t: DType, v: i64) -> i64 {
    t.to_i64(t.from_i64(v))
}

// -------------------------------------------------------------------------------------------------------
// tensor-scalar

#[derive(Debug)]
struct Scalar {
    op: ScalarOp,
    t: DType,
    dst: u32,
    src: u32,
    scalar: Sv,
    form: Form,
    name: String,
}

fn decode_scalar(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let op = match a.api.as_str() {
        "Adds" => ScalarOp::Adds,
        "Muls" => ScalarOp::Muls,
        "Maxs" => ScalarOp::Maxs,
        "Mins" => ScalarOp::Mins,
        "ShiftLeft" => ScalarOp::ShiftLeft,
        "ShiftRight" => ScalarOp::ShiftRight,
        "LeakyRelu" => ScalarOp::LeakyRelu,
        "Axpy" => ScalarOp::Axpy,
        other => return Err(format!("not a tensor-scalar op: {other}")),
    };
    let t = a.dtype("T")?;
    let scalar = ["scalarValue", "scalar", "alpha"]
        .iter()
        .find_map(|n| a.sv(n).ok())
        .ok_or("missing scalar")?;
    Ok(Box::new(Scalar {
        op,
        t,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        scalar,
        form: Form::decode(a, "repeatParams", &stride_fields(&UNARY_STRIDES, op == ScalarOp::Axpy))?,
        name: a.api.clone(),
    }))
}

impl ApiOp for Scalar {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let mut hs = vec![self.dst, self.src];
        if self.op == ScalarOp::Axpy {
            hs.push(self.dst);
        }
        let g = geoms(cx, &hs, &vec![self.t; hs.len()]);
        let names = ["dst", "src", "dst"];
        let Some(p) = plan(cx, &self.form, &g, &self.name) else {
            return Flow::Next;
        };
        check_count_fits(cx, &self.form, &g, &names, &self.name);
        let Some(mem) = check_footprint(cx, &g, &p.runs, &names, &self.name) else {
            return Flow::Next;
        };
        let (op, t) = (self.op, self.t);
        let bits = cx.value_as(self.scalar, t);
        let sf = t.to_f64(bits) as f32;
        let si = if t.is_float() { 0 } else { t.to_i64(bits) };
        let shift = cx.int(self.scalar);
        elementwise(cx, mem, &p, &g, &self.name, &mut |srcs, out, m, _| {
            scalar_kernel(op, t, sf, si, shift, srcs, out, m)
        });
        Flow::Next
    }
}

#[allow(clippy::too_many_arguments)]
fn scalar_kernel(op: ScalarOp, t: DType, s: f32, si: i64, shift: i64, srcs: &[&[u8]], out: &mut [u8], m: usize) {
    if t.is_float() {
        let mut a = [0f32; CHUNK];
        let a = &mut a[..m];
        load_f32(t, srcs[0], a);
        match op {
            ScalarOp::Adds => a.iter_mut().for_each(|x| *x += s),
            ScalarOp::Muls => a.iter_mut().for_each(|x| *x *= s),
            ScalarOp::Maxs => a.iter_mut().for_each(|x| *x = fmax(*x, s)),
            ScalarOp::Mins => a.iter_mut().for_each(|x| *x = fmin(*x, s)),
            ScalarOp::LeakyRelu => a.iter_mut().for_each(|x| {
                if *x < 0.0 {
                    *x *= s
                }
            }),
            ScalarOp::Axpy => {
                let mut c = [0f32; CHUNK];
                let c = &mut c[..m];
                load_f32(t, srcs[1], c);
                for (x, z) in a.iter_mut().zip(c.iter()) {
                    *x = round_to(t, *x * s) + *z;
                }
            }
            ScalarOp::ShiftLeft | ScalarOp::ShiftRight => {}
        }
        store_f32(t, a, out);
    } else {
        let mut a = [0i64; CHUNK];
        let a = &mut a[..m];
        load_i64(t, srcs[0], a);
        let bits = (t.size() * 8) as i64;
        match op {
            ScalarOp::Adds => a.iter_mut().for_each(|x| *x = x.wrapping_add(si)),
            ScalarOp::Muls => a.iter_mut().for_each(|x| *x = x.wrapping_mul(si)),
            ScalarOp::Maxs => a.iter_mut().for_each(|x| *x = (*x).max(si)),
            ScalarOp::Mins => a.iter_mut().for_each(|x| *x = (*x).min(si)),
            ScalarOp::LeakyRelu => a.iter_mut().for_each(|x| {
                if *x < 0 {
                    *x = x.wrapping_mul(si)
                }
            }),
            ScalarOp::ShiftLeft => a
                .iter_mut()
                .for_each(|x| *x = if shift >= bits || shift < 0 { 0 } else { *x << shift }),
            ScalarOp::ShiftRight => {
                let signed = t.is_signed();
                a.iter_mut().for_each(|x| {
                    *x = if shift < 0 {
                        *x
                    } else if signed {
                        *x >> shift.min(63)
                    } else if shift >= bits {
                        0
                    } else {
                        ((*x as u64) >> shift) as i64
                    }
                })
            }
            ScalarOp::Axpy => {
                let mut c = [0i64; CHUNK];
                let c = &mut c[..m];
                load_i64(t, srcs[1], c);
                for (x, z) in a.iter_mut().zip(c.iter()) {
                    *x = x.wrapping_mul(si).wrapping_add(*z);
                }
            }
        }
        store_i64(t, a, out);
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(
        &[
            "Add",
            "Sub",
            "Mul",
            "Div",
            "Max",
            "Min",
            "And",
            "Or",
            "AddRelu",
            "SubRelu",
            "MulAddDst",
        ],
        &["count", "mask", "bitmask"],
        decode_binary,
    );
    r.add_all(
        &[
            "Adds",
            "Muls",
            "Maxs",
            "Mins",
            "ShiftLeft",
            "ShiftRight",
            "LeakyRelu",
            "Axpy",
        ],
        &["count", "mask", "bitmask"],
        decode_scalar,
    );
}

#[cfg(test)]
mod tests {
    use crate::memory::MemKind;
    use crate::test_rig::{f32_bytes, Rig};

    /// Runs `code` in Counter mode over 128 elements (two repeats of 64 floats) on one core whose UB holds the
    /// floats 0.0, 1.0, ... 1023.0 from byte 0. h1: dst, 2 rows of 128 floats (byte 0); h2: src0, 2 rows of 128
    /// (byte 1024); h3: 64 floats (byte 2048). Registers: r1..r3 the byte offsets, r4 = 256, r5 = 128 (the
    /// counter), r6 = 1, r7 = 16 (a 128-float row in blocks), r8 = 0, r9 = 8, r10 = 2.
    fn run_counter(code: &str) -> Vec<f32> {
        let mut text = String::from("kernel k aiv\nchip 910B2\nmem UB 196608 32\nregs 64 32\nstack 0\n");
        for (r, v) in (1..).zip([0, 1024, 2048, 256, 128, 1, 16, 0, 8, 2]) {
            text += &format!("const r{r} i32 {v}\n");
        }
        let code = format!(
            "  h1 = LocalAt.f32 UB r1:i32 r4:i32\n  h2 = LocalAt.f32 UB r2:i32 r4:i32\n  \
             h3 = LocalAt.f32 UB r3:i32 r4:i32\n  call SetMaskCount.plain\n  \
             call SetVectorMask.count<T=f32,mode=COUNTER> len=r5:i32\n{code}"
        );
        let out = Rig::new(text)
            .fill(MemKind::Ub, 0, f32_bytes((0..1024).map(|i| i as f32)))
            .run(&code);
        assert!(out.findings.list.is_empty(), "{:?}", out.findings.list);
        out.ub_f32(0, 256)
    }

    #[test]
    fn mul_add_dst_reads_its_addend_with_dst_repeat_stride() {
        // catlass TileVmad's form: dst and src0 step a row (dstRepStride = src0RepStride = 16 blocks), src1 stays
        let out = run_counter(
            "  call MulAddDst.mask<T=f32,U=f32,isSetMask=0> dst=h1 src0=h2 src1=h3 mask=r8:i32 repeatTime=r6:i32 \
             repeatParams.dstBlkStride=r6:i32 repeatParams.src0BlkStride=r6:i32 repeatParams.src1BlkStride=r6:i32 \
             repeatParams.dstRepStride=r7:i32 repeatParams.src0RepStride=r7:i32 repeatParams.src1RepStride=r8:i32",
        );
        for row in 0..2 {
            for j in 0..128 {
                let e = row * 128 + j;
                let old = e as f32;
                let want = if j < 64 {
                    (256 + e) as f32 * (512 + j) as f32 + old
                } else {
                    old
                };
                assert_eq!(out[e], want, "row {row} element {j}");
            }
        }
    }

    #[test]
    fn axpy_reads_its_addend_with_dst_repeat_stride() {
        // dst steps a row (16 blocks), src a repeat (8 blocks): row 1 adds src[64..128] * 2 to dst[128..192]
        let out = run_counter(
            "  call Axpy.mask<T=f32,U=f32,isSetMask=0> dst=h1 src=h2 scalarValue=r10:i32 mask=r8:i32 \
             repeatTime=r6:i32 repeatParams.dstBlkStride=r6:i32 repeatParams.srcBlkStride=r6:i32 \
             repeatParams.dstRepStride=r7:i32 repeatParams.srcRepStride=r9:i32",
        );
        for row in 0..2 {
            for j in 0..64 {
                let e = row * 128 + j;
                assert_eq!(
                    out[e],
                    (256 + row * 64 + j) as f32 * 2.0 + e as f32,
                    "row {row} element {j}"
                );
            }
        }
        assert_eq!(out[64], 64.0);
    }
}
