//! The checks every vector call's operands pass before anything is written: one local memory for all, the
//! runs inside it (with the race and overwritten-bytes checks seeing each span), and a count-form count that
//! fits the tensors.

use super::{Form, Geom, Run};
use crate::checks::code;
use crate::core::Ctx;
use crate::memory::{MemKind, Space};

/// Checks that each operand's runs lie in one local memory (the same for all operands) and inside it;
/// returns that memory. `sizes[i]` is operand i's element size.
pub fn check_footprint(cx: &mut Ctx, geoms: &[Geom], runs: &[Run], names: &[&str], what: &str) -> Option<MemKind> {
    let mut mem: Option<MemKind> = None;
    for (i, g) in geoms.iter().enumerate() {
        let m = match g.h.space {
            Space::Local(m) => m,
            Space::Null => {
                cx.report(
                    code::LOCAL_OUT_OF_BOUNDS,
                    format!(
                        "{what}: operand {} is a LocalTensor that was never allocated",
                        names.get(i).unwrap_or(&"?")
                    ),
                );
                return None;
            }
            Space::Gm(_) => {
                cx.report(
                    code::INVALID_OPERAND,
                    format!(
                        "{what}: operand {} is in GM; vector instructions work on local memory",
                        names.get(i).unwrap_or(&"?")
                    ),
                );
                return None;
            }
        };
        if let Some(prev) = mem {
            if prev != m {
                cx.report(
                    code::INVALID_OPERAND,
                    format!("{what}: operands in {} and {}", prev.name(), m.name()),
                );
                return None;
            }
        }
        mem = Some(m);
        if runs.is_empty() {
            continue;
        }
        let lo = runs.iter().map(|r| r.addr[i]).min().unwrap();
        let hi = runs
            .iter()
            .map(|r| r.addr[i] + r.n as i64 * g.size as i64)
            .max()
            .unwrap();
        let size = cx.local_size(m) as i64;
        if lo < 0 || hi > size {
            cx.report(
                code::LOCAL_OUT_OF_BOUNDS,
                format!(
                    "{what}: operand {} spans bytes [{lo}, {hi}) of {}, which has {size} bytes",
                    names.get(i).unwrap_or(&"?"),
                    m.name()
                ),
            );
            return None;
        }
        // the race check sees the span each operand covers (its bounding range: strided operands count whole)
        let write = names.get(i).is_some_and(|n| n.starts_with("dst"));
        crate::race::check(cx, m, lo as usize, (hi - lo) as usize, write, g.size, what);
    }
    if let Some(m) = mem {
        if !cx.core.clobbers.is_empty() {
            clobber_accesses(cx, m, geoms, runs, names, what);
        }
    }
    mem
}

/// The overwritten-bytes check (ASC954, clobber.rs) sees each operand's runs, the instruction's reads before its
/// writes (an in-place operation reads what was there).
fn clobber_accesses(cx: &mut Ctx, m: MemKind, geoms: &[Geom], runs: &[Run], names: &[&str], what: &str) {
    for writes in [false, true] {
        for (i, g) in geoms.iter().enumerate() {
            if names.get(i).is_some_and(|n| n.starts_with("dst")) != writes {
                continue;
            }
            for r in runs {
                let n = r.n as usize * g.size;
                crate::clobber::access(cx, m, r.addr[i] as usize, n, writes, g.h.alloc, what);
            }
        }
    }
}

/// For count-form calls: a count larger than a tensor holds (the CPU twin's "count ... should not larger
/// than tensor size" check). A warning: the device build checks nothing of the kind (a tensor of `Get(0)`
/// used for 8 elements runs), and the bytes past the tensor are judged as memory accesses (outside the local
/// memory, into a live tensor, uninitialised).
pub fn check_count_fits(cx: &mut Ctx, form: &Form, geoms: &[Geom], names: &[&str], what: &str) {
    let Form::Count(c) = form else { return };
    let count = cx.int(*c);
    for (i, g) in geoms.iter().enumerate() {
        if g.h.len >= 0 && count * g.size as i64 > g.h.len {
            cx.warn(
                code::INVALID_OPERAND,
                format!(
                    "{what} works on {count} elements ({} bytes), but {} holds {} bytes ({} elements); only the CPU \
                     debug build checks this",
                    count * g.size as i64,
                    names.get(i).unwrap_or(&"?"),
                    g.h.len,
                    g.h.len / g.size as i64
                ),
            );
            return;
        }
    }
}
