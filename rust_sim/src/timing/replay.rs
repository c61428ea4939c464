//! One core's time: its log replayed through per-pipe in-order queues.
//!
//! The scalar unit issues each record at its own time plus the stalls it had so far; an instruction starts
//! when it is issued and its pipe is free, and holds the pipe for its cost (a GM transfer's streaming part
//! stretched by its share of HBM bandwidth); a SetFlag runs on its pipe after everything before it there; a
//! WaitFlag keeps its pipe from starting anything later before the matching SetFlag has run; a wait on
//! PIPE_S, a PIPE_ALL barrier and SyncAll stall the scalar unit.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use crate::api::{Pipe, PIPES};
use crate::sync::FlagKey;

use super::cost::Model;
use super::trace::Trace;
use super::{Rec, RecKind};

/// A GM transfer's streaming part as placed by a replay, for sharing HBM bandwidth.
#[derive(Clone, Copy, Debug)]
pub struct Xfer {
    pub block: u32,
    /// its index among the block's GM transfers
    pub idx: u32,
    /// when bytes start and stop flowing
    pub a: f64,
    pub b: f64,
    /// bytes per cycle it would move with the whole bandwidth, and for how long
    pub rate: f64,
    pub d: f64,
    /// the fraction of its bytes that come from (or go to) HBM rather than hit in L2
    pub miss: f64,
}

/// Why a replay stopped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stop {
    /// at a SyncAll, arriving at this time
    Sync(f64),
    /// at the end of the log, everything done at this time
    End(f64),
    /// at a cross-core flag another core has not set yet (in the replay so far): run it again later
    Blocked,
}

/// Cross-core flags between the replays of a launch: the times each core set each flag group, and the times
/// each core's flags were raised.
#[derive(Default)]
pub struct CrossState {
    sets: HashMap<(u64, u32), VecDeque<f64>>,
    raised: HashMap<(u32, u64), VecDeque<f64>>,
}

pub struct Replay<'a> {
    recs: &'a [Rec],
    model: &'a Model,
    stretch: &'a [f64],
    miss: &'a [f64],
    /// the (setters, receivers) of the cross-core flag groups the log raised
    lists: &'a [(Vec<u32>, Vec<u32>)],
    pub block: u32,
    pub core: u32,
    i: usize,
    /// the scalar unit's stalls so far: its time is a record's own time plus this
    off: f64,
    free: [f64; PIPES],
    flags: HashMap<FlagKey, VecDeque<(f64, u64)>, BuildHasherDefault<KeyHasher>>,
    pub busy: [f64; PIPES],
    gm_i: usize,
    sync_t: f64,
    pub start: f64,
    /// waits whose SetFlag the log does not hold (a core stopped early)
    pub unmatched: u32,
}

/// A core's log: its records and the (setters, receivers) of the cross-core flag groups it raised.
pub type LogRef<'a> = (&'a [Rec], &'a [(Vec<u32>, Vec<u32>)]);

impl<'a> Replay<'a> {
    /// A replay of `recs` from `start`, the block's GM transfers stretched by `stretch` and missing L2 by `miss`.
    pub fn new(
        (recs, lists): LogRef<'a>,
        model: &'a Model,
        (stretch, miss): (&'a [f64], &'a [f64]),
        block: u32,
        core: u32,
        start: f64,
    ) -> Self {
        Replay {
            recs,
            model,
            stretch,
            miss,
            lists,
            block,
            core,
            i: 0,
            off: start,
            free: [start; PIPES],
            flags: HashMap::default(),
            busy: [0.0; PIPES],
            gm_i: 0,
            sync_t: 0.0,
            start,
            unmatched: 0,
        }
    }

    fn drained(&self) -> f64 {
        self.free.iter().copied().fold(f64::MIN, f64::max)
    }

    /// Carries on after a SyncAll that released every core at `t`.
    pub fn resume(&mut self, t: f64) {
        self.off = self.off.max(t - self.sync_t);
        for f in self.free.iter_mut() {
            *f = f.max(t);
        }
    }

    /// When everything issued so far is done: where a replay that cannot go on ends.
    pub fn stuck(&self) -> f64 {
        let last = self.recs.get(self.i.saturating_sub(1)).map(|r| r.t).unwrap_or(0.0);
        (last + self.off).max(self.drained())
    }

    /// Where the replay is in its log (it moved when this grew).
    pub fn position(&self) -> usize {
        self.i
    }

    /// Replays records until a SyncAll, a cross-core flag not set yet, or the end; GM transfers go to `xfers`,
    /// events to `trace`, cross-core flags through `cross`.
    pub fn run(&mut self, xfers: &mut Vec<Xfer>, mut trace: Option<&mut Trace>, cross: &mut CrossState) -> Stop {
        let p = &self.model.params;
        while self.i < self.recs.len() {
            let r = self.recs[self.i];
            self.i += 1;
            let now = r.t + self.off;
            let pi = r.pipe.index();
            match r.kind {
                RecKind::Op => {
                    let start = now.max(self.free[pi]);
                    let mut dur = r.dur;
                    if r.gm_bytes > 0 {
                        let s = self.stretch.get(self.gm_i).copied().unwrap_or(1.0);
                        let d = (r.dur - r.lat).max(0.0);
                        dur = r.lat + d * s;
                        if d > 0.0 {
                            xfers.push(Xfer {
                                block: self.block,
                                idx: self.gm_i as u32,
                                a: start + r.lat,
                                b: start + dur,
                                rate: r.gm_bytes as f64 / d,
                                d,
                                miss: self.miss.get(self.gm_i).copied().unwrap_or(1.0),
                            });
                        }
                        self.gm_i += 1;
                    }
                    self.free[pi] = start + dur;
                    self.busy[pi] += dur;
                    if let Some(t) = trace.as_deref_mut() {
                        t.op(self.core, self.block, r.pipe, r.pc, start, dur, &r, self.model);
                    }
                }
                RecKind::Set => {
                    let at = if r.pipe == Pipe::S || r.pipe == Pipe::All {
                        now
                    } else {
                        let at = now.max(self.free[pi]) + p.set_flag_cycles;
                        self.free[pi] = at;
                        self.busy[pi] += p.set_flag_cycles;
                        at
                    };
                    let id = match trace.as_deref_mut() {
                        Some(t) => t.set(self.core, r.pipe, r.key, at - p.set_flag_cycles, p.set_flag_cycles),
                        None => 0,
                    };
                    if let Some(key) = r.key {
                        self.flags.entry(key).or_default().push_back((at, id));
                    }
                }
                RecKind::Wait => {
                    let (set_at, id) = r
                        .key
                        .and_then(|k| self.flags.get_mut(&k).and_then(|q| q.pop_front()))
                        .unwrap_or_else(|| {
                            self.unmatched += 1;
                            (0.0, 0)
                        });
                    let (begin, release) = if r.pipe == Pipe::S || r.pipe == Pipe::All {
                        let release = now.max(set_at);
                        self.off = self.off.max(release - r.t);
                        (now, release)
                    } else {
                        let begin = now.max(self.free[pi]);
                        let release = begin.max(set_at);
                        self.free[pi] = release;
                        (begin, release)
                    };
                    if let Some(t) = trace.as_deref_mut() {
                        t.wait(self.core, r.pipe, r.key, begin, release - begin, id);
                    }
                }
                RecKind::BarrierAll => {
                    let drained = self.drained();
                    self.off = self.off.max(drained - r.t);
                }
                RecKind::SyncAll => {
                    self.sync_t = r.t;
                    return Stop::Sync(now.max(self.drained()));
                }
                RecKind::End => {
                    self.busy[Pipe::S.index()] = r.t;
                    return Stop::End(now.max(self.drained()));
                }
                RecKind::CrossSet => {
                    let at = if r.pipe == Pipe::S || r.pipe == Pipe::All {
                        now
                    } else {
                        let at = now.max(self.free[pi]) + p.set_flag_cycles;
                        self.free[pi] = at;
                        self.busy[pi] += p.set_flag_cycles;
                        at
                    };
                    cross.sets.entry((r.x, r.amount as u32)).or_default().push_back(at);
                    if let Some(t) = trace.as_deref_mut() {
                        t.cross(
                            self.core,
                            r.pipe,
                            "CrossCoreSetFlag",
                            at - p.set_flag_cycles,
                            p.set_flag_cycles,
                        );
                    }
                }
                RecKind::CrossRaise => {
                    let Some((setters, receivers)) = self.lists.get(r.amount as usize) else {
                        continue;
                    };
                    let ready = setters
                        .iter()
                        .all(|s| cross.sets.get(&(r.x, *s)).is_some_and(|q| !q.is_empty()));
                    if !ready {
                        self.i -= 1;
                        return Stop::Blocked;
                    }
                    let mut at = 0.0f64;
                    for s in setters {
                        at = at.max(
                            cross
                                .sets
                                .get_mut(&(r.x, *s))
                                .and_then(|q| q.pop_front())
                                .unwrap_or(0.0),
                        );
                    }
                    let id = r.x & 0xFFFF;
                    for recv in receivers {
                        cross.raised.entry((*recv, id)).or_default().push_back(at);
                    }
                }
                RecKind::CrossWait => {
                    let Some(at) = cross
                        .raised
                        .get_mut(&(r.amount as u32, r.x))
                        .and_then(|q| q.pop_front())
                    else {
                        self.i -= 1;
                        return Stop::Blocked;
                    };
                    let release = now.max(at);
                    self.off = self.off.max(release - r.t);
                    if let Some(t) = trace.as_deref_mut() {
                        t.cross(self.core, Pipe::S, "CrossCoreWaitFlag", now, release - now);
                    }
                }
            }
        }
        // a log cut short: what it holds
        let last = self.recs.last().map(|r| r.t).unwrap_or(0.0);
        self.busy[Pipe::S.index()] = last;
        Stop::End((last + self.off).max(self.drained()))
    }
}

/// A multiplicative hash for flag keys (a few small integers): the replay looks one up per flag record, and
/// the default SipHash cost more than the rest of the replay.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u8(&mut self, v: u8) {
        self.write_u64(v as u64);
    }

    fn write_u32(&mut self, v: u32) {
        self.write_u64(v as u64);
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}
