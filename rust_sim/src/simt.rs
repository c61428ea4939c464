//! SIMT launches whose threads wait for each other (issue 28): `asc_syncthreads()` and the warp functions
//! (shuffles, votes, reductions) of asc-devkit's SIMT API.
//!
//! The program marks a launch as a region: `rT = simt.begin rN L` ... `L: simt.end`, the code between run once per
//! thread, rT the thread's linear index. Threads that never wait run one after another, each starting from the
//! registers the one before left (a plain loop: no copies). The threads run one at a time on the core's scalar unit,
//! each with its own registers, handles and stack (a C local of the thread is its own), each until it reaches a point
//! where it must wait for others: a barrier (`simt.sync`), a warp function (`simt.<kind>.<ty>`), or the region's end.
//! When no thread can go on, the waits are resolved: a warp whose active threads (those that have not returned) all
//! wait at a warp function gets its results and goes on; when none does and every thread of the launch waits at the
//! barrier, they all go on. Anything else (a thread that returned while others wait at the barrier, threads of one warp
//! waiting at different points) is the hang the hardware has: asc_syncthreads.md says every thread of the block must
//! reach the barrier, or the others block forever (a barrier in a branch is its example). Between two such points a
//! thread's code runs alone, so a thread sees what the threads before it in the round wrote: an order the hardware can
//! take, and the only one a correctly synchronised kernel depends on not at all.
//!
//! A warp is 32 consecutive threads of the linear index (内置变量-145.md: warpSize 32); a lane is the index
//! within it. The functions' results follow the pages of docs/zh/api/SIMT-API/Warp函数/: asc_shfl (the lane
//! src_lane % width of the caller's group of `width` lanes), asc_shfl_up / _down (lane -/+ delta, the caller's
//! own value past its group's start / end), asc_shfl_xor (lane ^ mask, the caller's own value past its
//! group's end), asc_all / asc_any / asc_ballot / asc_activemask over the active lanes, asc_reduce_add / max /
//! min over the active lanes (the sum in lane order, in the value's type). A lane that is not active (past the
//! launch's last thread, or returned) holds an uninitialised register on the hardware: a shuffle reading it
//! gets 0 here and reports ASC952.
//!
//! The SIMT atomics (docs/zh/api/SIMT-API/原子操作/: asc_atomic_add / sub / max / min / exch / cas / inc / dec /
//! and / or / xor on a UB or GM element, returning the value before) are one instruction here: a thread runs
//! alone between the points above and cores one after another, so a read-modify-write is atomic. A GM write is
//! made in the core's atomic mode (max or min, whichever leaves the new value), so that cores updating one
//! element are not a race (ASC953), as they are not on the device.
//!
//! This file holds a launch: its threads' states, simt.begin, the waits and their resolution; simt/warp.rs has the
//! warp functions' results, simt/atomic.rs the atomics.

use crate::checks::{code, Findings, Severity};
use crate::core::{Core, Flow};
use crate::memory::Handle;
use crate::program::{Program, R};

mod atomic;
mod warp;
pub use atomic::{atomic, AtomicKind};
pub use warp::WarpKind;
use warp::{alone, exchange};

pub const WARP: usize = 32;
/// The most threads one launch may have (SIMD与SIMT混合编程简介/编程模型-140.md: a Thread Block holds at most
/// 2048; 核函数配置-147.md: asc_vf_call's threadNums x * y * z <= 2048).
pub const MAX_THREADS: usize = 2048;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Fresh,
    Ready,
    Sync,
    Warp,
    Done,
}

/// What a thread that waits keeps: its registers, handles and stack, the instruction it goes on at, and at a
/// warp function the instruction's index and its operands' values.
struct Thread {
    state: State,
    r: Vec<u64>,
    h: Vec<Handle>,
    stack: Vec<u8>,
    pc: usize,
    at: usize,
    posted: [u64; 3],
}

/// A launch in progress on a core.
pub struct Launch {
    /// the region's first instruction (after simt.begin) and its simt.end
    first: usize,
    end: usize,
    tid: R,
    cur: usize,
    base: (Vec<u64>, Vec<Handle>, Vec<u8>),
    threads: Vec<Thread>,
}

/// `rT = simt.begin rN L`: starts thread 0, or skips the region when there are no threads.
pub fn begin(core: &mut Core, findings: &mut Findings, pc: usize, loc: i32, d: R, n: R, end: u32) -> Flow {
    if core.simt.is_some() {
        not_modelled(
            core,
            findings,
            loc,
            "a SIMT launch inside a SIMT launch's thread".into(),
        );
        return Flow::Stop;
    }
    let count = core.r[n as usize] as i64;
    if count <= 0 {
        return Flow::Jump(end + 1);
    }
    if count > MAX_THREADS as i64 {
        // each thread gets its state here at the start: a count past the documented limit (a dim3 of the
        // element count, or one read from garbage) would be an allocation the process cannot survive
        findings.report(
            code::INVALID_OPERAND,
            Severity::Error,
            loc,
            core.block_idx as i64,
            format!(
                "a SIMT launch of {count} threads: a launch has at most {MAX_THREADS} (编程模型-140.md: \
                 blockDim.x * blockDim.y * blockDim.z <= {MAX_THREADS}; asc_vf_call's threadNums likewise)"
            ),
            Vec::new(),
        );
        return Flow::Stop;
    }
    let base = (core.r.clone(), core.h.clone(), core.stack.clone());
    // the launch is a vector function: the vector unit runs it after the vector instructions issued before it
    // (a Duplicate of the UB the threads then read needs no flag), and those after it after its threads (whose
    // element accesses are the scalar unit's here)
    let (v, s) = (crate::api::Pipe::V as usize, crate::api::Pipe::S as usize);
    core.race.unit_handshake(v, s);
    let threads = (0..count as usize)
        .map(|_| Thread {
            state: State::Fresh,
            r: Vec::new(),
            h: Vec::new(),
            stack: Vec::new(),
            pc: 0,
            at: 0,
            posted: [0; 3],
        })
        .collect();
    core.simt = Some(Box::new(Launch {
        first: pc + 1,
        end: end as usize,
        tid: d,
        cur: 0,
        base,
        threads,
    }));
    core.r[d as usize] = 0;
    Flow::Next
}

/// The running thread stops at `pc` (a barrier, a warp function with its operands' values, or the end).
pub fn wait(core: &mut Core, prog: &Program, findings: &mut Findings, pc: usize, posted: [u64; 3]) -> Flow {
    let Some(mut launch) = core.simt.take() else {
        return alone(core, prog, pc, posted);
    };
    let state = match &prog.code[pc].op {
        crate::program::Op::SimtSync => State::Sync,
        crate::program::Op::SimtWarp { .. } => State::Warp,
        _ => State::Done,
    };
    let cur = launch.cur;
    let t = &mut launch.threads[cur];
    t.state = state;
    t.pc = pc + 1;
    t.at = pc;
    t.posted = posted;
    if state == State::Done {
        t.r = Vec::new();
        t.stack = Vec::new();
    } else {
        t.r = std::mem::take(&mut core.r);
        t.h = std::mem::take(&mut core.h);
        t.stack = std::mem::take(&mut core.stack);
    }
    let next = match (cur + 1..launch.threads.len()).find(|&i| runnable(&launch.threads[i])) {
        Some(i) => i,
        None => match resolve(core, prog, findings, &mut launch, pc) {
            Some(i) => i,
            None if launch.threads.iter().all(|t| t.state == State::Done) => {
                // the launch is over: the core goes on after simt.end with the last thread's registers, as
                // when the threads run one after another (the region yields nothing)
                let (v, s) = (crate::api::Pipe::V as usize, crate::api::Pipe::S as usize);
                core.race.unit_handshake(s, v);
                return Flow::Jump(launch.end as u32 + 1);
            }
            None => {
                if core.r.is_empty() {
                    // the core stops where the hang is: it keeps the launch's registers (nothing runs on)
                    (core.r, core.h, core.stack) = launch.base;
                }
                return Flow::Stop;
            }
        },
    };
    start(core, &mut launch, next);
    let to = launch.threads[next].pc;
    core.simt = Some(launch);
    Flow::Jump(to as u32)
}

fn runnable(t: &Thread) -> bool {
    matches!(t.state, State::Fresh | State::Ready)
}

/// Makes thread `i` the running one: its own registers, or the launch's at its start.
fn start(core: &mut Core, launch: &mut Launch, i: usize) {
    let t = &mut launch.threads[i];
    if t.state == State::Fresh {
        if core.r.is_empty() {
            // the thread before waits with its registers: this one starts from the launch's
            core.r = launch.base.0.clone();
            core.h = launch.base.1.clone();
            core.stack = launch.base.2.clone();
        } // else the thread before returned: its registers are this one's start, as in a plain loop
        core.r[launch.tid as usize] = i as u64;
        t.pc = launch.first;
    } else {
        core.r = std::mem::take(&mut t.r);
        core.h = std::mem::take(&mut t.h);
        core.stack = std::mem::take(&mut t.stack);
    }
    t.state = State::Ready;
    launch.cur = i;
}

/// No thread can run: releases a warp whose active threads all wait at a warp function, else all threads
/// when every one still running waits at the barrier. The first thread released, or None (all done, or a hang
/// reported).
fn resolve(core: &mut Core, prog: &Program, findings: &mut Findings, launch: &mut Launch, pc: usize) -> Option<usize> {
    let n = launch.threads.len();
    let mut first = None;
    for w in (0..n).step_by(WARP) {
        let lanes = w..(w + WARP).min(n);
        let live: Vec<usize> = lanes
            .clone()
            .filter(|&i| launch.threads[i].state != State::Done)
            .collect();
        if live.is_empty() || !live.iter().all(|&i| launch.threads[i].state == State::Warp) {
            continue;
        }
        let at = launch.threads[live[0]].at;
        if live.iter().any(|&i| launch.threads[i].at != at) {
            hang(
                core,
                prog,
                findings,
                pc,
                format!(
                    "the threads of warp {} wait at different warp functions (at {} and {}): a warp's threads meet \
                 at one",
                    w / WARP,
                    prog.where_(prog.code[at].loc),
                    prog.where_(prog.code[launch.threads[*live.iter().find(|&&i| launch.threads[i].at != at)?].at].loc)
                ),
            );
            return None;
        }
        exchange(core, prog, findings, launch, w, &live, at);
        first = first.or(Some(live[0]));
    }
    if first.is_some() {
        return first;
    }
    let live: Vec<usize> = (0..n).filter(|&i| launch.threads[i].state != State::Done).collect();
    if live.is_empty() {
        return None;
    }
    if live.len() == n && live.iter().all(|&i| launch.threads[i].state == State::Sync) {
        for &i in &live {
            launch.threads[i].state = State::Ready;
        }
        return Some(live[0]);
    }
    let waiting = live.iter().filter(|&&i| launch.threads[i].state == State::Sync).count();
    let why = if live.len() < n && waiting > 0 {
        format!(
            "{waiting} of the launch's {n} threads wait at asc_syncthreads, which {} threads that returned never \
             reach (asc_syncthreads.md: every thread of the block must reach it)",
            n - live.len()
        )
    } else {
        format!(
            "{waiting} of the launch's {n} threads wait at asc_syncthreads while {} others wait at a warp function \
             whose warp's other threads never reach it",
            live.len() - waiting
        )
    };
    hang(core, prog, findings, pc, why);
    None
}

fn hang(core: &mut Core, prog: &Program, findings: &mut Findings, pc: usize, why: String) {
    findings.report(
        code::DEADLOCK,
        Severity::Error,
        prog.code[pc].loc,
        core.block_idx as i64,
        format!("the SIMT launch hangs: {why}"),
        Vec::new(),
    );
    core.done = true;
}

fn not_modelled(core: &mut Core, findings: &mut Findings, loc: i32, what: String) {
    findings.report(
        code::NOT_MODELLED,
        Severity::Error,
        loc,
        core.block_idx as i64,
        what,
        Vec::new(),
    );
}

#[cfg(test)]
mod tests {
    use crate::memory::GmRole;
    use crate::test_rig::Rig;

    /// Four threads (r1), GM y (h0) of four int32: `code` runs in the launch with r2 the thread's index (i64),
    /// r3 that as i32, r5 = 1 and r6 = 32 (i64), r9 = 0 (i64).
    fn launch(code: &str) -> crate::test_rig::Out {
        Rig::new(
            "kernel k aiv\nchip 950PR\nmem UB 196608 32\nparam 0 y h0 gm\nregs 16 4\nstack 0\nconst r1 i64 4\n\
             const r5 i64 1\nconst r6 i64 32\nconst r9 i64 0\n",
        )
        .gm(GmRole::Output, vec![0u8; 16])
        .run(&format!(
            "  r2 = simt.begin r1 Lend\n  r3 = trunci.i64.i32 r2\n{code}Lend:\n  simt.end"
        ))
    }

    fn ints(b: &[u8]) -> Vec<i32> {
        b.chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    #[test]
    fn simt_warp_functions_exchange_between_threads() {
        // shfl_xor(t, 1) + reduce_add(t) = (t ^ 1) + 6
        let out = launch(
            "  r4 = simt.shfl_xor.i32 r3 r5 r6\n  r7 = simt.reduce_add.i32 r3\n  r8 = addi.i32 r4 r7\n  \
             SetValue.i32 h0 r2:i64 r8:i32\n",
        );
        assert!(out.codes().is_empty(), "{:?}", out.codes());
        assert_eq!(ints(&out.gm[0]), vec![7, 6, 9, 8]);
    }

    #[test]
    fn simt_shfl_down_past_every_lane_gives_the_own_value() {
        // asc_shfl_down(v, -1): the delta is a uint32_t, so every lane reads past its group's end and keeps its
        // own value (before: the lane plus the delta's 64 bits overflowed, a panic in a debug build)
        let out =
            launch("  r10 = subi.i64 r9 r5\n  r4 = simt.shfl_down.i32 r3 r10 r6\n  SetValue.i32 h0 r2:i64 r4:i32\n");
        assert!(out.codes().is_empty(), "{:?}", out.codes());
        assert_eq!(ints(&out.gm[0]), vec![0, 1, 2, 3]);
    }

    #[test]
    fn simt_launch_past_the_thread_limit_is_an_error() {
        // 2049 threads (one past the documented 2048), and a count no allocation could hold: a finding, no
        // thread runs (before: 2049 ran unreported, and 2^40 aborted the process allocating their states)
        for count in ["2049", "1099511627776"] {
            let out = Rig::new(format!(
                "kernel k aiv\nchip 950PR\nmem UB 196608 32\nparam 0 y h0 gm\nregs 8 4\nstack 0\n\
                 const r1 i64 {count}\nconst r3 i64 0\nconst r5 i32 7\n"
            ))
            .gm(GmRole::Output, vec![0u8; 16])
            .run("  r2 = simt.begin r1 Lend\n  SetValue.i32 h0 r3:i64 r5:i32\nLend:\n  simt.end");
            assert_eq!(out.codes(), vec![crate::checks::code::INVALID_OPERAND], "{count}");
            assert_eq!(ints(&out.gm[0]), vec![0; 4], "{count}");
        }
    }

    #[test]
    fn simt_barrier_a_returned_thread_never_reaches_hangs() {
        // thread 0 skips the barrier the others wait at (asc_syncthreads.md: a deadlock)
        let out = launch("  r10 = cmpi.ne.i64 r2 r9\n  brz r10 Lend\n  simt.sync\n  SetValue.i32 h0 r2:i64 r3:i32\n");
        assert_eq!(out.codes(), vec![crate::checks::code::DEADLOCK]);
    }
}
