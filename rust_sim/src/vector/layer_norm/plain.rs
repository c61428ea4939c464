//! LayerNorm's plain form (LayerNormTiling): each pass's rows normalised with their mean and variance, the
//! mean and variance written out.

use super::{mean_variance, passes, plain_row, plan_fits, read_at, write_at, LayerNorm};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::program::Sv;
use crate::vector::sizes::too_small;

impl LayerNorm {
    pub(super) fn exec_plain(&self, cx: &mut Ctx, mean_h: u32, var_h: u32, tiling: &[Sv]) -> Flow {
        let t = self.t;
        let f: Vec<u64> = tiling[..13].iter().map(|&sv| cx.uint(sv)).collect();
        let recip = cx.float(tiling[13]) as f32;
        let one_tmp = cx.uint(tiling[14]);
        let (h, x_size, mv_size, tmp_floats) = (f[0] as usize, f[1] as usize, f[2] as usize, f[3] as usize);
        if h == 0 || one_tmp == 0 || f[12] == 0 && f[6] == 0 {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "LayerNorm's tiling has hLength {h} and oneTmpSize {one_tmp}: GetLayerNormNDTilingInfo never \
                     fills such a tiling (was it called with a stack size that holds a row?)"
                ),
            );
            return Flow::Next;
        }
        let sz = t.size();
        let shape = "the LayerNormTiling's shape";
        let mut failed = too_small(cx, "LayerNorm", "inputX", self.x, x_size * sz, shape)
            || too_small(cx, "LayerNorm", "output", self.output, x_size * sz, shape)
            || too_small(cx, "LayerNorm", "gamma", self.gamma, h * sz, shape)
            || too_small(cx, "LayerNorm", "beta", self.beta, h * sz, shape)
            || too_small(cx, "LayerNorm", "outputMean", mean_h, mv_size * sz, shape)
            || too_small(cx, "LayerNorm", "outputVariance", var_h, mv_size * sz, shape);
        if let Some(tmp) = self.tmp {
            failed = failed
                || too_small(
                    cx,
                    "LayerNorm",
                    "sharedTmpBuffer",
                    tmp,
                    tmp_floats * 4,
                    "the LayerNormTiling's tmpBufSize",
                );
        }
        if failed {
            return Flow::Next;
        }
        let Some((gamma, g_init)) = read_at(cx, self.gamma, 0, h, t, "LayerNorm") else {
            return Flow::Next;
        };
        let Some((beta, b_init)) = read_at(cx, self.beta, 0, h, t, "LayerNorm") else {
            return Flow::Next;
        };
        let eps = t.to_f64(cx.value_as(self.epsilon, t)) as f32;
        // (loopRound, inputRoundSize, meanVarRoundSize, bsCurLength, inputTailSize, inputTailPos, meanVarTailPos)
        let plan = [f[4], f[5], f[8], f[12], f[6], f[7], f[10]];
        if let Err(why) = plan_fits(&plan, f[9], h as u64, x_size as u64) {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "LayerNorm's tiling plans passes that {why}: GetLayerNormNDTilingInfo never fills such a tiling"
                ),
            );
            return Flow::Next;
        }
        // every pass's rows x hLength, computed in float (the library Casts half first)
        let rounds = passes(&plan, f[9] as usize);
        let rows: usize = rounds.iter().map(|p| p.2).sum();
        crate::timing::vector_pass(cx.core, (rows * h) as u64, 4);
        crate::timing::library_shape(
            cx.core,
            crate::timing::library::Shape {
                kind: crate::timing::library::Kind::LayerNorm,
                rows: rows as u64,
                cols: h as u64,
                real: h as u64,
                blocks: rounds.len() as u64,
                inner: 0,
                elem: t.size() as u64,
            },
        );
        for (in_off, mv_off, rows) in passes(&plan, f[9] as usize) {
            let Some((x, x_init)) = read_at(cx, self.x, in_off, rows * h, t, "LayerNorm") else {
                return Flow::Next;
            };
            let mut y = Vec::with_capacity(rows * h);
            let (mut means, mut vars) = (Vec::with_capacity(rows), Vec::with_capacity(rows));
            for row in x.chunks(h) {
                let (m, v) = mean_variance(row, recip);
                y.extend(plain_row(row, m, v, eps, &gamma, &beta));
                means.push(m);
                vars.push(v);
            }
            let init = x_init && g_init && b_init;
            write_at(cx, self.output, in_off, &y, t, init, "LayerNorm");
            write_at(cx, mean_h, mv_off, &means, t, x_init, "LayerNorm");
            write_at(cx, var_h, mv_off, &vars, t, x_init, "LayerNorm");
        }
        Flow::Next
    }
}
