//! Reductions: ReduceSum/Max/Min (count and repeat forms, the pattern forms over a 2-d shape), WholeReduce*,
//! BlockReduce*, PairReduceSum, RepeatReduceSum.
//!
//! Sums add in the hardware's order, each partial rounded to the element type (reduce/order.rs has the order of
//! each API and the evidence; reduce/tree.rs a repeat's tree). Max and Min return
//! the first index of the extreme value; indices are stored as unsigned integers in the element's bits
//! (dst.ReinterpretCast<uint32_t> reads them for float).

use crate::api::{ApiOp, Arg, Args, Pipe, Registry, StackArray};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::{Handle, MemKind, Space};
use crate::program::Sv;
use crate::vector::read_local_f32;
use crate::vector::{check_footprint, geoms, plan, Form, Plan};

pub(crate) mod order;
#[cfg(test)]
mod repeat_tests;
mod tmp;
pub(crate) mod tree;
use order::{ar_row_sum, fold_halves, pair_tree, tree_of_partials};
pub(crate) use order::{mean_of, partials_in_sequence, repeats_then_tree};
use tree::lanes_tree;
pub(crate) use tree::repeat_sum;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Red {
    Sum,
    Max,
    Min,
    Prod,
}

impl Red {
    fn of(name: &str) -> Option<Red> {
        Some(if name.contains("Sum") || name.contains("Mean") {
            Red::Sum
        } else if name.contains("Max") {
            Red::Max
        } else if name.contains("Min") {
            Red::Min
        } else if name.contains("Prod") {
            Red::Prod
        } else {
            return None;
        })
    }

    fn start(self) -> f32 {
        match self {
            Red::Sum => 0.0,
            Red::Prod => 1.0,
            Red::Max => f32::NEG_INFINITY,
            Red::Min => f32::INFINITY,
        }
    }
}

/// (value, index of the first extreme) over `vals`, in f32, rounded to `t` for sums and products.
pub fn reduce_slice(op: Red, t: DType, vals: &[f32]) -> (f32, u32) {
    let mut acc = op.start();
    let mut idx = 0u32;
    for (i, &v) in vals.iter().enumerate() {
        match op {
            Red::Sum => acc += v,
            Red::Prod => acc *= v,
            Red::Max => {
                if v > acc || (v.is_nan() && !acc.is_nan()) || i == 0 {
                    acc = v;
                    idx = i as u32;
                }
            }
            Red::Min => {
                if v < acc || (v.is_nan() && !acc.is_nan()) || i == 0 {
                    acc = v;
                    idx = i as u32;
                }
            }
        }
    }
    (round(t, acc), idx)
}

fn round(t: DType, v: f32) -> f32 {
    crate::vector::binary::round_to(t, v)
}

/// Writes f32 values as elements of `t` at byte `off` of handle `h`, checked.
pub(crate) fn write_vals(cx: &mut Ctx, h: Handle, off: i64, vals: &[f32], t: DType, init: bool, what: &str) -> bool {
    let sz = t.size();
    let Some(at) = cx.range(h, off, (vals.len() * sz) as i64, true, sz, what) else {
        return false;
    };
    let mut bytes = vec![0u8; vals.len() * sz];
    crate::vector::elem::store_f32(t, vals, &mut bytes);
    let flags = vec![init as u8; bytes.len()];
    cx.store_bytes(h, at, &bytes, &flags, t, what);
    true
}

fn write_index(cx: &mut Ctx, h: Handle, off: i64, index: u32, t: DType, init: bool, what: &str) {
    let sz = t.size();
    let Some(at) = cx.range(h, off, sz as i64, true, sz, what) else {
        return;
    };
    let mut bytes = vec![0u8; sz];
    let bits = if sz >= 4 { index as u64 } else { (index as u64) & 0xFFFF };
    t.store_bits(&mut bytes, bits);
    cx.store_bytes(h, at, &bytes, &vec![init as u8; sz], t, what);
}

/// One repeat's computed lanes: (repeat, values, their lanes).
pub(crate) type RepeatValues = (u32, Vec<f32>, Vec<u32>);

/// Values of each repeat's computed lanes, in lane order.
pub(crate) fn per_repeat(cx: &mut Ctx, mem: MemKind, p: &Plan, t: DType) -> (Vec<RepeatValues>, bool) {
    let mut reps: Vec<RepeatValues> = Vec::new();
    let mut init = true;
    for run in &p.runs {
        let (vals, ok) = read_local_f32(cx, mem, run.addr[0] as usize, run.n as usize, t);
        init &= ok;
        let lanes: Vec<u32> = (0..run.n).map(|k| run.lane + k).collect();
        match reps.last_mut() {
            Some((r, v, l)) if *r == run.rep => {
                v.extend(vals);
                l.extend(lanes);
            }
            _ => reps.push((run.rep, vals, lanes)),
        }
    }
    (reps, init)
}

// ---------------------------------------------------------------------------------------------------------
// ReduceSum / ReduceMax / ReduceMin: one result (and an index) for all of src

#[derive(Debug)]
struct Reduce {
    op: Red,
    t: DType,
    dst: u32,
    src: u32,
    form: Form,
    cal_index: Option<Sv>,
    name: String,
}

fn decode_reduce(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let op = Red::of(&a.api).ok_or("not a reduction")?;
    // ReduceSum(dst, src, work, mask, repeatTime, srcRepStride): the source strides only
    let form = if a.overload == "count" {
        Form::Count(a.sv("count")?)
    } else {
        Form::decode(a, "", &[("", "srcRepStride")])?
    };
    Ok(Box::new(Reduce {
        op,
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        form,
        cal_index: a.opt_sv("calIndex")?,
        name: a.api.clone(),
    }))
}

impl ApiOp for Reduce {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        let g = geoms(cx, &[self.src], &[t]);
        let Some(p) = plan(cx, &self.form, &g, &self.name) else {
            return Flow::Next;
        };
        let Some(mem) = check_footprint(cx, &g, &p.runs, &["src"], &self.name) else {
            return Flow::Next;
        };
        if p.elements == 0 {
            cx.report(code::INVALID_OPERAND, format!("{} of no elements", self.name));
            return Flow::Next;
        }
        let (reps, init) = per_repeat(cx, mem, &p, t);
        if self.op == Red::Sum {
            let val = self.sum(t, &reps, p.lanes);
            if matches!(self.form, Form::Count(_)) {
                // the 2201 count form is one vcadd in mode 1: it leaves the sum in ACC_VAL, which kernels read
                // with GetAccVal<T>() (dav_c220/kernel_operator_vec_reduce_impl.h:167-178)
                let mut bytes = vec![0u8; t.size()];
                crate::vector::elem::store_f32(t, &[val], &mut bytes);
                cx.core.acc_val = t.load_bits(&bytes);
            }
            let dst = cx.handle(self.dst);
            write_vals(cx, dst, 0, &[val], t, init, &self.name);
            return Flow::Next;
        }
        // level 1: each repeat (a count form is cut into repeats); then the per-repeat results, a repeat's worth
        // at a time
        let lanes = p.lanes;
        let mut level: Vec<(f32, u32)> = Vec::new();
        for (r, v, l) in &reps {
            if matches!(self.form, Form::Count(_)) {
                for (k, chunk) in v.chunks(lanes).enumerate() {
                    let (val, i) = reduce_slice(self.op, t, chunk);
                    level.push((val, (k * lanes) as u32 + i));
                }
            } else {
                let (val, i) = reduce_slice(self.op, t, v);
                level.push((val, *r * lanes as u32 + l.get(i as usize).copied().unwrap_or(0)));
            }
        }
        while level.len() > 1 {
            level = level
                .chunks(lanes)
                .map(|c| {
                    let vals: Vec<f32> = c.iter().map(|x| x.0).collect();
                    let (val, i) = reduce_slice(self.op, t, &vals);
                    (val, c[i as usize].1)
                })
                .collect();
        }
        let (val, index) = level[0];
        let dst = cx.handle(self.dst);
        if !write_vals(cx, dst, 0, &[val], t, init, &self.name) {
            return Flow::Next;
        }
        if matches!(self.op, Red::Max | Red::Min) && self.cal_index.is_some_and(|c| cx.uint(c) != 0) {
            write_index(cx, dst, t.size() as i64, index, t, init, &self.name);
        }
        Flow::Next
    }
}

impl Reduce {
    /// ReduceSum's value: each repeat's tree (a count form cut into repeats of `lanes` elements), then the
    /// per-repeat results in sequence (the count form: method 2 on A2/A3) or as trees again (the mask form:
    /// method 1).
    fn sum(&self, t: DType, reps: &[RepeatValues], lanes: usize) -> f32 {
        let mut firsts: Vec<f32> = Vec::new();
        for (_, v, l) in reps {
            if matches!(self.form, Form::Count(_)) {
                firsts.extend(v.chunks(lanes).map(|c| pair_tree(t, c)));
            } else {
                firsts.push(repeat_sum(t, v, l));
            }
        }
        if matches!(self.form, Form::Count(_)) {
            partials_in_sequence(t, &firsts)
        } else {
            tree_of_partials(t, &firsts, lanes)
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// WholeReduce*, BlockReduce*, PairReduceSum: per repeat

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Per {
    Whole,
    Block,
    Pair,
}

#[derive(Debug)]
struct RepeatReduce {
    op: Red,
    per: Per,
    t: DType,
    dst: u32,
    src: u32,
    form: Form,
    dst_rep: Sv,
    order: Option<String>,
    order_reg: Option<Sv>,
    name: String,
}

fn decode_repeat_reduce(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    // RepeatReduceSum (the deprecated name) is ReduceRepeatCommon<SUM>, the same call as WholeReduceSum: one sum
    // per repeat at dst + r * dstRepStride elements (asc-devkit kernel_operator_vec_reduce_intf_impl.h). Its
    // operands are read by name, so the other order (repeatTime before mask) needs nothing; dstBlkStride is
    // ignored: the library never passes it on, and the docs' change list (附录/接口变更说明.md) drops it as
    // a parameter without effect.
    let per = if a.api.starts_with("Whole") || a.api == "RepeatReduceSum" {
        Per::Whole
    } else if a.api.starts_with("Block") {
        Per::Block
    } else {
        Per::Pair
    };
    let (order, order_reg) = match a.get("order") {
        Some(Arg::Name(n)) => (Some(n.rsplit("::").next().unwrap_or(n).to_string()), None),
        Some(Arg::Reg(sv)) => (None, Some(*sv)),
        _ => (None, None),
    };
    Ok(Box::new(RepeatReduce {
        op: Red::of(&a.api).ok_or("not a reduction")?,
        per,
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        form: Form::decode(a, "", &[("srcBlkStride", "srcRepStride")])?,
        dst_rep: a.sv("dstRepStride")?,
        order,
        order_reg,
        name: a.api.clone(),
    }))
}

impl ApiOp for RepeatReduce {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        let sz = t.size() as i64;
        let g = geoms(cx, &[self.src], &[t]);
        let Some(p) = plan(cx, &self.form, &g, &self.name) else {
            return Flow::Next;
        };
        let Some(mem) = check_footprint(cx, &g, &p.runs, &["src"], &self.name) else {
            return Flow::Next;
        };
        let (reps, init) = per_repeat(cx, mem, &p, t);
        let dst = cx.handle(self.dst);
        let dst_rep = cx.uint(self.dst_rep) as i64;
        let order = match (&self.order, self.order_reg) {
            (Some(o), _) => o.clone(),
            (None, Some(r)) => [
                "ORDER_VALUE_INDEX",
                "ORDER_INDEX_VALUE",
                "ORDER_ONLY_VALUE",
                "ORDER_ONLY_INDEX",
            ][(cx.uint(r) as usize).min(3)]
            .to_string(),
            _ => "ORDER_VALUE_INDEX".to_string(),
        };
        let epb = 32 / t.size();
        if self.per == Per::Whole && matches!(self.op, Red::Max | Red::Min) {
            set_max_min_cnt(cx, self.op, t, &reps, p.lanes);
        }
        for (r, vals, lanes) in &reps {
            match self.per {
                Per::Whole => {
                    let (val, i) = reduce_slice(self.op, t, vals);
                    let lane = lanes.get(i as usize).copied().unwrap_or(0);
                    if self.op == Red::Sum {
                        let val = repeat_sum(t, vals, lanes);
                        write_vals(cx, dst, *r as i64 * dst_rep * sz, &[val], t, init, &self.name);
                        continue;
                    }
                    match order.as_str() {
                        "ORDER_ONLY_VALUE" => {
                            write_vals(cx, dst, *r as i64 * dst_rep * sz, &[val], t, init, &self.name);
                        }
                        "ORDER_ONLY_INDEX" => {
                            write_index(cx, dst, *r as i64 * dst_rep * 4, lane, DType::U32, init, &self.name);
                        }
                        "ORDER_INDEX_VALUE" => {
                            let base = *r as i64 * dst_rep * 2 * sz;
                            write_index(cx, dst, base, lane, t, init, &self.name);
                            write_vals(cx, dst, base + sz, &[val], t, init, &self.name);
                        }
                        _ => {
                            let base = *r as i64 * dst_rep * 2 * sz;
                            write_vals(cx, dst, base, &[val], t, init, &self.name);
                            write_index(cx, dst, base + sz, lane, t, init, &self.name);
                        }
                    }
                }
                Per::Block => {
                    // one result per 32-byte block of the repeat: 8 results
                    let mut out = Vec::new();
                    for b in 0..8u32 {
                        let sel: Vec<f32> = vals
                            .iter()
                            .zip(lanes)
                            .filter(|(_, l)| **l / epb as u32 == b)
                            .map(|(v, _)| *v)
                            .collect();
                        out.push(if sel.is_empty() {
                            0.0
                        } else if self.op == Red::Sum {
                            // the block's tree of adjacent pairs, lanes at their places in the block
                            let at: Vec<u32> = lanes
                                .iter()
                                .filter(|l| **l / epb as u32 == b)
                                .map(|l| l % epb as u32)
                                .collect();
                            lanes_tree(t, epb, &sel, &at)
                        } else {
                            reduce_slice(self.op, t, &sel).0
                        });
                    }
                    write_vals(cx, dst, *r as i64 * dst_rep * 8 * sz, &out, t, init, &self.name);
                }
                Per::Pair => {
                    // one addition per pair of adjacent lanes (a masked lane adds as zero): no order to choose
                    let half = p.lanes / 2;
                    let mut out = vec![0f32; half];
                    for (v, l) in vals.iter().zip(lanes) {
                        out[*l as usize / 2] += *v;
                    }
                    let out: Vec<f32> = out.iter().map(|v| round(t, *v)).collect();
                    write_vals(
                        cx,
                        dst,
                        *r as i64 * dst_rep * half as i64 * sz,
                        &out,
                        t,
                        init,
                        &self.name,
                    );
                }
            }
        }
        Flow::Next
    }
}

/// WholeReduceMax / WholeReduceMin leave the best value of all their repeats and its index (counted over the
/// repeats' lanes, as in counter mode's one long vector) in the MAX_MIN_CNT register: the value's bits low,
/// the index in the high 32 bits (asc-devkit's GetReduceMaxMinCountImpl reads it that way).
fn set_max_min_cnt(cx: &mut Ctx, op: Red, t: DType, reps: &[RepeatValues], lanes_per_repeat: usize) {
    let mut best: Option<(f32, u64)> = None;
    for (r, vals, lanes) in reps {
        if vals.is_empty() {
            continue;
        }
        let (val, i) = reduce_slice(op, t, vals);
        let index = *r as u64 * lanes_per_repeat as u64 + lanes.get(i as usize).copied().unwrap_or(0) as u64;
        let better = match best {
            None => true,
            Some((b, _)) => match op {
                Red::Max => val > b,
                _ => val < b,
            },
        };
        if better {
            best = Some((val, index));
        }
    }
    if let Some((val, index)) = best {
        let mut bytes = vec![0u8; t.size()];
        crate::vector::elem::store_f32(t, &[val], &mut bytes);
        cx.core.max_min_cnt = Some((index << 32) | t.load_bits(&bytes));
    }
}

/// GetReduceMaxMinCount<T>(value&, index&): the MAX_MIN_CNT register's value and index, each as the bits of
/// a T (the index is an integer reinterpreted, as the kernels read it back with a reinterpret_cast).
#[derive(Debug)]
struct ReadMaxMinCnt {
    t: DType,
    value: Sv,
    index: Option<Sv>,
}

fn decode_max_min_cnt(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let out = |name: &str| match a.get(name) {
        Some(Arg::Out(sv)) => Ok(Some(*sv)),
        None => Ok(None),
        _ => Err(format!("{name} must be a variable the call writes")),
    };
    Ok(Box::new(ReadMaxMinCnt {
        t: a.dtype("T")?,
        value: out("maxMinValue")?.ok_or("maxMinValue missing")?,
        index: out("maxMinIndex")?,
    }))
}

impl ApiOp for ReadMaxMinCnt {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let Some(cnt) = cx.core.max_min_cnt else {
            cx.report(
                code::INVALID_OPERAND,
                "GetReduceMaxMinCount before any WholeReduceMax / WholeReduceMin: the register holds no result"
                    .to_string(),
            );
            return Flow::Next;
        };
        let value_mask = if self.t.size() == 2 { 0xFFFF } else { 0xFFFF_FFFF };
        cx.set(self.value.reg, self.value.ty, cnt & value_mask);
        if let Some(i) = self.index {
            cx.set(i.reg, i.ty, cnt >> 32);
        }
        Flow::Next
    }
}

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

fn decode_pattern(a: &Args) -> Result<Box<dyn ApiOp>, String> {
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

/// The element range a reduce reads, for messages.
pub fn footprint(p: &Plan) -> (i64, i64) {
    let lo = p.runs.iter().map(|r| r.addr[0]).min().unwrap_or(0);
    let hi = p.runs.iter().map(|r| r.addr[0] + r.n as i64).max().unwrap_or(0);
    (lo, hi)
}

pub fn register(r: &mut Registry) {
    r.add_all(
        &["ReduceSum", "ReduceMax", "ReduceMin"],
        &["count", "mask", "bitmask"],
        decode_reduce,
    );
    r.add_all(
        &[
            "WholeReduceSum",
            "WholeReduceMax",
            "WholeReduceMin",
            "BlockReduceSum",
            "BlockReduceMax",
            "BlockReduceMin",
            "PairReduceSum",
            "RepeatReduceSum",
        ],
        &["mask", "bitmask"],
        decode_repeat_reduce,
    );
    r.add_all(&["GetReduceMaxMinCount"], &["value_index", "value"], decode_max_min_cnt);
    r.add_all(
        &["ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd"],
        &["pattern", "pattern_tmp"],
        decode_pattern,
    );
}
