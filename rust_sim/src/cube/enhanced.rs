//! DataCopy with DataCopyEnhancedParams: L0C (CO1) -> UB (CO2) on the coupled chips (910, 310P), where the
//! vector pipe moves the cube's results out, in 16 x 16 fractals (BLOCK_MODE_MATRIX): blockCount blocks of
//! blockLen fractals, srcStride fractals and dstStride 32-byte blocks between them, each element converted
//! (float to half rounds to nearest even) and, with isRelu, negatives set to 0. The dequantising modes (DEQ,
//! DEQ8, DEQ16 and their vector forms) and the other block modes are reported as not modelled.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::cube::{read, write_runs, BLOCK};
use crate::dtype::DType;
use crate::program::Sv;

#[derive(Debug)]
struct Enhanced {
    dt: DType,
    st: DType,
    dst: u32,
    src: u32,
    count: Sv,
    len: Sv,
    src_stride: Sv,
    dst_stride: Sv,
    mode: Option<Sv>,
    deq: Option<Sv>,
    relu: Option<Sv>,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let (p, e) = ("intriParams", "enhancedParams");
    Ok(Box::new(Enhanced {
        dt: a.dtype("T")?,
        st: a.dtype("U").or_else(|_| a.dtype("T"))?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        count: a.field(p, "blockCount")?,
        len: a.field(p, "blockLen")?,
        src_stride: a.field(p, "srcStride")?,
        dst_stride: a.field(p, "dstStride")?,
        mode: a.opt_field(e, "blockMode")?,
        deq: a.opt_field(e, "deqScale")?,
        relu: a.opt_field(e, "isRelu")?,
    }))
}

impl ApiOp for Enhanced {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let opt = |cx: &Ctx, sv: Option<Sv>| sv.map(|s| cx.uint(s)).unwrap_or(0);
        let (mode, deq, relu) = (opt(cx, self.mode), opt(cx, self.deq), opt(cx, self.relu) & 1 != 0);
        if mode != 1 || deq != 0 {
            cx.report(
                code::NOT_MODELLED,
                format!(
                    "DataCopy with DataCopyEnhancedParams in block mode {mode} and deqScale {deq}: only \
                     BLOCK_MODE_MATRIX without dequantisation is modelled"
                ),
            );
            return Flow::Stop;
        }
        let pairs = [
            (DType::F32, DType::F32),
            (DType::F32, DType::F16),
            (DType::F16, DType::F16),
            (DType::I32, DType::I32),
        ];
        if !pairs.contains(&(self.st, self.dt)) {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "DataCopy out of L0C from {} to {} without dequantisation: the copy converts float to float or \
                     half, and keeps half and int32_t",
                    self.st.name(),
                    self.dt.name()
                ),
            );
            return Flow::Next;
        }
        let u = |cx: &Ctx, sv: Sv| (cx.uint(sv) & 0xFFFF) as usize;
        let (count, len, ss, ds) = (
            u(cx, self.count),
            u(cx, self.len),
            u(cx, self.src_stride),
            u(cx, self.dst_stride),
        );
        if count == 0 || len == 0 {
            return Flow::Next;
        }
        let (dst, src) = (cx.handle(self.dst), cx.handle(self.src));
        let (sz, dz) = (self.st.size(), self.dt.size());
        let what = "DataCopy (L0C to UB)";
        let mut runs = Vec::with_capacity(count);
        for b in 0..count {
            let elems = len * 256;
            let Some(r) = read(
                cx,
                src,
                (b * (len + ss) * 256 * sz) as i64,
                (elems * sz) as i64,
                sz,
                what,
            ) else {
                return Flow::Next;
            };
            let mut data = vec![0u8; elems * dz];
            let mut init = vec![0u8; elems * dz];
            for e in 0..elems {
                let x = self.st.to_f64(self.st.load_bits(&r.data[e * sz..]));
                let x = if relu && x < 0.0 { 0.0 } else { x };
                let bits = if self.dt.is_float() {
                    self.dt.from_f64(x)
                } else {
                    self.dt.from_i64(x as i64)
                };
                self.dt.store_bits(&mut data[e * dz..], bits);
                init[e * dz..(e + 1) * dz].fill(r.is_init(e * sz, sz) as u8);
            }
            let at = (b * len * 256 * dz) as i64 + (b * ds) as i64 * BLOCK;
            runs.push((at, data, init));
        }
        write_runs(cx, dst, &runs, self.dt, what);
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add("DataCopy.enhanced", decode);
}
