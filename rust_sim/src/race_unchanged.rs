//! Pipe races whose write leaves the bytes as they were (ASC965 graded after the write).
//!
//! A write that another pipe's unordered access conflicts with (a read not yet done, or a write) is a race
//! because the order decides what ends up read or stored. When the write stores exactly the bytes that were
//! there already, no order can change either: the reader sees the same value whether the write came first or
//! not, and the memory holds the same bytes after both. Catlass's bias-table pipeline is the case in point: it
//! copies the same bias from L1 into the bias table before every Mmad of a tile (PIPE_MTE1) without waiting for
//! the Mmad before it (PIPE_M), which read that table; the kernels run correct on the device.
//!
//! So a pipe write found racing is not reported at once: `defer` keeps the finding with the bytes (and their
//! initialised flags) the write is about to replace, and `settle`, called once the instruction has run,
//! compares. Unchanged bytes make the finding a warning (the same missing flag would be a real race on other
//! data); changed bytes keep it an error. Findings between pipes --cce-auto-sync orders (the scalar side, and
//! V <-> MTE2/MTE3 on UB: race/report.rs `compiler_orders`) are warnings already and are not deferred.

use crate::checks::{code, Severity};
use crate::core::Ctx;
use crate::memory::MemKind;

/// A race found on a write, waiting for the write to run.
pub struct PendingWrite {
    mem: MemKind,
    start: usize,
    data: Vec<u8>,
    init: Vec<u8>,
    loc: i32,
    core: i64,
    message: String,
    notes: Vec<String>,
}

/// Keeps the finding of a write to bytes [start, start + len) of `mem` until the write has run.
pub fn defer(cx: &mut Ctx, mem: MemKind, start: usize, len: usize, message: String, notes: Vec<String>) {
    let m = cx.local(mem);
    let end = (start + len).min(m.size());
    let pending = PendingWrite {
        mem,
        start,
        data: m.data.as_slice()[start..end].to_vec(),
        init: m.init[start..end].to_vec(),
        loc: cx.loc,
        core: cx.core.block_idx as i64,
        message,
        notes,
    };
    cx.core.race.pending.push(pending);
}

/// Reports the deferred findings: a warning where the write left every byte (and its initialised flag) as it
/// was, an error otherwise.
pub fn settle(cx: &mut Ctx) {
    if cx.core.race.pending.is_empty() {
        return;
    }
    for p in std::mem::take(&mut cx.core.race.pending) {
        let m = cx.local(p.mem);
        let end = p.start + p.data.len();
        let unchanged = m.data.as_slice()[p.start..end] == p.data[..] && m.init[p.start..end] == p.init[..];
        let mut notes = p.notes;
        let severity = if unchanged {
            notes.push(
                "a warning, not an error: the write stores the very bytes that were there, so neither order changes \
                 what is read or kept; with other data the same missing flag is a real race"
                    .into(),
            );
            Severity::Warning
        } else {
            Severity::Error
        };
        cx.findings
            .report(code::PIPE_RACE, severity, p.loc, p.core, p.message, notes);
    }
}
