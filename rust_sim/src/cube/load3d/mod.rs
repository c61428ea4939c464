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
//!
//! This file holds the registers' and the img2col matrix's geometry; params.rs the LoadData calls' two
//! parameter forms (V2, V2Pro; V1 reported), window.rs the load itself, setters.rs the register setters.

mod params;
mod setters;
mod window;

#[cfg(test)]
pub(crate) use params::reset_config;
use params::{decode_v1, decode_v2, decode_v2pro};
use setters::{decode_set_boundary, decode_set_fmatrix, decode_set_padding, decode_set_repeat};

use crate::api::{Args, Registry, StackArray};
use crate::core::Ctx;
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

const WHAT: &str = "LoadData (Load3Dv2)";

fn flag(cx: &Ctx, sv: Option<Sv>) -> u64 {
    sv.map(|s| cx.uint(s)).unwrap_or(0)
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
