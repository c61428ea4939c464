//! SetLoadDataRepeat's effect on the next Load3Dv2: one call, several windows of the img2col matrix.
//!
//! The register (asc-devkit dav_c220 kernel_operator_mm_impl.h 718-726, SetLoadDataRepeatCal: set_l3d_rpt of
//! repeatStride | repeatTime << 16 | repeatMode << 24) holds a repeat count (8 bits), a stride (16 bits) and a
//! mode (1 bit). SetLoadDataRepeat's page: repeatTime iterations along the height (repeatMode 0) or the width
//! (repeatMode 1) of the matrix; repeatStride the distance between the starts of consecutive iterations, in 16
//! elements along the height and 32 / sizeof(T) (C0) along the width on the 910B. So iteration r reads the
//! mExtension x kExtension window from (mStartPt + r * repeatStride * 16, kStartPt) in mode 0.
//!
//! Where iteration r writes, the 910B's docs do not say (the 950's SetLoadDataRepeatWithStride adds a dstStride
//! for it). Along the height into L0A without enTranspose (ZZ: a window's rows of fractals are contiguous) and
//! into L0B (ZN: the window's rows are B's K, whose blocks are contiguous), the two readings the docs leave open,
//! "each iteration after the previous one" and "one window of repeatTime x mExtension rows", put it at the same
//! place: r times one window's fractals on. Those are simulated; along the width, and into L0A with enTranspose
//! (where the readings differ), a repeat over 1 is reported as not modelled. repeatTime 0 and 1 load once.

use crate::checks::code;
use crate::core::Ctx;
use crate::cube::load3d::Layout;

/// The repeat register: its count, stride and mode as SetLoadDataRepeat set them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Repeat {
    pub time: u64,
    pub stride: u64,
    pub mode: u64,
}

impl Repeat {
    /// The register's fields from SetLoadDataRepeat's values, cut to their widths.
    pub fn new(time: u64, stride: u64, mode: u64) -> Repeat {
        Repeat {
            time: time & 0xFF,
            stride: stride & 0xFFFF,
            mode: mode & 1,
        }
    }
}

/// One iteration of a load: the window's start (m, k) in the img2col matrix and where it goes in the
/// destination, in elements from the destination's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iteration {
    pub m_start: usize,
    pub k_start: usize,
    pub dst_elem: usize,
}

/// The elements one window of `m_ext` x `k_ext` takes in its destination layout (whole fractals).
pub fn window_elems(layout: Layout, m_ext: usize, k_ext: usize, c0: usize) -> usize {
    let frac = 16 * c0;
    match layout {
        Layout::AZz { k1 } => m_ext.div_ceil(16) * k1 * frac,
        Layout::ATransposed { k1 } => k_ext.div_ceil(16) * k1 * frac,
        Layout::BZn { n1 } => m_ext.div_ceil(c0) * n1 * frac,
    }
}

/// The iterations of a load from (m_start, k_start), or None (reported) for a repeat form not simulated.
pub fn iterations(
    cx: &mut Ctx,
    what: &str,
    layout: Layout,
    start: (usize, usize),
    ext: (usize, usize),
    c0: usize,
) -> Option<Vec<Iteration>> {
    let rep = cx.core.cube.load3d_repeat;
    let (m_start, k_start) = start;
    if rep.time <= 1 {
        return Some(vec![Iteration {
            m_start,
            k_start,
            dst_elem: 0,
        }]);
    }
    let why = if rep.mode == 1 {
        Some("along the width (repeatMode 1)")
    } else if matches!(layout, Layout::ATransposed { .. }) {
        Some("into L0A with enTranspose")
    } else {
        None
    };
    if let Some(why) = why {
        cx.report(
            code::NOT_MODELLED,
            format!(
                "{what} after SetLoadDataRepeat (repeatTime {}) {why} is not modelled: the 910B's docs do not say \
                 where each iteration writes (along the height into L0A without enTranspose, or into L0B, is)",
                rep.time
            ),
        );
        return None;
    }
    let step = window_elems(layout, ext.0, ext.1, c0);
    Some(
        (0..rep.time as usize)
            .map(|r| Iteration {
                m_start: m_start + r * rep.stride as usize * 16,
                k_start,
                dst_elem: r * step,
            })
            .collect(),
    )
}
