//! ReduceSum/Max/Min/Prod<T, pattern>(dst, src, srcShape[2], srcInnerPad): over a [rows, cols] tensor, along
//! the last axis or the first.

use super::*;

// ---------------------------------------------------------------------------------------------------------
// ReduceSum/Max/Min/Prod<T, pattern>(dst, src, srcShape[2], srcInnerPad): over a [rows, cols] tensor

#[derive(Debug)]
struct PatternReduce {
    op: Red,
    t: DType,
    dst: u32,
    src: u32,
    /// the sharedTmpBuffer, when the call passes one (else the library takes UB the TPipe left)
    tmp: Option<u32>,
    reuse_source: bool,
    /// srcShape, (rows, columns)
    shape: StackArray,
    inner_pad: Option<Sv>,
    last_axis: bool,
    name: String,
}

pub(super) fn decode_pattern(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let pattern = a.targ("pattern").unwrap_or("AR");
    let shape = a.array("srcShape", 0, 0, "uint32_t[2] array")?;
    Ok(Box::new(PatternReduce {
        op: Red::of(&a.api).ok_or("not a reduction")?,
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        tmp: if a.overload == "pattern_tmp" {
            Some(a.handle("sharedTmpBuffer")?)
        } else {
            None
        },
        reuse_source: matches!(a.targ("isReuseSource"), Some("true" | "1")),
        shape,
        inner_pad: a.opt_sv("srcInnerPad")?,
        last_axis: pattern.ends_with("AR"),
        name: a.api.clone(),
    }))
}

impl ApiOp for PatternReduce {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        let sz = t.size();
        let [rows, cols] = self.shape.first(cx, u64::MAX).map(|n| n as usize);
        if !self.tmp_fits(cx, rows as u64, cols as u64) {
            return Flow::Stop;
        }
        let padded = self.inner_pad.is_none_or(|p| cx.uint(p) != 0);
        let stride = if padded {
            (cols * sz).div_ceil(32) * 32 / sz
        } else {
            cols
        };
        let src = cx.handle(self.src);
        let total = if rows == 0 { 0 } else { (rows - 1) * stride + cols };
        let Some(s) = cx.range(src, 0, (total * sz) as i64, false, sz, &self.name) else {
            return Flow::Next;
        };
        let Space::Local(mem) = src.space else {
            return Flow::Next;
        };
        let (vals, init) = read_local_f32(cx, mem, s, total, t);
        let sum = self.op == Red::Sum;
        let out: Vec<f32> = if self.last_axis {
            (0..rows)
                .map(|r| {
                    let row = &vals[r * stride..r * stride + cols];
                    if sum {
                        ar_row_sum(t, row)
                    } else {
                        reduce_slice(self.op, t, row).0
                    }
                })
                .collect()
        } else {
            (0..cols)
                .map(|c| {
                    let col: Vec<f32> = (0..rows).map(|r| vals[r * stride + c]).collect();
                    if sum {
                        fold_halves(t, &col)
                    } else {
                        reduce_slice(self.op, t, &col).0
                    }
                })
                .collect()
        };
        let dst = cx.handle(self.dst);
        write_vals(cx, dst, 0, &out, t, init, &self.name);
        Flow::Next
    }
}

impl PatternReduce {
    /// Checks the temporary space against the library's minimum (tmp.rs); false (reported) when it is short.
    fn tmp_fits(&self, cx: &mut Ctx, rows: u64, cols: u64) -> bool {
        let need = tmp::min_tmp_bytes(
            self.op,
            self.t.size() as u64,
            self.last_axis,
            rows,
            cols,
            self.reuse_source,
        ) as i64;
        if need == 0 {
            return true;
        }
        let Some((have, place)) = crate::queue::tmp_space(cx, self.tmp) else {
            return true;
        };
        if have >= need {
            // the library writes the buffer's first `need` bytes: one placed past the end of UB faults there
            return match self.tmp {
                Some(h) => {
                    let th = cx.handle(h);
                    let what = format!("{}'s temporary buffer", self.name);
                    cx.range(th, 0, need, true, 1, &what).is_some()
                }
                None => true,
            };
        }
        let code = if self.tmp.is_some() {
            code::INVALID_OPERAND
        } else {
            code::LOCAL_OUT_OF_BOUNDS
        };
        let pattern = if self.last_axis { "AR" } else { "RA" };
        cx.report(
            code,
            format!(
                "{}<{pattern}> over [{rows}, {cols}] needs at least {need} bytes of temporary space \
                 (GetReduce{}MaxMinTmpSize's minimum; the documented contract: no less than it), and {place} holds \
                 {have}: the library's partial results run past it",
                self.name,
                self.name.trim_start_matches("Reduce")
            ),
        );
        false
    }
}
