//! DataCopy with ND -> NZ conversion (Nd2NzParams): GM -> L1 (MTE2), GM -> UB (MTE2), UB -> L1 (MTE3); and
//! the other way, NZ -> ND (Nz2NdParamsFull) from UB to GM (MTE3).
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

/// DataCopy UB -> GM with NZ -> ND (Nz2NdParamsFull): ndNum NZ matrices of nValue rows and dValue columns in
/// z-columns 16 elements wide (srcNStride 16-element units apart, matrices srcNdMatrixStride 256-element units
/// apart) become ND rows dstDStride elements apart, matrices dstNdMatrixStride elements apart.
#[derive(Debug)]
struct Nz2Nd {
    t: DType,
    dst: u32,
    src: u32,
    nd_num: Sv,
    n: Sv,
    d: Sv,
    src_nd: Sv,
    src_n: Sv,
    dst_d: Sv,
    dst_nd: Sv,
}

fn decode_nz2nd(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let p = "intriParams";
    Ok(Box::new(Nz2Nd {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        nd_num: a.field(p, "ndNum")?,
        n: a.field(p, "nValue")?,
        d: a.field(p, "dValue")?,
        src_nd: a.field(p, "srcNdMatrixStride")?,
        src_n: a.field(p, "srcNStride")?,
        dst_d: a.field(p, "dstDStride")?,
        dst_nd: a.field(p, "dstNdMatrixStride")?,
    }))
}

impl ApiOp for Nz2Nd {
    fn pipe(&self) -> Pipe {
        Pipe::Mte3
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let u = |cx: &Ctx, sv: Sv| (cx.uint(sv) & 0xFFFF) as usize;
        let (nd_num, n, d) = (u(cx, self.nd_num), u(cx, self.n), u(cx, self.d));
        let (src_nd, src_n, dst_d, dst_nd) = (
            u(cx, self.src_nd),
            u(cx, self.src_n),
            u(cx, self.dst_d),
            u(cx, self.dst_nd),
        );
        if nd_num == 0 || n == 0 || d == 0 {
            return Flow::Next;
        }
        let (dst, src) = (cx.handle(self.dst), cx.handle(self.src));
        let size = self.t.size();
        let what = "DataCopy (NZ2ND)";
        let src_at = |m: usize, i: usize, j: usize| m * src_nd * 256 + (j / 16) * src_n * 16 + i * 16 + j % 16;
        let last = src_at(nd_num - 1, n - 1, d - 1) + 1;
        let Some(region) = read(cx, src, 0, (last * size) as i64, size, what) else {
            return Flow::Next;
        };
        let mut runs: Vec<(i64, Vec<u8>, Vec<u8>)> = Vec::with_capacity(nd_num * n);
        for m in 0..nd_num {
            for i in 0..n {
                let mut data = vec![0u8; d * size];
                let mut init = vec![0u8; d * size];
                for j in 0..d {
                    let at = src_at(m, i, j) * size;
                    data[j * size..(j + 1) * size].copy_from_slice(&region.data[at..at + size]);
                    init[j * size..(j + 1) * size].copy_from_slice(&region.init[at..at + size]);
                }
                runs.push((((m * dst_nd + i * dst_d) * size) as i64, data, init));
            }
        }
        runs.sort_by_key(|r| r.0);
        write_runs(cx, dst, &runs, self.t, what);
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add("DataCopy.nz2nd", decode_nz2nd);
    r.add("DataCopy.nd2nz", decode);
    r.add("DataCopy.nd2nz_ub_to_l1", decode);
}
