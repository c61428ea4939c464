//! DataCopy with ND -> NZ conversion (Nd2NzParams): GM -> L1 (MTE2), GM -> UB (MTE2), UB -> L1 (MTE3).
//!
//! ndNum ND matrices of nValue rows x dValue columns (rows srcDValue elements apart, matrices srcNdMatrixStride
//! elements apart) become NZ matrices: the columns are cut into C0-wide z-columns, each row of one becomes a
//! 32-byte block; z-column c starts `c * dstNzC0Stride` blocks in, row r of it `r * dstNzNStride` blocks
//! further, matrix i `i * dstNzMatrixStride` elements in. A last z-column narrower than C0 is padded with zeros
//! to its 32 bytes; rows are not padded (rows past nValue keep what they held).

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::core::{Ctx, Flow};
use crate::cube::{c0, read, write_runs, BLOCK};
use crate::dtype::DType;
use crate::memory::Space;
use crate::program::Sv;

#[derive(Debug)]
struct Nd2Nz {
    t: DType,
    dst: u32,
    src: u32,
    pipe: Pipe,
    nd_num: Sv,
    n: Sv,
    d: Sv,
    src_nd: Sv,
    src_d: Sv,
    c0_stride: Sv,
    n_stride: Sv,
    dst_nd: Sv,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let p = if a.has("intriParams.ndNum") {
        "intriParams"
    } else {
        "nd2nzParams"
    };
    Ok(Box::new(Nd2Nz {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        // a GM source comes over MTE2, a UB one (towards L1) over MTE3
        pipe: if a.overload == "nd2nz" { Pipe::Mte2 } else { Pipe::Mte3 },
        nd_num: a.field(p, "ndNum")?,
        n: a.field(p, "nValue")?,
        d: a.field(p, "dValue")?,
        src_nd: a.field(p, "srcNdMatrixStride")?,
        src_d: a.field(p, "srcDValue")?,
        c0_stride: a.field(p, "dstNzC0Stride")?,
        n_stride: a.field(p, "dstNzNStride")?,
        dst_nd: a.field(p, "dstNzMatrixStride")?,
    }))
}

impl ApiOp for Nd2Nz {
    fn pipe(&self) -> Pipe {
        self.pipe
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        nd2nz(cx, self);
        Flow::Next
    }
}

fn nd2nz(cx: &mut Ctx, op: &Nd2Nz) {
    let u16v = |cx: &Ctx, sv: Sv| (cx.uint(sv) & 0xFFFF) as usize;
    let (nd_num, n, d) = (u16v(cx, op.nd_num), u16v(cx, op.n), u16v(cx, op.d));
    if nd_num == 0 || n == 0 || d == 0 {
        return;
    }
    let (src_nd, src_d) = (u16v(cx, op.src_nd), u16v(cx, op.src_d));
    let (c0_stride, n_stride, dst_nd) = (u16v(cx, op.c0_stride), u16v(cx, op.n_stride), u16v(cx, op.dst_nd));
    let (dst, src) = (cx.handle(op.dst), cx.handle(op.src));
    let size = op.t.size();
    let c0 = c0(op.t);
    let cols = d.div_ceil(c0);
    let what = "DataCopy (ND2NZ)";
    let mut runs: Vec<(i64, Vec<u8>, Vec<u8>)> = Vec::with_capacity(nd_num * n * cols);
    for m in 0..nd_num {
        for r in 0..n {
            let from = ((m * src_nd + r * src_d) * size) as i64;
            let Some(row) = read(cx, src, from, (d * size) as i64, size, what) else {
                return;
            };
            for c in 0..cols {
                let width = c0.min(d - c * c0) * size;
                let mut data = vec![0u8; BLOCK as usize];
                let mut init = vec![1u8; BLOCK as usize];
                data[..width].copy_from_slice(&row.data[c * c0 * size..c * c0 * size + width]);
                init[..width].copy_from_slice(&row.init[c * c0 * size..c * c0 * size + width]);
                let off = (m * dst_nd * size) as i64 + (c * c0_stride + r * n_stride) as i64 * BLOCK;
                runs.push((off, data, init));
            }
        }
    }
    if matches!(dst.space, Space::Null) {
        return;
    }
    runs.sort_by_key(|r| r.0);
    write_runs(cx, dst, &runs, op.t, what);
}

pub fn register(r: &mut Registry) {
    r.add("DataCopy.nd2nz", decode);
    r.add("DataCopy.nd2nz_ub_to_l1", decode);
}
