//! The shadow memory of one local memory: byte runs with the same history (the last write, each pipe's last
//! read), kept sorted and split or merged as accesses are recorded.

use super::{Access, Seg, NP};

/// Replaces the history of [start, end) by one write (merged into the run before it when that is the same
/// pipe's write at the same clock, as a scalar loop's SetValue element by element).
pub(super) fn record_write(segs: &mut Vec<Seg>, first: usize, start: usize, end: usize, acc: Access) {
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
pub(super) fn record_read(segs: &mut Vec<Seg>, first: usize, start: usize, end: usize, acc: Access) {
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
