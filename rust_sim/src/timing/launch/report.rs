//! The figures a user reads of a launch: cycles and microseconds, busy time per pipe, the bounding pipe, GM and
//! HBM bytes, waves, and what the model has no cost for.

use super::{BlockLog, Pass, Report};
use crate::api::{Pipe, PIPES};
use crate::program::Program;
use crate::timing::cost::Model;
use crate::timing::trace::{escape, Trace, TRACK_PIPES};

pub(super) fn report(
    prog: &Program,
    model: &Model,
    logs: &[BlockLog],
    pass: Pass,
    (cores, rounds, hbm_bytes): (u32, u32, u64),
    trace: Option<Trace>,
) -> Report {
    let p = &model.params;
    let cycles = pass.blocks.iter().map(|b| b.end).fold(0.0, f64::max);
    let last = pass
        .blocks
        .iter()
        .max_by(|a, b| a.end.total_cmp(&b.end).then(b.block.cmp(&a.block)))
        .cloned();
    let busy = last.as_ref().map(|b| b.busy).unwrap_or([0.0; PIPES]);
    let mut busy_total = [0.0; PIPES];
    for b in &pass.blocks {
        for (t, v) in busy_total.iter_mut().zip(b.busy) {
            *t += v;
        }
    }
    let bound = TRACK_PIPES
        .iter()
        .copied()
        .max_by(|a, b| {
            busy[a.index()]
                .total_cmp(&busy[b.index()])
                .then(b.index().cmp(&a.index()))
        })
        .unwrap_or(Pipe::S);
    let gm_bytes: u64 = logs.iter().flat_map(|l| l.recs.iter()).map(|r| r.gm_bytes).sum();
    let hbm_utilization = if cycles > 0.0 && p.hbm_bytes_per_cycle > 0.0 {
        hbm_bytes as f64 / (cycles * p.hbm_bytes_per_cycle)
    } else {
        0.0
    };
    // blocks: a MIX block's AIC and AIVs count once
    let n = logs
        .iter()
        .map(|l| l.group)
        .collect::<std::collections::BTreeSet<_>>()
        .len() as u32;
    let waves = n.div_ceil(cores);
    let unmodelled = logs.iter().map(|l| l.unmodelled).sum();
    let mut unknown = std::collections::BTreeMap::<String, u64>::new();
    for (name, n) in logs.iter().flat_map(|l| l.unknown_apis.iter()) {
        *unknown.entry(name.clone()).or_default() += n;
    }
    let truncated = logs.iter().any(|l| l.truncated);
    let trace = trace.map(|t| {
        let meta = format!(
            "\"kernel\":\"{}\",\"chip\":\"{}\",\"clock_mhz\":{},\"cycles\":{:.0},\"block_dim\":{n},\"cores\":{cores},\
             \"dropped_events\":{}",
            escape(&prog.kernel),
            escape(&prog.chip),
            p.clock_mhz,
            cycles,
            t.dropped
        );
        t.finish(&meta)
    });
    Report {
        cycles,
        microseconds: p.us(cycles),
        clock_mhz: p.clock_mhz,
        blocks: pass.blocks,
        busy,
        busy_total,
        bound,
        gm_bytes,
        hbm_bytes,
        hbm_utilization,
        waves,
        cores: cores.min(n.max(1)),
        unmodelled,
        unknown_apis: unknown.into_iter().collect(),
        truncated,
        rounds,
        unmatched: pass.unmatched,
        trace,
    }
}

#[cfg(test)]
mod tests {
    use crate::program::Program;
    use crate::timing::cost::Model;
    use crate::timing::launch::{schedule, BlockLog};

    #[test]
    fn the_report_names_the_calls_of_apis_without_a_cost_model_over_all_blocks() {
        let prog = Program::default();
        let model = Model::new(&prog, crate::timing::Params::default());
        let a = std::collections::BTreeMap::from([("Frob".to_string(), 2u64), ("Zap".to_string(), 1)]);
        let b = std::collections::BTreeMap::from([("Frob".to_string(), 3u64)]);
        let log = |block: u32, unknown: &'static std::collections::BTreeMap<String, u64>| BlockLog {
            block,
            group: block,
            aiv: true,
            recs: &[],
            cross: &[],
            unmodelled: unknown.values().sum(),
            unknown_apis: unknown,
            truncated: false,
        };
        let (a, b) = (Box::leak(Box::new(a)), Box::leak(Box::new(b)));
        let rep = schedule(&prog, &model, &[log(0, a), log(1, b)], 2, None);
        assert_eq!(rep.unmodelled, 6);
        assert_eq!(rep.unknown_apis, vec![("Frob".to_string(), 5), ("Zap".to_string(), 1)]);
    }
}
