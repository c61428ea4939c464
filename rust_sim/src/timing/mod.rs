//! The timing model: how many cycles a launch takes, kept apart from what it computes (the gem5 split).
//!
//! The functional model (core/ and the instruction families) runs each core and, while it does, appends a
//! record per pipe event to the core's log: an instruction issued to a pipe with its cost, a SetFlag, a
//! WaitFlag once it is satisfied, a PIPE_ALL barrier, a SyncAll, the end. Records go in the order the
//! functional model executes them, which respects every dependency (a wait comes after its set), so a single
//! pass over a log can time it. Each record carries the scalar unit's own time at that point (instructions
//! issued so far times the scalar cost, plus data-cache stalls); the replay adds the time the scalar unit
//! spent stalled on pipes.
//!
//! What an instruction costs comes from what its `exec` measured (`Meter`: vector repeats, bytes copied and
//! their route, cube fractal steps) and the chip's numbers (params.rs), through its catalog name (cost.rs).
//! The replay (replay.rs) runs per-pipe in-order queues per core; launch.rs places blocks on the chip's cores
//! in waves, shares HBM bandwidth between the transfers that overlap in time (reconciled over a few replays,
//! so the result does not depend on the order or the thread the cores ran on), and reports cycles, per-pipe
//! busy time and the bounding pipe; trace.rs writes the Chrome trace.

pub mod cost;
pub mod coverage;
pub mod launch;
pub mod library;
pub mod matmul;
pub mod params;
pub mod replay;
pub mod trace;

#[cfg(test)]
mod tests;

use std::rc::Rc;

use crate::api::Pipe;
use crate::core::{Core, Ctx, Flow};
use crate::memory::{MemKind, Space};
use crate::sync::FlagKey;

pub use cost::Model;
pub use launch::{schedule, Report};
pub use params::{ChipTables, Params, Place};

/// Pipes by index (`Pipe::index`).
pub const PIPE_AT: [Pipe; crate::api::PIPES] = [
    Pipe::S,
    Pipe::V,
    Pipe::M,
    Pipe::Mte1,
    Pipe::Mte2,
    Pipe::Mte3,
    Pipe::Fix,
    Pipe::All,
];

/// The most records one core keeps; past it the core's timing is cut short (and the report says so).
pub const MAX_RECORDS: usize = 1 << 24;

/// What one instruction did, as its functional semantics measured it. Reset before each pipe instruction,
/// read after it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Meter {
    /// vector repeats over every pass of the instruction, and those of its first pass
    pub repeats: u64,
    pub first_repeats: Option<u64>,
    pub elements: u64,
    /// bytes copied, in how many bursts, and the route of the first copy
    pub bytes: u64,
    pub bursts: u32,
    pub route: (Place, Place),
    /// cube fractal steps (16 x C0 x 16 each)
    pub cube_steps: u64,
    /// where the first read of a family that reads and writes regions itself came from (`read`, `wrote`)
    pub src: Option<Place>,
    /// the GM bytes touched: buffer and the byte span around every access (for the L2 reuse model)
    pub gm: Option<GmSpan>,
    /// the rows and columns of a high-level API whose library sequence loops per row (library.rs)
    pub shape: Option<library::Shape>,
}

/// The GM bytes one instruction reads or writes: buffer `buf`, within [lo, hi).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GmSpan {
    pub buf: u32,
    pub lo: u64,
    pub hi: u64,
    pub write: bool,
}

impl Meter {
    /// A vector pass over `repeats` repeats (vector::plan).
    pub fn vector(&mut self, repeats: u64, elements: u64) {
        self.repeats += repeats;
        self.elements += elements;
        self.first_repeats.get_or_insert(repeats);
    }

    /// A copy of `bytes` bytes from byte `src.1` of `src.0` to byte `dst.1` of `dst.0` (Ctx::copy).
    pub fn copy(&mut self, bytes: u64, src: (Space, usize), dst: (Space, usize)) {
        if self.bursts == 0 {
            self.route = (place(src.0), place(dst.0));
        }
        self.bytes += bytes;
        self.bursts += 1;
        self.touch(src.0, src.1, bytes, false);
        self.touch(dst.0, dst.1, bytes, true);
    }

    /// A read of `len` bytes at byte `at` of `src` by an instruction that writes what it read elsewhere itself
    /// (the cube family): the source of the route `wrote` records.
    pub fn read(&mut self, src: Space, at: usize, len: u64) {
        self.src.get_or_insert(place(src));
        self.touch(src, at, len, false);
    }

    /// `bytes` written at byte `at` of `dst` by such an instruction, from where it first read.
    pub fn wrote(&mut self, bytes: u64, dst: Space, at: usize) {
        if self.bursts == 0 {
            self.route = (self.src.unwrap_or(Place::Unknown), place(dst));
        }
        self.bytes += bytes;
        self.bursts += 1;
        self.touch(dst, at, bytes, true);
    }

    fn touch(&mut self, s: Space, at: usize, len: u64, write: bool) {
        let Space::Gm(buf) = s else { return };
        let (lo, hi) = (at as u64, at as u64 + len);
        match &mut self.gm {
            Some(g) if g.buf == buf && g.write == write => {
                g.lo = g.lo.min(lo);
                g.hi = g.hi.max(hi);
            }
            Some(_) => {}
            None => {
                self.gm = Some(GmSpan { buf, lo, hi, write });
            }
        }
    }

    /// An Mmad of m x k by k x n with `elem` bytes per input element: ceil(m/16) ceil(n/16) ceil(k/C0) fractal
    /// steps, C0 = 32 bytes of input elements.
    pub fn mmad(&mut self, m: u64, n: u64, k: u64, elem: u64) {
        let c0 = (32 / elem.max(1)).max(1);
        self.cube_steps += m.div_ceil(16) * n.div_ceil(16) * k.div_ceil(c0);
    }
}

pub fn place(s: Space) -> Place {
    match s {
        Space::Null => Place::Unknown,
        Space::Gm(_) => Place::Gm,
        Space::Local(m) => match m {
            MemKind::Ub => Place::Ub,
            MemKind::L1 => Place::L1,
            MemKind::L0a => Place::L0a,
            MemKind::L0b => Place::L0b,
            MemKind::L0c => Place::L0c,
            MemKind::Bt => Place::Bt,
            MemKind::Fb => Place::Fb,
        },
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecKind {
    /// an instruction on a pipe
    Op,
    /// SetFlag on `pipe` (the event's source)
    Set,
    /// WaitFlag on `pipe` (the event's destination), recorded once satisfied
    Wait,
    /// PipeBarrier<PIPE_ALL>: the scalar unit waits for every pipe
    BarrierAll,
    /// SyncAll: the core waits for every core of the launch
    SyncAll,
    /// the core returned (or stopped)
    End,
    /// CrossCoreSetFlag on `pipe` by this core (`x`: the flag group, `amount`: this core's slot)
    CrossSet,
    /// the last setter of a cross-core flag group raised it for its receivers (`x`: the flag group,
    /// `amount`: the index of (setters, receivers) in the log's `cross` table)
    CrossRaise,
    /// CrossCoreWaitFlag satisfied (`x`: the flag id, `amount`: this core's slot)
    CrossWait,
}

/// A cross-core flag group: mode, scope and id packed into one number (mix.rs names them so).
pub fn cross_key(mode: u8, scope: u32, id: u16) -> u64 {
    ((mode as u64) << 48) | ((scope as u64) << 16) | id as u64
}

/// One record of a core's log.
#[derive(Clone, Copy, Debug)]
pub struct Rec {
    pub kind: RecKind,
    pub pipe: Pipe,
    /// the instruction (for names and source locations in the trace)
    pub pc: u32,
    /// the scalar unit's own time when it issued this: instructions so far times their cost, plus stalls of
    /// its own (data cache); the replay adds its waits for pipes
    pub t: f64,
    /// cycles with the whole bandwidth to itself, of which `lat` is fixed latency
    pub dur: f64,
    pub lat: f64,
    /// bytes through HBM (0: not a GM transfer)
    pub gm_bytes: u64,
    /// where those bytes are in GM
    pub gm: Option<GmSpan>,
    pub key: Option<FlagKey>,
    /// what to show in the trace: repeats of a vector instruction, bytes of a copy, steps of an Mmad
    pub amount: u64,
    /// the cross-core flag (group or id) of a Cross* record
    pub x: u64,
}

/// One core's log and the state that writing it needs.
pub struct CoreLog {
    pub model: Rc<Model>,
    pub recs: Vec<Rec>,
    pub meter: Meter,
    /// the scalar unit's own stall cycles so far (data cache, local scalar accesses)
    pub extra: f64,
    dcache: Vec<u64>,
    /// pipe instructions with no cost model (timed as a bare startup)
    pub unmodelled: u64,
    /// of those, the calls of APIs with no timing class (cost.rs's Class::Unknown), by API
    pub unknown_apis: std::collections::BTreeMap<String, u64>,
    pub truncated: bool,
    /// the Matmul object's pipeline state (matmul.rs)
    pub matmul: matmul::MatmulState,
    /// (setters, receivers) of the cross-core flag groups this core raised
    pub cross: Vec<(Vec<u32>, Vec<u32>)>,
}

impl CoreLog {
    pub fn new(model: Rc<Model>) -> CoreLog {
        let lines = (model.params.dcache_bytes / model.params.dcache_line).max(1) as usize;
        CoreLog {
            model,
            recs: Vec::new(),
            meter: Meter::default(),
            extra: 0.0,
            dcache: vec![u64::MAX; lines],
            unmodelled: 0,
            unknown_apis: std::collections::BTreeMap::new(),
            truncated: false,
            matmul: matmul::MatmulState::default(),
            cross: Vec::new(),
        }
    }

    fn now(&self, executed: u64) -> f64 {
        executed as f64 * self.model.params.scalar_cycles + self.extra
    }

    fn push(&mut self, rec: Rec) {
        if self.recs.len() >= MAX_RECORDS {
            self.truncated = true;
            return;
        }
        self.recs.push(rec);
    }

    fn mark(&mut self, kind: RecKind, pipe: Pipe, pc: usize, executed: u64, key: Option<FlagKey>) {
        let t = self.now(executed);
        self.push(Rec {
            kind,
            pipe,
            pc: pc as u32,
            t,
            dur: 0.0,
            lat: 0.0,
            gm_bytes: 0,
            gm: None,
            key,
            amount: 0,
            x: 0,
        });
    }

    fn cross(&mut self, kind: RecKind, pipe: Pipe, pc: usize, executed: u64, x: u64, amount: u64) {
        let t = self.now(executed);
        self.push(Rec {
            kind,
            pipe,
            pc: pc as u32,
            t,
            dur: 0.0,
            lat: 0.0,
            gm_bytes: 0,
            gm: None,
            key: None,
            amount,
            x,
        });
    }
}

/// The meter of the instruction running on `core`, when its time is modelled.
#[inline]
pub fn meter(core: &mut Core) -> Option<&mut Meter> {
    core.tlog.as_mut().map(|t| &mut t.meter)
}

/// A high-level vector API's work: a pass over `elements` elements of `elem_bytes` bytes, 256 bytes a repeat.
/// The first pass a call meters sets the repeats its composite cost (cost.rs) multiplies by its passes.
#[inline]
pub fn vector_pass(core: &mut Core, elements: u64, elem_bytes: u64) {
    if let Some(m) = meter(core) {
        m.vector((elements * elem_bytes).div_ceil(256), elements);
    }
}

/// A high-level API's shape as its library sequence loops over it (rows, column blocks, tmp pieces): costed by
/// library.rs instead of the composite letters.
#[inline]
pub fn library_shape(core: &mut Core, shape: library::Shape) {
    if let Some(m) = meter(core) {
        m.shape = Some(shape);
    }
}

/// Before a pipe instruction runs: a fresh meter.
#[inline]
pub fn begin_op(core: &mut Core) {
    if let Some(t) = core.tlog.as_mut() {
        t.meter = Meter::default();
    }
}

/// After an instruction issued to `pipe` ran: its record, costed from what it measured.
pub fn end_op(cx: &mut Ctx, pipe: Pipe, flow: Flow) {
    let pc = cx.pc;
    let executed = cx.core.executed;
    let Some(log) = cx.core.tlog.as_mut() else { return };
    if flow == Flow::Wait {
        log.mark(RecKind::SyncAll, Pipe::S, pc, executed, None);
        return;
    }
    match pipe {
        Pipe::All => log.mark(RecKind::BarrierAll, Pipe::All, pc, executed, None),
        Pipe::S => {}
        _ => {
            let model = log.model.clone();
            let Some(c) = model.cost(pc, pipe, &log.meter) else {
                return;
            };
            if !c.modelled {
                log.unmodelled += 1;
                if model.classes.get(pc) == Some(&cost::Class::Unknown) {
                    let name = model.names.get(pc).cloned().unwrap_or_default();
                    *log.unknown_apis.entry(name).or_default() += 1;
                }
            }
            let t = log.now(executed);
            log.push(Rec {
                kind: RecKind::Op,
                pipe,
                pc: pc as u32,
                t,
                dur: c.cycles,
                lat: c.latency,
                gm_bytes: c.gm_bytes,
                gm: if c.gm_bytes > 0 { log.meter.gm } else { None },
                key: None,
                amount: c.amount,
                x: 0,
            });
        }
    }
}

/// A SetFlag on `pipe` as it takes effect (for a blocked pipe: when the pipe reaches it).
#[inline]
pub fn flag_set(core: &mut Core, pc: usize, pipe: Pipe, key: FlagKey) {
    let executed = core.executed;
    if let Some(log) = core.tlog.as_mut() {
        log.mark(RecKind::Set, pipe, pc, executed, Some(key));
    }
}

/// A WaitFlag on `pipe` as it is satisfied.
#[inline]
pub fn flag_wait(core: &mut Core, pc: usize, pipe: Pipe, key: FlagKey) {
    let executed = core.executed;
    if let Some(log) = core.tlog.as_mut() {
        log.mark(RecKind::Wait, pipe, pc, executed, Some(key));
    }
}

/// A scalar GetValue/SetValue at byte `addr` of `space`: GM goes through the data cache (a direct-mapped model
/// of its size and line), local memory costs a fixed few cycles.
pub fn scalar_access(core: &mut Core, space: Space, addr: i64) {
    let Some(log) = core.tlog.as_mut() else { return };
    let p = &log.model.params;
    match space {
        Space::Gm(buf) => {
            let line = (addr.max(0) as u64 / p.dcache_line) ^ ((buf as u64) << 40);
            let slot = (line % log.dcache.len() as u64) as usize;
            let cost = if log.dcache[slot] == line {
                p.dcache_hit_cycles
            } else {
                log.dcache[slot] = line;
                p.dcache_miss_cycles
            };
            log.extra += cost;
        }
        Space::Local(_) => log.extra += p.scalar_local_cycles,
        Space::Null => {}
    }
}

/// CrossCoreSetFlag of flag group `key` by the core in `slot`, on `pipe`; with `raised`, the set completed the
/// group: its setters and the receivers it raised the flag for.
pub fn cross_set(core: &mut Core, pipe: Pipe, key: u64, slot: u32, raised: Option<(Vec<u32>, Vec<u32>)>) {
    let (executed, pc) = (core.executed, core.pc);
    let Some(log) = core.tlog.as_mut() else { return };
    log.cross(RecKind::CrossSet, pipe, pc, executed, key, slot as u64);
    if let Some(lists) = raised {
        log.cross.push(lists);
        let at = log.cross.len() as u64 - 1;
        log.cross(RecKind::CrossRaise, pipe, pc, executed, key, at);
    }
}

/// CrossCoreWaitFlag of flag `id` satisfied on the core in `slot` (the scalar unit waited for it).
pub fn cross_wait(core: &mut Core, id: u16, slot: u32) {
    let (executed, pc) = (core.executed, core.pc);
    if let Some(log) = core.tlog.as_mut() {
        log.cross(RecKind::CrossWait, Pipe::S, pc, executed, id as u64, slot as u64);
    }
}

/// The core is done: its last record.
pub fn finish(core: &mut Core) {
    let (executed, pc) = (core.executed, core.pc);
    if let Some(log) = core.tlog.as_mut() {
        log.mark(RecKind::End, Pipe::S, pc, executed, None);
    }
}
