//! LoadData 3D (Load3Dv2, img2col) from L1 into L0A / L0B, the FMATRIX and padding registers it reads
//! (SetFmatrix, SetLoadDataPaddingValue), and the 3D forms the 910B does not have.
//!
//! The feature map in L1 is 5HD: `[C1][H][W][C0]` with C1 = channelSize / C0 (C0 = 32 B of elements). Its
//! img2col matrix X has one row per output position m (oh = m / Wo, ow = m % Wo, Wo = (W + padL + padR -
//! (dilW (filterW - 1) + 1)) / strideW + 1) and one column per k = ((c1 * filterH + kh) * filterW + kw) * C0 +
//! c0 (the FRACTAL_Z order of conv weights); X[m][k] is the input at (c1, oh strideH + kh dilH - padTop,
//! ow strideW + kw dilW - padLeft, c0), or the padding value outside the map. A Load3Dv2 writes the
//! mExtension x kExtension window of X from (mStartPt, kStartPt) in the destination's own fractal layout
//! (cube/mod.rs): into L0A as A = X (A = X^T with enTranspose); into L0B as B = X (K = the window's rows) with
//! or without enTranspose, as the vendor's B loads read it (asc-devkit's mmad_load3dv2 example sets it;
//! conv3d_bp_filter's load3dB_ and the Matmul library's L0B V2Pro load do not). int8 / uint8 into L0B is not
//! available on the 910B (dav_c220 reports it unsupported).
//!
//! With the default IsResetLoad3dConfig the call first sets the left FMATRIX register from its l1H, l1W and
//! padList and the padding value from its padValue (asc-devkit kernel_operator_mm_base_impl.h); an
//! IsResetLoad3dConfig constant the program spells out can leave either to SetFmatrix / SetLoadDataPaddingValue.
//! fMatrixCtrl makes the load read the right register (SetFmatrix(..., FMATRIX_RIGHT)). LoadData3DParamsV2Pro
//! is the same load with its settings packed into extConfig / filterConfig and no map or padding of its own.
//! SetLoadDataBoundary: a map read past the boundary (bytes, at least 1024; 0: none) goes on from L1 byte 0.
//! int8 / uint8 A = X^T into L0A goes by 32 x 32 squares (mExtension and kExtension whole multiples of 32).
//! enSmallK changes nothing on the 910B: asc-devkit's dav_c220 implementation (kernel_operator_mm_impl.h
//! 213-281, LoadData3DV2L12L0ACal / L0BCal for V2 and V2Pro) does not pass it to img2colv2_cbuf_to_ca / _cb,
//! whose operands are the extensions, start points, strides, filter, dilations, filterSizeW/H, enTranspose,
//! fMatrixCtrl and channelSize; only the CPU-debug checks read it (kernel_check.h 218, 248).
//! SetLoadDataRepeat's iterations: load3d_repeat.rs. Not modelled (reported, naming the form): int4
//! transposes, channel sizes that are not whole C0 blocks, the repeat forms load3d_repeat.rs names.
//! LoadData3DParamsV1 is reported as not available on the 910B.

use crate::api::{ApiOp, Args, EnumArg, Pipe, Registry, StackArray};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::cube::{c0, load3d_repeat, read, write_runs, FRACTAL};
use crate::dtype::DType;
use crate::memory::{Handle, MemKind, Space};
use crate::program::Sv;

/// One FMATRIX register: the feature map's height and width in L1 and its padding (left, right, top, bottom).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fmatrix {
    pub h: u64,
    pub w: u64,
    pub pad: [u64; 4],
}

/// A `uint8_t padList[4]`: a C array on the scalar stack, or never given (None: all 0, the struct's default).
fn pads(a: &Args, name: &str) -> Result<Option<StackArray>, String> {
    a.has(name).then(|| a.array(name, 4, 0, "uint8_t[4]")).transpose()
}

fn pad_values(p: &Option<StackArray>, cx: &Ctx) -> [u64; 4] {
    p.map_or([0; 4], |s| s.first(cx, 0xFF))
}

/// The img2col geometry of one load: which element of the 5HD map each (m, k) of X reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Img2col {
    pub fm: Fmatrix,
    /// channels of the map (a multiple of c0)
    pub channels: usize,
    pub c0: usize,
    pub stride: (usize, usize),
    /// filter (height, width)
    pub filter: (usize, usize),
    pub dilation: (usize, usize),
}

impl Img2col {
    /// Output positions per row (Wo), or None when the dilated filter does not fit the padded map.
    pub fn wo(&self) -> Option<usize> {
        let span = self.dilation.1 * (self.filter.1 - 1) + 1;
        let padded = self.fm.w as usize + (self.fm.pad[0] + self.fm.pad[1]) as usize;
        (padded >= span && self.stride.1 > 0).then(|| (padded - span) / self.stride.1 + 1)
    }

    /// The element index in the 5HD map that X[m][k] reads, or None for a padding position.
    pub fn source(&self, wo: usize, m: usize, k: usize) -> Option<usize> {
        let (fh, fw) = self.filter;
        let c1 = k / (fh * fw * self.c0);
        let kh = (k / (fw * self.c0)) % fh;
        let kw = (k / self.c0) % fw;
        let c = k % self.c0;
        let (oh, ow) = (m / wo, m % wo);
        let ih = (oh * self.stride.0 + kh * self.dilation.0) as i64 - self.fm.pad[2] as i64;
        let iw = (ow * self.stride.1 + kw * self.dilation.1) as i64 - self.fm.pad[0] as i64;
        let (h, w) = (self.fm.h as i64, self.fm.w as i64);
        if ih < 0 || ih >= h || iw < 0 || iw >= w || c1 * self.c0 >= self.channels {
            return None;
        }
        Some(((c1 * h as usize + ih as usize) * w as usize + iw as usize) * self.c0 + c)
    }
}

/// Where the window's element (i, j) (row i of mExtension, column j of kExtension) goes in the destination,
/// in elements; the destination's fractal layout (cube/mod.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// L0A, A = X: ZZ with kExt / c0 fractals per row of fractals
    AZz { k1: usize },
    /// L0A, A = X^T: A's rows are the window's columns; mExt.div_ceil(c0) fractals per row of fractals
    ATransposed { k1: usize },
    /// L0B, B = X: B's K is the window's rows (blocks of c0), its N the columns (fractals of 16)
    BZn { n1: usize },
}

impl Layout {
    pub fn index(self, i: usize, j: usize, c0: usize) -> usize {
        let frac = 16 * c0;
        match self {
            Layout::AZz { k1 } => ((i / 16) * k1 + j / c0) * frac + (i % 16) * c0 + j % c0,
            Layout::ATransposed { k1 } => ((j / 16) * k1 + i / c0) * frac + (j % 16) * c0 + i % c0,
            Layout::BZn { n1 } => ((i / c0) * n1 + j / 16) * frac + (j % 16) * c0 + i % c0,
        }
    }
}

#[derive(Debug)]
struct Load3dV2 {
    t: DType,
    dst: u32,
    src: u32,
    pads: Option<StackArray>,
    l1h: Sv,
    l1w: Sv,
    channels: Sv,
    k_ext: Sv,
    m_ext: Sv,
    k_start: Sv,
    m_start: Sv,
    stride_w: Sv,
    stride_h: Sv,
    filter_w: Sv,
    filter_h: Sv,
    dil_w: Sv,
    dil_h: Sv,
    transpose: Option<Sv>,
    pad_value: Option<Sv>,
    size_w: Option<Sv>,
    size_h: Option<Sv>,
    fm_ctrl: Option<Sv>,
    /// IsResetLoad3dConfig: whether the call sets the left FMATRIX / the padding value from its params first
    reset: (bool, bool),
}

/// The IsResetLoad3dConfig a LoadData call's defaultConfig names: the default (both set), or a constant the
/// program spells out (`IsResetLoad3dConfig:_0=0:_1=0`, `...:isSetFMatrix=0:isSetPadding=1`).
pub(crate) fn reset_config(text: Option<&str>) -> Result<(bool, bool), String> {
    let Some(cfg) = text else {
        return Ok((true, true));
    };
    if cfg.contains("IS_RESER_LOAD3D_DEFAULT_CONFIG") {
        return Ok((true, true));
    }
    let mut out = (None, None);
    if let Some(fields) = cfg.strip_prefix("IsResetLoad3dConfig") {
        for item in fields.split(':').filter(|f| !f.is_empty()) {
            let (name, value) = item.split_once('=').unwrap_or((item, ""));
            let v = value.trim() != "0" && value.trim() != "false";
            match name.trim() {
                "_0" | "isSetFMatrix" => out.0 = Some(v),
                "_1" | "isSetPadding" => out.1 = Some(v),
                _ => {}
            }
        }
    }
    match out {
        (Some(f), Some(p)) => Ok((f, p)),
        // the configuration is a constexpr struct the program does not carry
        _ => Err(format!(
            "LoadData with LoadData3DParamsV2 and defaultConfig {cfg} is not modelled (the default \
             IS_RESER_LOAD3D_DEFAULT_CONFIG and an IsResetLoad3dConfig constant whose two fields are known are)"
        )),
    }
}

fn decode_v2(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let reset = reset_config(a.targ("defaultConfig"))?;
    let p = "loadDataParams";
    Ok(Box::new(Load3dV2 {
        reset,
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        pads: pads(a, "loadDataParams.padList")?,
        l1h: a.field(p, "l1H")?,
        l1w: a.field(p, "l1W")?,
        channels: a.field(p, "channelSize")?,
        k_ext: a.field(p, "kExtension")?,
        m_ext: a.field(p, "mExtension")?,
        k_start: a.field(p, "kStartPt")?,
        m_start: a.field(p, "mStartPt")?,
        stride_w: a.field(p, "strideW")?,
        stride_h: a.field(p, "strideH")?,
        filter_w: a.field(p, "filterW")?,
        filter_h: a.field(p, "filterH")?,
        dil_w: a.field(p, "dilationFilterW")?,
        dil_h: a.field(p, "dilationFilterH")?,
        transpose: a.opt_field(p, "enTranspose")?,
        pad_value: a.opt_field(p, "padValue")?,
        size_w: a.opt_field(p, "filterSizeW")?,
        size_h: a.opt_field(p, "filterSizeH")?,
        fm_ctrl: a.opt_field(p, "fMatrixCtrl")?,
    }))
}

const WHAT: &str = "LoadData (Load3Dv2)";

fn flag(cx: &Ctx, sv: Option<Sv>) -> u64 {
    sv.map(|s| cx.uint(s)).unwrap_or(0)
}

/// One load's settings as numbers: from LoadData3DParamsV2's fields, or V2Pro's packed words.
#[derive(Clone, Copy, Debug)]
struct Settings {
    t: DType,
    dst: u32,
    src: u32,
    channels: usize,
    k_ext: usize,
    m_ext: usize,
    k_start: usize,
    m_start: usize,
    /// (h, w) of the stride, the filter (with filterSizeH/W's 256s) and the dilation
    stride: (usize, usize),
    filter: (usize, usize),
    dilation: (usize, usize),
    transpose: bool,
    fm_ctrl: bool,
}

impl Load3dV2 {
    fn settings(&self, cx: &Ctx) -> Settings {
        let half = |s: Sv| (cx.uint(s) & 0xFFFF) as usize;
        let byte = |s: Sv| (cx.uint(s) & 0xFF) as usize;
        let size = |s: Option<Sv>| (flag(cx, s) & 0xFF) as usize;
        Settings {
            t: self.t,
            dst: self.dst,
            src: self.src,
            channels: half(self.channels),
            k_ext: half(self.k_ext),
            m_ext: half(self.m_ext),
            k_start: half(self.k_start),
            m_start: half(self.m_start),
            stride: (byte(self.stride_h), byte(self.stride_w)),
            filter: (
                byte(self.filter_h) + (size(self.size_h) << 8),
                byte(self.filter_w) + (size(self.size_w) << 8),
            ),
            dilation: (byte(self.dil_h), byte(self.dil_w)),
            transpose: flag(cx, self.transpose) & 1 != 0,
            fm_ctrl: flag(cx, self.fm_ctrl) & 1 != 0,
        }
    }
}

impl Settings {
    /// The destination layout, or the reason this form is not modelled / not valid.
    fn layout(&self, cx: &mut Ctx, m_ext: usize, k_ext: usize, c0: usize) -> Option<Layout> {
        let dst = cx.handle(self.dst);
        let transpose = self.transpose;
        let mem = match dst.space {
            Space::Local(m @ (MemKind::L0a | MemKind::L0b)) => m,
            _ => {
                cx.report(
                    code::INVALID_OPERAND,
                    format!("{WHAT} writes outside L0A/L0B; Load3D loads L1 into L0A (A2) or L0B (B2)"),
                );
                return None;
            }
        };
        if dst.addr % FRACTAL != 0 {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "{WHAT} writes {} at byte {}, which is not 512-byte aligned",
                    mem.name(),
                    dst.addr
                ),
            );
        }
        if mem == MemKind::L0b && self.t.size() == 1 {
            // dav_c220's LoadData3DV2L12L0BCal for int8_t / uint8_t: ReportNotSupport
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "{WHAT} into L0B (B1 -> B2) of {} elements is not available on the 910B: asc-devkit's dav_c220 \
                     implementation reports it unsupported (load an int8 B with LoadData 2D or \
                     LoadDataWithTranspose)",
                    self.t.name()
                ),
            );
            return None;
        }
        let whole = |cx: &mut Ctx, what: &str, v: usize, unit: usize| {
            if !v.is_multiple_of(unit) {
                cx.report(
                    code::INVALID_OPERAND,
                    format!("{WHAT}: {what} {v} is not a multiple of {unit} (whole fractal rows and columns)"),
                );
                return false;
            }
            true
        };
        match (mem, transpose) {
            (MemKind::L0a, false) => (whole(cx, "mExtension", m_ext, 16) && whole(cx, "kExtension", k_ext, c0))
                .then_some(Layout::AZz { k1: k_ext / c0 }),
            // A = X^T: A's rows are the window's kExtension columns, its columns the mExtension rows, each in
            // whole C0 blocks (kExtension: asc-devkit's CheckLoadData3dv2MatrixParams, kernel_operator_mm_check.h
            // 645-663, for every type). int8 / uint8 transpose by 32 x 32 squares, two 16 x 32 fractals each, as
            // LoadDataWithTranspose's page describes for B8; its mmad_load3dv2 example sizes the transposed int8 A
            // so (mExtension CeilAlign(k, 32), L0A CeilAlign(m, 32) x CeilAlign(k, 32): mmad_load3dv2.asc 42-47,
            // 234-235); the result is A = X^T in L0A's ZZ layout of 16 x 32 fractals, as for half and float
            (MemKind::L0a, true) => (whole(cx, "mExtension", m_ext, c0) && whole(cx, "kExtension", k_ext, c0))
                .then_some(Layout::ATransposed { k1: m_ext / c0 }),
            // into L0B, B = X with or without enTranspose: the flag acts on L0A only, B is transposed into L0B's
            // layout by the load itself (asc-devkit's load_data_l12l0 example says so at its Load3Dv2 into B2;
            // its mmad_load3dv2 example sets the flag, conv3d_bp_filter's load3dB_ and the Matmul library's
            // load_to_l0b_basic V2Pro load do not, each with K = the window's rows)
            _ => whole(cx, "mExtension", m_ext, c0).then_some(Layout::BZn { n1: k_ext.div_ceil(16) }),
        }
    }
}

impl ApiOp for Load3dV2 {
    fn pipe(&self) -> Pipe {
        Pipe::Mte1
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        // the default IsResetLoad3dConfig: the call sets the left FMATRIX and the padding value first
        if self.reset.0 {
            cx.core.cube.fmatrix[0] = Some(Fmatrix {
                h: cx.uint(self.l1h) & 0xFFFF,
                w: cx.uint(self.l1w) & 0xFFFF,
                pad: pad_values(&self.pads, cx),
            });
        }
        if self.reset.1 {
            cx.core.cube.pad_value = self.pad_value.map(|v| cx.value_as(v, self.t)).unwrap_or(0);
        }
        let s = self.settings(cx);
        s.load(cx)
    }
}

impl Settings {
    /// The img2col load itself, from the FMATRIX register fMatrixCtrl names.
    fn load(&self, cx: &mut Ctx) -> Flow {
        let fm_index = self.fm_ctrl as usize;
        let Some(fm) = cx.core.cube.fmatrix[fm_index] else {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "{WHAT} with fMatrixCtrl reads the right FMATRIX register, which no SetFmatrix(..., \
                     FmatrixMode::FMATRIX_RIGHT) has set"
                ),
            );
            return Flow::Next;
        };
        let c0 = c0(self.t);
        let (channels, m_ext, k_ext, m_start, k_start) =
            (self.channels, self.m_ext, self.k_ext, self.m_start, self.k_start);
        let geo = Img2col {
            fm,
            channels,
            c0,
            stride: self.stride,
            filter: self.filter,
            dilation: self.dilation,
        };
        if m_ext == 0 || k_ext == 0 || channels == 0 || geo.filter.0 == 0 || geo.filter.1 == 0 {
            return Flow::Next; // the library calls these a no-op
        }
        if !channels.is_multiple_of(c0) {
            cx.report(
                code::NOT_MODELLED,
                format!(
                    "{WHAT} with channelSize {channels} (not a multiple of {c0}, the small-channel form) is not \
                     modelled"
                ),
            );
            return Flow::Next;
        }
        if geo.stride.0 == 0 || geo.dilation.0 == 0 || geo.dilation.1 == 0 {
            cx.report(
                code::INVALID_OPERAND,
                format!("{WHAT}: strides and dilations must be at least 1"),
            );
            return Flow::Next;
        }
        let Some(wo) = geo.wo() else {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "{WHAT}: the dilated {} x {} filter does not fit the padded {} x {} map",
                    geo.filter.0, geo.filter.1, fm.h, fm.w
                ),
            );
            return Flow::Next;
        };
        let k_total = channels * geo.filter.0 * geo.filter.1;
        if k_start + k_ext > k_total {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "{WHAT} reads columns {k_start}..{} of an img2col matrix of {k_total} (channelSize {channels} x \
                     a {} x {} filter)",
                    k_start + k_ext,
                    geo.filter.0,
                    geo.filter.1
                ),
            );
            return Flow::Next;
        }
        let Some(layout) = self.layout(cx, m_ext, k_ext, c0) else {
            return Flow::Next;
        };
        // one window, or SetLoadDataRepeat's iterations of it (load3d_repeat.rs)
        let Some(iterations) = load3d_repeat::iterations(cx, WHAT, layout, (m_start, k_start), (m_ext, k_ext), c0)
        else {
            return Flow::Next;
        };
        let size = self.t.size();
        let src = cx.handle(self.src);
        let fm_bytes = (channels * fm.h as usize * fm.w as usize * size) as i64;
        let Some(map) = read_map(cx, src, fm_bytes, size) else {
            return Flow::Next;
        };
        let mut pad = vec![0u8; size];
        self.t.store_bits(&mut pad, cx.core.cube.pad_value);
        let last = iterations.last().map_or(0, |it| it.dst_elem);
        let span = last
            + (0..m_ext)
                .flat_map(|i| [(i, 0), (i, k_ext - 1)])
                .map(|(i, j)| layout.index(i, j, c0))
                .max()
                .unwrap_or(0)
            + c0 * 16;
        let mut data = vec![0u8; span * size];
        let mut init = vec![0u8; span * size];
        let mut covered = vec![false; span];
        for it in &iterations {
            for i in 0..m_ext {
                for j in 0..k_ext {
                    let at = it.dst_elem + layout.index(i, j, c0);
                    let to = at * size..(at + 1) * size;
                    match geo.source(wo, it.m_start + i, it.k_start + j) {
                        Some(e) => {
                            data[to.clone()].copy_from_slice(&map.data[e * size..(e + 1) * size]);
                            init[to].copy_from_slice(&map.init[e * size..(e + 1) * size]);
                        }
                        None => {
                            data[to.clone()].copy_from_slice(&pad);
                            init[to].fill(1);
                        }
                    }
                    covered[at] = true;
                }
            }
        }
        // the elements written, as contiguous runs (a partial last fractal keeps what the memory holds)
        let mut runs = Vec::new();
        let mut e = 0;
        while e < span {
            if !covered[e] {
                e += 1;
                continue;
            }
            let start = e;
            while e < span && covered[e] {
                e += 1;
            }
            let bytes = start * size..e * size;
            runs.push((bytes.start as i64, data[bytes.clone()].to_vec(), init[bytes].to_vec()));
        }
        let dst = cx.handle(self.dst);
        write_runs(cx, dst, &runs, self.t, WHAT);
        Flow::Next
    }
}

/// The `len` bytes of the 5HD map from `src`, through the L1 boundary SetLoadDataBoundary set (Load3Dv2: in
/// bytes, at least 1024, 0 for none): a read past it goes on from L1 byte 0, and the load must start inside it.
fn read_map(cx: &mut Ctx, src: Handle, len: i64, elem: usize) -> Option<crate::cube::Region> {
    let boundary = cx.core.cube.load3d_boundary as i64;
    if boundary == 0 || src.addr + len <= boundary {
        return read(cx, src, 0, len, elem, WHAT);
    }
    if boundary < 1024 || src.addr >= boundary {
        cx.report(
            code::INVALID_OPERAND,
            format!(
                "{WHAT} after SetLoadDataBoundary({boundary}): the boundary of a Load3Dv2 is in bytes, at least \
                 1024, and the load's L1 source (at byte {}) must start inside it",
                src.addr
            ),
        );
        return None;
    }
    // up to the boundary from the source, then from L1 byte 0 (as often as the map needs)
    let mut out = read(cx, src, 0, boundary - src.addr, elem, WHAT)?;
    let start = Handle {
        addr: 0,
        len: boundary,
        alloc: 0,
        ..src
    };
    let mut left = len - (boundary - src.addr);
    while left > 0 {
        let part = read(cx, start, 0, left.min(boundary), elem, WHAT)?;
        out.data.extend_from_slice(&part.data);
        out.init.extend_from_slice(&part.init);
        left -= boundary;
    }
    Some(out)
}

/// A 3D form the simulator reports instead of running.
#[derive(Debug)]
struct Unsupported(&'static str);

impl ApiOp for Unsupported {
    fn pipe(&self) -> Pipe {
        Pipe::Mte1
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        cx.report(code::NOT_MODELLED, self.0.to_string());
        Flow::Next
    }
}

fn decode_v1(_: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(Unsupported(
        "LoadData with LoadData3DParamsV1 is not available on the 910B: asc-devkit's dav_c220 implementation \
         reports it unsupported (A1->A2, B1->B2 and L1->UB); use LoadData3DParamsV2",
    )))
}

/// LoadData with LoadData3DParamsV2Pro: Load3Dv2 with its settings packed into two words, as asc-devkit's
/// dav_c220 implementation unpacks them for the same instruction: extConfig = kExtension | mExtension << 16 |
/// kStartPt << 32 | mStartPt << 48; filterConfig = strideW | strideH << 8 | filterW << 16 | filterH << 24 |
/// dilationFilterW << 32 | dilationFilterH << 40 (0x10101010101 by default: all 1). It carries no map size,
/// padding or padding value: the load reads what SetFmatrix and SetLoadDataPaddingValue set.
#[derive(Debug)]
struct Load3dV2Pro {
    t: DType,
    dst: u32,
    src: u32,
    channels: Sv,
    ext: Option<Sv>,
    filter: Option<Sv>,
    transpose: Option<Sv>,
    size_w: Option<Sv>,
    size_h: Option<Sv>,
    fm_ctrl: Option<Sv>,
}

fn decode_v2pro(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let p = "loadDataParams";
    Ok(Box::new(Load3dV2Pro {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        channels: a.field(p, "channelSize")?,
        ext: a.opt_field(p, "extConfig")?,
        filter: a.opt_field(p, "filterConfig")?,
        transpose: a.opt_field(p, "enTranspose")?,
        size_w: a.opt_field(p, "filterSizeW")?,
        size_h: a.opt_field(p, "filterSizeH")?,
        fm_ctrl: a.opt_field(p, "fMatrixCtrl")?,
    }))
}

impl Load3dV2Pro {
    fn settings(&self, cx: &Ctx) -> Settings {
        let ext = flag(cx, self.ext);
        let filter = self.filter.map(|f| cx.uint(f)).unwrap_or(0x0101_0101_0101);
        let half = |shift: u32| ((ext >> shift) & 0xFFFF) as usize;
        let byte = |shift: u32| ((filter >> shift) & 0xFF) as usize;
        let size = |s: Option<Sv>| (flag(cx, s) & 0xFF) as usize;
        Settings {
            t: self.t,
            dst: self.dst,
            src: self.src,
            channels: (cx.uint(self.channels) & 0xFFFF) as usize,
            k_ext: half(0),
            m_ext: half(16),
            k_start: half(32),
            m_start: half(48),
            stride: (byte(8), byte(0)),
            filter: (byte(24) + (size(self.size_h) << 8), byte(16) + (size(self.size_w) << 8)),
            dilation: (byte(40), byte(32)),
            transpose: flag(cx, self.transpose) & 1 != 0,
            fm_ctrl: flag(cx, self.fm_ctrl) & 1 != 0,
        }
    }
}

impl ApiOp for Load3dV2Pro {
    fn pipe(&self) -> Pipe {
        Pipe::Mte1
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        self.settings(cx).load(cx)
    }
}

/// Which FMATRIX register a setter writes: SetFmatrix's fmatrixMode, or the register the library-internal
/// Load3DSetFMatrixCal (left) / Load3DSetFMatrixBCal (right) writes (dav_c220 kernel_operator_mm_impl.h 464-499:
/// set_fmatrix / set_fmatrix_b of l1W | l1H << 16 | padList[i] << 32 + 8 i).
#[derive(Debug)]
enum Register {
    Mode(EnumArg),
    Fixed(bool),
}

#[derive(Debug)]
struct SetFmatrix {
    h: Sv,
    w: Sv,
    pads: Option<StackArray>,
    mode: Register,
}

fn decode_set_fmatrix(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let mode = match a.api.as_str() {
        "Load3DSetFMatrixCal" => Register::Fixed(false),
        "Load3DSetFMatrixBCal" => Register::Fixed(true),
        _ => Register::Mode(a.enum_or_reg("fmatrixMode")?),
    };
    Ok(Box::new(SetFmatrix {
        h: a.sv("l1H")?,
        w: a.sv("l1W")?,
        pads: pads(a, "padList")?,
        mode,
    }))
}

impl ApiOp for SetFmatrix {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let right = match &self.mode {
            Register::Mode(EnumArg::Name(n)) => n == "FMATRIX_RIGHT",
            Register::Mode(EnumArg::Reg(r)) => cx.uint(*r) == 1,
            Register::Fixed(right) => *right,
        };
        let fm = Fmatrix {
            h: cx.uint(self.h) & 0xFFFF,
            w: cx.uint(self.w) & 0xFFFF,
            pad: pad_values(&self.pads, cx),
        };
        cx.core.cube.fmatrix[right as usize] = Some(fm);
        Flow::Next
    }
}

#[derive(Debug)]
struct SetPadding {
    /// T, where the call names it; else the value's own bits (`SetLoadDataPaddingValue(0)`: T is int)
    t: Option<DType>,
    value: Sv,
}

fn decode_set_padding(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(SetPadding {
        t: a.dtype("T").ok(),
        value: a.sv("padValue")?,
    }))
}

impl ApiOp for SetPadding {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        cx.core.cube.pad_value = match self.t {
            Some(t) => cx.value_as(self.value, t),
            None => cx.uint(self.value),
        };
        Flow::Next
    }
}

/// SetLoadDataRepeat / SetLoadDataBoundary: the settings Load3D reads (load3d_repeat.rs, read_map).
#[derive(Debug)]
struct SetLoad3dState {
    /// repeatTime, repeatStride and repeatMode (the struct's defaults 1, 0, 0 where a field is not given)
    repeat: Option<(Sv, Option<Sv>, Option<Sv>)>,
    boundary: Option<Sv>,
}

fn decode_set_repeat(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let p = "repeatParams";
    Ok(Box::new(SetLoad3dState {
        repeat: Some((
            a.opt_field(p, "repeatTime")?.ok_or("no repeatParams.repeatTime")?,
            a.opt_field(p, "repeatStride")?,
            a.opt_field(p, "repeatMode")?,
        )),
        boundary: None,
    }))
}

fn decode_set_boundary(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(SetLoad3dState {
        repeat: None,
        boundary: Some(a.sv("boundaryValue")?),
    }))
}

impl ApiOp for SetLoad3dState {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        if let Some((time, stride, mode)) = self.repeat {
            cx.core.cube.load3d_repeat = load3d_repeat::Repeat::new(cx.uint(time), flag(cx, stride), flag(cx, mode));
        }
        if let Some(b) = self.boundary {
            cx.core.cube.load3d_boundary = cx.uint(b) & 0xFFFF_FFFF;
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add("SetLoadDataRepeat.plain", decode_set_repeat);
    r.add("SetLoadDataBoundary.plain", decode_set_boundary);
    r.add("LoadData.3dv2", decode_v2);
    r.add("LoadData.3dv1", decode_v1);
    r.add("LoadData.3dv2pro", decode_v2pro);
    r.add("SetFmatrix.plain", decode_set_fmatrix);
    r.add("SetLoadDataPaddingValue.plain", decode_set_padding);
    // the library-internal setters the public ones call, which vendor kernels call directly (ops-nn
    // transpose_batch_mat_mul's pp_matmul_ein_sum_kernel.h: Load3DSetFMatrixCal before a V2Pro load)
    r.add("Load3DSetFMatrixCal.plain", decode_set_fmatrix);
    r.add("Load3DSetFMatrixBCal.plain", decode_set_fmatrix);
    r.add("Load3DSetPaddingCal.plain", decode_set_padding);
}
