//! A launch's time: blocks placed on the chip's physical cores, HBM bandwidth shared between the transfers
//! that overlap in time, and the figures a user reads (cycles, microseconds, busy time per pipe, the pipe that
//! bounds the kernel).
//!
//! Placement: blockDim blocks in block order, each on the core that frees first (waves when there are more
//! blocks than cores); a launch with SyncAll runs every block at once and releases them together at each
//! SyncAll. HBM: the functional model runs cores one after another, so sharing is reconciled after the fact.
//! Each replay places every GM transfer in time; where the transfers streaming at a moment would together move
//! more than the HBM bandwidth, each gets its share in proportion to the rate it would have alone (processor
//! sharing), which stretches it; replays repeat with the new stretches until they settle. The
//! result depends on the logs only: not on the order cores ran in, nor on how many host threads there were.
//!
//! L2: GM bytes that the launch reads more than once (a matmul's panels, read by every core that needs them)
//! come from HBM once; the rest hit in L2. Which core's read misses depends on a race, so each read of a
//! buffer is given the buffer's hit fraction (1 - distinct bytes read / bytes read), scaled down when what the
//! launch touches exceeds the L2. Writes all go to HBM. Only HBM bytes compete for HBM bandwidth.
//!
//! This file places the blocks and replays them; launch/hbm.rs has the HBM sharing and the L2 hit fractions,
//! launch/report.rs the figures the report gives.

mod hbm;
mod report;

use hbm::l2_misses;
pub use hbm::shares;
use report::report;

use crate::api::{Pipe, PIPES};
use crate::program::Program;

use super::cost::Model;
use super::replay::{CrossState, Replay, Stop, Xfer};
use super::trace::Trace;
use super::{Rec, RecKind};

/// Most replays spent reconciling HBM sharing.
const MAX_ROUNDS: u32 = 16;
/// Stretches that change by less than this fraction have settled.
const SETTLED: f64 = 0.005;
/// A launch time that changes by less than this fraction from one replay to the next has settled.
const SETTLED_TIME: f64 = 0.002;

/// One block's time.
#[derive(Clone, Debug)]
pub struct BlockTime {
    pub block: u32,
    pub core: u32,
    pub start: f64,
    pub end: f64,
    /// busy cycles per pipe (PIPE_S: the scalar unit's own issue and cache time)
    pub busy: [f64; PIPES],
}

/// What the timing model says about a launch.
#[derive(Clone, Debug)]
pub struct Report {
    pub cycles: f64,
    pub microseconds: f64,
    pub clock_mhz: f64,
    pub blocks: Vec<BlockTime>,
    /// busy cycles per pipe on the block that finished last, and summed over every block
    pub busy: [f64; PIPES],
    pub busy_total: [f64; PIPES],
    /// the pipe busiest on the block that finished last
    pub bound: Pipe,
    /// bytes the launch moved to and from GM, and those of them that went to HBM (L2 misses and writes)
    pub gm_bytes: u64,
    pub hbm_bytes: u64,
    /// HBM bytes over what the HBM could move in the launch's time
    pub hbm_utilization: f64,
    pub waves: u32,
    pub cores: u32,
    /// pipe instructions the model has no cost for (timed as a bare startup)
    pub unmodelled: u64,
    /// of those, the calls of APIs with no timing class, by API (all blocks)
    pub unknown_apis: Vec<(String, u64)>,
    /// some core's log was cut short (MAX_RECORDS)
    pub truncated: bool,
    /// replays spent on HBM sharing
    pub rounds: u32,
    /// waits with no SetFlag in the log (cores that stopped early)
    pub unmatched: u32,
    pub trace: Option<String>,
}

/// One block's log, as the launch hands it over.
pub struct BlockLog<'a> {
    pub block: u32,
    /// the block (AI Core group) a core of a MIX launch belongs to: its AIC and AIVs start together
    pub group: u32,
    pub aiv: bool,
    pub recs: &'a [Rec],
    /// the (setters, receivers) of the cross-core flag groups the core raised
    pub cross: &'a [(Vec<u32>, Vec<u32>)],
    pub unmodelled: u64,
    pub unknown_apis: &'a std::collections::BTreeMap<String, u64>,
    pub truncated: bool,
}

struct Pass {
    blocks: Vec<BlockTime>,
    xfers: Vec<Xfer>,
    unmatched: u32,
}

/// Times a launch of `logs` (in block order) on `cores` physical cores.
pub fn schedule(prog: &Program, model: &Model, logs: &[BlockLog], cores: u32, trace_limit: Option<usize>) -> Report {
    let cores = cores.max(1);
    let h = model.params.hbm_bytes_per_cycle;
    let miss = l2_misses(model, logs);
    let mut stretch: Vec<Vec<f64>> = logs
        .iter()
        .map(|l| {
            vec![
                1.0;
                l.recs
                    .iter()
                    .filter(|r| r.kind == RecKind::Op && r.gm_bytes > 0)
                    .count()
            ]
        })
        .collect();
    let mut rounds = 0;
    let mut last = f64::NAN;
    if h > 0.0 {
        while rounds < MAX_ROUNDS {
            rounds += 1;
            let pass = run_pass(model, logs, (&stretch, &miss), cores, None);
            let cycles = pass.blocks.iter().map(|b| b.end).fold(0.0, f64::max);
            if std::env::var_os("ASCENDIR_TIMING_DEBUG").is_some() {
                eprintln!("round {rounds}: {cycles:.1} cycles, {} transfers", pass.xfers.len());
            }
            // the launch's time has settled (the stretches of transfers off its critical path may still move)
            if (cycles - last).abs() <= SETTLED_TIME * cycles {
                break;
            }
            last = cycles;
            let wanted = shares(&pass.xfers, h);
            let mut moved = 0.0f64;
            for (x, s_new) in pass.xfers.iter().zip(wanted) {
                let s = &mut stretch[x.block as usize][x.idx as usize];
                // full steps first; then halfway (geometrically), against transfers that keep trading places
                let next = if rounds <= 2 { s_new } else { (*s * s_new).sqrt() };
                moved = moved.max((s_new - *s).abs() / *s);
                *s = next;
            }
            if moved < SETTLED {
                break;
            }
        }
    }
    let mut trace = trace_limit.map(|limit| Trace::new(prog, model.params.clock_mhz, limit));
    let pass = run_pass(model, logs, (&stretch, &miss), cores, trace.as_mut());
    let hbm_bytes = logs
        .iter()
        .zip(&miss)
        .map(|(l, m)| {
            let gm = l.recs.iter().filter(|r| r.kind == RecKind::Op && r.gm_bytes > 0);
            gm.zip(m).map(|(r, f)| r.gm_bytes as f64 * f).sum::<f64>()
        })
        .sum::<f64>();
    report(
        prog,
        model,
        logs,
        pass,
        (cores, rounds, hbm_bytes.round() as u64),
        trace,
    )
}

type Factors<'a> = (&'a [Vec<f64>], &'a [Vec<f64>]);

fn run_pass(
    model: &Model,
    logs: &[BlockLog],
    (stretch, miss): Factors,
    cores: u32,
    mut trace: Option<&mut Trace>,
) -> Pass {
    let mut xfers = Vec::new();
    let mut unmatched = 0;
    let joint = logs.iter().any(|l| {
        l.group != l.block
            || l.recs
                .iter()
                .any(|r| matches!(r.kind, RecKind::SyncAll | RecKind::CrossRaise | RecKind::CrossWait))
    });
    let blocks = if joint {
        joint_pass(
            model,
            logs,
            (stretch, miss),
            cores,
            &mut xfers,
            trace.as_deref_mut(),
            &mut unmatched,
        )
    } else {
        // list scheduling: each block on the core that frees first (ties: the lowest core)
        let mut blocks = Vec::with_capacity(logs.len());
        let mut free = vec![0.0f64; cores as usize];
        let mut cross = CrossState::default();
        for (i, l) in logs.iter().enumerate() {
            let (core, &start) = free
                .iter()
                .enumerate()
                .min_by(|a, b| a.1.total_cmp(b.1).then(a.0.cmp(&b.0)))
                .unwrap();
            let mut r = Replay::new(
                (l.recs, l.cross),
                model,
                (&stretch[i], &miss[i]),
                i as u32,
                core as u32,
                start,
            );
            let end = match r.run(&mut xfers, trace.as_deref_mut(), &mut cross) {
                Stop::End(t) | Stop::Sync(t) => t,
                Stop::Blocked => r.stuck(),
            };
            free[core] = end;
            unmatched += r.unmatched;
            blocks.push(BlockTime {
                block: l.block,
                core: core as u32,
                start,
                end,
                busy: r.busy,
            });
        }
        blocks
    };
    if let Some(t) = trace {
        let mut named = std::collections::BTreeSet::new();
        for (b, l) in blocks.iter().zip(logs) {
            if named.insert(b.core) {
                t.core(
                    b.core,
                    &format!("core {} ({})", b.core, if l.aiv { "AIV" } else { "AIC" }),
                );
            }
            t.block(b.core, b.block, b.start, b.end);
        }
    }
    Pass {
        blocks,
        xfers,
        unmatched,
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    NotStarted,
    Running,
    AtSync(f64),
    Done(f64),
}

/// Cores that meet (SyncAll, cross-core flags, the AIC and AIVs of a MIX block) replayed side by side: each runs
/// until it needs a flag another has not set yet in the replay so far, then the next; SyncAll releases every core
/// of its kind together. Blocks (groups) start on the first of `cores` physical places to free.
fn joint_pass(
    model: &Model,
    logs: &[BlockLog],
    (stretch, miss): Factors,
    cores: u32,
    xfers: &mut Vec<Xfer>,
    mut trace: Option<&mut Trace>,
    unmatched: &mut u32,
) -> Vec<BlockTime> {
    let mut groups: Vec<(u32, Vec<usize>)> = Vec::new();
    for (i, l) in logs.iter().enumerate() {
        match groups.last_mut() {
            Some((g, members)) if *g == l.group => members.push(i),
            _ => groups.push((l.group, vec![i])),
        }
    }
    let width = groups.iter().map(|g| g.1.len()).max().unwrap_or(1);
    let n = logs.len();
    let mut reps: Vec<Option<Replay>> = (0..n).map(|_| None).collect();
    let mut phase = vec![Phase::NotStarted; n];
    let mut starts = vec![0.0f64; n];
    let mut place = vec![0u32; n];
    // the group each physical place runs, and when the last one there ended
    let mut occupant: Vec<Option<usize>> = vec![None; cores.max(1) as usize];
    let mut freed = vec![0.0f64; cores.max(1) as usize];
    let mut next_group = 0;
    let mut cross = CrossState::default();
    loop {
        // start the next groups on places whose group is done
        while next_group < groups.len() {
            let done = |g: usize| groups[g].1.iter().all(|&m| matches!(phase[m], Phase::Done(_)));
            let Some(at) = (0..occupant.len())
                .filter(|&p| occupant[p].is_none_or(done))
                .min_by(|&a, &b| freed[a].total_cmp(&freed[b]).then(a.cmp(&b)))
            else {
                break;
            };
            let start = freed[at];
            for (k, &m) in groups[next_group].1.iter().enumerate() {
                let core = (at * width + k) as u32;
                let l = &logs[m];
                reps[m] = Some(Replay::new(
                    (l.recs, l.cross),
                    model,
                    (&stretch[m], &miss[m]),
                    m as u32,
                    core,
                    start,
                ));
                phase[m] = Phase::Running;
                starts[m] = start;
                place[m] = core;
            }
            occupant[at] = Some(next_group);
            next_group += 1;
        }
        let mut moved = false;
        for m in 0..n {
            if phase[m] != Phase::Running {
                continue;
            }
            let r = reps[m].as_mut().unwrap();
            let before = r.position();
            match r.run(xfers, trace.as_deref_mut(), &mut cross) {
                Stop::Sync(t) => phase[m] = Phase::AtSync(t),
                Stop::End(t) => {
                    phase[m] = Phase::Done(t);
                    let at = place[m] as usize / width;
                    freed[at] = freed[at].max(t);
                }
                Stop::Blocked => {}
            }
            moved |= r.position() != before || phase[m] != Phase::Running;
        }
        // SyncAll: every core of a kind there (the others done) goes on at the last arrival
        for aiv in [true, false] {
            let kind: Vec<usize> = (0..n).filter(|&m| logs[m].aiv == aiv).collect();
            let waiting = kind.iter().any(|&m| matches!(phase[m], Phase::AtSync(_)));
            let all_there = kind
                .iter()
                .all(|&m| matches!(phase[m], Phase::AtSync(_) | Phase::Done(_)));
            if waiting && all_there {
                let release = kind
                    .iter()
                    .filter_map(|&m| match phase[m] {
                        Phase::AtSync(t) => Some(t),
                        _ => None,
                    })
                    .fold(0.0, f64::max);
                for &m in &kind {
                    if matches!(phase[m], Phase::AtSync(_)) {
                        reps[m].as_mut().unwrap().resume(release);
                        phase[m] = Phase::Running;
                    }
                }
                moved = true;
            }
        }
        let finished = next_group == groups.len() && phase.iter().all(|p| matches!(p, Phase::Done(_)));
        if finished {
            break;
        }
        if !moved {
            // nothing can go on (a wait no core satisfies; the functional run reported it): end where they are
            let can_start = next_group < groups.len()
                && occupant
                    .iter()
                    .any(|o| o.is_none_or(|g| groups[g].1.iter().all(|&m| matches!(phase[m], Phase::Done(_)))));
            if can_start {
                continue;
            }
            for m in 0..n {
                if let Phase::Running | Phase::AtSync(_) = phase[m] {
                    *unmatched += 1;
                    phase[m] = Phase::Done(reps[m].as_ref().unwrap().stuck());
                }
            }
            if next_group == groups.len() {
                break;
            }
        }
    }
    (0..n)
        .filter_map(|m| {
            let r = reps[m].as_ref()?;
            *unmatched += r.unmatched;
            Some(BlockTime {
                block: logs[m].block,
                core: place[m],
                start: starts[m],
                end: match phase[m] {
                    Phase::Done(t) | Phase::AtSync(t) => t,
                    _ => starts[m],
                },
                busy: r.busy,
            })
        })
        .collect()
}
