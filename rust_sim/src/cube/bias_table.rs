//! DataCopy from L1 (A1 / C1) into the bias table (C2) with DataCopyParams, the `copy_cbuf_to_bt` instruction
//! (PIPE_MTE1) that fills the table Mmad adds its bias from. The element types may differ: a half source into a
//! float table is converted on the way (the API sets convControl for exactly that pair); otherwise both are one
//! type and the bytes move as they are. Units, as the instruction's page gives them: blockLen in 64-byte units
//! of the source (catlass's CopyL1ToBT divides the length by 64 / sizeof(source)), srcStride in 32-byte units,
//! dstStride in 64-byte units of the table. Converted, each 64 source bytes become 128 table bytes.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::cube::{read, write_runs};
use crate::dtype::DType;
use crate::program::Sv;

/// The unit of blockLen (source bytes) and of dstStride (table bytes).
const UNIT: i64 = 64;
/// The unit of srcStride (source bytes).
const SRC_GAP_UNIT: i64 = 32;

#[derive(Debug)]
struct ToBiasTable {
    dt: DType,
    st: DType,
    dst: u32,
    src: u32,
    count: Sv,
    len: Sv,
    src_stride: Sv,
    dst_stride: Sv,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let p = if a.has("repeatParams.blockCount") {
        "repeatParams"
    } else {
        "intriParams"
    };
    Ok(Box::new(ToBiasTable {
        dt: a.dtype("T")?,
        st: a.dtype("U").or_else(|_| a.dtype("T"))?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        count: a.field(p, "blockCount")?,
        len: a.field(p, "blockLen")?,
        src_stride: a.field(p, "srcStride")?,
        dst_stride: a.field(p, "dstStride")?,
    }))
}

impl ApiOp for ToBiasTable {
    fn pipe(&self) -> Pipe {
        Pipe::Mte1
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let convert = self.st == DType::F16 && self.dt == DType::F32;
        if self.st != self.dt && !convert {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "DataCopy from L1 into the bias table from {} to {}: the copy converts half to float only, \
                     other types move as they are",
                    self.st.name(),
                    self.dt.name()
                ),
            );
            return Flow::Next;
        }
        let u = |cx: &Ctx, sv: Sv| (cx.uint(sv) & 0xFFFF) as i64;
        let (count, len) = (u(cx, self.count), u(cx, self.len));
        let (ss, ds) = (u(cx, self.src_stride) * SRC_GAP_UNIT, u(cx, self.dst_stride) * UNIT);
        if count == 0 || len == 0 {
            cx.warn(
                code::INVALID_OPERAND,
                format!("DataCopy into the bias table with blockCount {count} and blockLen {len} moves nothing"),
            );
            return Flow::Next;
        }
        let (dst, src) = (cx.handle(self.dst), cx.handle(self.src));
        let (sz, dz) = (self.st.size(), self.dt.size());
        let what = "DataCopy (L1 to bias table)";
        let src_bytes = len * UNIT;
        let dst_bytes = src_bytes / sz as i64 * dz as i64;
        let mut runs = Vec::with_capacity(count as usize);
        for b in 0..count {
            let Some(r) = read(cx, src, b * (src_bytes + ss), src_bytes, sz, what) else {
                return Flow::Next;
            };
            let (data, init) = if convert {
                let elems = src_bytes as usize / sz;
                let mut data = vec![0u8; elems * dz];
                let mut init = vec![0u8; elems * dz];
                for e in 0..elems {
                    let x = self.st.to_f64(self.st.load_bits(&r.data[e * sz..]));
                    self.dt.store_bits(&mut data[e * dz..], self.dt.from_f64(x));
                    init[e * dz..(e + 1) * dz].fill(r.is_init(e * sz, sz) as u8);
                }
                (data, init)
            } else {
                (r.data, r.init)
            };
            runs.push((b * (dst_bytes + ds), data, init));
        }
        write_runs(cx, dst, &runs, self.dt, what);
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add("DataCopy.params_l1_to_bt", decode);
}
