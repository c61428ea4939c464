//! The warp functions (shuffles, votes, reductions): their kinds in the program text and their results, for the
//! active lanes of a warp that all wait at one (the rules are in simt.rs's comment).

use super::{Launch, State, WARP};
use crate::checks::{code, Findings, Severity};
use crate::core::{Core, Flow};
use crate::dtype::STy;
use crate::program::Program;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpKind {
    Shfl,
    ShflUp,
    ShflDown,
    ShflXor,
    All,
    Any,
    Ballot,
    ActiveMask,
    ReduceAdd,
    ReduceMax,
    ReduceMin,
    ReduceMaxU,
    ReduceMinU,
}

impl WarpKind {
    /// The opcode's middle part (`simt.shfl_up.f32`) and how many operands it takes.
    pub fn parse(name: &str) -> Option<(WarpKind, usize)> {
        Some(match name {
            "shfl" => (WarpKind::Shfl, 3),
            "shfl_up" => (WarpKind::ShflUp, 3),
            "shfl_down" => (WarpKind::ShflDown, 3),
            "shfl_xor" => (WarpKind::ShflXor, 3),
            "all" => (WarpKind::All, 1),
            "any" => (WarpKind::Any, 1),
            "ballot" => (WarpKind::Ballot, 1),
            "activemask" => (WarpKind::ActiveMask, 0),
            "reduce_add" => (WarpKind::ReduceAdd, 1),
            "reduce_max" => (WarpKind::ReduceMax, 1),
            "reduce_min" => (WarpKind::ReduceMin, 1),
            "reduce_umax" => (WarpKind::ReduceMaxU, 1),
            "reduce_umin" => (WarpKind::ReduceMinU, 1),
            _ => return None,
        })
    }
}

/// The results of the warp function the active lanes `live` of the warp starting at thread `w` wait at.
pub(super) fn exchange(
    core: &mut Core,
    prog: &Program,
    findings: &mut Findings,
    launch: &mut Launch,
    w: usize,
    live: &[usize],
    at: usize,
) {
    let crate::program::Op::SimtWarp { kind, ty, d, .. } = &prog.code[at].op else {
        return;
    };
    let value = |i: usize| launch.threads[i].posted[0] & ty.mask();
    let active: u64 = live.iter().map(|&i| 1u64 << (i - w)).sum();
    let mut results = Vec::with_capacity(live.len());
    let mut inactive_read = None;
    for &i in live {
        let lane = i - w;
        let [_, arg, width] = launch.threads[i].posted;
        let width = if (1..=WARP as u64).contains(&width) {
            width as usize
        } else {
            WARP
        };
        let group = lane - lane % width;
        let src = match kind {
            WarpKind::Shfl => Some(group + (arg as i64).rem_euclid(width as i64) as usize),
            WarpKind::ShflUp => Some(lane.checked_sub(arg as usize).filter(|&s| s >= group).unwrap_or(lane)),
            WarpKind::ShflDown => Some(
                // (a delta past any lane, `-1` as the uint32_t the API takes, gives the caller's own value)
                lane.checked_add(arg as usize)
                    .filter(|&s| s < group + width)
                    .unwrap_or(lane),
            ),
            WarpKind::ShflXor => Some(
                Some(lane ^ (arg as usize & (WARP - 1)))
                    .filter(|&s| s < group + width)
                    .unwrap_or(lane),
            ),
            _ => None,
        };
        let bits = match (kind, src) {
            (_, Some(s)) if active >> s & 1 == 1 => value(w + s),
            (_, Some(s)) => {
                inactive_read = inactive_read.or(Some((lane, s)));
                0
            }
            (WarpKind::All, _) => live.iter().all(|&j| value(j) != 0) as u64,
            (WarpKind::Any, _) => live.iter().any(|&j| value(j) != 0) as u64,
            (WarpKind::Ballot, _) => live.iter().filter(|&&j| value(j) != 0).map(|&j| 1u64 << (j - w)).sum(),
            (WarpKind::ActiveMask, _) => active,
            (_, None) => reduce(*kind, *ty, live.iter().map(|&j| value(j))),
        };
        results.push(bits & ty.mask());
    }
    for (&i, bits) in live.iter().zip(results) {
        let t = &mut launch.threads[i];
        t.r[*d as usize] = bits;
        t.state = State::Ready;
    }
    if let Some((lane, src)) = inactive_read {
        findings.report(
            code::UNINITIALISED_READ,
            Severity::Error,
            prog.code[at].loc,
            core.block_idx as i64,
            format!(
                "lane {lane} of warp {} reads lane {src}, which is not active (past the launch's threads, or \
                 returned): its register holds no value the kernel set (read as 0 here)",
                w / WARP
            ),
            Vec::new(),
        );
    }
}

/// asc_reduce_add / max / min over the values, in the value's type (a sum wraps in an integer type; floats sum
/// in lane order, each step rounded to the type; umax / umin: uint32_t's order).
fn reduce(kind: WarpKind, ty: STy, values: impl Iterator<Item = u64>) -> u64 {
    use crate::scalar::{float_bin, int_bin, FloatBin, IntBin};
    let op_f = match kind {
        WarpKind::ReduceAdd => FloatBin::Add,
        WarpKind::ReduceMax | WarpKind::ReduceMaxU => FloatBin::Maxnum,
        _ => FloatBin::Minnum,
    };
    let op_i = match kind {
        WarpKind::ReduceAdd => IntBin::Add,
        WarpKind::ReduceMax => IntBin::MaxS,
        WarpKind::ReduceMaxU => IntBin::MaxU,
        WarpKind::ReduceMinU => IntBin::MinU,
        _ => IntBin::MinS,
    };
    values
        .reduce(|a, b| {
            if ty.is_float() {
                float_bin(op_f, ty, a, b)
            } else {
                int_bin(op_i, ty, a, b).unwrap_or(0)
            }
        })
        .unwrap_or(0)
}

/// A warp function outside any launch (a `__simt_vf__` function called directly): one active lane.
pub(super) fn alone(core: &mut Core, prog: &Program, pc: usize, posted: [u64; 3]) -> Flow {
    if let crate::program::Op::SimtWarp { kind, ty, d, .. } = &prog.code[pc].op {
        let v = posted[0] & ty.mask();
        core.r[*d as usize] = match kind {
            WarpKind::All | WarpKind::Any => (v != 0) as u64,
            WarpKind::Ballot => (v != 0) as u64,
            WarpKind::ActiveMask => 1,
            _ => v,
        };
    }
    Flow::Next
}
