//! MrgSort (both forms: MrgSortSrcList with MrgSort4Info, and the list form with elementCountList and
//! sortedNum) and GetMrgSortResult, which reads the counts the last merge took from VMS4_SR.

use super::{flag, merge, proposal_chip, score, vms4_bits, warn_nan, MAX_LIST_LEN, PAIR};
use crate::api::{ApiOp, Arg, Args, Pipe, StackArray};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::Handle;
use crate::program::Sv;
use crate::vector::proposal::{meter, read, sort_type, write, Lengths};

#[derive(Debug)]
struct MrgSort {
    t: DType,
    dst: u32,
    srcs: [u32; 4],
    lengths: Lengths,
    suspend: Suspend,
    valid: Sv,
    repeat: Option<Sv>,
    /// the list form's sortedNum: a uint32_t[4] on the scalar stack
    sorted_num: Option<StackArray>,
}

#[derive(Debug)]
enum Suspend {
    Const(bool),
    Reg(Option<Sv>),
}

pub(super) fn decode_mrgsort_info(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let mut srcs = [0u32; 4];
    for (i, s) in srcs.iter_mut().enumerate() {
        *s = a.handle(&format!("src.src{}", i + 1))?;
    }
    let lengths = Lengths::decode(a, "params.elementLengths", "params")?;
    Ok(Box::new(MrgSort {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        srcs,
        lengths,
        suspend: Suspend::Reg(a.opt_field("params", "ifExhaustedSuspension")?),
        valid: a.field("params", "validBit")?,
        repeat: a.opt_field("params", "repeatTimes")?,
        sorted_num: None,
    }))
}

pub(super) fn decode_mrgsort_lists(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let mut srcs = [0u32; 4];
    for (i, s) in srcs.iter_mut().enumerate() {
        *s = a.handle(&format!("sortList.src{}", i + 1))?;
    }
    let lengths = Lengths::Stack(a.array("elementCountList", 4, 0, "uint16_t[4]")?);
    let sorted_num = a.stack_array("sortedNum").filter(|s| s.len >= 4);
    Ok(Box::new(MrgSort {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        srcs,
        lengths,
        suspend: Suspend::Const(flag(a, "isExhaustedSuspension")),
        valid: a.sv("validBit")?,
        repeat: Some(a.sv("repeatTime")?),
        sorted_num,
    }))
}

impl MrgSort {
    /// validBit, repeatTimes and the lengths, checked; None after reporting.
    fn config(&self, cx: &mut Ctx, what: &str) -> Option<([u64; 4], u64, u64, bool)> {
        let lens = self.lengths.values(cx);
        if let Some(i) = lens.iter().position(|&n| n > MAX_LIST_LEN) {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "{what}: list {} holds {} pairs; a list takes 0 to {MAX_LIST_LEN}",
                    i + 1,
                    lens[i]
                ),
            );
            return None;
        }
        let valid = cx.uint(self.valid);
        if !matches!(valid, 3 | 7 | 15) {
            cx.report(
                code::INVALID_OPERAND,
                format!("{what} with validBit {valid}; it takes 3, 7 or 15 (the first 2, 3 or 4 lists)"),
            );
            return None;
        }
        let suspend = match self.suspend {
            Suspend::Const(b) => b,
            Suspend::Reg(r) => r.map(|s| cx.uint(s) != 0).unwrap_or(false),
        };
        let mut repeat = self.repeat.map(|r| cx.int(r)).unwrap_or(1);
        if !(1..=255).contains(&repeat) {
            cx.report(
                code::INVALID_OPERAND,
                format!("{what} with repeatTimes {repeat}; it takes 1 to 255"),
            );
            return None;
        }
        if repeat > 1 {
            let rec = PAIR as i64;
            let h: Vec<Handle> = self.srcs.iter().map(|&s| cx.handle(s)).collect();
            let contiguous =
                (1..4).all(|i| h[i].space == h[0].space && h[i].addr == h[i - 1].addr + lens[i - 1] as i64 * rec);
            let equal = lens.iter().all(|&n| n == lens[0]);
            if valid != 15 || suspend || !contiguous || !equal {
                cx.warn(
                    code::INVALID_OPERAND,
                    format!(
                        "{what} with repeatTimes {repeat}: it takes effect only with four contiguous lists of equal \
                         length, validBit 15 and no exhausted suspension; this call has {}, so one merge runs",
                        if valid != 15 {
                            format!("validBit {valid}")
                        } else if suspend {
                            "ifExhaustedSuspension set".to_string()
                        } else if !equal {
                            format!("lengths {lens:?}")
                        } else {
                            "lists that are not contiguous".to_string()
                        }
                    ),
                );
                repeat = 1;
            }
        }
        Some((lens, valid, repeat as u64, suspend))
    }
}

impl ApiOp for MrgSort {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let what = "MrgSort";
        if proposal_chip(cx, what) {
            return Flow::Stop;
        }
        let Some(t) = sort_type(cx, self.t, what) else {
            return Flow::Next;
        };
        let Some((lens, valid, repeat, suspend)) = self.config(cx, what) else {
            return Flow::Next;
        };
        let dst = cx.handle(self.dst);
        let srcs: Vec<Handle> = self.srcs.iter().map(|&h| cx.handle(h)).collect();
        let step = lens.iter().sum::<u64>() as i64 * PAIR as i64;
        let (mut total, mut last_taken) = (0u64, [0usize; 4]);
        for r in 0..repeat as i64 {
            let mut data: [Option<(Vec<u8>, Vec<u8>)>; 4] = Default::default();
            for i in 0..4 {
                if valid >> i & 1 == 0 {
                    continue;
                }
                let Some(bytes) = read(cx, srcs[i], r * step, lens[i] as usize * PAIR, what) else {
                    return Flow::Next;
                };
                data[i] = Some(bytes);
            }
            let lists: [Option<&[u8]>; 4] = std::array::from_fn(|i| data[i].as_ref().map(|(d, _)| d.as_slice()));
            let scores: Vec<f64> = lists
                .iter()
                .flatten()
                .flat_map(|l| l.chunks_exact(PAIR).map(|p| score(p, t)))
                .collect();
            warn_nan(cx, &scores, what);
            let (order, taken) = merge(&lists, t, suspend);
            let out_at = dst.addr + r * step;
            let out_len = (order.len() * PAIR) as i64;
            if let Some(i) = (0..4).find(|&i| {
                let s = srcs[i].addr + r * step;
                let n = lens[i] as i64 * PAIR as i64;
                valid >> i & 1 == 1 && srcs[i].space == dst.space && s < out_at + out_len && out_at < s + n
            }) {
                cx.report(
                    code::INVALID_OPERAND,
                    format!(
                        "{what}: the destination (bytes [{out_at}, {})) overlaps source list {} (the API does not \
                         allow source and destination to overlap)",
                        out_at + out_len,
                        i + 1
                    ),
                );
                return Flow::Next;
            }
            let mut out = Vec::with_capacity(order.len() * PAIR);
            let mut flags = Vec::with_capacity(order.len() * PAIR);
            for (i, k) in order {
                let (d, f) = data[i].as_ref().unwrap();
                out.extend_from_slice(&d[k * PAIR..(k + 1) * PAIR]);
                flags.extend_from_slice(&f[k * PAIR..(k + 1) * PAIR]);
            }
            total += (out.len() / PAIR) as u64;
            write(cx, dst, r * step, &out, &flags, t, what);
            last_taken = taken;
        }
        cx.core.vms4_sr = vms4_bits(&last_taken);
        if let (Some(sorted), true) = (self.sorted_num, suspend) {
            for (i, &n) in last_taken.iter().enumerate() {
                sorted.set(cx, i, n as u64);
            }
        }
        meter(cx, repeat, total);
        Flow::Next
    }
}

// ------------------------------------------------------------------------------------------- GetMrgSortResult

#[derive(Debug)]
struct MrgSortResult {
    outs: Vec<Sv>,
}

pub(super) fn decode_result(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let mut outs = Vec::new();
    for i in 1..=4 {
        match a.get(&format!("mrgSortList{i}")) {
            Some(Arg::Out(sv)) => outs.push(*sv),
            other => return Err(format!("mrgSortList{i} {other:?}: a uint16_t variable was expected")),
        }
    }
    Ok(Box::new(MrgSortResult { outs }))
}

impl ApiOp for MrgSortResult {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let sr = cx.core.vms4_sr;
        for (i, sv) in self.outs.iter().enumerate() {
            cx.set(sv.reg, sv.ty, (sr >> (16 * i)) & 0xFFFF);
        }
        Flow::Next
    }
}
