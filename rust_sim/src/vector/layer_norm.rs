//! AscendC::LayerNorm, both forms the 220x library offers (asc-devkit layernorm_common_impl.h and
//! layernorm_common_basic_impl.h, read for the facts):
//!
//! * `LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta[, sharedTmpBuffer],
//!   epsilon, LayerNormTiling)`: rows of hLength elements (bLength * sLength of them); per row, in f32 (half
//!   data cast up first), mean = sum(x * lastDimValueBack), variance = sum((x - mean)^2 * lastDimValueBack),
//!   output = (x - mean) * (1 / sqrt(variance + epsilon)) * gamma + beta. lastDimValueBack is
//!   1 / originalHLength, but the sums run over all hLength columns: padding columns count (their zeros add
//!   nothing to the mean; their (0 - mean)^2 does add to the variance, as in the library). Each sum is the
//!   library's: the row's 64-column blocks added element-wise into the first, then one 64-lane WholeReduceSum
//!   (a tree of adjacent pairs).
//!   Half: mean and variance are kept in f32 and rounded to half once at the end, output rounded once.
//!   The rows are worked through as the tiling says: loopRound passes of bsCurLength rows (bshCurLength
//!   elements) stepping inputRoundSize / meanVarRoundSize, then a tail of meanVarTailSize rows at
//!   inputTailPos / meanVarTailPos; a row no pass covers is not written.
//! * `LayerNorm<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon[,
//!   sharedTmpBuffer], LayerNormPara, LayerNormSeparateTiling)`: aLength rows of rLength values, each
//!   rLengthWithPadding long. Where rLength < rLengthWithPadding the library first zeroes inputX's padding in
//!   place (so does the simulator). mean = sum(x * rValueBack) over the padded row; variance = sum((x -
//!   mean)^2 * rValueBack) with the padding left at zero; then Normalize (normalize.rs): rstd and the output,
//!   gamma and beta left out as config's isNoGamma / isNoBeta say. The variance is not returned.
//!
//! Misuse the library asserts against or would write past (tensors shorter than the tiling's shape, a
//! sharedTmpBuffer under the tiling's tmpBufSize, a tiling GetLayerNormNDTilingInfo never fills) is reported
//! (ASC959). The sharedTmpBuffer's contents afterwards are unspecified and left as they were; so is inputX
//! with isReuseSource, and output's padding columns in the rstd form.
//!
//! This file holds the call (its decoding and dispatch), the per-row formulas and the pass plan; layer_norm/
//! plain.rs runs the plain form, layer_norm/rstd.rs the rstd form.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::Space;
use crate::program::Sv;
use crate::vector::normalize::{self, NormFlags};
use crate::vector::rms_norm::basic_block_sum;

mod plain;
mod rstd;

/// The LayerNormTiling fields the plain form reads.
const PLAIN_FIELDS: [&str; 15] = [
    "hLength",
    "inputXSize",
    "meanVarSize",
    "tmpBufSize",
    "loopRound",
    "inputRoundSize",
    "inputTailSize",
    "inputTailPos",
    "meanVarRoundSize",
    "meanVarTailSize",
    "meanVarTailPos",
    "bshCurLength",
    "bsCurLength",
    "lastDimValueBack",
    "oneTmpSize",
];

/// The LayerNormSeparateTiling fields the rstd form reads.
const RSTD_FIELDS: [&str; 12] = [
    "tmpBufSize",
    "loopRound",
    "inputRoundSize",
    "inputTailSize",
    "inputTailPos",
    "meanVarRoundSize",
    "meanVarTailSize",
    "meanVarTailPos",
    "arCurLength",
    "aCurLength",
    "rValueBack",
    "firstTmpStartPos",
];

#[derive(Debug)]
enum Form {
    /// output, mean and variance; LayerNormTiling
    Plain { mean: u32, var: u32, tiling: Vec<Sv> },
    /// output, mean and rstd; LayerNormPara + LayerNormSeparateTiling
    Rstd {
        u: DType,
        mean: u32,
        rstd: u32,
        para: [Sv; 3],
        tiling: Vec<Sv>,
        flags: NormFlags,
    },
}

#[derive(Debug)]
struct LayerNorm {
    t: DType,
    output: u32,
    x: u32,
    gamma: u32,
    beta: u32,
    tmp: Option<u32>,
    epsilon: Sv,
    form: Form,
}

fn tiling_fields(a: &Args, names: &[&str], strukt: &str) -> Result<Vec<Sv>, String> {
    names
        .iter()
        .map(|f| {
            a.field("tiling", f).map_err(|_| {
                format!(
                    "the {strukt}'s {f} is not known here (the simulator takes LayerNorm's shape from the tiling \
                     GetLayerNormNDTilingInfo fills)"
                )
            })
        })
        .collect()
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let rstd = a.overload.starts_with("rstd");
    let form = if rstd {
        let para = [
            a.field("para", "aLength")?,
            a.field("para", "rLength")?,
            a.field("para", "rLengthWithPadding")?,
        ];
        Form::Rstd {
            u: a.dtype("U")?,
            mean: a.handle("outputMean")?,
            rstd: a.handle("outputRstd")?,
            para,
            tiling: tiling_fields(a, &RSTD_FIELDS, "LayerNormSeparateTiling")?,
            flags: normalize::parse_config(a.targ("config"), "LayerNormConfig")?,
        }
    } else {
        Form::Plain {
            mean: a.handle("outputMean")?,
            var: a.handle("outputVariance")?,
            tiling: tiling_fields(a, &PLAIN_FIELDS, "LayerNormTiling")?,
        }
    };
    Ok(Box::new(LayerNorm {
        t: a.dtype("T")?,
        output: a.handle("output")?,
        x: a.handle("inputX")?,
        gamma: a.handle("gamma")?,
        beta: a.handle("beta")?,
        tmp: a.handle("sharedTmpBuffer").ok(),
        epsilon: a.sv("epsilon")?,
        form,
    }))
}

/// The library's row sum (LayerNormReduceSumImpl): the row's 64-column blocks added element-wise into the
/// first, in order (Add with a repeat per block), then one WholeReduceSum of those (up to) 64 lanes, which the
/// vector unit takes as a tree of adjacent pairs (reduce/order.rs): RmsNorm's basic-block sum.
pub fn row_sum(v: &[f32]) -> f32 {
    basic_block_sum(v)
}

/// One row's mean and variance as the plain form takes them: `recip` = lastDimValueBack.
pub fn mean_variance(x: &[f32], recip: f32) -> (f32, f32) {
    let scaled: Vec<f32> = x.iter().map(|v| v * recip).collect();
    let mean = row_sum(&scaled);
    let sq: Vec<f32> = x
        .iter()
        .map(|v| {
            let d = v - mean;
            d * d * recip
        })
        .collect();
    (mean, row_sum(&sq))
}

/// One row of the plain form's output: (x - mean) * (1 / sqrt(variance + eps)) * gamma + beta, in f32.
pub fn plain_row(x: &[f32], mean: f32, var: f32, eps: f32, gamma: &[f32], beta: &[f32]) -> Vec<f32> {
    let rstd = 1.0f32 / (var + eps).sqrt();
    x.iter()
        .zip(gamma.iter().zip(beta))
        .map(|(v, (g, b))| rstd * (v - mean) * g + b)
        .collect()
}

/// `n` elements of `t` at element `off` of local tensor `h`, as f32 (None where the range check stopped it).
pub(crate) fn read_at(cx: &mut Ctx, h: u32, off: usize, n: usize, t: DType, what: &str) -> Option<(Vec<f32>, bool)> {
    let sz = t.size();
    let hd = cx.handle(h);
    let at = cx.range(hd, (off * sz) as i64, (n * sz) as i64, false, sz, what)?;
    let Space::Local(mem) = hd.space else {
        return None;
    };
    Some(crate::vector::read_local_f32(cx, mem, at, n, t))
}

/// Writes `vals` as `t` at element `off` of `h`.
pub(crate) fn write_at(cx: &mut Ctx, h: u32, off: usize, vals: &[f32], t: DType, init: bool, what: &str) {
    let hd = cx.handle(h);
    crate::vector::reduce::write_vals(cx, hd, (off * t.size()) as i64, vals, t, init, what);
}

/// The passes the tiling plans: (element offset, row offset, rows), main passes then the tail.
fn passes(f: &[u64], tail_rows: usize) -> Vec<(usize, usize, usize)> {
    let (rounds, in_step, mv_step, cur_rows) = (f[0], f[1] as usize, f[2] as usize, f[3] as usize);
    let mut out: Vec<(usize, usize, usize)> = (0..rounds as usize)
        .map(|i| (i * in_step, i * mv_step, cur_rows))
        .collect();
    if f[4] > 0 {
        out.push((f[5] as usize, f[6] as usize, tail_rows));
    }
    out
}

/// Whether the passes `plan` describes (as `passes` takes it) stay inside the tiling's inputXSize: together no
/// more rows than it holds (the library's loopRound * bshCurLength + inputTailSize is inputXSize), each pass's
/// end inside it; every product checked, as the fields are the caller's uint32_t values. Before this, a
/// loopRound in the billions built a pass list of that length (and ran it, with inputRoundSize 0).
fn plan_fits(plan: &[u64], tail_rows: u64, h: u64, x_size: u64) -> Result<(), String> {
    let (rounds, in_step, cur_rows, tail_pos) = (plan[0], plan[1], plan[3], plan[5]);
    let main_elems = rounds.checked_mul(cur_rows).and_then(|r| r.checked_mul(h));
    let tail_elems = if plan[4] > 0 { tail_rows.checked_mul(h) } else { Some(0) };
    let last_main_end = match rounds {
        0 => Some(0),
        _ => (rounds - 1)
            .checked_mul(in_step)
            .and_then(|o| cur_rows.checked_mul(h).and_then(|e| o.checked_add(e))),
    };
    let tail_end = tail_elems.and_then(|e| if plan[4] > 0 { tail_pos.checked_add(e) } else { Some(0) });
    let total = main_elems.zip(tail_elems).and_then(|(m, t)| m.checked_add(t));
    match (total, last_main_end, tail_end) {
        (Some(t), Some(m), Some(e)) if t <= x_size && m <= x_size && e <= x_size => Ok(()),
        _ => Err(format!(
            "cover more than its inputXSize of {x_size} elements (loopRound {rounds} of {cur_rows} rows of {h} every \
             {in_step} elements, a tail of {tail_rows} rows at {tail_pos})"
        )),
    }
}

impl ApiOp for LayerNorm {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        if !matches!(self.t, DType::F16 | DType::F32) {
            cx.report(
                code::INVALID_OPERAND,
                format!("LayerNorm takes half or float data, not {:?}", self.t),
            );
            return Flow::Next;
        }
        match &self.form {
            Form::Plain { mean, var, tiling } => self.exec_plain(cx, *mean, *var, tiling),
            Form::Rstd {
                u,
                mean,
                rstd,
                para,
                tiling,
                flags,
            } => {
                if !normalize::types_valid(*u, self.t) {
                    cx.report(
                        code::INVALID_OPERAND,
                        format!(
                            "LayerNorm takes T float with U float, or T half with U half or float, not T {:?} \
                             with U {:?}",
                            self.t, u
                        ),
                    );
                    return Flow::Next;
                }
                self.exec_rstd(cx, *u, (*mean, *rstd), para, tiling, *flags)
            }
        }
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["LayerNorm"], &["plain", "tmp", "rstd", "rstd_tmp"], decode);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_past_input_x_size_is_refused() {
        // (loopRound, inputRoundSize, meanVarRoundSize, bsCurLength, inputTailSize, inputTailPos, meanVarTailPos)
        // 13 rows of 64 as 4 passes of 3 rows and a tail of 1: 832 elements exactly
        assert!(plan_fits(&[4, 192, 3, 3, 64, 768, 12], 1, 64, 832).is_ok());
        // one row more than inputXSize, a tail past it, a loopRound in the billions over one place, products
        // past u64
        assert!(plan_fits(&[4, 192, 3, 3, 64, 768, 12], 2, 64, 832).is_err());
        assert!(plan_fits(&[4, 192, 3, 3, 64, 800, 12], 1, 64, 832).is_err());
        assert!(plan_fits(&[u32::MAX as u64, 0, 0, 1, 0, 0, 0], 0, 64, 832).is_err());
        assert!(plan_fits(
            &[u64::MAX, u64::MAX, 0, u64::MAX, 1, u64::MAX, 0],
            u64::MAX,
            u64::MAX,
            832
        )
        .is_err());
    }

    #[test]
    fn mean_and_variance_of_a_row() {
        // x = [1, 2, 3, 6], 1/n = 0.25: mean 3, squared differences 4, 1, 0, 9: variance 3.5
        let (m, v) = mean_variance(&[1.0, 2.0, 3.0, 6.0], 0.25);
        assert_eq!((m, v), (3.0, 3.5));
        // a padding column counts in the variance: [2, 2, 0(pad)] with n = 2: mean 2, variance (0 + 0 + 4) / 2
        let (m, v) = mean_variance(&[2.0, 2.0, 0.0], 0.5);
        assert_eq!((m, v), (2.0, 2.0));
    }

    #[test]
    fn row_sum_adds_blocks_then_reduces_by_pairs() {
        // 2^24 in lane 0, ones in lane 1 of both blocks: the block add makes lane 1 a 2 first, which 2^24 keeps
        // (a plain left-to-right sum would lose each 1 on its own: 2^24 + 1 rounds to 2^24)
        let mut v = vec![0f32; 128];
        v[0] = 16_777_216.0;
        v[1] = 1.0;
        v[65] = 1.0;
        assert_eq!(row_sum(&v), 16_777_218.0);
        let w: Vec<f32> = (0..100).map(|i| i as f32).collect();
        assert_eq!(row_sum(&w), 4950.0);
        // the last reduction pairs lanes: (2^24 + 1) + (-2^24 - 1) rounds each pair to +-2^24, giving 0, where a
        // left-to-right sum gives -1
        let z = [16_777_216.0f32, 1.0, -16_777_216.0, -1.0];
        assert_eq!(row_sum(&z), 0.0);
    }

    #[test]
    fn output_row_by_hand() {
        // x = [1, 3], mean 2, variance 1, eps 0: rstd 1; gamma [2, 3], beta [1, -1]: [-1 * 2 + 1, 1 * 3 - 1]
        assert_eq!(
            plain_row(&[1.0, 3.0], 2.0, 1.0, 0.0, &[2.0, 3.0], &[1.0, -1.0]),
            vec![-1.0, 2.0]
        );
        // variance 3 + eps 1 = 4: rstd 0.5
        assert_eq!(plain_row(&[4.0], 2.0, 3.0, 1.0, &[1.0], &[0.0]), vec![1.0]);
    }

    #[test]
    fn passes_follow_the_tiling() {
        // 2 passes of 3 rows (12 elements of 4), a tail of 1 row at element 24, row 6
        let plan = [2, 12, 3, 3, 4, 24, 6];
        assert_eq!(passes(&plan, 1), vec![(0, 0, 3), (12, 3, 3), (24, 6, 1)]);
        assert_eq!(passes(&[1, 8, 2, 2, 0, 8, 2], 0), vec![(0, 0, 2)]);
    }
}
