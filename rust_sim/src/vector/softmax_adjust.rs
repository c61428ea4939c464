//! AscendC::AdjustSoftMaxRes<T1, T2, isDataFormatNZ, stepSizeMode>(softMaxRes, maxTensor, from, to, shapeInfo):
//! for each of the srcM rows, the row's max (maxTensor's element at row * 8 for float, row * 16 for half, the
//! first of its 32-byte block; row * 1 with stepSizeMode != 0) compared bit for bit with `from` (its low 16 bits
//! for half); where equal, the row's srcK elements of softMaxRes set to `to`. Returns whether any row was. (The
//! library's ND form on the 220x chips, asc-devkit softmax_common_impl.h, read for the facts; kernels use it
//! to zero the rows a mask left all -inf, `from` = 0xFF7FFFFF.) The NZ form is reported as not modelled.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::Space;
use crate::program::Sv;

#[derive(Debug)]
struct AdjustSoftMaxRes {
    res_t: DType,
    max_t: DType,
    nz: bool,
    step_one: bool,
    res: u32,
    max: u32,
    from: Sv,
    to: Sv,
    rows: Sv,
    cols: Sv,
    result: Option<Sv>,
}

fn flag(a: &Args, name: &str) -> bool {
    a.targ(name).is_some_and(|v| !matches!(v, "false" | "0" | ""))
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(AdjustSoftMaxRes {
        res_t: a.dtype("T1")?,
        max_t: a.dtype("T2")?,
        nz: flag(a, "isDataFormatNZ"),
        step_one: flag(a, "stepSizeMode"),
        res: a.handle("softMaxRes")?,
        max: a.handle("maxTensor")?,
        from: a.sv("from")?,
        to: a.sv("to")?,
        rows: a.field("softmaxShapeInfo", "srcM")?,
        cols: a.field("softmaxShapeInfo", "srcK")?,
        result: a.result_sv(),
    }))
}

/// The rows whose max element (`maxes[r * step]`, as raw bits of `size` bytes) equals `from`'s bits.
pub fn matching_rows(maxes: &[u8], size: usize, rows: usize, step: usize, from: u32) -> Vec<usize> {
    (0..rows)
        .filter(|&r| {
            let at = r * step * size;
            let bits = match size {
                2 => u16::from_le_bytes([maxes[at], maxes[at + 1]]) as u32,
                _ => u32::from_le_bytes([maxes[at], maxes[at + 1], maxes[at + 2], maxes[at + 3]]),
            };
            bits == if size == 2 { from & 0xffff } else { from }
        })
        .collect()
}

impl ApiOp for AdjustSoftMaxRes {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let what = "AdjustSoftMaxRes";
        if self.nz {
            cx.report(code::NOT_MODELLED, format!("{what} on NZ-format data is not simulated"));
            return Flow::Stop;
        }
        let msz = self.max_t.size();
        if !matches!(msz, 2 | 4) {
            cx.report(
                code::INVALID_OPERAND,
                format!("{what}'s maxTensor must be half or float"),
            );
            return Flow::Next;
        }
        let (rows, cols) = (cx.uint(self.rows) as usize, cx.uint(self.cols) as usize);
        let step = if self.step_one { 1 } else { 32 / msz };
        let found = if rows == 0 {
            Vec::new()
        } else {
            let max = cx.handle(self.max);
            let need = ((rows - 1) * step + 1) * msz;
            let Some(at) = cx.range(max, 0, need as i64, false, msz, what) else {
                return Flow::Next;
            };
            let Space::Local(mem) = max.space else {
                return Flow::Next;
            };
            let from = cx.uint(self.from) as u32;
            let local = cx.local(mem);
            matching_rows(&local.data.as_slice()[at..at + need], msz, rows, step, from)
        };
        let t = self.res_t;
        let sz = t.size();
        let bits = cx.value_as(self.to, t).to_le_bytes();
        let row: Vec<u8> = (0..cols).flat_map(|_| bits[..sz].iter().copied()).collect();
        crate::timing::vector_pass(cx.core, (found.len() * cols) as u64, sz as u64);
        let res = cx.handle(self.res);
        for &r in &found {
            if let Some(d) = cx.range(res, (r * cols * sz) as i64, row.len() as i64, true, sz, what) {
                cx.store_bytes(res, d, &row, &vec![1u8; row.len()], t, what);
            }
        }
        if let Some(sv) = self.result {
            cx.set(sv.reg, sv.ty, !found.is_empty() as u64);
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add("AdjustSoftMaxRes.plain", decode);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_match_by_bits_at_their_block() {
        // float maxes, one 8-float block per row: rows 0 and 2 hold -FLT_MAX (0xFF7FFFFF)
        let mut maxes = vec![0u8; 3 * 8 * 4];
        for r in [0usize, 2] {
            maxes[r * 32..r * 32 + 4].copy_from_slice(&0xFF7F_FFFFu32.to_le_bytes());
        }
        // row 1's block holds it past its first element: not read
        maxes[32 + 4..32 + 8].copy_from_slice(&0xFF7F_FFFFu32.to_le_bytes());
        assert_eq!(matching_rows(&maxes, 4, 3, 8, 0xFF7F_FFFF), vec![0, 2]);
        // one element per row (stepSizeMode): elements 0, 1, 2 are rows 0, 1, 2
        assert_eq!(matching_rows(&maxes, 4, 3, 1, 0xFF7F_FFFF), vec![0]);
        // half: the low 16 bits of `from`
        let hmax = [0xffu8, 0xfb, 0, 0];
        assert_eq!(matching_rows(&hmax, 2, 2, 1, 0x1234_FBFF), vec![0]);
    }
}
