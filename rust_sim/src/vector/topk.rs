//! AscendC::TopK on the A2/A3 parts (arch 2201), Normal mode, by its API page: for each of topKInfo.outter rows of
//! topKInfo.inner elements (n of them real, the rest the caller's padding, all sorted as the library sorts them),
//! the k largest (isLargest, the default) or smallest values and their indices.
//!
//! - The row is sorted as Sort32 + MrgSort sort it (vector/sort.rs): largest first, equal values by position; for
//!   the smallest the library sorts -x the same way, so equal values still come by position. Values are written as
//!   they were in the source (the library negates twice).
//! - Indices: the element's position 0..inner-1, or with isInitIndex the srcIndexLocal entry at that position (one
//!   row of inner indices, shared by all rows, as the library passes it to Sort32 without a row offset).
//! - Output rows are k_pad long: k rounded up to 32 bytes (8 float or int32, 16 half); the elements past k are
//!   left as they were (the page: not filled).
//! - With isHasfinish, a row whose finishLocal byte is true gets index n for all k.
//!
//! The TopkTiling (host-computed layout of the library's tmp buffer) is not read: the result does not depend on it.
//! Where the page sets a contract on it, it is checked: a tmpLocal below GetTopKMaxMinTmpSize's minimum on 220x
//! (16 bytes an inner element, 20 without isInitIndex, which has the library generate the index row there) is
//! ASC959, as the library lays the tmp buffer out past its end; without a tmpLocal, the UB after the TPipe's
//! buffers (where the library takes its space) below that minimum is an out-of-bounds write (ASC951).
//!
//! Small mode (TOPK_NSMALL; asc-devkit topk_common_impl.h / topk_v220_impl.h): rows of exactly 32 elements, each
//! sorted whole by Sort32 (topKInfo.n is not read), the k (1..32) first picked out by GatherMask with reduceMode
//! over outter repeats, so the outputs are packed, row r's k values and indices at r * k (no k_pad). Indices are
//! the position 0..31, or with isInitIndex srcIndexLocal's entry at r * 32 + position (Sort32 takes one index row
//! per row here). isHasfinish is not allowed (the page). The tmp minimum: 8 bytes an element (the pairs) + 64 (the
//! patterns), + 4 an element for the smallest (the negated copy), + 4 generating the indices.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::proposal::{read, read_for_update, sort_type, write};
use crate::vector::sort::{before, score};

/// The library's limit on inner in Normal mode.
pub const NORMAL_INNER_MAX: i64 = 4096;

#[derive(Debug)]
struct TopK {
    t: DType,
    init_index: bool,
    has_finish: bool,
    small: bool,
    dst_value: u32,
    dst_index: u32,
    src: u32,
    src_index: u32,
    finish: u32,
    /// the tmp overload's tmpLocal
    tmp: Option<u32>,
    k: Sv,
    outter: Sv,
    inner: Sv,
    n: Sv,
    largest: Option<Sv>,
}

fn flag(a: &Args, name: &str) -> bool {
    a.targ(name).is_some_and(|v| !matches!(v, "false" | "0" | ""))
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let mode = a.targ("topkMode").unwrap_or("");
    Ok(Box::new(TopK {
        t: a.dtype("T")?,
        init_index: flag(a, "isInitIndex"),
        has_finish: flag(a, "isHasfinish"),
        small: mode.contains("NSMALL") || mode == "1",
        dst_value: a.handle("dstValueLocal")?,
        dst_index: a.handle("dstIndexLocal")?,
        src: a.handle("srcLocal")?,
        src_index: a.handle("srcIndexLocal")?,
        finish: a.handle("finishLocal")?,
        tmp: a.handle("tmpLocal").ok(),
        k: a.sv("k")?,
        outter: a.field("topKInfo", "outter")?,
        inner: a.field("topKInfo", "inner")?,
        n: a.field("topKInfo", "n")?,
        largest: a.opt_sv("isLargest")?,
    }))
}

/// The positions of the `k` first of `row` (values of one row), largest first (or smallest with `!largest`), equal
/// values by position.
pub fn top_positions(row: &[f64], k: usize, largest: bool) -> Vec<usize> {
    let key: Vec<f64> = row.iter().map(|&v| if largest { v } else { -v }).collect();
    let mut idx: Vec<usize> = (0..row.len()).collect();
    idx.sort_by(|&a, &b| {
        if before(key[a], key[b]) {
            std::cmp::Ordering::Less
        } else if before(key[b], key[a]) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    idx.truncate(k);
    idx
}

/// GetTopKMaxMinTmpSize's minimum (its maximum too) for Normal mode on the 220x chips, in bytes (asc-devkit
/// topk_tiling_impl.cpp): 16 bytes an inner element, 4 more without isInitIndex.
pub fn normal_min_tmp_bytes(inner: usize, init_index: bool) -> usize {
    inner * if init_index { 16 } else { 20 }
}

/// k rounded up to 32 bytes of `size`-byte elements.
pub fn k_pad(k: usize, size: usize) -> usize {
    let per = 32 / size;
    k.div_ceil(per) * per
}

impl TopK {
    /// Whether the temporary space holds `need` bytes: the tmp overload's tmpLocal (ASC959 below it), or without
    /// one the UB after the TPipe's buffers, where the library takes it (ASC951 below it: it writes past the end
    /// of UB). Reports otherwise.
    fn tmp_fits(&self, cx: &mut Ctx, what: &str, need: usize, why: &str) -> bool {
        if let Some(tmp) = self.tmp {
            return !crate::vector::sizes::too_small(cx, what, "tmpLocal", tmp, need, why);
        }
        let Some((have, place)) = crate::queue::tmp_space(cx, None) else {
            return true;
        };
        if have >= need as i64 {
            return true;
        }
        cx.report(
            code::LOCAL_OUT_OF_BOUNDS,
            format!(
                "{what} needs {need} bytes of temporary space ({why}); {place} holds {have}: the library writes \
                 past the end of UB. Leave that much UB free, or pass a tmpLocal"
            ),
        );
        false
    }

    /// outter, inner, n and k, checked against the page's limits; None after reporting.
    fn shape(&self, cx: &mut Ctx, what: &str) -> Option<(usize, usize, usize, usize)> {
        let (outter, inner, n, k) = (cx.int(self.outter), cx.int(self.inner), cx.int(self.n), cx.int(self.k));
        let problem = if outter < 1 {
            Some(format!("topKInfo.outter is {outter}"))
        } else if inner < 32 || inner % 32 != 0 || inner > NORMAL_INNER_MAX {
            Some(format!(
                "topKInfo.inner is {inner}; Normal mode takes a multiple of 32 up to {NORMAL_INNER_MAX}"
            ))
        } else if !(1..=inner).contains(&n) {
            Some(format!("topKInfo.n is {n}; it takes 1 to inner ({inner})"))
        } else if !(1..=n).contains(&k) {
            Some(format!("k is {k}; it takes 1 to n ({n})"))
        } else {
            None
        };
        if let Some(p) = problem {
            cx.report(code::INVALID_OPERAND, format!("{what}: {p}"));
            return None;
        }
        Some((outter as usize, inner as usize, n as usize, k as usize))
    }
}

impl ApiOp for TopK {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let what = "TopK";
        if matches!(cx.prog.chip.as_str(), "310P" | "910") {
            cx.report(
                code::NOT_MODELLED,
                format!(
                    "{what} on the {} (its region-proposal form) is not simulated",
                    cx.prog.chip
                ),
            );
            return Flow::Stop;
        }
        let Some(t) = sort_type(cx, self.t, what) else {
            return Flow::Next;
        };
        if self.small {
            return self.exec_small(cx, t);
        }
        let Some((outter, inner, n, k)) = self.shape(cx, what) else {
            return Flow::Next;
        };
        {
            let need = normal_min_tmp_bytes(inner, self.init_index);
            let why = format!(
                "Normal mode over rows of {inner} (GetTopKMaxMinTmpSize's minimum{})",
                if self.init_index {
                    ""
                } else {
                    ", with the index row isInitIndex false generates"
                }
            );
            if !self.tmp_fits(cx, what, need, &why) {
                return Flow::Next;
            }
        }
        let size = t.size();
        let largest = self.largest.map(|l| cx.uint(l) != 0).unwrap_or(true);
        let src = cx.handle(self.src);
        let Some((data, d_init)) = read(cx, src, 0, outter * inner * size, what) else {
            return Flow::Next;
        };
        let index_row = if self.init_index {
            let h = cx.handle(self.src_index);
            let Some(found) = read(cx, h, 0, inner * 4, what) else {
                return Flow::Next;
            };
            Some(found)
        } else {
            None
        };
        let finished = if self.has_finish {
            let h = cx.handle(self.finish);
            let Some((bytes, _)) = read(cx, h, 0, outter, what) else {
                return Flow::Next;
            };
            bytes.iter().map(|&b| b != 0).collect()
        } else {
            vec![false; outter]
        };
        let (vpad, ipad) = (k_pad(k, size), k_pad(k, 4));
        let (dv, di) = (cx.handle(self.dst_value), cx.handle(self.dst_index));
        let Some((mut vals, mut v_init)) = read_for_update(cx, dv, outter * vpad * size, what) else {
            return Flow::Next;
        };
        let Some((mut idxs, mut i_init)) = read_for_update(cx, di, outter * ipad * 4, what) else {
            return Flow::Next;
        };
        let mut nan = false;
        for r in 0..outter {
            let row: Vec<f64> = (0..inner).map(|i| score(&data[(r * inner + i) * size..], t)).collect();
            nan |= row.iter().any(|v| v.is_nan());
            for (slot, &p) in top_positions(&row, k, largest).iter().enumerate() {
                let (from, to) = ((r * inner + p) * size, (r * vpad + slot) * size);
                vals[to..to + size].copy_from_slice(&data[from..from + size]);
                v_init[to..to + size].copy_from_slice(&d_init[from..from + size]);
                let at = (r * ipad + slot) * 4;
                let (index, known) = match (&index_row, finished[r]) {
                    (_, true) => ((n as u32).to_le_bytes(), [1u8; 4]),
                    (Some((bytes, init)), false) => (
                        bytes[p * 4..p * 4 + 4].try_into().unwrap(),
                        init[p * 4..p * 4 + 4].try_into().unwrap(),
                    ),
                    (None, false) => ((p as u32).to_le_bytes(), [1u8; 4]),
                };
                idxs[at..at + 4].copy_from_slice(&index);
                i_init[at..at + 4].copy_from_slice(&known);
            }
        }
        if nan {
            cx.warn(
                code::INVALID_OPERAND,
                format!("{what}: a NaN value; where the hardware sorts it is not documented (here below every number)"),
            );
        }
        write(cx, dv, 0, &vals, &v_init, t, what);
        write(cx, di, 0, &idxs, &i_init, DType::I32, what);
        if let Some(m) = crate::timing::meter(cx.core) {
            let groups = (outter * inner).div_ceil(32) as u64;
            m.vector(groups, (outter * inner) as u64);
        }
        Flow::Next
    }
}

/// GetTopKMaxMinTmpSize's minimum for Small mode on the 220x chips, in bytes (topk_tiling_impl.cpp): `elems`
/// (inner * outter) sorted pairs of 8 bytes and the 64-byte GatherMask pattern block, 4 bytes an element more for
/// the negated copy (isLargest false) and 4 more for the generated index rows (isInitIndex false).
pub fn small_min_tmp_bytes(elems: usize, largest: bool, init_index: bool) -> usize {
    elems * (8 + if largest { 0 } else { 4 } + if init_index { 0 } else { 4 }) + 64
}

/// Small mode's result for one row of 32 scores: the positions of its k first (largest, or smallest with
/// `!largest`), equal values by position, as Sort32 orders them.
pub fn small_row(row: &[f64], k: usize, largest: bool) -> Vec<usize> {
    top_positions(row, k, largest)
}

impl TopK {
    fn exec_small(&self, cx: &mut Ctx, t: DType) -> Flow {
        let what = "TopK (Small mode)";
        let (outter, inner, k) = (cx.int(self.outter), cx.int(self.inner), cx.int(self.k));
        let problem = if self.has_finish {
            Some("isHasfinish must be false in Small mode".to_string())
        } else if inner != 32 {
            Some(format!("topKInfo.inner is {inner}; Small mode takes exactly 32"))
        } else if outter < 1 {
            Some(format!("topKInfo.outter is {outter}"))
        } else if !(1..=32).contains(&k) {
            Some(format!("k is {k}; Small mode takes 1 to 32"))
        } else {
            None
        };
        if let Some(p) = problem {
            cx.report(code::INVALID_OPERAND, format!("{what}: {p}"));
            return Flow::Next;
        }
        let (outter, inner, k) = (outter as usize, inner as usize, k as usize);
        let largest = self.largest.map(|l| cx.uint(l) != 0).unwrap_or(true);
        let need = small_min_tmp_bytes(outter * inner, largest, self.init_index);
        let why = format!("Small mode over {outter} rows of 32 (GetTopKMaxMinTmpSize's minimum)");
        if !self.tmp_fits(cx, what, need, &why) {
            return Flow::Next;
        }
        let size = t.size();
        let src = cx.handle(self.src);
        let Some((data, d_init)) = read(cx, src, 0, outter * inner * size, what) else {
            return Flow::Next;
        };
        let index_rows = if self.init_index {
            let h = cx.handle(self.src_index);
            let Some(found) = read(cx, h, 0, outter * inner * 4, what) else {
                return Flow::Next;
            };
            Some(found)
        } else {
            None
        };
        let (dv, di) = (cx.handle(self.dst_value), cx.handle(self.dst_index));
        let Some((mut vals, mut v_init)) = read_for_update(cx, dv, outter * k * size, what) else {
            return Flow::Next;
        };
        let Some((mut idxs, mut i_init)) = read_for_update(cx, di, outter * k * 4, what) else {
            return Flow::Next;
        };
        for r in 0..outter {
            let row: Vec<f64> = (0..inner).map(|i| score(&data[(r * inner + i) * size..], t)).collect();
            for (slot, &p) in small_row(&row, k, largest).iter().enumerate() {
                let (from, to) = ((r * inner + p) * size, (r * k + slot) * size);
                vals[to..to + size].copy_from_slice(&data[from..from + size]);
                v_init[to..to + size].copy_from_slice(&d_init[from..from + size]);
                let at = (r * k + slot) * 4;
                let (index, known) = match &index_rows {
                    Some((bytes, init)) => {
                        let q = (r * inner + p) * 4;
                        (bytes[q..q + 4].try_into().unwrap(), init[q..q + 4].try_into().unwrap())
                    }
                    None => ((p as u32).to_le_bytes(), [1u8; 4]),
                };
                idxs[at..at + 4].copy_from_slice(&index);
                i_init[at..at + 4].copy_from_slice(&known);
            }
        }
        write(cx, dv, 0, &vals, &v_init, t, what);
        write(cx, di, 0, &idxs, &i_init, DType::I32, what);
        if let Some(m) = crate::timing::meter(cx.core) {
            m.vector(outter as u64, (outter * inner) as u64);
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["TopK"], &["plain", "tmp"], decode);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_mode_tmp_minimum_and_rows() {
        // 4 rows of 32: 128 pairs of 8 bytes + 64; + 4 * 128 for the smallest, + 4 * 128 generating indices
        assert_eq!(small_min_tmp_bytes(128, true, true), 1088);
        assert_eq!(small_min_tmp_bytes(128, false, false), 2112);
        // one row: 3 at positions 1 and 4 tie: by position; the smallest: -2 (position 2), then 0 (0, 3)
        let mut row = vec![0.0f64; 32];
        row[1] = 3.0;
        row[4] = 3.0;
        row[2] = -2.0;
        row[5] = 1.0;
        assert_eq!(small_row(&row, 3, true), vec![1, 4, 5]);
        assert_eq!(small_row(&row, 3, false), vec![2, 0, 3]);
    }

    #[test]
    fn normal_mode_tmp_minimum() {
        // 64 elements a row: 16 bytes each (the sorted pairs twice), 4 more for a generated index row
        assert_eq!(normal_min_tmp_bytes(64, true), 1024);
        assert_eq!(normal_min_tmp_bytes(64, false), 1280);
    }

    #[test]
    fn largest_first_and_ties_by_position() {
        let row = [1.0, 5.0, 3.0, 5.0, -0.0, 0.0, 9.0];
        assert_eq!(top_positions(&row, 4, true), vec![6, 1, 3, 2]);
        // the smallest: -0 and +0 tie, by position; then 1, 3
        assert_eq!(top_positions(&row, 4, false), vec![4, 5, 0, 2]);
    }

    #[test]
    fn nan_goes_last_either_way() {
        let row = [f64::NAN, 2.0, 1.0];
        assert_eq!(top_positions(&row, 3, true), vec![1, 2, 0]);
        assert_eq!(top_positions(&row, 3, false), vec![2, 1, 0]);
    }

    #[test]
    fn k_pad_is_32_bytes() {
        assert_eq!(k_pad(3, 4), 8);
        assert_eq!(k_pad(8, 4), 8);
        assert_eq!(k_pad(9, 4), 16);
        assert_eq!(k_pad(3, 2), 16);
    }
}
