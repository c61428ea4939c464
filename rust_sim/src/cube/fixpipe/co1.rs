//! DataCopy CO1 -> GM / L1 (DataCopyCO12DstParams) and the fixpipe registers the scalar unit sets for it:
//! SetFixpipeNz2ndFlag, SetFixpipePreQuantFlag, SetFixPipeConfig.

use super::params::quant_of;
use super::{fixpipe, FixOut};
use crate::api::{ApiOp, Args, Pipe};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;

/// DataCopy CO1 -> GM / L1 with DataCopyCO12DstParams; NZ2ND takes ndNum and strides from SetFixpipeNz2ndFlag
/// and the scalar quantisation parameter from SetFixpipePreQuantFlag.
#[derive(Debug)]
struct CopyCo1 {
    dt: DType,
    st: DType,
    dst: u32,
    src: u32,
    n: Sv,
    m: Sv,
    dst_stride: Sv,
    src_stride: Sv,
    quant: Option<Sv>,
    relu: Option<Sv>,
    split: Option<Sv>,
    nz2nd: Option<Sv>,
    unit_flag: Option<Sv>,
}

pub(super) fn decode_copy(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let p = "intriParams";
    Ok(Box::new(CopyCo1 {
        dt: a.dtype("T")?,
        st: a.dtype("U")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        n: a.field(p, "nSize")?,
        m: a.field(p, "mSize")?,
        dst_stride: a.field(p, "dstStride")?,
        src_stride: a.field(p, "srcStride")?,
        quant: a.opt_field(p, "quantPre")?,
        relu: a.opt_field(p, "reluPre")?,
        split: a.opt_field(p, "channelSplit")?,
        nz2nd: a.opt_field(p, "nz2ndEn")?,
        unit_flag: a.opt_field(p, "unitFlag")?,
    }))
}

impl ApiOp for CopyCo1 {
    fn pipe(&self) -> Pipe {
        Pipe::Fix
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let Some(quant) = quant_of(cx, self.quant, "DataCopy (L0C)") else {
            return Flow::Next;
        };
        crate::cube::unit_flag_handshake(cx, self.unit_flag, Pipe::M, Pipe::Fix);
        let opt = |cx: &Ctx, sv: Option<Sv>| sv.map(|s| cx.uint(s)).unwrap_or(0);
        if opt(cx, self.split) & 1 != 0 {
            cx.report(
                code::NOT_MODELLED,
                "DataCopy out of L0C with channelSplit is not modelled".into(),
            );
            return Flow::Next;
        }
        let nd = opt(cx, self.nz2nd) & 1 != 0;
        let (nd_num, src_nd, dst_nd) = if nd {
            cx.core.cube.nz2nd.unwrap_or((1, 0, 0))
        } else {
            (1, 0, 0)
        };
        let dst_stride = cx.uint(self.dst_stride) as i64;
        let p = FixOut {
            n: (cx.uint(self.n) & 0xFFFF) as usize,
            m: (cx.uint(self.m) & 0xFFFF) as usize,
            src_col: (cx.uint(self.src_stride) & 0xFFFF) as usize * 16,
            dst_stride: if nd { dst_stride } else { dst_stride * 32 },
            nd,
            nd_num: nd_num as usize,
            src_nd: src_nd as usize * 16,
            dst_nd: dst_nd as i64,
            quant,
            scalar: if quant.scalar() { cx.core.cube.quant_scalar } else { 0 },
            relu: opt(cx, self.relu) & 1 != 0,
            zcol: 16,
        };
        let (dst, src) = (cx.handle(self.dst), cx.handle(self.src));
        fixpipe(cx, dst, src, self.dt, self.st, &p, "DataCopy (L0C)");
        Flow::Next
    }
}

/// Registers of the fixpipe set by the scalar unit.
#[derive(Debug)]
enum SetReg {
    Nz2nd { nd_num: Sv, src: Sv, dst: Sv },
    PreQuant(Sv),
    Config(u32),
}

pub(super) fn decode_set(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(match a.api.as_str() {
        "SetFixpipeNz2ndFlag" => SetReg::Nz2nd {
            nd_num: a.sv("ndNum")?,
            src: a.sv("srcNdStride")?,
            dst: a.sv("dstNdStride")?,
        },
        "SetFixpipePreQuantFlag" => SetReg::PreQuant(a.sv("config")?),
        _ => SetReg::Config(if a.has("quantPre") {
            a.handle("quantPre")?
        } else {
            a.handle("preData")?
        }),
    }))
}

impl ApiOp for SetReg {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        match self {
            SetReg::Nz2nd { nd_num, src, dst } => {
                cx.core.cube.nz2nd = Some((cx.uint(*nd_num), cx.uint(*src), cx.uint(*dst)));
            }
            SetReg::PreQuant(v) => cx.core.cube.quant_scalar = cx.uint(*v),
            SetReg::Config(h) => cx.core.cube.quant_tensor = Some(cx.handle(*h)),
        }
        Flow::Next
    }
}
