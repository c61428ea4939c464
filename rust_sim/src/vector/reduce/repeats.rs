//! The per-repeat reductions: WholeReduce* (one value per repeat, Max / Min with its index), BlockReduce* (one
//! per 32-byte block), PairReduceSum (one per pair of lanes), RepeatReduceSum; and the MAX_MIN_CNT register
//! WholeReduceMax / Min leave and GetReduceMaxMinCount reads.

use super::*;

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

pub(super) fn decode_repeat_reduce(a: &Args) -> Result<Box<dyn ApiOp>, String> {
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

pub(super) fn decode_max_min_cnt(a: &Args) -> Result<Box<dyn ApiOp>, String> {
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
