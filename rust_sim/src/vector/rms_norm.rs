//! AscendC::RmsNorm<T, isBasicBlock>(dst, src, gamma[, sharedTmpBuffer], epsilon, tiling): each row of hLength
//! elements of src (bLength * sLength rows) divided by its root mean square and scaled by gamma,
//! dst = x * rsqrt(sum(x[..originalHLength]^2) * reciprocalOfHLength + epsilon) * gamma.
//!
//! The shape comes from the RmsNormTiling the host's GetRmsNormTilingInfo filled (the API takes no other);
//! the arithmetic follows the library's order on the 220x chips (asc-devkit rmsnorm_common_impl.h, read for
//! the facts): in f32 (half data cast up first), x * x; the row sum of the first originalHLength squares by
//! repeated 64-lane reductions, each a tree of adjacent pairs (with isBasicBlock: the 64-column blocks added
//! element-wise first, then one 64-lane reduction); times reciprocalOfHLength (a multiplication, not a division); plus epsilon; the
//! reciprocal square root as exp(-0.5 * ln(v)); x times it, then times gamma; half results rounded once at
//! the end. The library works through the rows mainBsLength at a time in the sharedTmpBuffer
//! (mainBsLengthAlign + mainBshLength floats, twice mainBshLength for half): a buffer smaller than that is
//! reported, as the library would write past it. The buffer's contents after the call are unspecified and
//! left as they were.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::elem::store_f32;
use crate::vector::reduce::order::pair_tree;
use crate::vector::sizes::{checked_bytes, report_oversized, too_small};

const LANES: usize = 64;

/// The RmsNormTiling fields the computation reads.
const FIELDS: [&str; 8] = [
    "bLength",
    "sLength",
    "hLength",
    "originalHLength",
    "reciprocalOfHLength",
    "mainBshLength",
    "mainBsLength",
    "mainBsLengthAlign",
];

#[derive(Debug)]
struct RmsNorm {
    t: DType,
    basic: bool,
    dst: u32,
    src: u32,
    gamma: u32,
    tmp: Option<u32>,
    epsilon: Sv,
    tiling: [Sv; 8],
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let mut tiling = Vec::with_capacity(FIELDS.len());
    for f in FIELDS {
        tiling.push(a.field("tiling", f).map_err(|_| {
            format!(
                "the RmsNormTiling's {f} is not known here (the simulator takes RmsNorm's shape from the tiling \
                 GetRmsNormTilingInfo fills)"
            )
        })?);
    }
    Ok(Box::new(RmsNorm {
        t: a.dtype("T")?,
        basic: a.targ("isBasicBlock").is_some_and(|v| v == "true" || v == "1"),
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        gamma: a.handle("gamma")?,
        tmp: a.handle("sharedTmpBuffer").ok(),
        epsilon: a.sv("epsilon")?,
        tiling: tiling.try_into().map_err(|_| "RmsNormTiling")?,
    }))
}

/// The sum of `v` as the library's generic path takes it (RepeatReduceSum in counter mode, again on its results
/// until one is left): each 64-lane repeat a tree of adjacent pairs, as the vector unit adds one (reduce/order.rs).
pub fn repeated_lane_sum(v: &[f32]) -> f32 {
    let mut level: Vec<f32> = v.chunks(LANES).map(|c| pair_tree(DType::F32, c)).collect();
    while level.len() > 1 {
        level = level.chunks(LANES).map(|c| pair_tree(DType::F32, c)).collect();
    }
    level.first().copied().unwrap_or(0.0)
}

/// The basic-block path's sum: the row's 64-column blocks added element-wise into the first, in order, then
/// one RepeatReduceSum of the 64 lanes (a tree of adjacent pairs).
pub fn basic_block_sum(v: &[f32]) -> f32 {
    let mut acc = [0f32; LANES];
    let n = LANES.min(v.len());
    acc[..n].copy_from_slice(&v[..n]);
    for block in v.chunks(LANES).skip(1) {
        for (a, x) in acc.iter_mut().zip(block) {
            *a += *x;
        }
    }
    pair_tree(DType::F32, &acc[..n])
}

/// One row of RmsNorm in f32: `x` (hLength values) normalised in place over its first `ori` values.
pub fn normalise_row(x: &mut [f32], gamma: &[f32], ori: usize, recip: f32, eps: f32, basic: bool) {
    let sq: Vec<f32> = x.iter().map(|v| v * v).collect();
    let sum = if basic {
        basic_block_sum(&sq)
    } else {
        repeated_lane_sum(&sq[..ori.min(sq.len())])
    };
    let ms = sum * recip + eps;
    let rstd = (ms.ln() * -0.5f32).exp();
    for (v, g) in x.iter_mut().zip(gamma) {
        *v = *v * rstd * *g;
    }
}

impl RmsNorm {
    fn read(&self, cx: &mut Ctx, h: u32, n: usize) -> Option<(Vec<f32>, bool)> {
        crate::vector::read_tensor_f32(cx, h, n, self.t, "RmsNorm")
    }
}

impl ApiOp for RmsNorm {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        if !matches!(t, DType::F16 | DType::F32) {
            cx.report(
                code::INVALID_OPERAND,
                format!("RmsNorm takes half or float data, not {t:?}"),
            );
            return Flow::Next;
        }
        let f: Vec<u64> = self.tiling.iter().map(|&sv| cx.uint(sv)).collect();
        let (b, s, h, ori) = (f[0] as usize, f[1] as usize, f[2] as usize, f[3] as usize);
        let recip = cx.float(self.tiling[4]) as f32;
        let (main_bsh, main_bs_align) = (f[5] as usize, f[7] as usize);
        if h == 0 || ori == 0 || ori > h {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "RmsNorm's tiling has hLength {h} and originalHLength {ori}: GetRmsNormTilingInfo never \
                     fills such a tiling (was it called, and did it return true?)"
                ),
            );
            return Flow::Next;
        }
        let sz = t.size();
        // bLength * sLength * hLength: three uint32_t fields, whose product can pass u64 (2^29 * 2^29 * 16
        // halves are 2^64 bytes, 0 when wrapped: the size checks passed and the read asked for 2^62 elements)
        let Some(bytes) = checked_bytes(&[b, s, h, sz]) else {
            report_oversized(cx, "RmsNorm", format!("RmsNormTiling shape ({b}, {s}, {h})"));
            return Flow::Next;
        };
        let n = b * s * h;
        crate::timing::vector_pass(cx.core, n as u64, sz as u64);
        // the library's blocks of mainBsLength rows (RmsNormImpl's loopRound and tail)
        let rows = (b * s) as u64;
        crate::timing::library_shape(
            cx.core,
            crate::timing::library::Shape {
                kind: crate::timing::library::Kind::RmsNorm,
                rows,
                cols: h as u64,
                real: ori as u64,
                blocks: rows.div_ceil(f[6].max(1)).max(1),
                inner: 0,
                elem: sz as u64,
            },
        );
        let shape = "the RmsNormTiling's shape";
        let mut failed = too_small(cx, "RmsNorm", "src", self.src, bytes, shape)
            || too_small(cx, "RmsNorm", "dst", self.dst, bytes, shape)
            || too_small(cx, "RmsNorm", "gamma", self.gamma, h * sz, shape);
        if let Some(tmp) = self.tmp {
            let floats = main_bs_align + main_bsh * if t == DType::F16 { 2 } else { 1 };
            failed = failed || too_small(cx, "RmsNorm", "sharedTmpBuffer", tmp, floats * 4, shape);
        }
        if failed {
            return Flow::Next;
        }
        let Some((mut x, x_init)) = self.read(cx, self.src, n) else {
            return Flow::Next;
        };
        let Some((gamma, g_init)) = self.read(cx, self.gamma, h) else {
            return Flow::Next;
        };
        let eps = t.to_f64(cx.value_as(self.epsilon, t)) as f32;
        for row in x.chunks_mut(h) {
            normalise_row(row, &gamma, ori, recip, eps, self.basic);
        }
        let dst = cx.handle(self.dst);
        if let Some(d) = cx.range(dst, 0, (n * sz) as i64, true, sz, "RmsNorm") {
            let mut bytes = vec![0u8; n * sz];
            store_f32(t, &x, &mut bytes);
            let init = (x_init && g_init) as u8;
            cx.store_bytes(dst, d, &bytes, &vec![init; bytes.len()], t, "RmsNorm");
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["RmsNorm"], &["plain", "tmp"], decode);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_sum_reduces_64_lanes_at_a_time() {
        // 130 ones: repeats of 64, 64 and 2, then their sums in one repeat
        assert_eq!(repeated_lane_sum(&[1.0; 130]), 130.0);
        assert_eq!(repeated_lane_sum(&[]), 0.0);
        // each repeat is a tree of adjacent pairs: (2^24 + 1) + (-2^24 - 1) rounds each pair to +-2^24 and gives
        // 0, where a left-to-right sum gives -1; the second level adds the repeats' sums the same way
        let mut v = vec![16_777_216.0f32, 1.0, -16_777_216.0, -1.0];
        v.extend([0.0; 60]);
        v.extend([1.0; 3]);
        assert_eq!(repeated_lane_sum(&v), 3.0);
    }

    #[test]
    fn basic_block_adds_columns_first() {
        let v: Vec<f32> = (0..128).map(|i| i as f32).collect();
        assert_eq!(basic_block_sum(&v), (0..128).sum::<i32>() as f32);
    }

    #[test]
    fn row_matches_hand_computed_values() {
        // x = [3, 4], gamma = [1, 2], mean of squares 12.5, eps 0: rstd = 1/sqrt(12.5)
        let mut x = [3.0f32, 4.0];
        normalise_row(&mut x, &[1.0, 2.0], 2, 0.5, 0.0, false);
        let r = 1.0 / 12.5f32.sqrt();
        assert!((x[0] - 3.0 * r).abs() < 1e-6 && (x[1] - 8.0 * r).abs() < 1e-6, "{x:?}");
        // only the first originalHLength values count; the padding is scaled too
        let mut y = [2.0f32, 100.0];
        normalise_row(&mut y, &[1.0, 1.0], 1, 1.0, 0.0, false);
        assert!((y[0] - 1.0).abs() < 1e-6 && (y[1] - 50.0).abs() < 1e-5, "{y:?}");
        // epsilon is added to the mean square
        let mut z = [0.0f32, 0.0, 0.0, 2.0];
        normalise_row(&mut z, &[1.0; 4], 4, 0.25, 3.0, false);
        assert!((z[3] - 1.0).abs() < 1e-6, "{z:?}");
    }
}
