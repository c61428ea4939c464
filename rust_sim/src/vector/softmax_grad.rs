//! SoftmaxGrad and SoftmaxGradFront (high-level API) on an ND [srcM, srcK] tile.
//!
//! The API pages (SoftmaxGrad atlasascendc_api_07_0757, SoftmaxGradFront _0759): per row, the sum of
//! grad * src; SoftmaxGradFront, and SoftmaxGrad with isFront, write that sum filled over one 32-byte block per
//! row ([m, 8] for float, [m, 16] for half); SoftmaxGrad without isFront writes (grad - sum) * src over the
//! whole tile. The library computes in float (half inputs cast up, the result cast back).

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::Space;
use crate::program::Sv;
use crate::vector::elem::{load_f32, store_f32};

#[derive(Debug)]
struct SoftmaxGrad {
    t: DType,
    dst: u32,
    grad: u32,
    src: u32,
    /// SoftmaxGradFront, or SoftmaxGrad's isFront operand
    front: Option<Sv>,
    always_front: bool,
    rows: Option<Sv>,
    cols: Option<Sv>,
    ori_cols: Option<Sv>,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(SoftmaxGrad {
        t: a.dtype("T")?,
        dst: a.handle("dstTensor")?,
        grad: a.handle("gradTensor")?,
        src: a.handle("srcTensor")?,
        front: a.opt_sv("isFront")?,
        always_front: a.api == "SoftmaxGradFront",
        rows: a.opt_field("softmaxShapeInfo", "srcM")?,
        cols: a.opt_field("softmaxShapeInfo", "srcK")?,
        ori_cols: a.opt_field("softmaxShapeInfo", "oriSrcK")?,
    }))
}

/// Each row's sum of grad * src over its first `ori` columns; then either those sums filled over `block`
/// elements per row (front) or (grad - sum) * src over every column.
pub fn softmax_grad(
    grad: &[f32],
    src: &[f32],
    rows: usize,
    cols: usize,
    ori: usize,
    front: bool,
    block: usize,
) -> Vec<f32> {
    let sums: Vec<f32> = (0..rows)
        .map(|r| {
            let (g, s) = (&grad[r * cols..r * cols + ori], &src[r * cols..r * cols + ori]);
            g.iter().zip(s).map(|(a, b)| a * b).sum()
        })
        .collect();
    if front {
        return sums.iter().flat_map(|&s| std::iter::repeat_n(s, block)).collect();
    }
    (0..rows * cols).map(|i| (grad[i] - sums[i / cols]) * src[i]).collect()
}

/// `n` elements of `t` from the local tensor in handle register `h`, as f32, and whether all were written.
pub(super) fn read(cx: &mut Ctx, h: u32, n: usize, t: DType, what: &str) -> Option<(Vec<f32>, bool)> {
    let sz = t.size();
    let hd = cx.handle(h);
    let at = cx.range(hd, 0, (n * sz) as i64, false, sz, what)?;
    let Space::Local(mem) = hd.space else {
        return None;
    };
    let local = cx.local(mem);
    let mut v = vec![0f32; n];
    load_f32(t, &local.data.as_slice()[at..at + n * sz], &mut v);
    Some((v, crate::memory::all_ones(&local.init[at..at + n * sz])))
}

impl ApiOp for SoftmaxGrad {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let what = if self.always_front {
            "SoftmaxGradFront"
        } else {
            "SoftmaxGrad"
        };
        // the SoftMaxShapeInfo argument when it sets srcM and srcK, else the source tensor's ShapeInfo, as the
        // library reads them (softmax_grad_base_impl.h)
        let given = match (self.rows, self.cols) {
            (Some(m), Some(k)) => Some((cx.uint(m) as usize, cx.uint(k) as usize)).filter(|&(m, k)| m > 0 && k > 0),
            _ => None,
        };
        let (rows, cols, ori) = match given {
            Some((m, k)) => (m, k, self.ori_cols.map(|v| cx.uint(v) as usize)),
            None => match crate::vector::softmax_flash::tensor_shape(cx, self.src) {
                Some(found) => found,
                None => {
                    cx.report(
                        code::NOT_MODELLED,
                        format!(
                            "{what} without its shape: the simulator takes the rows and columns from the \
                             SoftMaxShapeInfo argument, else from the source tensor's ShapeInfo (SetShapeInfo), as \
                             the library does; this call has neither (the SoftMaxTiling alone does not say them)"
                        ),
                    );
                    return Flow::Stop;
                }
            },
        };
        let t = self.t;
        let sz = t.size();
        let ori = ori.filter(|&v| v > 0 && v <= cols).unwrap_or(cols);
        let n = rows * cols;
        crate::timing::vector_pass(cx.core, n as u64, sz as u64);
        let (Some((grad, gi)), Some((src, si))) = (read(cx, self.grad, n, t, what), read(cx, self.src, n, t, what))
        else {
            return Flow::Next;
        };
        let front = self.always_front || self.front.is_some_and(|f| cx.uint(f) != 0);
        let out = softmax_grad(&grad, &src, rows, cols, ori, front, 32 / sz);
        let mut bytes = vec![0u8; out.len() * sz];
        store_f32(t, &out, &mut bytes);
        let dst = cx.handle(self.dst);
        if let Some(d) = cx.range(dst, 0, bytes.len() as i64, true, sz, what) {
            cx.store_bytes(dst, d, &bytes, &vec![(gi && si) as u8; bytes.len()], t, what);
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["SoftmaxGrad", "SoftmaxGradFront"], &["plain", "tmp"], decode);
}

#[cfg(test)]
mod tests {
    use super::softmax_grad;

    #[test]
    fn row_sums_of_grad_times_src_then_the_gradient() {
        // 2 rows of 4: sums 1*0.1 + 2*0.2 + 3*0.3 + 4*0.4 = 3.0 and 1*0.25 * 4 = 1.0
        let grad = [1.0, 2.0, 3.0, 4.0, 1.0, 1.0, 1.0, 1.0];
        let src = [0.1, 0.2, 0.3, 0.4, 0.25, 0.25, 0.25, 0.25];
        let front = softmax_grad(&grad, &src, 2, 4, 4, true, 8);
        assert_eq!(front.len(), 16);
        assert!((front[0] - 3.0).abs() < 1e-6 && (front[7] - 3.0).abs() < 1e-6);
        assert!((front[8] - 1.0).abs() < 1e-6);
        let back = softmax_grad(&grad, &src, 2, 4, 4, false, 8);
        let want = [
            (1.0 - 3.0) * 0.1,
            (2.0 - 3.0) * 0.2,
            0.0,
            (4.0 - 3.0) * 0.4,
            0.0,
            0.0,
            0.0,
            0.0,
        ];
        for (g, w) in back.iter().zip(want) {
            assert!((g - w).abs() < 1e-6, "{back:?}");
        }
        // only the first oriSrcK columns are summed: 1*0.1 + 2*0.2 = 0.5
        let part = softmax_grad(&grad, &src, 2, 4, 2, true, 8);
        assert!((part[0] - 0.5).abs() < 1e-6);
    }
}
