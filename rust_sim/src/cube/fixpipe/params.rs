//! The Fixpipe calls: FixpipeParamsV220 (with the per-channel quantisation tensor of the *_quant forms) and the
//! older FixpipeParams (cburstNum z-columns, gaps instead of strides) -> one copy out of L0C.

use super::{fixpipe, FixOut, Quant};
use crate::api::{ApiOp, Args, Pipe};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::{MemKind, Space};
use crate::program::Sv;

#[derive(Debug)]
struct FixpipeV220 {
    dt: DType,
    st: DType,
    dst: u32,
    src: u32,
    /// the L1 tensor of per-channel quantisation parameters (the cbufWorkspace overloads)
    workspace: Option<u32>,
    nz: bool,
    to_l1: bool,
    n: Sv,
    m: Sv,
    src_stride: Sv,
    dst_stride: Sv,
    quant: Option<Sv>,
    deq: Option<Sv>,
    relu: Option<Sv>,
    nd_num: Option<Sv>,
    src_nd: Option<Sv>,
    dst_nd: Option<Sv>,
    split: Option<Sv>,
    unit_flag: Option<Sv>,
}

pub(super) fn decode_v220(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let p = "intriParams";
    let config = a.targ("config").unwrap_or("CFG_ROW_MAJOR");
    let to_l1 = a.overload.starts_with("l1");
    Ok(Box::new(FixpipeV220 {
        dt: a.dtype("T")?,
        st: a.dtype("U")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        workspace: a.handle("cbufWorkspace").ok(),
        nz: to_l1 || config.ends_with("CFG_NZ"),
        to_l1,
        n: a.field(p, "nSize")?,
        m: a.field(p, "mSize")?,
        src_stride: a.field(p, "srcStride")?,
        dst_stride: a.field(p, "dstStride")?,
        quant: a.opt_field(p, "quantPre")?,
        deq: a.opt_field(p, "deqScalar")?,
        relu: a.opt_field(p, "reluEn")?,
        nd_num: a.opt_field(p, "ndNum")?,
        src_nd: a.opt_field(p, "srcNdStride")?,
        dst_nd: a.opt_field(p, "dstNdStride")?,
        split: a.opt_field(p, "isChannelSplit")?,
        unit_flag: a.opt_field(p, "unitFlag")?,
    }))
}

pub(super) fn quant_of(cx: &mut Ctx, sv: Option<Sv>, what: &str) -> Option<Quant> {
    let i = sv.map(|s| cx.uint(s)).unwrap_or(0);
    let q = Quant::from_index(i);
    if q.is_none() {
        cx.report(
            code::INVALID_OPERAND,
            format!("{what} with quantPre {i}: the 2201 fixpipe has the modes 0 (NoQuant) to 8 (VREQ8)"),
        );
    }
    q
}

impl ApiOp for FixpipeV220 {
    fn pipe(&self) -> Pipe {
        Pipe::Fix
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let Some(quant) = quant_of(cx, self.quant, "Fixpipe") else {
            return Flow::Next;
        };
        crate::cube::unit_flag_handshake(cx, self.unit_flag, Pipe::M, Pipe::Fix);
        let nd = !self.nz;
        // the channel split: a float NZ result stored as 16 x 8 fractals instead of 16 x 16 (the ChannelSplit
        // page: "each 16*16 fractal of C cut into 16*8"; NZ, float, towards GM), z-columns of 8 dstStride apart
        let split = self.split.is_some_and(|s| cx.uint(s) & 1 != 0);
        if split && (nd || self.st != DType::F32 || self.dt != DType::F32) {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "Fixpipe with isChannelSplit copies {} to {} {}: the channel split is for a float result to a \
                     float NZ destination",
                    self.st.name(),
                    self.dt.name(),
                    if nd { "as ND" } else { "as NZ" }
                ),
            );
            return Flow::Next;
        }
        let n = (cx.uint(self.n) & 0xFFFF) as usize;
        if !nd && !n.is_multiple_of(16) {
            cx.warn(
                code::INVALID_OPERAND,
                format!("Fixpipe to an NZ destination with nSize {n}: nSize must be a multiple of 16"),
            );
        }
        let opt = |cx: &Ctx, sv: Option<Sv>, default: u64| sv.map(|s| cx.uint(s)).unwrap_or(default);
        let dst_stride = cx.uint(self.dst_stride) as i64;
        let p = FixOut {
            n,
            m: (cx.uint(self.m) & 0xFFFF) as usize,
            src_col: (cx.uint(self.src_stride) & 0xFFFF) as usize * 16,
            dst_stride: if nd { dst_stride } else { dst_stride * 32 },
            nd,
            nd_num: if nd {
                (opt(cx, self.nd_num, 1) & 0xFFFF) as usize
            } else {
                1
            },
            src_nd: (opt(cx, self.src_nd, 0) & 0xFFFF) as usize * 16,
            dst_nd: opt(cx, self.dst_nd, 0) as i64,
            quant,
            scalar: opt(cx, self.deq, 0),
            relu: opt(cx, self.relu, 0) & 1 != 0,
            zcol: if split { 8 } else { 16 },
        };
        let (dst, src) = (cx.handle(self.dst), cx.handle(self.src));
        if self.to_l1 && !matches!(dst.space, Space::Local(MemKind::L1)) {
            cx.report(
                code::INVALID_OPERAND,
                "Fixpipe to a local tensor that is not in L1".into(),
            );
            return Flow::Next;
        }
        let saved = cx.core.cube.quant_tensor;
        if let Some(w) = self.workspace {
            cx.core.cube.quant_tensor = Some(cx.handle(w));
        }
        fixpipe(cx, dst, src, self.dt, self.st, &p, "Fixpipe");
        cx.core.cube.quant_tensor = saved;
        Flow::Next
    }
}

/// The older FixpipeParams<U>: cburstNum z-columns of burstLen 32-byte blocks, gaps instead of strides.
#[derive(Debug)]
struct FixpipeOld {
    dt: DType,
    st: DType,
    dst: u32,
    src: u32,
    to_l1: bool,
    count: Sv,
    len: Sv,
    src_stride: Sv,
    dst_stride: Sv,
    relu: Option<Sv>,
    quant: Option<Sv>,
    deq: Option<Sv>,
    nz2nd: Option<Sv>,
    nd_num: Option<Sv>,
    src_nd: Option<Sv>,
    dst_nd: Option<Sv>,
    org_n: Option<Sv>,
}

pub(super) fn decode_old(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let p = "intriParams";
    Ok(Box::new(FixpipeOld {
        dt: a.dtype("T")?,
        st: a.dtype("U")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        to_l1: a.overload == "l1_params",
        count: a.field(p, "cburstNum")?,
        len: a.field(p, "burstLen")?,
        src_stride: a.field(p, "srcStride")?,
        dst_stride: a.field(p, "dstStride")?,
        relu: a.opt_field(p, "reluEn")?,
        quant: a.opt_field(p, "quantParams.quantPre")?,
        deq: a.opt_field(p, "quantParams.deqScalar")?,
        nz2nd: a.opt_field(p, "nz2ndParams.nz2ndEn")?,
        nd_num: a.opt_field(p, "nz2ndParams.ndNum")?,
        src_nd: a.opt_field(p, "nz2ndParams.srcNdStride")?,
        dst_nd: a.opt_field(p, "nz2ndParams.dstNdStride")?,
        org_n: a.opt_field(p, "nz2ndParams.originalNSize")?,
    }))
}

impl ApiOp for FixpipeOld {
    fn pipe(&self) -> Pipe {
        Pipe::Fix
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let Some(quant) = quant_of(cx, self.quant, "Fixpipe") else {
            return Flow::Next;
        };
        let opt = |cx: &Ctx, sv: Option<Sv>, default: u64| sv.map(|s| cx.uint(s)).unwrap_or(default);
        let len = cx.uint(self.len) as usize;
        // a burst is ceil(M / 16) fractals: burstLen 32-byte blocks of float or int32 is M * 16 elements
        let m = len * 32 / 4 / 16;
        let nd = !self.to_l1 && opt(cx, self.nz2nd, 0) & 1 != 0;
        let n = if nd {
            opt(cx, self.org_n, 0) as usize
        } else {
            cx.uint(self.count) as usize * 16
        };
        let dst_stride = cx.uint(self.dst_stride) as i64;
        let p = FixOut {
            n,
            m,
            src_col: (cx.uint(self.src_stride) as usize * 16 + m.div_ceil(16) * 16) * 16,
            dst_stride: if nd {
                dst_stride
            } else {
                (dst_stride + (len * self.dt.size() / 4) as i64) * 32
            },
            nd,
            nd_num: if nd { opt(cx, self.nd_num, 1) as usize } else { 1 },
            src_nd: opt(cx, self.src_nd, 0) as usize * 16,
            dst_nd: opt(cx, self.dst_nd, 0) as i64,
            quant,
            scalar: opt(cx, self.deq, 0),
            relu: opt(cx, self.relu, 0) & 1 != 0,
            zcol: 16,
        };
        let (dst, src) = (cx.handle(self.dst), cx.handle(self.src));
        fixpipe(cx, dst, src, self.dt, self.st, &p, "Fixpipe");
        Flow::Next
    }
}
