//! AscendC::SimpleSoftMax(dst, inSumTensor, inMaxTensor, src[, sharedTmpBuffer], tiling, shapeInfo): the softmax
//! of each row with its max and sum given, dst = exp(src - max) / sum over all srcK columns. The max and sum of a
//! row are the first element of its 32-byte block of inMaxTensor / inSumTensor (float for the half/float form).
//! Computed in f32 (half data cast up, the result rounded once), as the library's ND path on the 220x chips
//! does (asc-devkit simple_softmax_common_impl.h, read for the facts: Sub, Exp, Div in float). Rows and columns
//! come from the SoftMaxShapeInfo, else the source tensor's ShapeInfo, as SoftMax's do; the NZ form is reported
//! as not modelled. The sharedTmpBuffer is not touched.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::elem::store_f32;
use crate::vector::softmax::{known_bytes, local_known};

#[derive(Debug)]
struct SimpleSoftMax {
    t: DType,
    stat: DType,
    nz: bool,
    dst: u32,
    sum: u32,
    max: u32,
    src: u32,
    shape: [Option<Sv>; 2],
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let t = a.dtype("T")?;
    let half_float = a.overload.starts_with("half_float");
    Ok(Box::new(SimpleSoftMax {
        t: if half_float { DType::F16 } else { t },
        stat: if half_float { DType::F32 } else { t },
        nz: a.targ("isDataFormatNZ").is_some_and(|v| v == "true" || v == "1"),
        dst: a.handle("dstTensor")?,
        sum: a.handle("inSumTensor")?,
        max: a.handle("inMaxTensor")?,
        src: a.handle("srcTensor")?,
        shape: [
            a.opt_field("softmaxShapeInfo", "srcM")?,
            a.opt_field("softmaxShapeInfo", "srcK")?,
        ],
    }))
}

/// One row: exp(x - max) / sum in f32, in place.
pub fn simple_row(x: &mut [f32], max: f32, sum: f32) {
    for v in x.iter_mut() {
        *v = (*v - max).exp() / sum;
    }
}

fn read(cx: &mut Ctx, h: u32, n: usize, t: DType) -> Option<(Vec<f32>, bool)> {
    crate::vector::read_tensor_f32(cx, h, n, t, "SimpleSoftMax")
}

impl ApiOp for SimpleSoftMax {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let what = "SimpleSoftMax";
        if self.nz {
            cx.report(code::NOT_MODELLED, format!("{what} on NZ-format data is not simulated"));
            return Flow::Stop;
        }
        let given = match self.shape {
            [Some(m), Some(k)] => Some((cx.uint(m) as usize, cx.uint(k) as usize)).filter(|&(m, k)| m > 0 && k > 0),
            _ => None,
        };
        let Some((rows, cols)) =
            given.or_else(|| crate::vector::softmax_flash::tensor_shape(cx, self.src).map(|(m, k, _)| (m, k)))
        else {
            cx.report(
                code::NOT_MODELLED,
                format!(
                    "{what} without its shape: the simulator takes the rows and columns from the SoftMaxShapeInfo \
                     argument, else from the source tensor's ShapeInfo; this call has neither"
                ),
            );
            return Flow::Stop;
        };
        let (t, st) = (self.t, self.stat);
        let per = 32 / st.size();
        let n = rows * cols;
        crate::timing::vector_pass(cx.core, n as u64, t.size() as u64);
        let Some((mut x, _)) = read(cx, self.src, n, t) else {
            return Flow::Next;
        };
        let Some((maxes, _)) = read(cx, self.max, rows * per, st) else {
            return Flow::Next;
        };
        let Some((sums, _)) = read(cx, self.sum, rows * per, st) else {
            return Flow::Next;
        };
        // element by element (every srcK column from its own source and its row's max and sum, as the library's
        // Sub / Exp / Div over srcK do): an unwritten padding column leaves the others known
        let mut known = local_known(cx, self.src, n, t.size());
        let (m_known, s_known) = (
            local_known(cx, self.max, rows * per, st.size()),
            local_known(cx, self.sum, rows * per, st.size()),
        );
        for (e, k) in known.iter_mut().enumerate() {
            let r = e / cols;
            *k &= m_known[r * per] && s_known[r * per];
        }
        for (r, row) in x.chunks_mut(cols).enumerate() {
            simple_row(row, maxes[r * per], sums[r * per]);
        }
        let dst = cx.handle(self.dst);
        let sz = t.size();
        if let Some(d) = cx.range(dst, 0, (n * sz) as i64, true, sz, what) {
            let mut bytes = vec![0u8; n * sz];
            store_f32(t, &x, &mut bytes);
            cx.store_bytes(dst, d, &bytes, &known_bytes(&known, sz), t, what);
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(
        &["SimpleSoftMax"],
        &["plain", "tmp", "half_float", "half_float_tmp"],
        decode,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_uses_the_given_max_and_sum() {
        // max 1, sum 2: exp(0) / 2, exp(-1) / 2
        let mut x = [1.0f32, 0.0];
        simple_row(&mut x, 1.0, 2.0);
        assert!(
            (x[0] - 0.5).abs() < 1e-7 && (x[1] - (-1.0f32).exp() / 2.0).abs() < 1e-7,
            "{x:?}"
        );
    }
}
