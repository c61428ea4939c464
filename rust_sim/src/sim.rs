//! A launch: blockDim cores over one GM, run to the end, then the launch-wide checks (cores writing the same
//! GM bytes, output elements nobody wrote, outputs holding data that was never initialised).
//!
//! Cores run one after another in block order on one thread, each until it returns or waits at SyncAll; when
//! every live core waits there, they all go on. Cores meet only in GM, so the results and the findings are the
//! same for any machine and any number of host threads.

use crate::checks::{code, describe_range, Findings, Severity};
use crate::core::{self, Core, Flow, WriteRec};
use crate::memory::{Gm, GmRole};
use crate::mix;
use crate::program::Program;
use crate::timing;

/// How to run a launch.
#[derive(Clone, Debug)]
pub struct Config {
    pub block_dim: u32,
    /// physical cores of the kernel's kind: more blocks than this run in waves (and cannot all meet at SyncAll)
    pub cores: u32,
    /// instructions in all, over every core
    pub budget: u64,
    /// the timing model's parameters (None: no timing)
    pub timing: Option<timing::Params>,
    /// write a Chrome trace of at most this many events (with timing only)
    pub trace_limit: Option<usize>,
}

pub struct Outcome {
    pub findings: Findings,
    pub instructions: u64,
    pub per_core: Vec<u64>,
    /// false when the budget ran out
    pub completed: bool,
    /// the launch's time, when asked for
    pub timing: Option<timing::Report>,
}

pub fn run(prog: &Program, gm: &mut Gm, cfg: &Config) -> Outcome {
    let mut findings = Findings::new();
    let n = cfg.block_dim.max(1);
    // the cores: one per block, or per block an AIC and its AIVs for a MIX kernel (mix.rs)
    let slots = mix::layout(&prog.kernel_type, n);
    // flag counters for every launch: a vector-only kernel's mode-0 CrossCoreSetFlag is the hardware SyncAll's
    // barrier over all its cores (mix.rs)
    let cross = Some(mix::CrossFlags::new(slots.clone()));
    let total = slots.len();
    let mut budget = cfg.budget;
    let mut per_core = vec![0u64; total];
    let mut writes: Vec<(u32, WriteRec)> = Vec::new();
    let mut poison: Vec<(u32, WriteRec)> = Vec::new();
    let mut waiting: Vec<Core> = Vec::new();
    let mut yielded: Vec<Core> = Vec::new();
    let mut completed = true;
    let mut next = 0usize;
    let model = cfg
        .timing
        .as_ref()
        .map(|p| std::rc::Rc::new(timing::Model::new(prog, p.clone())));
    let mut logs: Vec<Option<Box<timing::CoreLog>>> = (0..total).map(|_| None).collect();
    let mut sink = Sink {
        per_core: &mut per_core,
        writes: &mut writes,
        poison: &mut poison,
        logs: &mut logs,
    };
    'launch: loop {
        // start the cores not started yet, one at a time; then run again those waiting for a cross-core flag
        // while any flag goes up
        let mut pending: Vec<Core> = Vec::new();
        while next < total {
            let mut c = Core::new(prog, slots[next].block_idx, n);
            c.aiv = slots[next].aiv;
            c.cube.slot = slots[next];
            c.cube.cross = cross.clone();
            c.tlog = model.as_ref().map(|m| Box::new(timing::CoreLog::new(m.clone())));
            bind_params(prog, &mut c, gm);
            next += 1;
            pending.push(c);
            if !drive(
                &mut pending,
                gm,
                prog,
                &mut findings,
                &mut budget,
                &mut waiting,
                &mut yielded,
                &mut sink,
            ) {
                completed = false;
                break 'launch;
            }
        }
        loop {
            let before = cross.as_ref().map(|f| f.borrow().version).unwrap_or(0);
            let retry = std::mem::take(&mut yielded);
            let tried = retry.len();
            pending = retry;
            if !drive(
                &mut pending,
                gm,
                prog,
                &mut findings,
                &mut budget,
                &mut waiting,
                &mut yielded,
                &mut sink,
            ) {
                completed = false;
                break 'launch;
            }
            let after = cross.as_ref().map(|f| f.borrow().version).unwrap_or(0);
            if yielded.is_empty() || (after == before && yielded.len() == tried) {
                break;
            }
        }
        if waiting.is_empty() && yielded.is_empty() {
            break;
        }
        // cores at SyncAll go on together when every core of their kind is there (and the launch fits the chip)
        let kind_count = |aiv: bool| slots.iter().filter(|s| s.aiv == aiv).count();
        let mut released = false;
        if n <= cfg.cores {
            for aiv in [true, false] {
                let at = waiting.iter().filter(|c| c.aiv == aiv).count();
                if at == 0 || at != kind_count(aiv) {
                    continue;
                }
                let (mut go, stay): (Vec<Core>, Vec<Core>) = waiting.drain(..).partition(|c| c.aiv == aiv);
                waiting = stay;
                for c in &mut go {
                    c.waiting = None;
                    c.epoch += 1;
                }
                if !drive(
                    &mut go,
                    gm,
                    prog,
                    &mut findings,
                    &mut budget,
                    &mut waiting,
                    &mut yielded,
                    &mut sink,
                ) {
                    completed = false;
                    break 'launch;
                }
                released = true;
            }
        }
        if released {
            continue;
        }
        // nothing can go on: a deadlock
        if !waiting.is_empty() {
            let why = if n > cfg.cores {
                format!(
                    "the launch has {n} blocks but the chip {} cores of this kind, so they run in waves and the \
                         first wave waits forever for blocks that cannot start",
                    cfg.cores
                )
            } else {
                format!(
                    "only {} of the {} cores reach it; the others finished without it or wait elsewhere",
                    waiting.len(),
                    kind_count(waiting[0].aiv)
                )
            };
            for c in &waiting {
                let loc = c.waiting.map(|pc| prog.code[pc].loc).unwrap_or(-1);
                findings.report(
                    code::DEADLOCK,
                    Severity::Error,
                    loc,
                    c.block_idx as i64,
                    format!("SyncAll waits for every core of the launch, but {why}: the kernel hangs here"),
                    Vec::new(),
                );
            }
        }
        for c in &yielded {
            let loc = prog.code.get(c.pc).map(|i| i.loc).unwrap_or(-1);
            findings.report(
                code::DEADLOCK,
                Severity::Error,
                loc,
                c.block_idx as i64,
                format!(
                    "CrossCoreWaitFlag on the {} waits for a flag no core will set (the others finished or wait \
                     too): the kernel hangs here",
                    if c.aiv { "AIV" } else { "AIC" }
                ),
                Vec::new(),
            );
        }
        for mut c in waiting.drain(..).chain(yielded.drain(..)) {
            sink.retire(&mut c);
        }
        break;
    }
    for mut c in waiting.drain(..).chain(yielded.drain(..)) {
        sink.retire(&mut c);
    }
    let instructions = cfg.budget - budget;
    if completed {
        cross_core_writes(prog, gm, &mut writes, &mut findings);
        shared_cache_lines(prog, gm, &writes, &mut findings);
        outputs(gm, &poison, &mut findings);
    }
    let timing = model.as_ref().map(|m| {
        let blocks: Vec<timing::launch::BlockLog> = logs
            .iter()
            .enumerate()
            .filter_map(|(i, l)| {
                l.as_ref().map(|l| timing::launch::BlockLog {
                    block: i as u32,
                    group: slots[i].group,
                    aiv: slots[i].aiv,
                    recs: &l.recs,
                    cross: &l.cross,
                    unmodelled: l.unmodelled,
                    unknown_apis: &l.unknown_apis,
                    truncated: l.truncated,
                })
            })
            .collect();
        timing::schedule(prog, m, &blocks, cfg.cores, cfg.trace_limit)
    });
    Outcome {
        findings,
        instructions,
        per_core,
        completed,
        timing,
    }
}

fn bind_params(prog: &Program, c: &mut Core, gm: &Gm) {
    for p in &prog.params {
        if let Some(h) = p.handle {
            let i = p.index as usize;
            // a ref tensor's second parameter addresses the first's buffer: the kernel may write through either
            let i = gm.bufs.get(i).and_then(|b| b.alias).map_or(i, |j| j as usize);
            c.h[h as usize] = if i < gm.bufs.len() {
                crate::memory::Handle {
                    space: crate::memory::Space::Gm(i as u32),
                    addr: 0,
                    len: gm.bufs[i].len() as i64,
                    alloc: 0,
                }
            } else {
                crate::memory::Handle::NULL
            };
        }
    }
}

/// Where finished cores leave what the launch collects.
struct Sink<'a> {
    per_core: &'a mut [u64],
    writes: &'a mut Vec<(u32, WriteRec)>,
    poison: &'a mut Vec<(u32, WriteRec)>,
    logs: &'a mut [Option<Box<timing::CoreLog>>],
}

impl Sink<'_> {
    fn retire(&mut self, c: &mut Core) {
        let slot = c.cube.slot.slot as usize;
        self.per_core[slot] = c.executed;
        timing::finish(c);
        self.logs[slot] = c.tlog.take();
        self.writes.extend(c.writes.drain(..).map(|w| (slot as u32, w)));
        self.poison.extend(c.poison_writes.drain(..).map(|w| (slot as u32, w)));
    }
}

/// Runs each core of `pending` until it returns, waits at SyncAll or for a cross-core flag, or the budget ends;
/// false when the budget ended (every core is then retired).
#[allow(clippy::too_many_arguments)]
fn drive(
    pending: &mut Vec<Core>,
    gm: &mut Gm,
    prog: &Program,
    findings: &mut Findings,
    budget: &mut u64,
    waiting: &mut Vec<Core>,
    yielded: &mut Vec<Core>,
    sink: &mut Sink,
) -> bool {
    let mut cores = std::mem::take(pending).into_iter();
    while let Some(mut c) = cores.next() {
        match core::run(&mut c, gm, prog, findings, budget) {
            Flow::Wait => waiting.push(c),
            Flow::Yield => yielded.push(c),
            Flow::Abort => {
                sink.retire(&mut c);
                for mut rest in cores.chain(waiting.drain(..)).chain(yielded.drain(..)) {
                    sink.retire(&mut rest);
                }
                return false;
            }
            _ => sink.retire(&mut c),
        }
    }
    true
}

/// Two cores writing the same GM bytes in the same epoch (no SyncAll between) without atomics.
fn cross_core_writes(prog: &Program, gm: &Gm, writes: &mut [(u32, WriteRec)], findings: &mut Findings) {
    writes.sort_by_key(|(core, w)| (w.buf, w.epoch, w.start, *core));
    let mut i = 0;
    while i < writes.len() {
        let (buf, epoch) = (writes[i].1.buf, writes[i].1.epoch);
        let mut j = i;
        // the earlier interval reaching furthest, and the furthest-reaching one of another core than it
        let mut best: Option<usize> = None;
        let mut second: Option<usize> = None;
        while j < writes.len() && writes[j].1.buf == buf && writes[j].1.epoch == epoch {
            let (core, ref w) = writes[j];
            let other = match best {
                Some(k) if writes[k].0 != core => Some(k),
                _ => second,
            };
            if let Some(k) = other {
                let (other_core, ref o) = writes[k];
                if o.end > w.start {
                    let (s, e) = (w.start, w.end.min(o.end));
                    let name = &gm.bufs[buf as usize].name;
                    let range = describe_range(s, e - s, w.elem as usize);
                    let (severity, outcome) = if same_bytes(w, o, s, e) {
                        // a flag every core that finds something sets to 1: whichever write lands last, the bytes
                        // are the same
                        (
                            Severity::Warning,
                            "both write the same bytes, so the result does not depend on timing",
                        )
                    } else {
                        (Severity::Error, "which value stays depends on timing")
                    };
                    findings.report(
                        code::CROSS_CORE_WRITE,
                        severity,
                        w.loc,
                        core as i64,
                        format!(
                        "core {core} writes {range} of GM '{name}', which core {other_core} also writes (at {}), with \
                         no atomic mode and no SyncAll between: {outcome}",
                        prog.where_(o.loc)),
                        Vec::new(),
                    );
                }
            }
            match best {
                Some(k) if writes[k].1.end >= w.end => {
                    if writes[k].0 != core && second.is_none_or(|s2| writes[s2].1.end < w.end) {
                        second = Some(j);
                    }
                }
                Some(k) => {
                    if writes[k].0 != core {
                        second = Some(k);
                    }
                    best = Some(j);
                }
                None => best = Some(j),
            }
            j += 1;
        }
        i = j;
    }
}

/// Whether writes `a` and `b` put the same bytes into [s, e), both having kept what they wrote: a short write's
/// bytes, or a run of any length that both cover whole (their hashes).
fn same_bytes(a: &WriteRec, b: &WriteRec, s: i64, e: i64) -> bool {
    let part = |w: &WriteRec| {
        w.content
            .as_ref()
            .and_then(|c| c.get((s - w.start) as usize..(e - w.start) as usize))
            .map(|x| x.to_vec())
    };
    if let (Some(x), Some(y)) = (part(a), part(b)) {
        return x == y;
    }
    let whole = |w: &WriteRec| w.start == s && w.end == e;
    whole(a) && whole(b) && a.hash.is_some() && a.hash == b.hash
}

/// The scalar unit reaches GM through its data cache, in 64-byte lines: SetValue changes the core's copy of a
/// line, and the whole line goes back to GM later. When another core writes other bytes of that line in the same
/// phase (between SyncAlls), one of the two write-backs carries stale bytes of the other's and undoes its
/// writes; which one wins depends on timing (vendor guidance: cores writing GM with SetValue keep 64 bytes
/// apart, or copy results out with DataCopy). Byte overlaps are ASC953's; this is the line sharing without
/// one, reported once per GM buffer at the first scalar write of the first shared line. A warning: two
/// KernelHive finals that passed on hardware share lines at the ends of their cores' ranges (conv_transposed1d,
/// 42 lines), so the device does not always lose the bytes; interleaved writes (where_broadcast#3) fail there.
const DCACHE_LINE: i64 = 64;

fn shared_cache_lines(prog: &Program, gm: &Gm, writes: &[(u32, WriteRec)], findings: &mut Findings) {
    use std::collections::HashMap;
    // every write covers whole lines inside it; only the lines at its two ends can hold another core's bytes
    let mut lines: HashMap<(u32, u32, i64), Vec<(u32, usize)>> = HashMap::new();
    for (k, (core, w)) in writes.iter().enumerate() {
        if w.end <= w.start {
            continue;
        }
        let (first, last) = (w.start.div_euclid(DCACHE_LINE), (w.end - 1).div_euclid(DCACHE_LINE));
        for line in [first, last] {
            let at = lines.entry((w.buf, w.epoch, line)).or_default();
            if !at.iter().any(|&(_, j)| j == k) {
                at.push((*core, k));
            }
        }
    }
    let mut shared: Vec<(u32, i64, usize, usize, usize)> = Vec::new(); // buf, line, scalar write, other, count
    for (&(buf, _, line), at) in &lines {
        let Some(&(sc, si)) = at.iter().find(|&&(_, k)| writes[k].1.scalar) else {
            continue;
        };
        let Some(&(_, oi)) = at.iter().find(|&&(c, _)| c != sc) else {
            continue;
        };
        shared.push((buf, line, si, oi, 1));
    }
    // per buffer: the first shared line (by address), and how many lines are shared
    shared.sort_by_key(|&(buf, line, ..)| (buf, line));
    let mut i = 0;
    while i < shared.len() {
        let buf = shared[i].0;
        let j = shared[i..]
            .iter()
            .position(|s| s.0 != buf)
            .map_or(shared.len(), |p| i + p);
        let (_, line, si, oi, _) = shared[i];
        let (core, w) = &writes[si];
        let (other, o) = &writes[oi];
        let name = &gm.bufs[buf as usize].name;
        findings.report(
            code::SHARED_CACHE_LINE,
            Severity::Warning,
            w.loc,
            *core as i64,
            format!(
                "core {core} writes GM '{name}' with SetValue (through its data cache) in the 64-byte line at byte {}, \
                 where core {other} also writes (at {}): each core's cache writes the whole line back, so one \
                 undoes the other's bytes depending on timing ({} lines of '{name}' shared so)",
                line * DCACHE_LINE,
                prog.where_(o.loc),
                j - i
            ),
            Vec::new(),
        );
        i = j;
    }
}

/// Output bytes never written, and output bytes holding data that was never initialised.
fn outputs(gm: &Gm, poison: &[(u32, WriteRec)], findings: &mut Findings) {
    for (b, buf) in gm.bufs.iter().enumerate() {
        if buf.role != GmRole::Output {
            continue;
        }
        let Some(init) = &buf.init else { continue };
        let init = &init[..buf.tensor_len()]; // the padding after the tensor is no one's to write
        if crate::memory::all_ones(init) {
            continue; // the common case: every byte written, from initialised data (one vectorised scan)
        }
        // memchr first: the common case (every byte written) is one fast scan
        let unwritten = if init.contains(&0) {
            init.iter().filter(|&&x| x == 0).count()
        } else {
            0
        };
        if unwritten > 0 {
            let first = init.iter().position(|&x| x == 0).unwrap();
            let last = init.iter().rposition(|&x| x == 0).unwrap();
            findings.report(
                code::OUTPUT_NOT_WRITTEN,
                Severity::Error,
                -1,
                -1,
                format!(
                "no core writes {unwritten} of the {} bytes of output '{}' (the first at byte {first}, the last at \
                 byte {last}): they keep whatever the memory held", buf.tensor_len(), buf.name),
                Vec::new(),
            );
        }
        for (core, w) in poison.iter().filter(|(_, w)| w.buf as usize == b) {
            let (s, e) = (w.start.max(0) as usize, (w.end as usize).min(init.len()));
            let bad = if init[s..e].contains(&2) {
                init[s..e].iter().filter(|&&x| x == 2).count()
            } else {
                0
            };
            if bad > 0 {
                findings.report(
                    code::UNINITIALISED_READ,
                    Severity::Error,
                    w.loc,
                    *core as i64,
                    format!(
                    "writes {bad} bytes to output '{}' ({}) that come from memory nothing wrote, and no later write \
                     replaces them", buf.name, describe_range(w.start, w.end - w.start, w.elem as usize)),
                    Vec::new(),
                );
            }
        }
    }
}
