//! The img2col load itself: the destination's layout, the window's checks against the map and the img2col
//! matrix, the map read through SetLoadDataBoundary's boundary, and the window written fractal by fractal.

use super::{Img2col, Layout, WHAT};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::cube::{c0, load3d_repeat, read, write_runs, FRACTAL};
use crate::dtype::DType;
use crate::memory::{Handle, MemKind, Space};

/// One load's settings as numbers: from LoadData3DParamsV2's fields, or V2Pro's packed words.
#[derive(Clone, Copy, Debug)]
pub(super) struct Settings {
    pub(super) t: DType,
    pub(super) dst: u32,
    pub(super) src: u32,
    pub(super) channels: usize,
    pub(super) k_ext: usize,
    pub(super) m_ext: usize,
    pub(super) k_start: usize,
    pub(super) m_start: usize,
    /// (h, w) of the stride, the filter (with filterSizeH/W's 256s) and the dilation
    pub(super) stride: (usize, usize),
    pub(super) filter: (usize, usize),
    pub(super) dilation: (usize, usize),
    pub(super) transpose: bool,
    pub(super) fm_ctrl: bool,
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

impl Settings {
    /// The img2col load itself, from the FMATRIX register fMatrixCtrl names.
    pub(super) fn load(&self, cx: &mut Ctx) -> Flow {
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
