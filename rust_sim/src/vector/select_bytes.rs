//! SelectWithBytesMask (the high-level byte-mask Select): per element of a [firstAxis, srcLastAxis] source,
//! the tensor's element or the scalar, chosen by a mask tensor of whole elements (not bits).
//!
//! The API page (SelectWithBytesMask, 高阶API 数据过滤): where the mask's value is 0 the element comes from
//! src0, otherwise from src1; one operand is a tensor, the other a scalar. The mask has the source's rows
//! (firstAxis) and at least its columns: each mask row is maskLastAxis elements long, and the columns past
//! srcLastAxis are not used. Source and dst rows are srcLastAxis elements long. The library compares the mask
//! (cast to half) with 0, so any non-zero value of the mask's type U selects src1.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::Space;
use crate::program::Sv;

#[derive(Debug)]
struct SelectBytes {
    t: DType,
    u: DType,
    dst: u32,
    tensor: u32,
    scalar: Sv,
    /// whether the scalar is src1 (tensor_scalar: mask 0 picks the tensor) or src0 (scalar_tensor)
    scalar_is_src1: bool,
    mask: u32,
    rows: Sv,
    src_cols: Sv,
    mask_cols: Sv,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let scalar_is_src1 = a.overload == "tensor_scalar";
    let (tensor, scalar) = if scalar_is_src1 {
        (a.handle("src0")?, a.sv("src1")?)
    } else {
        (a.handle("src1")?, a.sv("src0")?)
    };
    Ok(Box::new(SelectBytes {
        t: a.dtype("T")?,
        u: a.dtype("U")?,
        dst: a.handle("dst")?,
        tensor,
        scalar,
        scalar_is_src1,
        mask: a.handle("mask")?,
        rows: a.field("info", "firstAxis")?,
        src_cols: a.field("info", "srcLastAxis")?,
        mask_cols: a.field("info", "maskLastAxis")?,
    }))
}

/// The chosen bits, element by element: `mask[r * mask_cols + c] == 0` picks src0.
pub fn select_rows(
    tensor: &[u64],
    scalar: u64,
    scalar_is_src1: bool,
    mask: &[u64],
    rows: usize,
    cols: usize,
    mask_cols: usize,
) -> Vec<u64> {
    let mut out = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let m = mask[r * mask_cols + c] != 0;
            out.push(if m == scalar_is_src1 {
                scalar
            } else {
                tensor[r * cols + c]
            });
        }
    }
    out
}

impl ApiOp for SelectBytes {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let (t, u) = (self.t, self.u);
        let (sz, usz) = (t.size(), u.size());
        let rows = cx.uint(self.rows) as usize;
        let cols = cx.uint(self.src_cols) as usize;
        let mask_cols = cx.uint(self.mask_cols) as usize;
        if mask_cols < cols {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "SelectWithBytesMask with maskLastAxis {mask_cols} < srcLastAxis {cols}: each mask row must \
                     cover a source row"
                ),
            );
            return Flow::Next;
        }
        let n = rows * cols;
        let what = "SelectWithBytesMask";
        let src = cx.handle(self.tensor);
        let mask = cx.handle(self.mask);
        let (Some(s), Some(m)) = (
            cx.range(src, 0, (n * sz) as i64, false, sz, what),
            cx.range(mask, 0, (rows * mask_cols * usz) as i64, false, usz, what),
        ) else {
            return Flow::Next;
        };
        let (Space::Local(smem), Space::Local(mmem)) = (src.space, mask.space) else {
            return Flow::Next;
        };
        let (tensor, tensor_init): (Vec<u64>, Vec<u8>) = {
            let local = cx.local(smem);
            let bytes = &local.data.as_slice()[s..s + n * sz];
            (
                bytes.chunks_exact(sz).map(|b| t.load_bits(b)).collect(),
                local.init[s..s + n * sz].to_vec(),
            )
        };
        let (mask_vals, mask_init): (Vec<u64>, bool) = {
            let local = cx.local(mmem);
            let bytes = &local.data.as_slice()[m..m + rows * mask_cols * usz];
            (
                bytes.chunks_exact(usz).map(|b| u.load_bits(b)).collect(),
                crate::memory::all_ones(&local.init[m..m + rows * mask_cols * usz]),
            )
        };
        let mut scalar = vec![0u8; sz];
        crate::vector::elem::store_f32(t, &[cx.float(self.scalar) as f32], &mut scalar);
        let chosen = select_rows(
            &tensor,
            t.load_bits(&scalar),
            self.scalar_is_src1,
            &mask_vals,
            rows,
            cols,
            mask_cols,
        );
        let mut bytes = vec![0u8; n * sz];
        for (b, v) in bytes.chunks_exact_mut(sz).zip(&chosen) {
            t.store_bits(b, *v);
        }
        let init: Vec<u8> = tensor_init.iter().map(|&f| f & mask_init as u8).collect();
        let dst = cx.handle(self.dst);
        if let Some(d) = cx.range(dst, 0, bytes.len() as i64, true, sz, what) {
            cx.store_bytes(dst, d, &bytes, &init, t, what);
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["SelectWithBytesMask"], &["tensor_scalar", "scalar_tensor"], decode);
}

#[cfg(test)]
mod tests {
    use super::select_rows;

    #[test]
    fn mask_zero_picks_src0_and_extra_mask_columns_are_unused() {
        // 2 rows of 3 source columns, mask rows of 4 (the 4th column ignored)
        let tensor = [10, 11, 12, 20, 21, 22];
        let mask = [0, 1, 0, 9, 5, 0, 0, 0];
        // tensor_scalar: src0 is the tensor, src1 the scalar 99: non-zero mask -> 99
        assert_eq!(
            select_rows(&tensor, 99, true, &mask, 2, 3, 4),
            vec![10, 99, 12, 99, 21, 22]
        );
        // scalar_tensor: src0 is the scalar: zero mask -> 99
        assert_eq!(
            select_rows(&tensor, 99, false, &mask, 2, 3, 4),
            vec![99, 11, 99, 20, 99, 99]
        );
    }
}
