//! Copies out of L0C through the fixpipe (PIPE_FIX): Fixpipe (FixpipeParamsV220 and the older FixpipeParams),
//! the DataCopy forms CO1 -> GM / L1 (DataCopyCO12DstParams with SetFixpipeNz2ndFlag and
//! SetFixpipePreQuantFlag), and SetFixPipeConfig's per-channel quantisation tensor.
//!
//! The source is an NZ matrix in L0C (float or int32): element (i, j) at `(j / 16) * srcStride * 16 + i * 16 +
//! j % 16` elements, srcStride counted in 16-element units. The destination is ND (NZ2ND, the CFG_ROW_MAJOR
//! default towards GM): row i at `i * dstStride` elements; or NZ (CFG_NZ, always towards L1): z-column j / 16 at
//! `(j / 16) * dstStride * 32` bytes, rows of 16 elements (with isChannelSplit, a float result: z-columns of 8).
//! ndNum matrices repeat this, `srcNdStride` 16-element units and `dstNdStride` elements apart.
//!
//! On the way each element is converted (quantPre, reluEn), as the devkit's 2201 pages give it:
//! NoQuant copies, F322F16 / F322BF16 round to nearest even; the scalar modes DEQF16 (int32 -> half), QF322B8_PRE
//! (float -> int8/uint8) and REQ8 (int32 -> int8/uint8) multiply by the scale held in bits [31:13] of the 64-bit
//! parameter (a float with a 10-bit mantissa), by 0 instead for negative values when ReLU is on, round, add the
//! 9-bit offset of bits [45:37] and saturate to int8 (bit 46 set) or uint8. The V* modes take the parameter of
//! column j from a uint64 tensor in L1.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::cube::{read, write_runs};
use crate::dtype::DType;
use crate::memory::{Handle, MemKind, Space};
use crate::program::Sv;
use half::{bf16, f16};

/// QuantMode_t in its C numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quant {
    None,
    F322F16,
    F322BF16,
    Deqf16,
    Vdeqf16,
    Qf322b8,
    Vqf322b8,
    Req8,
    Vreq8,
}

impl Quant {
    pub fn from_index(i: u64) -> Option<Quant> {
        Some(match i {
            0 => Quant::None,
            1 => Quant::F322F16,
            2 => Quant::F322BF16,
            3 => Quant::Deqf16,
            4 => Quant::Vdeqf16,
            5 => Quant::Qf322b8,
            6 => Quant::Vqf322b8,
            7 => Quant::Req8,
            8 => Quant::Vreq8,
            _ => return None,
        })
    }

    fn per_channel(self) -> bool {
        matches!(self, Quant::Vdeqf16 | Quant::Vqf322b8 | Quant::Vreq8)
    }

    fn scalar(self) -> bool {
        matches!(self, Quant::Deqf16 | Quant::Qf322b8 | Quant::Req8)
    }

    /// (source, destination) types the mode converts between; None where any same-type pair is fine.
    fn types(self) -> &'static [(DType, DType)] {
        match self {
            Quant::None => &[(DType::F32, DType::F32), (DType::I32, DType::I32)],
            Quant::F322F16 => &[(DType::F32, DType::F16)],
            Quant::F322BF16 => &[(DType::F32, DType::BF16)],
            Quant::Deqf16 | Quant::Vdeqf16 => &[(DType::I32, DType::F16)],
            Quant::Qf322b8 | Quant::Vqf322b8 => &[(DType::F32, DType::I8), (DType::F32, DType::U8)],
            Quant::Req8 | Quant::Vreq8 => &[(DType::I32, DType::I8), (DType::I32, DType::U8)],
        }
    }
}

/// One copy out of L0C, every size resolved.
#[derive(Clone, Debug)]
pub struct FixOut {
    pub n: usize,
    pub m: usize,
    /// elements between the starts of adjacent z-columns in L0C
    pub src_col: usize,
    /// ND: elements between rows; NZ: bytes between z-columns
    pub dst_stride: i64,
    pub nd: bool,
    pub nd_num: usize,
    /// elements between the L0C matrices / the destination matrices
    pub src_nd: usize,
    pub dst_nd: i64,
    pub quant: Quant,
    pub scalar: u64,
    pub relu: bool,
    /// NZ destination: columns per z-column, 16, or 8 with the float channel split (isChannelSplit)
    pub zcol: usize,
}

/// Copies L0C (`src`, elements of `st`) to `dst` (elements of `dt`) as `p` says.
pub fn fixpipe(cx: &mut Ctx, dst: Handle, src: Handle, dt: DType, st: DType, p: &FixOut, what: &str) {
    if p.n == 0 || p.m == 0 || p.nd_num == 0 {
        return;
    }
    let src = crate::cube::fixed_buffer(cx, src, MemKind::L0c, what);
    if !matches!(st, DType::F32 | DType::I32) {
        cx.report(
            code::INVALID_OPERAND,
            format!("{what} reads L0C as {}; L0C holds float or int32_t results", st.name()),
        );
        return;
    }
    if !p.quant.types().contains(&(st, dt)) {
        cx.report(
            code::INVALID_OPERAND,
            format!(
                "{what} with quantPre {:?} copies {} to {}; that mode converts {}",
                p.quant,
                st.name(),
                dt.name(),
                p.quant
                    .types()
                    .iter()
                    .map(|(s, d)| format!("{} to {}", s.name(), d.name()))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        );
        return;
    }
    if let Space::Local(m) = src.space {
        if m != MemKind::L0c {
            cx.report(
                code::INVALID_OPERAND,
                format!("{what} reads {}; the fixpipe reads L0C", m.name()),
            );
            return;
        }
    }
    // the per-channel parameters, one uint64 per column
    let params: Vec<u64> = if p.quant.per_channel() {
        let Some(t) = cx.core.cube.quant_tensor else {
            cx.report(
                code::NOT_MODELLED,
                format!(
                    "{what} with the per-channel quantPre {:?} but no quantisation tensor set (SetFixPipeConfig)",
                    p.quant
                ),
            );
            return;
        };
        let Some(r) = read(cx, t, 0, (p.n * 8) as i64, 8, "the Fixpipe quantisation tensor") else {
            return;
        };
        (0..p.n).map(|j| DType::U64.load_bits(&r.data[j * 8..])).collect()
    } else {
        Vec::new()
    };
    let ss = st.size();
    let src_index = |nd: usize, i: usize, j: usize| nd * p.src_nd + (j / 16) * p.src_col + i * 16 + j % 16;
    let last = src_index(p.nd_num - 1, p.m - 1, p.n - 1) + 1;
    let Some(region) = read(cx, src, 0, (last * ss) as i64, ss, what) else {
        return;
    };
    let ds = dt.size();
    let mut runs: Vec<(i64, Vec<u8>, Vec<u8>)> = Vec::new();
    for nd in 0..p.nd_num {
        for i in 0..p.m {
            if p.nd {
                // one row of n elements
                let mut data = vec![0u8; p.n * ds];
                let mut init = vec![0u8; p.n * ds];
                for j in 0..p.n {
                    let at = src_index(nd, i, j) * ss;
                    let bits = st.load_bits(&region.data[at..]);
                    let param = if p.quant.per_channel() { params[j] } else { p.scalar };
                    dt.store_bits(&mut data[j * ds..], convert(bits, st, dt, p.quant, param, p.relu));
                    init[j * ds..(j + 1) * ds].fill(region.is_init(at, ss) as u8);
                }
                let off = (nd as i64 * p.dst_nd + i as i64 * p.dst_stride) * ds as i64;
                runs.push((off, data, init));
            } else {
                let z = p.zcol;
                for col in 0..p.n.div_ceil(z) {
                    let width = z.min(p.n - col * z);
                    let mut data = vec![0u8; width * ds];
                    let mut init = vec![0u8; width * ds];
                    for c in 0..width {
                        let j = col * z + c;
                        let at = src_index(nd, i, j) * ss;
                        let bits = st.load_bits(&region.data[at..]);
                        let param = if p.quant.per_channel() { params[j] } else { p.scalar };
                        dt.store_bits(&mut data[c * ds..], convert(bits, st, dt, p.quant, param, p.relu));
                        init[c * ds..(c + 1) * ds].fill(region.is_init(at, ss) as u8);
                    }
                    let off = nd as i64 * p.dst_nd * ds as i64 + col as i64 * p.dst_stride + (i * z * ds) as i64;
                    runs.push((off, data, init));
                }
            }
        }
    }
    if !p.nd {
        runs.sort_by_key(|r| r.0);
    }
    write_runs(cx, dst, &runs, dt, what);
}

/// The scale of a quantisation parameter: bits [31:13] as a float (1 sign, 8 exponent, 10 mantissa bits).
pub fn scale(param: u64) -> f32 {
    f32::from_bits((param as u32) & 0xFFFF_E000)
}

/// One element through the fixpipe's conversion.
pub fn convert(bits: u64, st: DType, dt: DType, q: Quant, param: u64, relu: bool) -> u64 {
    let as_f32 = |b: u64| f32::from_bits(b as u32);
    let as_i32 = |b: u64| b as u32 as i32;
    match q {
        Quant::None => {
            if !relu {
                return bits;
            }
            if st == DType::F32 {
                let x = as_f32(bits);
                (if x < 0.0 { 0.0f32 } else { x }).to_bits() as u64
            } else {
                as_i32(bits).max(0) as u32 as u64
            }
        }
        Quant::F322F16 | Quant::F322BF16 => {
            let mut x = as_f32(bits);
            if relu && x < 0.0 {
                x = 0.0;
            }
            if q == Quant::F322F16 {
                f16::from_f32(x).to_bits() as u64
            } else {
                bf16::from_f32(x).to_bits() as u64
            }
        }
        _ => {
            let m1 = scale(param);
            let mcb = (param >> 36) & 1 == 1;
            let shift = ((param >> 32) & 0xF) + 1;
            let x: f32 = if st == DType::I32 {
                let mut v = as_i32(bits) as i64;
                if mcb && q != Quant::Qf322b8 && q != Quant::Vqf322b8 {
                    v = (v >> shift).clamp(i16::MIN as i64, i16::MAX as i64);
                }
                v as f32
            } else {
                as_f32(bits)
            };
            let y = if x >= 0.0 {
                x * m1
            } else if relu {
                0.0
            } else {
                x * m1
            };
            if matches!(q, Quant::Deqf16 | Quant::Vdeqf16) {
                return f16::from_f32(y.clamp(-65504.0, 65504.0)).to_bits() as u64;
            }
            let offset = {
                let raw = ((param >> 37) & 0x1FF) as i64;
                if raw >= 256 {
                    raw - 512
                } else {
                    raw
                }
            };
            let signed = (param >> 46) & 1 == 1;
            let r = (y as f64).round_ties_even().clamp(-256.0, 255.0) as i64 + offset;
            let v = if signed { r.clamp(-128, 127) } else { r.clamp(0, 255) };
            dt.from_i64(v)
        }
    }
}

// ---------------------------------------------------------------------------------------------- decoders

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

fn decode_v220(a: &Args) -> Result<Box<dyn ApiOp>, String> {
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

fn quant_of(cx: &mut Ctx, sv: Option<Sv>, what: &str) -> Option<Quant> {
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
        super::unit_flag_handshake(cx, self.unit_flag, Pipe::M, Pipe::Fix);
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

fn decode_old(a: &Args) -> Result<Box<dyn ApiOp>, String> {
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

fn decode_copy(a: &Args) -> Result<Box<dyn ApiOp>, String> {
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
        super::unit_flag_handshake(cx, self.unit_flag, Pipe::M, Pipe::Fix);
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

fn decode_set(a: &Args) -> Result<Box<dyn ApiOp>, String> {
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

pub fn register(r: &mut Registry) {
    r.add_all(&["Fixpipe"], &["gm", "l1", "gm_quant", "l1_quant"], decode_v220);
    r.add_all(&["Fixpipe"], &["gm_params", "l1_params"], decode_old);
    r.add_all(&["DataCopy"], &["co1_to_gm", "co1_to_l1"], decode_copy);
    r.add("SetFixpipeNz2ndFlag.plain", decode_set);
    r.add("SetFixpipePreQuantFlag.plain", decode_set);
    r.add_all(&["SetFixPipeConfig"], &["relu_quant", "one"], decode_set);
}

#[cfg(test)]
mod tests {
    use crate::cube::tests::{f32_bytes, read_f32, Rig};
    use crate::memory::{GmRole, MemKind};

    /// A 16 x 32 float matrix (value i * 100 + j) in L0C NZ copied to GM as CFG_NZ with isChannelSplit `split`
    /// (dstStride r6 in 32-byte units), `t` the destination type.
    fn split_copy(t: &str, split: u64, dst_stride: u64) -> crate::cube::tests::Out {
        let mut l0c = vec![0f32; 512];
        for i in 0..16 {
            for j in 0..32 {
                l0c[(j / 16) * 256 + i * 16 + j % 16] = (i * 100 + j) as f32;
            }
        }
        Rig::new("aic")
            .gm("c", GmRole::Output, vec![0; 512 * 4])
            .fill(MemKind::L0c, 0, f32_bytes(&l0c))
            .run(
                &[
                    (1, "i32", 0),
                    (2, "i32", 512),
                    (3, "i16", 32),
                    (4, "i16", 16),
                    (5, "i16", 16),
                    (6, "i32", dst_stride),
                    (7, "i32", 0),
                    (8, "i1", split),
                ],
                &format!(
                    "  h1 = LocalAt.f32 L0C r1:i32 r2:i32\n  \
                     call Fixpipe.gm<T={t},U=f32,config=CFG_NZ> dst=h0 src=h1 intriParams.nSize=r3:i16 \
                     intriParams.mSize=r4:i16 intriParams.srcStride=r5:i16 intriParams.dstStride=r6:i32 \
                     intriParams.quantPre=r7:i32 intriParams.isChannelSplit=r8:i1"
                ),
            )
    }

    #[test]
    fn the_channel_split_stores_float_nz_as_16_x_8_fractals() {
        // z-columns of 8 floats, dstStride 16 x 8 x 4 / 32 = 16 blocks apart: [N / 8][M][8]; element (i, j) at
        // (j / 8) * 128 + i * 8 + j % 8, so (3, 21) at 2 * 128 + 24 + 5
        let out = split_copy("f32", 1, 16);
        assert!(out.codes().is_empty(), "{:?}", out.findings.list);
        let c = read_f32(&out.gm[0]);
        for (i, j) in [(0usize, 0usize), (3, 21), (15, 31), (7, 8)] {
            assert_eq!(c[(j / 8) * 128 + i * 8 + j % 8], (i * 100 + j) as f32, "({i}, {j})");
        }
        assert_eq!(c[2 * 128 + 24 + 5], 321.0);
        // without the split: 16-wide z-columns, dstStride 16 x 16 x 4 / 32 = 32
        let plain = read_f32(&split_copy("f32", 0, 32).gm[0]);
        assert_eq!(plain[256 + 3 * 16 + 5], 321.0);
        // the split is for float to float: to half it is a finding
        assert_eq!(split_copy("f16", 1, 8).codes(), vec!["ASC959"]);
    }
}
