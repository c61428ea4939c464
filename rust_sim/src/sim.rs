//! A launch: blockDim cores over one GM, run to the end, then the launch-wide checks (cores writing the same
//! GM bytes, output elements nobody wrote, outputs holding data that was never initialised).
//!
//! Cores run one after another in block order on one thread, each until it returns or waits at SyncAll; when
//! every live core waits there, they all go on. Cores meet only in GM, so the results and the findings are the
//! same for any machine and any number of host threads.

use crate::checks::{code, describe_range, Findings, Severity};
use crate::core::{self, Core, Flow, WriteRec};
use crate::memory::{Gm, GmRole};
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
    let mut budget = cfg.budget;
    let mut per_core = vec![0u64; n as usize];
    let mut writes: Vec<(u32, WriteRec)> = Vec::new();
    let mut poison: Vec<(u32, WriteRec)> = Vec::new();
    let mut waiting: Vec<Core> = Vec::new();
    let mut completed = true;
    let mut next = 0u32;
    let model = cfg
        .timing
        .as_ref()
        .map(|p| std::rc::Rc::new(timing::Model::new(prog, p.clone())));
    let mut logs: Vec<Option<Box<timing::CoreLog>>> = (0..n).map(|_| None).collect();
    'launch: loop {
        // start the cores not started yet, one at a time
        while next < n {
            let mut c = Core::new(prog, next, n);
            c.tlog = model.as_ref().map(|m| Box::new(timing::CoreLog::new(m.clone())));
            bind_params(prog, &mut c, gm);
            next += 1;
            match core::run(&mut c, gm, prog, &mut findings, &mut budget) {
                Flow::Wait => waiting.push(c),
                Flow::Abort => {
                    completed = false;
                    retire(&mut c, &mut per_core, &mut writes, &mut poison, &mut logs);
                    break 'launch;
                }
                _ => retire(&mut c, &mut per_core, &mut writes, &mut poison, &mut logs),
            }
        }
        if waiting.is_empty() {
            break;
        }
        // some cores wait at SyncAll: they go on together when all cores of the launch are there
        let all_there = waiting.len() as u32 == n;
        if !all_there || n > cfg.cores {
            let why = if n > cfg.cores {
                format!(
                    "the launch has {n} blocks but the chip {} cores of this kind, so they run in waves and the \
                         first wave waits forever for blocks that cannot start",
                    cfg.cores
                )
            } else {
                format!(
                    "only {} of the {n} cores reach it; the others finished without it",
                    waiting.len()
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
            for mut c in waiting.drain(..) {
                retire(&mut c, &mut per_core, &mut writes, &mut poison, &mut logs);
            }
            break;
        }
        let mut resumed: Vec<Core> = Vec::new();
        for mut c in waiting.drain(..) {
            c.waiting = None;
            c.epoch += 1;
            match core::run(&mut c, gm, prog, &mut findings, &mut budget) {
                Flow::Wait => resumed.push(c),
                Flow::Abort => {
                    completed = false;
                    retire(&mut c, &mut per_core, &mut writes, &mut poison, &mut logs);
                    for mut rest in resumed.drain(..) {
                        retire(&mut rest, &mut per_core, &mut writes, &mut poison, &mut logs);
                    }
                    break 'launch;
                }
                _ => retire(&mut c, &mut per_core, &mut writes, &mut poison, &mut logs),
            }
        }
        waiting = resumed;
        if waiting.is_empty() {
            break;
        }
    }
    let instructions = cfg.budget - budget;
    if completed {
        cross_core_writes(prog, gm, &mut writes, &mut findings);
        outputs(gm, &poison, &mut findings);
    }
    let timing = model.as_ref().map(|m| {
        let blocks: Vec<timing::launch::BlockLog> = logs
            .iter()
            .enumerate()
            .filter_map(|(i, l)| {
                l.as_ref().map(|l| timing::launch::BlockLog {
                    block: i as u32,
                    recs: &l.recs,
                    unmodelled: l.unmodelled,
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

fn retire(
    c: &mut Core,
    per_core: &mut [u64],
    writes: &mut Vec<(u32, WriteRec)>,
    poison: &mut Vec<(u32, WriteRec)>,
    logs: &mut [Option<Box<timing::CoreLog>>],
) {
    per_core[c.block_idx as usize] = c.executed;
    timing::finish(c);
    logs[c.block_idx as usize] = c.tlog.take();
    writes.extend(c.writes.drain(..).map(|w| (c.block_idx, w)));
    poison.extend(c.poison_writes.drain(..).map(|w| (c.block_idx, w)));
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
                    findings.report(
                        code::CROSS_CORE_WRITE,
                        Severity::Error,
                        w.loc,
                        core as i64,
                        format!(
                        "core {core} writes {} of GM '{name}', which core {other_core} also writes (at {}), with no \
                         atomic mode and no SyncAll between: which value stays depends on timing",
                        describe_range(s, e - s, w.elem as usize), prog.where_(o.loc)),
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

/// Output bytes never written, and output bytes holding data that was never initialised.
fn outputs(gm: &Gm, poison: &[(u32, WriteRec)], findings: &mut Findings) {
    for (b, buf) in gm.bufs.iter().enumerate() {
        if buf.role != GmRole::Output {
            continue;
        }
        let Some(init) = &buf.init else { continue };
        let unwritten = init.iter().filter(|&&x| x == 0).count();
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
                 byte {last}): they keep whatever the memory held", buf.len(), buf.name),
                Vec::new(),
            );
        }
        for (core, w) in poison.iter().filter(|(_, w)| w.buf as usize == b) {
            let (s, e) = (w.start.max(0) as usize, (w.end as usize).min(init.len()));
            let bad = init[s..e].iter().filter(|&&x| x == 2).count();
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
