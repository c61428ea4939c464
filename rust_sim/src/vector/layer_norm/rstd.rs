//! LayerNorm's rstd form (LayerNormPara + LayerNormSeparateTiling): the padding zeroed, each row's mean and
//! variance over the padded row, then Normalize for rstd and the output.

use super::{passes, plan_fits, read_at, row_sum, write_at, LayerNorm};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::normalize::{self, NormFlags};
use crate::vector::sizes::{checked_bytes, report_oversized, too_small};

impl LayerNorm {
    pub(super) fn exec_rstd(
        &self,
        cx: &mut Ctx,
        u: DType,
        (mean_h, rstd_h): (u32, u32),
        para: &[Sv; 3],
        tiling: &[Sv],
        flags: NormFlags,
    ) -> Flow {
        let t = self.t;
        let (a_len, r_len, r_pad) = (
            cx.uint(para[0]) as usize,
            cx.uint(para[1]) as usize,
            cx.uint(para[2]) as usize,
        );
        let f: Vec<u64> = tiling.iter().take(10).map(|&sv| cx.uint(sv)).collect();
        let recip = cx.float(tiling[10]) as f32;
        let first_tmp = cx.uint(tiling[11]) as usize;
        if r_len == 0 || r_pad < r_len || f[9] == 0 && f[6] == 0 {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "LayerNorm's LayerNormPara has rLength {r_len} in rows of {r_pad}, and its tiling no rows a \
                     pass: GetLayerNormNDTilingInfo never fills such a tiling (was it called with the para's shape?)"
                ),
            );
            return Flow::Next;
        }
        let sz = t.size();
        let Some(x_bytes) = checked_bytes(&[a_len, r_pad, sz]) else {
            report_oversized(cx, "LayerNorm", format!("LayerNormPara ({a_len} rows of {r_pad})"));
            return Flow::Next;
        };
        let shape = "the LayerNormPara's shape";
        let mut failed = too_small(cx, "LayerNorm", "inputX", self.x, x_bytes, shape)
            || too_small(cx, "LayerNorm", "output", self.output, x_bytes, shape)
            || too_small(cx, "LayerNorm", "outputMean", mean_h, a_len * 4, shape)
            || too_small(cx, "LayerNorm", "outputRstd", rstd_h, a_len * 4, shape);
        if !flags.no_gamma {
            failed = failed || too_small(cx, "LayerNorm", "gamma", self.gamma, r_len * u.size(), shape);
        }
        if !flags.no_beta {
            failed = failed || too_small(cx, "LayerNorm", "beta", self.beta, r_len * u.size(), shape);
        }
        if let Some(tmp) = self.tmp {
            let tiling_need = f[0] as usize * 4;
            let norm_need = (first_tmp + normalize::tmp_floats(u, a_len, r_pad)) * 4;
            failed = failed
                || too_small(
                    cx,
                    "LayerNorm",
                    "sharedTmpBuffer",
                    tmp,
                    tiling_need,
                    "the LayerNormSeparateTiling's tmpBufSize",
                )
                || too_small(
                    cx,
                    "LayerNorm",
                    "sharedTmpBuffer",
                    tmp,
                    norm_need,
                    "Normalize's share past firstTmpStartPos",
                );
        }
        if failed {
            return Flow::Next;
        }
        // aLength rows of rLengthWithPadding, computed in float
        crate::timing::vector_pass(cx.core, (a_len * r_pad) as u64, 4);
        let Some((mut x, x_init)) = read_at(cx, self.x, 0, a_len * r_pad, t, "LayerNorm") else {
            return Flow::Next;
        };
        if r_len < r_pad {
            // LayerNormPreProc: inputX's padding zeroed in place
            for row in x.chunks_mut(r_pad) {
                row[r_len..].fill(0.0);
            }
            write_at(cx, self.x, 0, &x, t, x_init, "LayerNorm");
        }
        let mut means = vec![0f32; a_len];
        let mut vars = vec![0f32; a_len];
        let mut covered = vec![false; a_len];
        // (loopRound, inputRoundSize, meanVarRoundSize, aCurLength, inputTailSize, inputTailPos, meanVarTailPos)
        let plan = [f[1], f[2], f[5], f[9], f[3], f[4], f[7]];
        if let Err(why) = plan_fits(&plan, f[6], r_pad as u64, (a_len * r_pad) as u64) {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "LayerNorm's LayerNormSeparateTiling plans passes that {why}: GetLayerNormNDTilingInfo never \
                     fills such a tiling for this para"
                ),
            );
            return Flow::Next;
        }
        // Normalize works in the tmp past firstTmpStartPos
        let norm_floats = self
            .tmp
            .map(|h| (cx.handle(h).len.max(0) as usize / 4).saturating_sub(first_tmp));
        crate::timing::library_shape(
            cx.core,
            crate::timing::library::Shape {
                kind: crate::timing::library::Kind::LayerNormRstd,
                rows: a_len as u64,
                cols: r_pad as u64,
                real: r_len as u64,
                blocks: passes(&plan, f[6] as usize).len() as u64,
                inner: norm_floats.map_or(0, |n| normalize::rows_a_pass(u, n, r_pad) as u64),
                elem: t.size() as u64,
            },
        );
        for (in_off, mv_off, rows) in passes(&plan, f[6] as usize) {
            for r in 0..rows {
                let (row_at, k) = (in_off + r * r_pad, mv_off + r);
                if k >= a_len || row_at + r_pad > x.len() {
                    break;
                }
                let row = &x[row_at..row_at + r_pad];
                let scaled: Vec<f32> = row.iter().map(|v| v * recip).collect();
                let mean = row_sum(&scaled);
                let sq: Vec<f32> = row
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        let d = if i < r_len { v - mean } else { *v };
                        d * d * recip
                    })
                    .collect();
                means[k] = mean;
                vars[k] = row_sum(&sq);
                covered[k] = true;
            }
        }
        if let Some(k) = covered.iter().position(|c| !c) {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "LayerNorm's LayerNormSeparateTiling leaves row {k} of the LayerNormPara's {a_len} out of its \
                     passes (was it filled for this para's shape?)"
                ),
            );
            return Flow::Next;
        }
        write_at(cx, mean_h, 0, &means, DType::F32, x_init, "LayerNorm");
        let shape = normalize::Shape {
            a: a_len,
            r: r_len,
            r_pad,
        };
        let eps = cx.float(self.epsilon) as f32;
        normalize::apply(
            cx,
            &normalize::Operands {
                t,
                u,
                output: self.output,
                rstd: rstd_h,
                gamma: self.gamma,
                beta: self.beta,
            },
            shape,
            flags,
            (&x, x_init),
            (&means, &vars),
            eps,
        );
        Flow::Next
    }
}
