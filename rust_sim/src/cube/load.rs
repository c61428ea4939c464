//! LoadData 2D: `repeatTimes` 512-byte fractals from L1 (MTE1) or GM (MTE2) into L0A / L0B (or GM -> L1).
//!
//! Repeat i reads the fractal `startIndex + srcStride * i` of the source (`- srcStride * i` with addrMode 1)
//! and writes it `i * (dstGap + 1)` fractals into the destination. With ifTranspose (16-bit types, L1 ->
//! L0A/L0B only) each 16 x 16 fractal is transposed on the way. A fractal's meaning (16 x C0 in L0A, C0 x 16 in
//! L0B) belongs to Mmad; LoadData moves bytes.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::cube::{read, write, FRACTAL};
use crate::dtype::DType;
use crate::memory::{MemKind, Space};
use crate::program::Sv;

#[derive(Debug)]
struct LoadData2d {
    t: DType,
    dst: u32,
    src: u32,
    from_gm: bool,
    start: Sv,
    repeat: Sv,
    src_stride: Sv,
    dst_gap: Sv,
    transpose: Option<Sv>,
    addr_mode: Option<Sv>,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let p = "loadDataParams";
    Ok(Box::new(LoadData2d {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        from_gm: a.overload == "2d_gm",
        start: a.field(p, "startIndex")?,
        repeat: a.field(p, "repeatTimes")?,
        src_stride: a.field(p, "srcStride")?,
        dst_gap: a.field(p, "dstGap")?,
        transpose: a.opt_field(p, "ifTranspose")?,
        addr_mode: a.opt_field(p, "addrMode")?,
    }))
}

impl ApiOp for LoadData2d {
    fn pipe(&self) -> Pipe {
        if self.from_gm {
            Pipe::Mte2
        } else {
            Pipe::Mte1
        }
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let dst = cx.handle(self.dst);
        let src = cx.handle(self.src);
        let repeat = cx.uint(self.repeat) & 0xFF;
        if repeat == 0 {
            return Flow::Next;
        }
        let start = cx.uint(self.start) as i64;
        let stride = cx.uint(self.src_stride) as i64;
        let gap = cx.uint(self.dst_gap) as i64;
        let transpose = self.transpose.is_some_and(|t| cx.uint(t) & 1 != 0);
        let down = self.addr_mode.is_some_and(|m| cx.uint(m) & 1 != 0);
        if let Space::Local(m) = dst.space {
            if matches!(m, MemKind::L0a | MemKind::L0b) && dst.addr % FRACTAL != 0 {
                cx.report(
                    code::INVALID_OPERAND,
                    format!(
                        "LoadData writes {} at byte {}, which is not 512-byte aligned (L0A/L0B addresses must be)",
                        m.name(),
                        dst.addr
                    ),
                );
            }
        }
        if transpose {
            if self.t.size() != 2 {
                cx.report(
                    code::INVALID_OPERAND,
                    format!(
                        "LoadData with ifTranspose moves {} elements; the transposing load takes 16-bit types only",
                        self.t.name()
                    ),
                );
                return Flow::Next;
            }
            if self.from_gm {
                cx.report(
                    code::INVALID_OPERAND,
                    "LoadData with ifTranspose reads GM; only the L1 -> L0A/L0B loads transpose".into(),
                );
                return Flow::Next;
            }
        }
        let size = self.t.size();
        for i in 0..repeat as i64 {
            let index = if down { start - stride * i } else { start + stride * i };
            let Some(frac) = read(cx, src, index * FRACTAL, FRACTAL, size, "LoadData") else {
                return Flow::Next;
            };
            let (data, init) = if transpose {
                transpose16(&frac.data, &frac.init)
            } else {
                (frac.data, frac.init)
            };
            if !write(cx, dst, i * (gap + 1) * FRACTAL, &data, &init, self.t, "LoadData") {
                return Flow::Next;
            }
        }
        Flow::Next
    }
}

/// The 16 x 16 transpose of one fractal of 16-bit elements.
fn transpose16(data: &[u8], init: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut d = vec![0u8; data.len()];
    let mut s = vec![0u8; init.len()];
    for r in 0..16 {
        for c in 0..16 {
            let from = (r * 16 + c) * 2;
            let to = (c * 16 + r) * 2;
            d[to..to + 2].copy_from_slice(&data[from..from + 2]);
            s[to..to + 2].copy_from_slice(&init[from..from + 2]);
        }
    }
    (d, s)
}

#[derive(Debug)]
struct LoadTranspose {
    t: DType,
    dst: u32,
    src: u32,
    start: Sv,
    repeat: Sv,
    src_stride: Sv,
    dst_gap: Sv,
    frac_gap: Option<Sv>,
    addr_mode: Option<Sv>,
}

fn decode_transpose(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let p = "loadDataParams";
    Ok(Box::new(LoadTranspose {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        start: a.field(p, "startIndex")?,
        repeat: a.field(p, "repeatTimes")?,
        src_stride: a.field(p, "srcStride")?,
        dst_gap: a.field(p, "dstGap")?,
        frac_gap: a.opt_field(p, "dstFracGap")?,
        addr_mode: a.opt_field(p, "addrMode")?,
    }))
}

/// For each element of the destination fractals of one square block (fractal after fractal), the element of
/// the block's source fractals it comes from; elements of `size` bytes.
pub fn square_transpose(size: usize) -> Vec<usize> {
    let c0 = 32 / size; // elements in a fractal row
    let fracs = if size == 2 { 1 } else { 2 };
    let mut out = Vec::with_capacity(fracs * 16 * c0);
    for j in 0..fracs {
        for r in 0..16 {
            for c in 0..c0 {
                out.push(match size {
                    // S = the two fractals stacked (32 x 32, row-major as stored); D_j[r][c] = S[c][16j + r]
                    1 => c * 32 + 16 * j + r,
                    // one 16 x 16 fractal
                    2 => c * 16 + r,
                    // S[a][b] = F_(b/8)[a][b%8]; D_j[r][c] = S[8j + c][r] = F_(r/8)[8j + c][r%8]
                    _ => (r / 8) * 128 + (8 * j + c) * 8 + r % 8,
                });
            }
        }
    }
    out
}

impl ApiOp for LoadTranspose {
    fn pipe(&self) -> Pipe {
        Pipe::Mte1
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let dst = cx.handle(self.dst);
        let src = cx.handle(self.src);
        let repeat = cx.uint(self.repeat) & 0xFF;
        if repeat == 0 {
            return Flow::Next;
        }
        let size = self.t.size();
        if !matches!(
            self.t,
            DType::I8 | DType::U8 | DType::F16 | DType::BF16 | DType::I32 | DType::U32 | DType::F32
        ) {
            cx.report(
                code::NOT_MODELLED,
                format!("LoadDataWithTranspose of {} elements is not modelled", self.t.name()),
            );
            return Flow::Next;
        }
        match dst.space {
            Space::Local(m @ (MemKind::L0a | MemKind::L0b)) if dst.addr % FRACTAL != 0 => cx.report(
                code::INVALID_OPERAND,
                format!(
                    "LoadDataWithTranspose writes {} at byte {}, which is not 512-byte aligned (L0A/L0B addresses \
                     must be)",
                    m.name(),
                    dst.addr
                ),
            ),
            Space::Local(MemKind::L0a | MemKind::L0b) => {}
            _ => {
                cx.report(
                    code::INVALID_OPERAND,
                    "LoadDataWithTranspose writes outside L0A/L0B; it loads L1 into L0A or L0B".into(),
                );
                return Flow::Next;
            }
        }
        let start = cx.uint(self.start) as i64;
        let stride = cx.uint(self.src_stride) as i64;
        let gap = cx.uint(self.dst_gap) as i64;
        let frac_gap = self.frac_gap.map(|g| cx.uint(g) as i64).unwrap_or(0);
        let down = self.addr_mode.is_some_and(|m| cx.uint(m) & 1 != 0);
        let perm = square_transpose(size);
        let fracs = perm.len() * size / FRACTAL as usize;
        let block = (fracs as i64) * FRACTAL;
        for i in 0..repeat as i64 {
            let index = if down { start - stride * i } else { start + stride * i };
            let Some(sq) = read(cx, src, index * block, block, size, "LoadDataWithTranspose") else {
                return Flow::Next;
            };
            let mut data = vec![0u8; block as usize];
            let mut init = vec![0u8; block as usize];
            for (e, &from) in perm.iter().enumerate() {
                data[e * size..(e + 1) * size].copy_from_slice(&sq.data[from * size..(from + 1) * size]);
                init[e * size..(e + 1) * size].copy_from_slice(&sq.init[from * size..(from + 1) * size]);
            }
            for j in 0..fracs {
                let at = ((gap + 1) * i + (frac_gap + 1) * j as i64) * FRACTAL;
                let part = j * FRACTAL as usize..(j + 1) * FRACTAL as usize;
                if !write(
                    cx,
                    dst,
                    at,
                    &data[part.clone()],
                    &init[part],
                    self.t,
                    "LoadDataWithTranspose",
                ) {
                    return Flow::Next;
                }
            }
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["LoadData"], &["2d", "2d_gm"], decode);
    r.add_all(&["LoadDataWithTranspose"], &["plain"], decode_transpose);
}
