//! The Matmul object's arithmetic: one block of C from the operands the object was given, in the cube's
//! accumulator type (matmul.rs decides which blocks and where they go).

use crate::checks::code;
use crate::core::Ctx;
use crate::cube::matmul::{Block, Operand};
use crate::cube::{c0, read_clamped, Region};
use crate::dtype::DType;

/// Element (i, j) of a row-major (or transposed) ND matrix with `ld` elements per stored row, or of an NZ one
/// whose stored rows are `rows_pad` (a multiple of 16) long.
#[inline]
pub fn nd_or_nz(op: &Operand, i: usize, j: usize, ld: usize, rows_pad: usize) -> usize {
    let (r, c) = if op.trans { (j, i) } else { (i, j) };
    if op.nz {
        let c0 = c0(op.t);
        (c / c0) * rows_pad * c0 + r * c0 + c % c0
    } else {
        r * ld + c
    }
}

/// An element type the product-sum engine takes (f32 for floats, i32 for int8), loaded from bytes.
pub trait Lane: Copy + Default {
    /// `out.len()` elements of `t` from the start of `bytes`.
    fn load(t: DType, bytes: &[u8], out: &mut [Self]);
}

impl Lane for f32 {
    fn load(t: DType, bytes: &[u8], out: &mut [f32]) {
        match t {
            DType::F16 => {
                for (o, c) in out.iter_mut().zip(bytes.chunks_exact(2)) {
                    *o = half::f16::from_bits(u16::from_le_bytes([c[0], c[1]])).to_f32();
                }
            }
            DType::BF16 => {
                for (o, c) in out.iter_mut().zip(bytes.chunks_exact(2)) {
                    *o = f32::from_bits((u16::from_le_bytes([c[0], c[1]]) as u32) << 16);
                }
            }
            DType::F32 => {
                for (o, c) in out.iter_mut().zip(bytes.chunks_exact(4)) {
                    *o = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                }
            }
            _ => {
                let s = t.size();
                for (o, c) in out.iter_mut().zip(bytes.chunks_exact(s)) {
                    *o = t.to_f64(t.load_bits(c)) as f32;
                }
            }
        }
    }
}

impl Lane for i32 {
    fn load(t: DType, bytes: &[u8], out: &mut [i32]) {
        match t {
            DType::I8 => {
                for (o, &c) in out.iter_mut().zip(bytes) {
                    *o = c as i8 as i32;
                }
            }
            _ => {
                let s = t.size();
                for (o, c) in out.iter_mut().zip(bytes.chunks_exact(s)) {
                    *o = t.to_i64(t.load_bits(c)) as i32;
                }
            }
        }
    }
}

/// The `rows x cols` logical matrix of `op` from logical (r0, c0) (A(i, p) or B(p, j)) into `out`, row-major;
/// and whether each logical row and each logical column was all initialised. `shape` is (stored row length,
/// rows of an NZ operand). Untransposed ND rows are contiguous and load in one pass each.
fn gather<V: Lane>(
    op: &Operand,
    reg: &Region,
    (r0, c0): (usize, usize),
    (rows, cols): (usize, usize),
    (ld, rows_pad): (usize, usize),
    out: &mut [V],
) -> (Vec<bool>, Vec<bool>) {
    let sz = op.t.size();
    let all_init = crate::memory::all_ones(&reg.init);
    let mut row_ok = vec![true; rows];
    let mut col_ok = vec![true; cols];
    if !op.trans && !op.nz {
        for r in 0..rows {
            let at = ((r0 + r) * ld + c0) * sz;
            V::load(op.t, &reg.data[at..at + cols * sz], &mut out[r * cols..(r + 1) * cols]);
        }
    } else {
        let mut one = [V::default()];
        for r in 0..rows {
            for c in 0..cols {
                let at = nd_or_nz(op, r0 + r, c0 + c, ld, rows_pad) * sz;
                V::load(op.t, &reg.data[at..at + sz], &mut one);
                out[r * cols + c] = one[0];
            }
        }
    }
    if !all_init {
        for (r, row_flag) in row_ok.iter_mut().enumerate() {
            for (c, col_flag) in col_ok.iter_mut().enumerate() {
                let at = nd_or_nz(op, r0 + r, c0 + c, ld, rows_pad) * sz;
                if !reg.is_init(at, sz) {
                    *row_flag = false;
                    *col_flag = false;
                }
            }
        }
    }
    (row_ok, col_ok)
}

/// Computes the rows x cols block of C at (row, col) of this core's C: bias (or 0, or the partial sum given)
/// plus the k products, in the accumulator type.
pub fn compute(
    cx: &mut Ctx,
    obj: u32,
    row: usize,
    col: usize,
    rows: usize,
    cols: usize,
    partial: Option<Block>,
) -> Option<Block> {
    let m = cx.core.cube.matmuls[&obj].clone();
    let (t, s, org) = m.shape()?;
    let (a, b) = (m.a?, m.b?);
    let k = s[2];
    let acc = crate::cube::accumulator(a.t).unwrap_or(DType::F32);
    if crate::cube::accumulator(b.t) != Some(acc) || a.t.size() != b.t.size() {
        cx.report(
            code::INVALID_OPERAND,
            format!(
                "Matmul of {} x {}: A and B must be the same kind (int8, half, bfloat16_t or float)",
                a.t.name(),
                b.t.name()
            ),
        );
        return None;
    }
    let (org_m, org_n, org_ka, org_kb) = (
        org[0].max(1) as usize,
        org[1].max(1) as usize,
        org[2].max(1) as usize,
        org[3].max(1) as usize,
    );
    // A(i, p): stored M x Ka (row stride Ka), or Ka x M transposed (row stride M)
    let a_ld = if a.trans { org_m } else { org_ka };
    let a_rows = if a.trans {
        org_ka.div_ceil(16) * 16
    } else {
        org_m.div_ceil(16) * 16
    };
    let b_ld = if b.trans { org_kb } else { org_n };
    let b_rows = if b.trans {
        org_n.div_ceil(16) * 16
    } else {
        org_kb.div_ceil(16) * 16
    };
    let (asz, bsz) = (a.t.size(), b.t.size());
    // the span of A and B this block reads, read once each
    let a_last = (row..row + rows)
        .flat_map(|i| {
            [
                nd_or_nz(&a, i, 0, a_ld, a_rows),
                nd_or_nz(&a, i, k.saturating_sub(1), a_ld, a_rows),
            ]
        })
        .max()
        .unwrap_or(0)
        .max(nd_or_nz(
            &a,
            row + rows.saturating_sub(1),
            k.saturating_sub(1),
            a_ld,
            a_rows,
        ));
    let b_last = (col..col + cols)
        .flat_map(|j| {
            [
                nd_or_nz(&b, 0, j, b_ld, b_rows),
                nd_or_nz(&b, k.saturating_sub(1), j, b_ld, b_rows),
            ]
        })
        .max()
        .unwrap_or(0);
    if rows == 0 || cols == 0 {
        return Some(Block {
            row,
            col,
            rows,
            cols,
            acc: Vec::new(),
            init: Vec::new(),
        });
    }
    let ar = if k == 0 {
        None
    } else {
        Some(read_clamped(
            cx,
            a.h,
            0,
            ((a_last + 1) * asz) as i64,
            asz,
            "Matmul (matrix A)",
        )?)
    };
    let br = if k == 0 {
        None
    } else {
        Some(read_clamped(
            cx,
            b.h,
            0,
            ((b_last + 1) * bsz) as i64,
            bsz,
            "Matmul (matrix B)",
        )?)
    };
    let mut row_init = vec![true; rows];
    let mut col_init = vec![true; cols];
    let mut init = vec![true; rows * cols];
    let use_bias = !m.bias_off && m.bias.is_some() && partial.is_none();
    let _ = t;
    let bias_vals: Option<(Vec<f64>, Vec<bool>)> = if use_bias {
        let bop = m.bias.unwrap();
        let bs = bop.t.size();
        let r = read_clamped(cx, bop.h, (col * bs) as i64, (cols * bs) as i64, bs, "Matmul (bias)")?;
        Some((
            (0..cols).map(|j| crate::cube::elem_f64(bop.t, &r.data, j)).collect(),
            (0..cols).map(|j| r.is_init(j * bs, bs)).collect(),
        ))
    } else {
        None
    };
    let mut out: Vec<u32>;
    if acc == DType::I32 {
        let (mut av, mut bv) = (vec![0i32; rows * k], vec![0i32; k * cols]);
        if let (Some(ar), Some(br)) = (&ar, &br) {
            row_init = gather(&a, ar, (row, 0), (rows, k), (a_ld, a_rows), &mut av).0;
            col_init = gather(&b, br, (0, col), (k, cols), (b_ld, b_rows), &mut bv).1;
        }
        let mut cv = vec![0i32; rows * cols];
        if let Some(p) = &partial {
            for (c, v) in cv.iter_mut().zip(&p.acc) {
                *c = *v as i32;
            }
        } else if let Some((bias, _)) = &bias_vals {
            for i in 0..rows {
                for j in 0..cols {
                    cv[i * cols + j] = bias[j] as i32;
                }
            }
        }
        crate::cube::gemm_i32(rows, cols, k, &av, &bv, &mut cv);
        out = cv.iter().map(|v| *v as u32).collect();
    } else {
        let (mut av, mut bv) = (vec![0f32; rows * k], vec![0f32; k * cols]);
        if let (Some(ar), Some(br)) = (&ar, &br) {
            row_init = gather(&a, ar, (row, 0), (rows, k), (a_ld, a_rows), &mut av).0;
            col_init = gather(&b, br, (0, col), (k, cols), (b_ld, b_rows), &mut bv).1;
        }
        let mut cv = vec![0f32; rows * cols];
        if let Some(p) = &partial {
            for (c, v) in cv.iter_mut().zip(&p.acc) {
                *c = f32::from_bits(*v);
            }
        } else if let Some((bias, _)) = &bias_vals {
            for i in 0..rows {
                for j in 0..cols {
                    cv[i * cols + j] = bias[j] as f32;
                }
            }
        }
        crate::cube::gemm_f32(rows, cols, k, &av, &bv, &mut cv);
        out = cv.iter().map(|v| v.to_bits()).collect();
    }
    if out.len() != rows * cols {
        out.resize(rows * cols, 0);
    }
    for i in 0..rows {
        for j in 0..cols {
            let mut ok = row_init[i] && col_init[j];
            if let Some((_, bi)) = &bias_vals {
                ok &= bi[j];
            }
            if let Some(p) = &partial {
                ok &= p.init.get(i * cols + j).copied().unwrap_or(false);
            }
            init[i * cols + j] = ok;
        }
    }
    Some(Block {
        row,
        col,
        rows,
        cols,
        acc: out,
        init,
    })
}
