//! ASC954's liveness: a write that runs past the end of its buffer into another buffer that is in use is a
//! warning when it happens, and becomes an error (at the write, the cause) only when the bytes it overwrote are
//! read afterwards through a tensor other than the writer's before their owner writes them again.
//!
//! UB has no per-buffer protection, so what matters on the device is whether the neighbour's data is still
//! needed: a TBuf whose last read is behind the overflowing write holds dead bytes, and writing them changes
//! nothing the kernel computes. (The vendor's TPipe gives `InitBuffer(buf, 0)` the pool's current address and
//! advances it by 0, so the next buffer starts at the same address and every write through the 0-byte one lands
//! in it: NPUKernelBench's CrossEntropyLossGrad does this for 10 or 100 classes, after its last read of blockBuf2.)
//!
//! The records are few (an overflow at one line, merged over a loop), and the hooks return at once when there are
//! none, so a kernel that never overflows pays one emptiness test per local access.

use crate::checks::{code, Severity};
use crate::core::Ctx;
use crate::memory::MemKind;

/// Bytes `[start, end)` of `mem`, in allocation `victim`, written through allocation `writer` at `loc`.
#[derive(Clone, Debug)]
pub struct Clobber {
    mem: MemKind,
    start: usize,
    end: usize,
    writer: u32,
    victim: u32,
    loc: i32,
    /// the write's finding message, to which the read is added when it escalates
    message: String,
}

/// The overwritten bytes of one core still holding the writer's data.
#[derive(Default, Clone, Debug)]
pub struct Clobbers {
    list: Vec<Clobber>,
}

/// How many records a core keeps: an overflow repeated at many lines keeps the newest.
const MAX_RECORDS: usize = 256;

impl Clobbers {
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Records an overflow, merged with an overlapping or adjacent one of the same write.
    pub fn add(&mut self, c: Clobber) {
        if let Some(r) = self.list.iter_mut().find(|r| {
            r.mem == c.mem
                && r.writer == c.writer
                && r.victim == c.victim
                && r.loc == c.loc
                && r.start <= c.end
                && c.start <= r.end
        }) {
            r.start = r.start.min(c.start);
            r.end = r.end.max(c.end);
            return;
        }
        if self.list.len() >= MAX_RECORDS {
            self.list.remove(0);
        }
        self.list.push(c);
    }

    /// The owner `alloc` writes `[s, e)`: those bytes hold its data again.
    pub fn rewritten(&mut self, mem: MemKind, s: usize, e: usize, alloc: u32) {
        let mut kept = Vec::with_capacity(self.list.len());
        for r in self.list.drain(..) {
            if r.victim != alloc || r.mem != mem || e <= r.start || r.end <= s {
                kept.push(r);
                continue;
            }
            if r.start < s {
                kept.push(Clobber { end: s, ..r.clone() });
            }
            if e < r.end {
                kept.push(Clobber { start: e, ..r });
            }
        }
        self.list = kept;
    }

    /// A queue buffer freed: what it held is no longer anyone's data.
    pub fn released(&mut self, alloc: u32) {
        self.list.retain(|r| r.victim != alloc);
    }

    /// The first record whose bytes a read of `[s, e)` through allocation `alloc` (not the writer's) takes.
    fn read_by(&self, mem: MemKind, s: usize, e: usize, alloc: u32) -> Option<&Clobber> {
        self.list
            .iter()
            .find(|r| r.mem == mem && r.writer != alloc && r.start < e && s < r.end)
    }
}

/// The write side, from `Ctx::check_local_write`: a write through `writer` past its end reached `victims`
/// (allocation, bytes `[s, e)` of the memory), buffers in use. A warning now; the records make it an error if
/// the bytes are read before their owner writes them again.
pub fn overflow(cx: &mut Ctx, mem: MemKind, writer: u32, victims: &[(u32, usize, usize)], message: String) {
    let loc = cx.loc;
    for &(victim, start, end) in victims {
        cx.core.clobbers.add(Clobber {
            mem,
            start,
            end,
            writer,
            victim,
            loc,
            message: message.clone(),
        });
    }
    cx.warn(
        code::LIVE_TENSOR_OVERWRITTEN,
        format!("{message}; a warning while no tensor but the writer's reads those bytes before their owner writes them again"),
    );
}

/// The hook for every local access whose tensor's allocation is known (`alloc` > 0): a read of overwritten
/// bytes escalates their write's finding; a write by their owner ends the record.
#[inline]
pub fn access(cx: &mut Ctx, mem: MemKind, start: usize, len: usize, write: bool, alloc: u32, what: &str) {
    if cx.core.clobbers.is_empty() || alloc == 0 || len == 0 {
        return;
    }
    let e = start + len;
    if write {
        cx.core.clobbers.rewritten(mem, start, e, alloc);
        return;
    }
    let Some(r) = cx.core.clobbers.read_by(mem, start, e, alloc).cloned() else {
        return;
    };
    let (rs, re) = (r.start.max(start), r.end.min(e));
    let base = cx
        .core
        .allocs
        .get(r.victim as usize - 1)
        .map_or(0, |a| a.start.max(0) as usize);
    let owner = victim_name(cx, r.victim);
    let through = if alloc == r.victim {
        String::new()
    } else {
        format!(" through {}", victim_name(cx, alloc))
    };
    let message = format!(
        "{}, and {what} at {} reads bytes [{}, {}) of {owner}{through} before they are written again: it gets the \
         overflowing write's data, not {owner}'s",
        r.message,
        cx.prog.where_(cx.loc),
        rs - base,
        re - base
    );
    let core = cx.core.block_idx as i64;
    cx.findings.escalate(
        code::LIVE_TENSOR_OVERWRITTEN,
        Severity::Error,
        r.loc,
        core,
        message,
        Vec::new(),
    );
}

fn victim_name(cx: &Ctx, alloc: u32) -> String {
    cx.core
        .allocs
        .get((alloc as usize).wrapping_sub(1))
        .map(|a| a.name.clone())
        .unwrap_or_else(|| "another tensor".into())
}
