//! AscendC::WelfordFinalize<isReuseSource[, config]>(outputMean, outputVariance, inputMean, inputVariance[,
//! counts][, sharedTmpBuffer], WelfordFinalizePara): folds abLength per-column Welford states (a mean and an M2
//! each, as WelfordUpdate leaves them) into one mean and one variance, at element 0 of outputMean /
//! outputVariance (elements 1..8 set to 0).
//!
//! The 220x library's arithmetic (asc-devkit welfordfinalize_common_impl.h, read for the facts), in f32:
//! mean = sum(inputMean * w) and variance = sum((inputVariance + (inputMean - mean)^2 * n) * rRec), where per
//! column w and n are: with counts, w = counts * rRec and n = counts; without, and with no tail (tailCount or
//! tailCountLength 0), w = abRec and n = rnLength; with a tail, inputMean * w is ((inputMean * tailCount) *
//! rRec) and the square times n is (square * tailCount), each then times headCount / tailCount in the first
//! headCountLength columns, every product rounded in that order (Weights). The sums run over
//! chunks of computeLength columns, computeLength = ((tmp floats - 128) / 128) * 64 from the sharedTmpBuffer,
//! each chunk summed as LayerNorm's rows are (64-column block adds, then a tree of adjacent pairs), the chunk
//! sums collected 64 at a time and reduced as a tree again. Without a sharedTmpBuffer (the library's stack
//! buffer, whose size the simulator does not know) the columns are taken as one chunk. The variance is divided
//! by the count through rRec (isCorrection, the 3510 config, is not read on 220x).
//!
//! Reported (ASC959), as the library asserts: inputMean / inputVariance / counts under abLength elements,
//! outputs under 8, abLength 0 or not a multiple of 8, headCountLength + tailCountLength != abLength, a
//! sharedTmpBuffer under 1,024 bytes.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::layer_norm::{read_at, row_sum, write_at};
use crate::vector::reduce::order::pair_tree;
use crate::vector::sizes::too_small;

const B32_LEN: usize = 64;

/// The WelfordFinalizePara fields read, in this order.
const PARA: [&str; 8] = [
    "rnLength",
    "abLength",
    "headCount",
    "headCountLength",
    "tailCount",
    "tailCountLength",
    "abRec",
    "rRec",
];

#[derive(Debug)]
struct WelfordFinalize {
    out_mean: u32,
    out_var: u32,
    in_mean: u32,
    in_var: u32,
    counts: Option<u32>,
    tmp: Option<u32>,
    para: Vec<Sv>,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(WelfordFinalize {
        out_mean: a.handle("outputMean")?,
        out_var: a.handle("outputVariance")?,
        in_mean: a.handle("inputMean")?,
        in_var: a.handle("inputVariance")?,
        counts: a.handle("counts").ok(),
        tmp: a.handle("sharedTmpBuffer").ok(),
        para: PARA.iter().map(|f| a.field("para", f)).collect::<Result<_, _>>()?,
    }))
}

/// The per-column terms' sum as the library takes it: chunks of `chunk` columns each summed as a LayerNorm row,
/// the chunk sums reduced 64 at a time (the 64th folded into the first slot) and once more at the end.
pub fn chunked_sum(terms: &[f32], chunk: usize) -> f32 {
    let mut slots: Vec<f32> = Vec::with_capacity(B32_LEN);
    for c in terms.chunks(chunk.max(1)) {
        slots.push(row_sum(c));
        if slots.len() == B32_LEN {
            let folded = pair_tree(DType::F32, &slots);
            slots.clear();
            slots.push(folded);
        }
    }
    pair_tree(DType::F32, &slots)
}

/// The library's chunk length for a sharedTmpBuffer of `floats` floats (at least 256).
pub fn compute_length(floats: usize) -> usize {
    (floats - 2 * B32_LEN) / (2 * B32_LEN) * B32_LEN
}

/// Per column, the factors the 220x library multiplies by, in its order (each product rounded to f32; a factor
/// 1 is exact): `mean[i]` scales inputMean into its mean term, `var[i]` scales (inputMean - mean)^2 before
/// inputVariance is added. Without a tail: abRec for the mean, rnLength for the variance. With one (asc-devkit
/// welfordfinalize_common_impl.h, GetWelfordFinalizeOutputMean/VarianceWithTail): the mean term is
/// ((x * tailCount) * rRec), then times headCount / tailCount in the first headCountLength columns; the
/// variance term's square times tailCount, then that ratio. Before, the simulator multiplied by the
/// pre-multiplied weight (tailCount * rRec * ratio), which rounds differently (1.3 * 7 * 0.1 * 3/7: 0.39 in
/// the library's order, 0.39000002 by the product).
pub struct Weights {
    pub mean: Vec<[f32; 3]>,
    pub var: Vec<[f32; 2]>,
}

/// The weights without counts: one count for all (rnLength, abRec), or head and tail counts.
pub fn weights(ab: usize, p: &[f64; 8]) -> Weights {
    let (rn, head, head_len, tail, tail_len) = (p[0] as f32, p[2] as i32, p[3] as usize, p[4] as i32, p[5] as usize);
    let (ab_rec, r_rec) = (p[6] as f32, p[7] as f32);
    if tail_len == 0 || tail == 0 {
        return Weights {
            mean: vec![[ab_rec, 1.0, 1.0]; ab],
            var: vec![[rn, 1.0]; ab],
        };
    }
    let ratio = head as f32 / tail as f32;
    let tail = tail as f32;
    let head_cols = head_len.min(ab);
    Weights {
        mean: (0..ab)
            .map(|i| [tail, r_rec, if i < head_cols { ratio } else { 1.0 }])
            .collect(),
        var: (0..ab)
            .map(|i| [tail, if i < head_cols { ratio } else { 1.0 }])
            .collect(),
    }
}

/// (mean, variance) from the per-column states, in the library's order; `counts` replaces the weights (the
/// library's counts path: (x * count) * rRec, and the square times the count).
pub fn finalize(
    mean: &[f32],
    m2: &[f32],
    wts: &Weights,
    counts: Option<&[f32]>,
    r_rec: f32,
    chunk: usize,
) -> (f32, f32) {
    let mean_terms: Vec<f32> = match counts {
        Some(c) => mean.iter().zip(c).map(|(m, c)| m * c * r_rec).collect(),
        None => mean
            .iter()
            .zip(&wts.mean)
            .map(|(m, f)| m * f[0] * f[1] * f[2])
            .collect(),
    };
    let mu = chunked_sum(&mean_terms, chunk);
    let var_terms: Vec<f32> = mean
        .iter()
        .zip(m2)
        .enumerate()
        .map(|(i, (m, v))| {
            let d = m - mu;
            let sq = match counts {
                Some(c) => d * d * c[i],
                None => d * d * wts.var[i][0] * wts.var[i][1],
            };
            (v + sq) * r_rec
        })
        .collect();
    (mu, chunked_sum(&var_terms, chunk))
}

impl ApiOp for WelfordFinalize {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let mut p = [0f64; 8];
        for (i, sv) in self.para.iter().enumerate() {
            p[i] = if i >= 6 { cx.float(*sv) } else { cx.uint(*sv) as f64 };
        }
        let ab = p[1] as usize;
        let (head_len, tail_len) = (p[3] as usize, p[5] as usize);
        let bad = if ab == 0 || !ab.is_multiple_of(8) {
            Some(format!(
                "para.abLength {ab} must be a non-zero multiple of 8 (32 bytes of float)"
            ))
        } else if head_len + tail_len != ab {
            Some(format!(
                "para.headCountLength {head_len} + tailCountLength {tail_len} must equal abLength {ab}"
            ))
        } else {
            None
        };
        if let Some(msg) = bad {
            cx.report(code::INVALID_OPERAND, format!("WelfordFinalize: {msg}"));
            return Flow::Next;
        }
        let shape = "para.abLength";
        let mut failed = too_small(cx, "WelfordFinalize", "inputMean", self.in_mean, ab * 4, shape)
            || too_small(cx, "WelfordFinalize", "inputVariance", self.in_var, ab * 4, shape)
            || too_small(
                cx,
                "WelfordFinalize",
                "outputMean",
                self.out_mean,
                32,
                "its 8-element result",
            )
            || too_small(
                cx,
                "WelfordFinalize",
                "outputVariance",
                self.out_var,
                32,
                "its 8-element result",
            );
        if let Some(c) = self.counts {
            failed = failed || too_small(cx, "WelfordFinalize", "counts", c, ab * 4, shape);
        }
        let mut chunk = ab;
        if let Some(tmp) = self.tmp {
            failed = failed
                || too_small(
                    cx,
                    "WelfordFinalize",
                    "sharedTmpBuffer",
                    tmp,
                    1024,
                    "the library's four 64-float buffers",
                );
            let have = cx.handle(tmp).len;
            if have >= 1024 {
                chunk = compute_length(have as usize / 4);
            }
        }
        if failed {
            return Flow::Next;
        }
        crate::timing::vector_pass(cx.core, ab as u64, 4);
        let Some((mean, m_init)) = read_at(cx, self.in_mean, 0, ab, DType::F32, "WelfordFinalize") else {
            return Flow::Next;
        };
        let Some((m2, v_init)) = read_at(cx, self.in_var, 0, ab, DType::F32, "WelfordFinalize") else {
            return Flow::Next;
        };
        let mut init = m_init && v_init;
        let counts = match self.counts {
            Some(c) => {
                let Some((vals, c_init)) = read_at(cx, c, 0, ab, DType::I32, "WelfordFinalize") else {
                    return Flow::Next;
                };
                init &= c_init;
                Some(vals)
            }
            None => None,
        };
        let (mu, var) = finalize(&mean, &m2, &weights(ab, &p), counts.as_deref(), p[7] as f32, chunk);
        let mut out = [0f32; 8];
        out[0] = mu;
        write_at(cx, self.out_mean, 0, &out, DType::F32, init, "WelfordFinalize");
        out[0] = var;
        write_at(cx, self.out_var, 0, &out, DType::F32, init, "WelfordFinalize");
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["WelfordFinalize"], &["plain", "tmp", "counts", "counts_tmp"], decode);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_columns_by_hand() {
        // column states after x = 1, 3 (mean 2, M2 2) and x = 5, 7 (mean 6, M2 2); 4 values: abRec 1/2 for the
        // means, rnLength 2, rRec 1/4: mean 4, variance (2 + 4 * 2 + 2 + 4 * 2) / 4 = 5 (of 1, 3, 5, 7)
        let p = [2.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.25];
        let (m, v) = finalize(&[2.0, 6.0], &[2.0, 2.0], &weights(2, &p), None, 0.25, 64);
        assert_eq!((m, v), (4.0, 5.0));
        // with counts 1 and 3 (x = 2; x = 4, 6, 8: mean 6, M2 8): mean (2 + 18) / 4 = 5,
        // variance (0 + 9 + 8 + 3) / 4 = 5
        let (m, v) = finalize(&[2.0, 6.0], &[0.0, 8.0], &weights(2, &p), Some(&[1.0, 3.0]), 0.25, 64);
        assert_eq!((m, v), (5.0, 5.0));
    }

    #[test]
    fn head_and_tail_counts() {
        // head columns saw 3 values, tail columns 1: weights 3 * rRec and 1 * rRec, counts 3 and 1
        let p = [0.0, 2.0, 3.0, 1.0, 1.0, 1.0, 0.0, 0.25];
        let w = weights(2, &p);
        assert_eq!(w.mean, vec![[1.0, 0.25, 3.0], [1.0, 0.25, 1.0]]);
        assert_eq!(w.var, vec![[1.0, 3.0], [1.0, 1.0]]);
    }

    #[test]
    fn tail_weights_multiply_in_the_library_order() {
        // head 3, tail 7, rRec 0.1; the head column's mean 1.3: ((1.3 * 7) * 0.1) * (3 / 7) is 0.39 in f32 step by
        // step (numpy float32), 1.3 * ((7 * 0.1) * (3 / 7)) is 0.39000002; the tail column adds 0
        let p = [0.0, 2.0, 3.0, 1.0, 7.0, 1.0, 0.0, 0.1];
        let (m, _) = finalize(&[1.3, 0.0], &[0.0, 0.0], &weights(2, &p), None, 0.1, 64);
        assert_eq!(m, 0.39);
        // the variance's square: (1.7^2 * 7) * (3 / 7) is 8.670001 step by step, 1.7^2 * 3 is 8.67; with the
        // mean 0 (one column, no tail columns' weight) and rRec 1 the term is the variance
        let p = [0.0, 2.0, 3.0, 1.0, 7.0, 1.0, 0.0, 1.0];
        let w = weights(2, &p);
        let sq = 1.7f32 * 1.7 * w.var[0][0] * w.var[0][1];
        assert_eq!(sq, 8.670001);
    }

    #[test]
    fn chunks_follow_the_buffer() {
        assert_eq!(compute_length(256), 64);
        assert_eq!(compute_length(384), 128);
        // 200 ones in chunks of 64: partials 64, 64, 64, 8
        assert_eq!(chunked_sum(&[1.0; 200], 64), 200.0);
    }
}
