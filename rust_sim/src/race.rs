//! Intra-core pipe races (ASC965), a happens-before check in the spirit of Miri's data-race detector.
//!
//! The simulator runs each core's pipes eagerly in issue order, so a kernel that reads UB with the scalar unit
//! right after an MTE2 copy into it computes the right numbers here, yet races on hardware, where the pipes
//! run concurrently. This module keeps, per core, a vector clock per pipe (S, V, M, MTE1, MTE2, MTE3, FIX) and
//! orders accesses the way the hardware does:
//! - one pipe runs its instructions in order (same-pipe accesses never race);
//! - the scalar unit issues every instruction, so whatever S did before issuing an instruction to a pipe
//!   happens before it (S -> X is ordered by issue); X -> S is not;
//! - SetFlag on a pipe releases its clock and the matching WaitFlag acquires it (the queue ops' flags too:
//!   EnQue/DeQue and FreeTensor/AllocTensor are SetFlag/WaitFlag on the queue position's pipes, queue.rs);
//! - PipeBarrier<PIPE_ALL> and SyncAll wait for every pipe: everything before them happens before everything
//!   after.
//!
//! Each local memory (UB, L1, L0A/B/C, BT, FB) has interval shadow memory: per byte run, the last write
//! (pipe, clock, location) and, per pipe, the last read. A conflicting access (one a write) from another pipe
//! that the last one's clock does not order is a finding at the second access's line naming the first.
//!
//! This file holds the clocks (RaceState: issue, flags, barriers, the access check); race/shadow.rs has the
//! shadow memory's byte runs, race/report.rs the finding and its grade (what --cce-auto-sync orders).

use std::collections::{HashMap, VecDeque};

use crate::api::Pipe;
use crate::memory::{MemKind, MEM_KINDS};
use crate::sync::FlagKey;

mod report;
mod shadow;
pub use report::{check, compiler_orders, AutoSync};
use shadow::{record_read, record_write};

/// The pipes with their own instruction stream (PIPE_ALL is a barrier, not a pipe).
pub const NP: usize = 7;
const S: usize = Pipe::S as usize;

type Clock = [u64; NP];

fn join(a: &mut Clock, b: &Clock) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = (*x).max(*y);
    }
}

/// One access: the pipe, its clock then, and where it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Access {
    pipe: u8,
    clock: u64,
    loc: i32,
}

/// A byte run of one memory with the same history.
#[derive(Clone, Debug)]
struct Seg {
    start: usize,
    end: usize,
    write: Option<Access>,
    /// the last read per pipe (clock 0: none)
    reads: [(u64, i32); NP],
}

/// A conflict found: the earlier access, whether it was a write, and the bytes both touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Race {
    pub first_pipe: usize,
    pub first_loc: i32,
    pub first_write: bool,
    pub start: usize,
    pub end: usize,
}

pub struct RaceState {
    pub enabled: bool,
    clocks: [Clock; NP],
    /// S accessed memory since its clock last moved on
    s_dirty: bool,
    /// the clocks SetFlag released, in order, per flag (a flag is a count: each WaitFlag takes the oldest)
    flags: HashMap<FlagKey, VecDeque<Clock>>,
    shadow: [Vec<Seg>; MEM_KINDS],
    /// the pipe of the instruction running now
    pub current: usize,
    /// races found on this instruction's writes, graded once it has run (race_unchanged.rs)
    pub pending: Vec<crate::race_unchanged::PendingWrite>,
}

impl Default for RaceState {
    fn default() -> Self {
        RaceState::new()
    }
}

impl RaceState {
    pub fn new() -> RaceState {
        let mut clocks = [[0u64; NP]; NP];
        for (p, c) in clocks.iter_mut().enumerate() {
            c[p] = 1;
        }
        RaceState {
            enabled: true,
            clocks,
            s_dirty: false,
            flags: HashMap::new(),
            shadow: Default::default(),
            current: S,
            pending: Vec::new(),
        }
    }

    /// The scalar unit issues an instruction to pipe `p`: what S did so far happens before it.
    pub fn issue(&mut self, p: usize) {
        if p == S || p >= NP {
            return;
        }
        let s = self.clocks[S];
        join(&mut self.clocks[p], &s);
        if self.s_dirty {
            self.clocks[S][S] += 1;
            self.s_dirty = false;
        }
    }

    /// SetFlag runs on pipe `p`: the flag carries p's clock.
    pub fn set(&mut self, p: usize, key: FlagKey) {
        if p >= NP {
            return;
        }
        self.flags.entry(key).or_default().push_back(self.clocks[p]);
        self.clocks[p][p] += 1;
        if p == S {
            self.s_dirty = false;
        }
    }

    /// WaitFlag on pipe `p` took the flag: p now comes after what preceded the SetFlag.
    pub fn take(&mut self, p: usize, key: FlagKey) {
        if p >= NP {
            return;
        }
        if let Some(c) = self.flags.get_mut(&key).and_then(|q| q.pop_front()) {
            join(&mut self.clocks[p], &c);
        }
    }

    /// A race graded as a warning because --cce-auto-sync orders it: the compiler puts a SetFlag/WaitFlag pair
    /// from `from` to `to` before the second access, so `to` comes after everything `from` issued so far. Without
    /// it the check would report what follows from that sync as races of its own: a scalar GetValue after an MTE2
    /// copy makes S wait for MTE2, so an MTE3 copy S issues later reads what MTE2 wrote (NPUKernelBench
    /// CoalesceSparse, coalesce_sparse.cpp:162 then :172).
    pub fn assume_compiler_sync(&mut self, from: usize, to: usize) {
        if from >= NP || to >= NP || from == to {
            return;
        }
        let released = self.clocks[from];
        self.clocks[from][from] += 1;
        join(&mut self.clocks[to], &released);
    }

    /// Mmad and Fixpipe (or the L0C DataCopy) with a non-zero unitFlag hand L0C over between PIPE_M and PIPE_FIX
    /// themselves, one 512-byte unit at a time: Fixpipe moves a unit out once the Mmad that accumulates it is
    /// done, and an Mmad writes a unit once the Fixpipe before it has read it. Modelled as the pipe now running
    /// (`to`) coming after the other's (`from`) work so far, as if a flag from `from` had been waited for.
    pub fn unit_handshake(&mut self, from: usize, to: usize) {
        if from >= NP || to >= NP || from == to {
            return;
        }
        let c = self.clocks[from];
        join(&mut self.clocks[to], &c);
        self.clocks[from][from] += 1;
    }

    /// PipeBarrier<PIPE_ALL> or SyncAll: every pipe waits for every other.
    pub fn barrier_all(&mut self) {
        let mut all = [0u64; NP];
        for c in &self.clocks {
            join(&mut all, c);
        }
        for (p, c) in self.clocks.iter_mut().enumerate() {
            *c = all;
            c[p] += 1;
        }
        self.s_dirty = false;
    }

    /// An access of bytes [start, end) of `mem` by the current pipe; returns the first unordered conflict.
    pub fn access(&mut self, mem: MemKind, start: usize, end: usize, write: bool, loc: i32) -> Option<Race> {
        if !self.enabled || end <= start {
            return None;
        }
        let p = self.current.min(NP - 1);
        let me = self.clocks[p];
        let segs = &mut self.shadow[mem as usize];
        let first = segs.partition_point(|s| s.end <= start);
        let mut found = None;
        for seg in segs[first..].iter().take_while(|s| s.start < end) {
            let (lo, hi) = (seg.start.max(start), seg.end.min(end));
            if let Some(w) = seg.write {
                let q = w.pipe as usize;
                if q != p && me[q] < w.clock {
                    found = Some(Race {
                        first_pipe: q,
                        first_loc: w.loc,
                        first_write: true,
                        start: lo,
                        end: hi,
                    });
                    break;
                }
            }
            if write {
                if let Some(q) = (0..NP).find(|&q| q != p && seg.reads[q].0 > me[q]) {
                    found = Some(Race {
                        first_pipe: q,
                        first_loc: seg.reads[q].1,
                        first_write: false,
                        start: lo,
                        end: hi,
                    });
                    break;
                }
            }
        }
        let acc = Access {
            pipe: p as u8,
            clock: me[p],
            loc,
        };
        if p == S {
            // S's accesses are checked, never recorded: S issues every later instruction, so whatever comes
            // after an S access is ordered after it, and what S wrote over is ordered through S's clock. This
            // keeps a scalar loop (GetValue/SetValue per element, in any order) at a lookup per access
            self.s_dirty = true;
        } else if write {
            record_write(segs, first, start, end, acc);
        } else {
            record_read(segs, first, start, end, acc);
        }
        found
    }
}

#[cfg(test)]
#[path = "race_tests.rs"]
mod tests;
