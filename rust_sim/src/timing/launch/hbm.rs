//! HBM bandwidth shared between the transfers that overlap in time, and the fraction of each GM read that
//! misses L2 (the bytes a launch reads more than once come from HBM once).

use super::BlockLog;
use crate::timing::cost::Model;
use crate::timing::replay::Xfer;
use crate::timing::RecKind;

/// The stretch each transfer needs for its bytes when every moment's HBM bandwidth is shared in proportion to
/// the HBM rates of the transfers streaming then (and never more than a transfer's own rate): its span over
/// the work it gets done in it, where a transfer missing L2 by fraction m progresses at 1 / (1 - m + m / g)
/// of its rate when HBM grants the fraction g of what is asked. At the fixed point each transfer moves exactly
/// its bytes in its span; where every transfer's share is steady, one step reaches it.
pub fn shares(xfers: &[Xfer], hbm: f64) -> Vec<f64> {
    if xfers.is_empty() {
        return Vec::new();
    }
    let mut events: Vec<(f64, f64)> = Vec::with_capacity(xfers.len() * 2);
    for x in xfers {
        events.push((x.a, x.rate * x.miss));
        events.push((x.b, -x.rate * x.miss));
    }
    events.sort_by(|a, b| a.0.total_cmp(&b.0));
    // segments [ts[k], ts[k+1]) with the fraction g[k] of its rate each transfer gets there; prefix integral G
    let mut ts: Vec<f64> = Vec::new();
    let mut g: Vec<f64> = Vec::new();
    let mut demand = 0.0;
    let mut i = 0;
    while i < events.len() {
        let t = events[i].0;
        while i < events.len() && events[i].0 == t {
            demand += events[i].1;
            i += 1;
        }
        let d = demand.max(0.0);
        ts.push(t);
        g.push(if d > hbm * (1.0 + 1e-12) { hbm / d } else { 1.0 });
    }
    // the work a transfer gets done per cycle is 1 / (1 - m + m / g): one prefix integral per miss fraction
    // (a launch has a few: one per buffer it reads, and 1 for writes)
    let mut prefix: std::collections::HashMap<u64, Vec<f64>> = std::collections::HashMap::new();
    xfers
        .iter()
        .map(|x| {
            if x.miss <= 0.0 || x.b <= x.a {
                return 1.0;
            }
            let m = x.miss;
            let work = |k: usize| 1.0 / (1.0 - m + m / g[k]);
            let pre = prefix.entry(m.to_bits()).or_insert_with(|| {
                let mut p = vec![0.0; ts.len()];
                for k in 1..ts.len() {
                    p[k] = p[k - 1] + work(k - 1) * (ts[k] - ts[k - 1]);
                }
                p
            });
            let at = |t: f64| -> f64 {
                let k = ts.partition_point(|&v| v <= t).saturating_sub(1);
                pre[k] + work(k) * (t - ts[k])
            };
            let got = at(x.b) - at(x.a);
            if got > 0.0 {
                ((x.b - x.a) / got).max(1.0)
            } else {
                1.0
            }
        })
        .collect()
}

/// Per block and GM transfer (in log order), the fraction of its bytes that miss L2.
pub(super) fn l2_misses(model: &Model, logs: &[BlockLog]) -> Vec<Vec<f64>> {
    use std::collections::HashMap;
    // per buffer: read spans and bytes read; bytes written
    let mut reads: HashMap<u32, (Vec<(u64, u64)>, u64)> = HashMap::new();
    let mut written: HashMap<u32, Vec<(u64, u64)>> = HashMap::new();
    for r in logs.iter().flat_map(|l| l.recs.iter()) {
        if let (Some(g), true) = (r.gm, r.gm_bytes > 0) {
            if g.write {
                written.entry(g.buf).or_default().push((g.lo, g.hi));
            } else {
                let e = reads.entry(g.buf).or_default();
                e.0.push((g.lo, g.hi));
                e.1 += r.gm_bytes;
            }
        }
    }
    let mut hit: HashMap<u32, f64> = HashMap::new();
    let mut footprint = 0u64;
    for (buf, (spans, bytes)) in reads.iter_mut() {
        let distinct = union_len(spans).min(*bytes);
        footprint += distinct;
        hit.insert(
            *buf,
            if *bytes > 0 {
                1.0 - distinct as f64 / *bytes as f64
            } else {
                0.0
            },
        );
    }
    footprint += written.values_mut().map(|s| union_len(s)).sum::<u64>();
    let l2 = model.params.l2_bytes as f64;
    let room = if footprint as f64 > l2 && l2 > 0.0 {
        l2 / footprint as f64
    } else {
        1.0
    };
    logs.iter()
        .map(|l| {
            l.recs
                .iter()
                .filter(|r| r.kind == RecKind::Op && r.gm_bytes > 0)
                .map(|r| match r.gm {
                    Some(g) if !g.write => 1.0 - hit.get(&g.buf).copied().unwrap_or(0.0) * room,
                    _ => 1.0,
                })
                .collect()
        })
        .collect()
}

/// Bytes covered by the union of half-open spans (sorts them).
fn union_len(spans: &mut [(u64, u64)]) -> u64 {
    spans.sort_unstable();
    let (mut total, mut end) = (0u64, 0u64);
    for &(lo, hi) in spans.iter() {
        let lo = lo.max(end);
        if hi > lo {
            total += hi - lo;
            end = hi;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x(block: u32, a: f64, d: f64, rate: f64) -> Xfer {
        Xfer {
            block,
            idx: 0,
            a,
            b: a + d,
            rate,
            d,
            miss: 1.0,
        }
    }

    #[test]
    fn transfers_that_hit_l2_ask_the_hbm_for_their_misses_only() {
        // two streams of 10 B/c missing half the time ask 10 B/c of HBM in all: they fit
        let mut a = x(0, 0.0, 100.0, 10.0);
        let mut b = x(1, 0.0, 100.0, 10.0);
        a.miss = 0.5;
        b.miss = 0.5;
        assert_eq!(shares(&[a, b], 10.0), vec![1.0, 1.0]);
        // on 5 B/c each gets half its misses: 50 units of hits and 50 of misses at half speed take 150
        let s = shares(&[a, b], 5.0);
        assert!(s.iter().all(|v| (v - 1.5).abs() < 1e-9), "{s:?}");
    }

    #[test]
    fn spans_union_counts_each_byte_once() {
        assert_eq!(union_len(&mut [(0, 10), (5, 15), (20, 30), (0, 4)]), 25);
    }

    #[test]
    fn transfers_within_the_bandwidth_keep_their_time() {
        let s = shares(&[x(0, 0.0, 100.0, 10.0), x(1, 50.0, 100.0, 10.0)], 20.0);
        assert_eq!(s, vec![1.0, 1.0]);
    }

    #[test]
    fn two_equal_transfers_over_the_bandwidth_each_take_half() {
        // two streams of 10 B/c on 10 B/c of HBM, side by side: each at 5 B/c takes twice as long
        let s = shares(&[x(0, 0.0, 100.0, 10.0), x(1, 0.0, 100.0, 10.0)], 10.0);
        assert!(s.iter().all(|v| (v - 2.0).abs() < 1e-9), "{s:?}");
    }

    #[test]
    fn a_transfer_gets_its_mean_share_over_its_span() {
        // overlap on [0, 50): each gets half; the first is alone on [50, 100): it gets 75 of 100 (stretch 4/3),
        // the second 25 of 50 (stretch 2)
        let s = shares(&[x(0, 0.0, 100.0, 10.0), x(1, 0.0, 50.0, 10.0)], 10.0);
        assert!((s[0] - 4.0 / 3.0).abs() < 1e-9, "{s:?}");
        assert!((s[1] - 2.0).abs() < 1e-9, "{s:?}");
    }
}
