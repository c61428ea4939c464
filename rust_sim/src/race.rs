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

use std::collections::{HashMap, VecDeque};

use crate::api::Pipe;
use crate::checks::{code, describe_range, Severity};
use crate::core::Ctx;
use crate::memory::{MemKind, MEM_KINDS};
use crate::sync::{pipe_name, FlagKey};

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

/// Replaces the history of [start, end) by one write (merged into the run before it when that is the same
/// pipe's write at the same clock, as a scalar loop's SetValue element by element).
fn record_write(segs: &mut Vec<Seg>, first: usize, start: usize, end: usize, acc: Access) {
    let mut last = first;
    while last < segs.len() && segs[last].start < end {
        last += 1;
    }
    let mut keep: Vec<Seg> = Vec::new();
    if first < last {
        let head = &segs[first];
        if head.start < start {
            keep.push(Seg {
                end: start,
                ..head.clone()
            });
        }
        let tail = &segs[last - 1];
        let tail_part = (tail.end > end).then(|| Seg {
            start: end,
            ..tail.clone()
        });
        keep.push(fresh(start, end, acc));
        keep.extend(tail_part);
    } else {
        keep.push(fresh(start, end, acc));
    }
    segs.splice(first..last, keep);
    // merge with the neighbour before when it is the same write
    let at = segs.partition_point(|s| s.start < start);
    if at > 0 {
        let (a, b) = (&segs[at - 1], &segs[at]);
        if a.end == b.start && a.write == b.write && a.reads == b.reads {
            let end = b.end;
            segs[at - 1].end = end;
            segs.remove(at);
        }
    }
}

fn fresh(start: usize, end: usize, acc: Access) -> Seg {
    Seg {
        start,
        end,
        write: Some(acc),
        reads: [(0, -1); NP],
    }
}

/// Marks [start, end) read by the access's pipe, splitting runs at the ends; bytes with no history yet get a
/// run of their own (what S wrote there is not recorded, and a later S write must still see this read).
fn record_read(segs: &mut Vec<Seg>, first: usize, start: usize, end: usize, acc: Access) {
    let p = acc.pipe as usize;
    let mut reads = [(0, -1); NP];
    reads[p] = (acc.clock, acc.loc);
    let gap = |start, end| Seg {
        start,
        end,
        write: None,
        reads,
    };
    let mut i = first;
    let mut pos = start;
    while i < segs.len() && segs[i].start < end {
        if segs[i].start > pos {
            // the bytes before this run have no history yet: a run of their own, and go on from its end
            let next = segs[i].start;
            segs.insert(i, gap(pos, next));
            pos = next;
            i += 1;
            continue;
        }
        if segs[i].start < start {
            let mut right = segs[i].clone();
            right.start = start;
            segs[i].end = start;
            segs.insert(i + 1, right);
            i += 1;
            continue;
        }
        if segs[i].end > end {
            let mut right = segs[i].clone();
            right.start = end;
            segs[i].end = end;
            segs.insert(i + 1, right);
        }
        segs[i].reads[p] = (acc.clock, acc.loc);
        pos = segs[i].end;
        i += 1;
    }
    if pos < end {
        segs.insert(i, gap(pos, end));
    }
}

/// What orders a race between two pipes when the kernel itself does not (the grade of its finding).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AutoSync {
    /// the scalar unit and MTE2, MTE3 or V: the compiler's --cce-auto-sync (BiSheng's guide, "Automatic
    /// Synchronization")
    Scalar,
    /// V and MTE2 or MTE3 on UB: documented as the queues' hand-off, not the compiler's, but hardware-passing
    /// kernels built with --cce-auto-sync leave it unflagged (vendor ops-nn CrossEntropyLossGrad, KernelHive
    /// finals; bench/README.md, the race-check section)
    VectorMte,
}

/// Whether --cce-auto-sync orders an unflagged dependency between pipes `a` and `b` through `mem`. Not
/// MTE2 <-> MTE3 (the guide leaves it to TQueBind; ASC708's page) and nothing on the cube side (M, MTE1, FIX,
/// and MTE2/MTE3 into L1): the framework's Matmul/queues order those, and for an AIC kernel that drives
/// LoadData/Mmad itself the compiler inserts nothing.
pub fn compiler_orders(a: usize, b: usize, mem: MemKind) -> Option<AutoSync> {
    const V: usize = Pipe::V as usize;
    const MTE2: usize = Pipe::Mte2 as usize;
    const MTE3: usize = Pipe::Mte3 as usize;
    let other = if a == S {
        b
    } else if b == S {
        a
    } else {
        let pair = (a.min(b), a.max(b));
        let vector_mte = pair == (V.min(MTE2), V.max(MTE2)) || pair == (V.min(MTE3), V.max(MTE3));
        return (vector_mte && mem == MemKind::Ub).then_some(AutoSync::VectorMte);
    };
    matches!(other, V | MTE2 | MTE3).then_some(AutoSync::Scalar)
}

/// The hook for an access of local memory: records it and reports a race (ASC965) at the current line.
pub fn check(cx: &mut Ctx, mem: MemKind, start: usize, len: usize, write: bool, elem: usize, what: &str) {
    let loc = cx.loc;
    let Some(r) = cx.core.race.access(mem, start, start + len, write, loc) else {
        return;
    };
    let second = pipe_name(cx.core.race.current.min(NP - 1));
    let first = pipe_name(r.first_pipe);
    let verb = if write { "writes" } else { "reads" };
    let earlier = if r.first_write { "wrote" } else { "read" };
    let elems = describe_range(r.start as i64, (r.end - r.start) as i64, elem);
    let needed = format!(
        "neither a SetFlag/WaitFlag<HardEvent::{}_{}> pair, nor a queue EnQue/DeQue between the two pipes, nor a \
         PipeBarrier<PIPE_ALL>",
        &first[5..],
        &second[5..]
    );
    let message = format!(
        "data race on core {}: {what} on {second} {verb} bytes [{}, {}) of {} ({elems} of that memory), which \
         {first} {earlier} at {}, and nothing orders the two ({needed} between them): on the device the pipes run \
         concurrently, and this {} may happen before that access is done",
        cx.core.block_idx,
        r.start,
        r.end,
        mem.name(),
        cx.prog.where_(r.first_loc),
        if write { "write" } else { "read" },
    );
    let mut notes = vec![format!("the {first} access is at {}", cx.prog.where_(r.first_loc))];
    let severity = if let Some(order) = compiler_orders(r.first_pipe, cx.core.race.current.min(NP - 1), mem) {
        let second_pipe = cx.core.race.current.min(NP - 1);
        cx.core.race.assume_compiler_sync(r.first_pipe, second_pipe);
        notes.push(
            "a warning, not an error: with --cce-auto-sync (the default) the compiler inserts this sync where it \
             can follow the tensor from one access to the other; it cannot through non-inline functions or \
             tensors kept in containers"
                .into(),
        );
        if order == AutoSync::VectorMte {
            notes.push(
                "BiSheng's guide names only the S and V <-> V syncs as the compiler's and leaves V <-> MTE2/MTE3 to \
                 the queues, yet kernels built with --cce-auto-sync that leave this hand-off through a LocalTensor \
                 unflagged run correct on the device (the vendor's own CrossEntropyLossGrad among them): a \
                 SetFlag/WaitFlag pair or a queue is what orders it under --cce-auto-sync=off"
                    .into(),
            );
        }
        Severity::Warning
    } else if write {
        // graded after the write: a write of the bytes already there races with nothing (race_unchanged.rs)
        crate::race_unchanged::defer(cx, mem, start, len, message, notes);
        return;
    } else {
        Severity::Error
    };
    let core = cx.core.block_idx as i64;
    cx.findings.report(code::PIPE_RACE, severity, loc, core, message, notes);
}

#[cfg(test)]
mod tests {
    use super::*;

    const V: usize = Pipe::V as usize;
    const MTE2: usize = Pipe::Mte2 as usize;
    const MTE3: usize = Pipe::Mte3 as usize;

    fn at(st: &mut RaceState, pipe: usize, start: usize, end: usize, write: bool) -> Option<Race> {
        st.issue(pipe);
        st.current = pipe;
        let r = st.access(MemKind::Ub, start, end, write, pipe as i32);
        st.current = S;
        r
    }

    fn hard(event: u8) -> FlagKey {
        FlagKey::Hard { event, id: 0 }
    }

    #[test]
    fn scalar_read_after_mte2_write_without_flag_races() {
        let mut st = RaceState::new();
        assert_eq!(at(&mut st, MTE2, 0, 64, true), None);
        let r = at(&mut st, S, 8, 10, false).expect("race");
        assert_eq!((r.first_pipe, r.first_write, r.start, r.end), (MTE2, true, 8, 10));
    }

    #[test]
    fn a_flag_from_mte2_to_s_orders_the_read() {
        let mut st = RaceState::new();
        at(&mut st, MTE2, 0, 64, true);
        st.issue(MTE2);
        st.set(MTE2, hard(24));
        st.take(S, hard(24));
        assert_eq!(at(&mut st, S, 0, 64, false), None);
    }

    #[test]
    fn the_compiler_sync_a_warning_assumes_orders_what_the_waiting_pipe_issues_next() {
        let mut st = RaceState::new();
        at(&mut st, MTE2, 0, 64, true);
        // MTE3 reading it unflagged races (an error: MTE2 <-> MTE3 is not the compiler's) ...
        let mut alone = RaceState::new();
        at(&mut alone, MTE2, 0, 64, true);
        assert!(at(&mut alone, MTE3, 0, 64, false).is_some());
        // ... but after a scalar read the compiler syncs (MTE2 -> S), S issues the MTE3 copy after MTE2 is done
        assert!(at(&mut st, S, 0, 8, false).is_some());
        st.assume_compiler_sync(MTE2, S);
        assert_eq!(at(&mut st, MTE3, 0, 64, false), None);
        // the sync covers what MTE2 did before it, not what it does after
        at(&mut st, MTE2, 64, 128, true);
        assert!(at(&mut st, MTE3, 64, 128, false).is_some());
    }

    #[test]
    fn a_flag_to_another_pipe_does_not_order_s() {
        let mut st = RaceState::new();
        at(&mut st, MTE2, 0, 64, true);
        st.issue(MTE2);
        st.set(MTE2, hard(4));
        st.issue(V);
        st.take(V, hard(4));
        assert_eq!(at(&mut st, V, 0, 64, false), None);
        assert!(at(&mut st, S, 0, 4, false).is_some());
    }

    #[test]
    fn scalar_to_pipe_is_ordered_by_issue() {
        let mut st = RaceState::new();
        assert_eq!(at(&mut st, S, 0, 4, true), None);
        assert_eq!(at(&mut st, MTE3, 0, 32, false), None);
        // but a later scalar write is not ordered after MTE3's read
        let r = at(&mut st, S, 0, 4, true).expect("write after read");
        assert_eq!((r.first_pipe, r.first_write), (MTE3, false));
    }

    #[test]
    fn same_pipe_is_ordered_and_disjoint_bytes_do_not_race() {
        let mut st = RaceState::new();
        at(&mut st, V, 0, 64, true);
        assert_eq!(at(&mut st, V, 0, 64, false), None);
        assert_eq!(at(&mut st, MTE3, 64, 128, false), None);
        assert!(at(&mut st, MTE3, 32, 96, false).is_some());
    }

    #[test]
    fn pipe_barrier_all_orders_everything() {
        let mut st = RaceState::new();
        at(&mut st, MTE2, 0, 64, true);
        at(&mut st, V, 64, 128, true);
        st.barrier_all();
        assert_eq!(at(&mut st, S, 0, 128, false), None);
        assert_eq!(at(&mut st, MTE3, 0, 128, false), None);
        // what comes after the barrier is not ordered before the barrier's other pipes' later work
        at(&mut st, V, 0, 64, true);
        assert!(at(&mut st, MTE3, 0, 64, false).is_some());
    }

    #[test]
    fn a_flag_is_a_count_and_each_wait_takes_the_oldest_release() {
        let mut st = RaceState::new();
        at(&mut st, MTE2, 0, 32, true);
        st.set(MTE2, hard(4));
        at(&mut st, MTE2, 32, 64, true);
        st.set(MTE2, hard(4));
        st.take(V, hard(4));
        assert_eq!(at(&mut st, V, 0, 32, false), None);
        assert!(at(&mut st, V, 32, 64, false).is_some());
        st.take(V, hard(4));
        assert_eq!(at(&mut st, V, 32, 64, false), None);
    }

    #[test]
    fn write_after_read_needs_the_reverse_flag() {
        let mut st = RaceState::new();
        at(&mut st, MTE2, 0, 64, true);
        st.set(MTE2, hard(4));
        st.take(V, hard(4));
        at(&mut st, V, 0, 64, false);
        // MTE2 reloading the buffer before V is done with it
        let r = at(&mut st, MTE2, 0, 64, true).expect("war");
        assert_eq!((r.first_pipe, r.first_write), (V, false));
        st.set(V, hard(5));
        st.take(MTE2, hard(5));
        assert_eq!(at(&mut st, MTE2, 0, 64, true), None);
    }

    #[test]
    fn scalar_accesses_leave_no_record_and_later_pipes_are_ordered_after_them() {
        let mut st = RaceState::new();
        at(&mut st, MTE2, 0, 400, true);
        st.set(MTE2, hard(24));
        st.take(S, hard(24));
        for i in (0..100).rev() {
            assert_eq!(at(&mut st, S, i * 4, i * 4 + 4, true), None);
        }
        assert_eq!(st.shadow[MemKind::Ub as usize].len(), 1);
        // V comes after S's writes (issue), and through S's clock after MTE2's write too
        assert_eq!(at(&mut st, V, 0, 400, false), None);
    }

    #[test]
    fn a_pipe_write_over_bytes_s_wrote_after_an_unordered_read_is_still_checked() {
        let mut st = RaceState::new();
        at(&mut st, MTE3, 0, 64, false);
        // S writes what MTE3 may still be reading
        assert!(at(&mut st, S, 0, 4, true).is_some());
    }

    #[test]
    fn the_unit_flag_handshake_orders_mmad_and_fixpipe_both_ways() {
        const M: usize = Pipe::M as usize;
        const FIX: usize = Pipe::Fix as usize;
        // without the handshake Fixpipe's read of what Mmad wrote races
        let mut plain = RaceState::new();
        at(&mut plain, M, 0, 1024, true);
        assert!(at(&mut plain, FIX, 0, 1024, false).is_some());
        let mut st = RaceState::new();
        at(&mut st, M, 0, 1024, true);
        st.unit_handshake(M, FIX);
        assert_eq!(at(&mut st, FIX, 0, 1024, false), None);
        // the next Mmad (unitFlag on) overwrites the units only after Fixpipe read them
        st.unit_handshake(FIX, M);
        assert_eq!(at(&mut st, M, 0, 1024, true), None);
        // a Fixpipe without the handshake does not come after that second Mmad
        assert!(at(&mut st, FIX, 0, 1024, false).is_some());
    }

    #[test]
    fn auto_sync_grades_the_scalar_side_and_vector_mte_on_ub_and_nothing_else() {
        const M: usize = Pipe::M as usize;
        const MTE1: usize = Pipe::Mte1 as usize;
        const FIX: usize = Pipe::Fix as usize;
        for p in [V, MTE2, MTE3] {
            assert_eq!(compiler_orders(S, p, MemKind::Ub), Some(AutoSync::Scalar));
            assert_eq!(compiler_orders(p, S, MemKind::Ub), Some(AutoSync::Scalar));
        }
        for (a, b) in [(V, MTE2), (MTE2, V), (V, MTE3), (MTE3, V)] {
            assert_eq!(compiler_orders(a, b, MemKind::Ub), Some(AutoSync::VectorMte));
        }
        // MTE2 <-> MTE3 is TQueBind's (or the kernel's flags), the cube side the framework's: errors stay
        assert_eq!(compiler_orders(MTE2, MTE3, MemKind::Ub), None);
        assert_eq!(compiler_orders(MTE3, MTE2, MemKind::Ub), None);
        for (a, b, mem) in [
            (MTE1, MTE2, MemKind::L1),
            (MTE2, MTE1, MemKind::L1),
            (MTE1, M, MemKind::L0a),
            (M, FIX, MemKind::L0c),
            (MTE1, M, MemKind::Bt),
            (MTE3, MTE1, MemKind::L1),
            (S, M, MemKind::L0c),
        ] {
            assert_eq!(compiler_orders(a, b, mem), None, "{a} {b} {mem:?}");
        }
    }

    #[test]
    fn a_read_over_bytes_with_and_without_history_ends_and_covers_both() {
        // a read of [0, 256) where only [64, 128) and [192, 224) have history (each gap once, not again and
        // again: before, a read starting in a gap inserted gaps without end)
        let mut st = RaceState::new();
        at(&mut st, V, 64, 128, true);
        at(&mut st, V, 192, 224, true);
        at(&mut st, V, 0, 256, false);
        let segs = &st.shadow[MemKind::Ub as usize];
        let runs: Vec<(usize, usize)> = segs.iter().map(|s| (s.start, s.end)).collect();
        assert_eq!(runs, vec![(0, 64), (64, 128), (128, 192), (192, 224), (224, 256)]);
        assert!(segs.iter().all(|s| s.reads[V].0 > 0));
        // and a later MTE3 write of all of it races with V's read (nothing orders them)
        assert!(at(&mut st, MTE3, 0, 256, true).is_some());
    }
}
