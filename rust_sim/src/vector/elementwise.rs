//! The element-wise driver: a kernel run over a call's plan, chunk by chunk, with the initialised-ness of each
//! result element taken from its sources, and a destination that partly overlaps a source read as a snapshot.

use super::elem;
use super::{Geom, Plan};
use crate::checks::code;
use crate::core::Ctx;
use crate::memory::MemKind;

/// Runs an element-wise kernel over the plan: for each run, the source operands' bytes (operands 1..) are
/// copied out, `kernel(srcs, dst, n, first)` fills the destination bytes, and the result is written to operand 0
/// with the initialised-ness of its sources. The kernel sees chunks of at most elem::CHUNK elements.
/// An element-wise kernel: (source bytes per operand, destination bytes, elements, the element index of the
/// first one: repeat * lanes + lane in repeat form, the position in count form).
pub type Kernel<'a> = dyn FnMut(&[&[u8]], &mut [u8], usize, u64) + 'a;

pub fn elementwise(cx: &mut Ctx, mem: MemKind, plan: &Plan, geoms: &[Geom], what: &str, kernel: &mut Kernel) {
    elementwise_absorbing(cx, mem, plan, geoms, what, kernel, None)
}

/// `elementwise` for a bitwise operation whose result byte is fixed by one operand's byte `absorb` (0x00 for And,
/// 0xFF for Or): such a result byte is initialised when that operand's byte is written and equal to it, whatever
/// the other holds (a diagonal picked out of a partly loaded tile by And with a mask of zeros, ops-math diag_v2).
/// Operands and result are of one element size; the other bytes are initialised as `elementwise` says.
pub fn elementwise_absorbing(
    cx: &mut Ctx,
    mem: MemKind,
    plan: &Plan,
    geoms: &[Geom],
    what: &str,
    kernel: &mut Kernel,
    absorb: Option<u8>,
) {
    let nsrc = geoms.len() - 1;
    let dst_size = geoms[0].size;
    let alloc = geoms[0].h.alloc;
    let mut src_bufs: Vec<elem::Scratch> = (0..nsrc).map(|_| elem::Scratch::new()).collect();
    let mut dst_buf = elem::Scratch::new();
    let mut init_buf: Vec<u8> = Vec::new();
    // a destination that overlaps a source without being that source (asc-devkit 通用说明和约束.md,
    // 通用地址重叠约束: only a 100% overlap is supported). Where the writes stay behind the reads (an in-place
    // narrowing Cast, a copy to the front) the result is the one the kernel means and nothing is said. Where they
    // run ahead, onto what a later repeat reads, the documents leave the result open; the one hardware run we
    // know of (NPUKernelBench's MulSigmoidMulAddCustom reference, correct on the device: Sigmoid's Muls with its
    // destination 1 to 4 repeats ahead of its source in calls of 2 to 8 repeats) read every repeat's source
    // before the writes landed, so the call's sources are read first, as a snapshot, and a warning says the
    // result rests on the vector unit reading ahead of its writes.
    let frozen = match partial_overlap(plan, geoms) {
        Some((k, true)) => {
            cx.warn(
                code::INVALID_OPERAND,
                format!(
                    "{what}: the destination overlaps source {k} without being the same bytes, ahead of it: a \
                     repeat's results land on what a later repeat reads (only a complete overlap is supported); \
                     computed with every source read before the writes, as the vector unit's read-ahead gave on \
                     the device for a few repeats"
                ),
            );
            source_snapshot(cx.local(mem), plan, geoms)
        }
        _ => None,
    };
    for run in &plan.runs {
        let n = run.n as usize;
        let dst_at = run.addr[0] as usize;
        let dst_len = n * dst_size;
        cx.check_local_write(mem, dst_at, dst_len, alloc, what);
        let local = cx.local(mem);
        // initialised-ness: an element is initialised when all its source elements are
        init_buf.clear();
        init_buf.resize(n, 1);
        for (k, g) in geoms[1..].iter().enumerate() {
            let at = run.addr[k + 1] as usize;
            let (_, sh) = source_bytes(&frozen, local, at, n * g.size);
            if !crate::memory::all_ones(sh) {
                for (e, flag) in init_buf.iter_mut().enumerate() {
                    if sh[e * g.size..(e + 1) * g.size].iter().any(|&b| b != 1) {
                        *flag = 0;
                    }
                }
            }
        }
        // with `absorb`: the result bytes that a written source byte equal to it decides
        let mut absorbed: Vec<u8> = Vec::new();
        if let Some(z) = absorb {
            if !crate::memory::all_ones(&init_buf) {
                absorbed.resize(dst_len, 0);
                for (k, g) in geoms[1..].iter().enumerate() {
                    let at = run.addr[k + 1] as usize;
                    let (data, init) = source_bytes(&frozen, local, at, n * g.size);
                    for (b, flag) in absorbed.iter_mut().enumerate().take(n * g.size) {
                        if init[b] == 1 && data[b] == z {
                            *flag = 1;
                        }
                    }
                }
            }
        }
        let mut done = 0;
        while done < n {
            let m = (n - done).min(elem::CHUNK);
            for (k, g) in geoms[1..].iter().enumerate() {
                let at = run.addr[k + 1] as usize + done * g.size;
                let (data, _) = source_bytes(&frozen, local, at, m * g.size);
                src_bufs[k].bytes(m * g.size).copy_from_slice(data);
            }
            let out = dst_buf.bytes(m * dst_size);
            {
                let srcs: Vec<&[u8]> = src_bufs
                    .iter_mut()
                    .zip(&geoms[1..])
                    .map(|(b, g)| &*b.bytes(m * g.size))
                    .collect();
                kernel(
                    &srcs,
                    out,
                    m,
                    run.rep as u64 * plan.lanes as u64 + run.lane as u64 + done as u64,
                );
            }
            let at = dst_at + done * dst_size;
            local.data.as_mut_slice()[at..at + m * dst_size].copy_from_slice(out);
            done += m;
        }
        let sh = &mut local.init[dst_at..dst_at + dst_len];
        if crate::memory::all_ones(&init_buf) {
            sh.fill(1);
        } else {
            for (e, &flag) in init_buf.iter().enumerate() {
                sh[e * dst_size..(e + 1) * dst_size].fill(flag);
            }
            // (`absorbed` was read from the sources before the result overwrote any of them; empty without
            // `absorb`)
            for (b, flag) in absorbed.iter().enumerate() {
                if *flag == 1 {
                    sh[b] = 1;
                }
            }
        }
    }
}

/// The bytes (and their initialised flags) of every source of a call, from the lowest source byte on, read before
/// the call writes anything.
struct Snapshot {
    base: usize,
    data: Vec<u8>,
    init: Vec<u8>,
}

fn source_snapshot(local: &crate::memory::LocalMem, plan: &Plan, geoms: &[Geom]) -> Option<Snapshot> {
    let (mut lo, mut hi) = (usize::MAX, 0usize);
    for run in &plan.runs {
        for (k, g) in geoms[1..].iter().enumerate() {
            let at = run.addr[k + 1] as usize;
            lo = lo.min(at);
            hi = hi.max(at + run.n as usize * g.size);
        }
    }
    (lo < hi && hi <= local.init.len()).then(|| Snapshot {
        base: lo,
        data: local.data.as_slice()[lo..hi].to_vec(),
        init: local.init[lo..hi].to_vec(),
    })
}

/// `len` bytes of a source at `at` and their initialised flags: from the call's snapshot where it took one.
fn source_bytes<'a>(
    frozen: &'a Option<Snapshot>,
    local: &'a crate::memory::LocalMem,
    at: usize,
    len: usize,
) -> (&'a [u8], &'a [u8]) {
    match frozen {
        Some(f) => (
            &f.data[at - f.base..at - f.base + len],
            &f.init[at - f.base..at - f.base + len],
        ),
        None => (&local.data.as_slice()[at..at + len], &local.init[at..at + len]),
    }
}

/// The first source (1-based) whose bytes overlap the destination's without being exactly them, if any, and
/// whether the destination's writes can reach bytes of that source a later repeat reads: they cannot when the
/// destination starts at or before the source and, repeat by repeat, advances no faster than the source does
/// (`lanes` elements of each per repeat) by more than the distance between their starts.
fn partial_overlap(plan: &Plan, geoms: &[Geom]) -> Option<(usize, bool)> {
    let span = |k: usize| -> Option<(i64, i64)> {
        let size = geoms[k].size as i64;
        let lo = plan.runs.iter().map(|r| r.addr[k]).min()?;
        let hi = plan.runs.iter().map(|r| r.addr[k] + r.n as i64 * size).max()?;
        Some((lo, hi))
    };
    let (dlo, dhi) = span(0)?;
    let dsize = geoms[0].size as i64;
    // (the operands are in one memory: check_footprint's `mem`)
    (1..geoms.len()).find_map(|k| {
        let (lo, hi) = span(k)?;
        let partial = lo < dhi && dlo < hi && (lo, hi, geoms[k].size as i64) != (dlo, dhi, dsize);
        let gain = (plan.repeats.max(1) as i64 - 1) * plan.lanes as i64 * (dsize - geoms[k].size as i64);
        partial.then_some((k, !(dlo <= lo && gain <= lo - dlo)))
    })
}

#[cfg(test)]
mod overlap_tests {
    use super::partial_overlap;
    use crate::memory::Handle;
    use crate::vector::{Geom, Plan, Run};

    fn plan(dst: i64, src: i64, n: u32, lanes: usize, repeats: u64) -> Plan {
        Plan {
            runs: vec![Run {
                addr: [dst, src, 0, 0],
                n,
                lane: 0,
                rep: 0,
            }],
            lanes,
            repeats,
            elements: n as u64,
        }
    }

    #[test]
    fn only_a_partial_overlap_is_one() {
        let f32s = [Geom {
            h: Handle::NULL,
            size: 4,
        }; 2];
        // one repeat past its source: ahead of the reads
        assert_eq!(partial_overlap(&plan(256, 0, 192, 64, 3), &f32s), Some((1, true)));
        // one repeat before it (a copy to the front): behind them
        assert_eq!(partial_overlap(&plan(0, 256, 192, 64, 3), &f32s), Some((1, false)));
        assert_eq!(partial_overlap(&plan(0, 0, 256, 64, 4), &f32s), None); // in place: the complete overlap
        assert_eq!(partial_overlap(&plan(512, 0, 128, 64, 2), &f32s), None); // side by side
                                                                             // a Cast from the same address: to a wider type it runs ahead, to a narrower one it stays behind
        let widen = [
            Geom {
                h: Handle::NULL,
                size: 4,
            },
            Geom {
                h: Handle::NULL,
                size: 2,
            },
        ];
        assert_eq!(partial_overlap(&plan(0, 0, 128, 64, 2), &widen), Some((1, true)));
        let narrow = [
            Geom {
                h: Handle::NULL,
                size: 2,
            },
            Geom {
                h: Handle::NULL,
                size: 4,
            },
        ];
        assert_eq!(partial_overlap(&plan(0, 0, 128, 64, 2), &narrow), Some((1, false)));
    }
}
