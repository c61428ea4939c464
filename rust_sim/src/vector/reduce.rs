//! Reductions: ReduceSum/Max/Min (count and repeat forms, the pattern forms over a 2-d shape), WholeReduce*,
//! BlockReduce*, PairReduceSum, RepeatReduceSum.
//!
//! Sums add in the hardware's order, each partial rounded to the element type (reduce/order.rs has the order of
//! each API and the evidence; reduce/tree.rs a repeat's tree). Max and Min return
//! the first index of the extreme value; indices are stored as unsigned integers in the element's bits
//! (dst.ReinterpretCast<uint32_t> reads them for float).
//!
//! This file holds what the reductions share and ReduceSum/Max/Min's count and repeat forms; reduce/repeats.rs
//! has the per-repeat reductions (WholeReduce*, BlockReduce*, PairReduceSum, RepeatReduceSum, the MAX_MIN_CNT
//! register), reduce/pattern.rs the pattern forms.

use crate::api::{ApiOp, Arg, Args, Pipe, Registry, StackArray};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::{Handle, MemKind, Space};
use crate::program::Sv;
use crate::vector::read_local_f32;
use crate::vector::{check_footprint, geoms, plan, Form, Plan};

pub(crate) mod order;
mod pattern;
#[cfg(test)]
mod repeat_tests;
mod repeats;
mod tmp;
pub(crate) mod tree;
use order::{ar_row_sum, fold_halves, pair_tree, tree_of_partials};
pub(crate) use order::{mean_of, partials_in_sequence, repeats_then_tree};
use pattern::decode_pattern;
use repeats::{decode_max_min_cnt, decode_repeat_reduce};
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
