//! A race's finding (ASC965) at the second access's line, graded: a warning where --cce-auto-sync orders the
//! two pipes (then assumed ordered from there on), an error where nothing does, a write deferred until it has run
//! (race_unchanged.rs).

use super::{NP, S};
use crate::api::Pipe;
use crate::checks::{code, describe_range, Severity};
use crate::core::Ctx;
use crate::memory::MemKind;
use crate::sync::pipe_name;

/// What orders a race between two pipes when the kernel itself does not (the grade of its finding).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AutoSync {
    /// the scalar unit and MTE2, MTE3 or V: the compiler's --cce-auto-sync (BiSheng's guide, "Automatic
    /// Synchronization")
    Scalar,
    /// V and MTE2 or MTE3 on UB: documented as the queues' hand-off, not the compiler's, but hardware-passing
    /// kernels built with --cce-auto-sync leave it unflagged (vendor ops-nn CrossEntropyLossGrad, KernelHive
    /// finals; bench/README.md, the race-check section)
    VectorMte,
}

/// Whether --cce-auto-sync orders an unflagged dependency between pipes `a` and `b` through `mem`. Not
/// MTE2 <-> MTE3 (the guide leaves it to TQueBind; ASC708's page) and nothing on the cube side (M, MTE1, FIX,
/// and MTE2/MTE3 into L1): the framework's Matmul/queues order those, and for an AIC kernel that drives
/// LoadData/Mmad itself the compiler inserts nothing.
pub fn compiler_orders(a: usize, b: usize, mem: MemKind) -> Option<AutoSync> {
    const V: usize = Pipe::V as usize;
    const MTE2: usize = Pipe::Mte2 as usize;
    const MTE3: usize = Pipe::Mte3 as usize;
    let other = if a == S {
        b
    } else if b == S {
        a
    } else {
        let pair = (a.min(b), a.max(b));
        let vector_mte = pair == (V.min(MTE2), V.max(MTE2)) || pair == (V.min(MTE3), V.max(MTE3));
        return (vector_mte && mem == MemKind::Ub).then_some(AutoSync::VectorMte);
    };
    matches!(other, V | MTE2 | MTE3).then_some(AutoSync::Scalar)
}

/// The hook for an access of local memory: records it and reports a race (ASC965) at the current line.
pub fn check(cx: &mut Ctx, mem: MemKind, start: usize, len: usize, write: bool, elem: usize, what: &str) {
    let loc = cx.loc;
    let Some(r) = cx.core.race.access(mem, start, start + len, write, loc) else {
        return;
    };
    let second = pipe_name(cx.core.race.current.min(NP - 1));
    let first = pipe_name(r.first_pipe);
    let verb = if write { "writes" } else { "reads" };
    let earlier = if r.first_write { "wrote" } else { "read" };
    let elems = describe_range(r.start as i64, (r.end - r.start) as i64, elem);
    let needed = format!(
        "neither a SetFlag/WaitFlag<HardEvent::{}_{}> pair, nor a queue EnQue/DeQue between the two pipes, nor a \
         PipeBarrier<PIPE_ALL>",
        &first[5..],
        &second[5..]
    );
    let message = format!(
        "data race on core {}: {what} on {second} {verb} bytes [{}, {}) of {} ({elems} of that memory), which \
         {first} {earlier} at {}, and nothing orders the two ({needed} between them): on the device the pipes run \
         concurrently, and this {} may happen before that access is done",
        cx.core.block_idx,
        r.start,
        r.end,
        mem.name(),
        cx.prog.where_(r.first_loc),
        if write { "write" } else { "read" },
    );
    let mut notes = vec![format!("the {first} access is at {}", cx.prog.where_(r.first_loc))];
    let severity = if let Some(order) = compiler_orders(r.first_pipe, cx.core.race.current.min(NP - 1), mem) {
        let second_pipe = cx.core.race.current.min(NP - 1);
        cx.core.race.assume_compiler_sync(r.first_pipe, second_pipe);
        notes.push(
            "a warning, not an error: with --cce-auto-sync (the default) the compiler inserts this sync where it \
             can follow the tensor from one access to the other; it cannot through non-inline functions or \
             tensors kept in containers"
                .into(),
        );
        if order == AutoSync::VectorMte {
            notes.push(
                "BiSheng's guide names only the S and V <-> V syncs as the compiler's and leaves V <-> MTE2/MTE3 to \
                 the queues, yet kernels built with --cce-auto-sync that leave this hand-off through a LocalTensor \
                 unflagged run correct on the device (the vendor's own CrossEntropyLossGrad among them): a \
                 SetFlag/WaitFlag pair or a queue is what orders it under --cce-auto-sync=off"
                    .into(),
            );
        }
        Severity::Warning
    } else if write {
        // graded after the write: a write of the bytes already there races with nothing (race_unchanged.rs)
        crate::race_unchanged::defer(cx, mem, start, len, message, notes);
        return;
    } else {
        Severity::Error
    };
    let core = cx.core.block_idx as i64;
    cx.findings.report(code::PIPE_RACE, severity, loc, core, message, notes);
}

#[cfg(test)]
mod tests {
    use super::*;

    const V: usize = Pipe::V as usize;
    const MTE2: usize = Pipe::Mte2 as usize;
    const MTE3: usize = Pipe::Mte3 as usize;

    #[test]
    fn auto_sync_grades_the_scalar_side_and_vector_mte_on_ub_and_nothing_else() {
        const M: usize = Pipe::M as usize;
        const MTE1: usize = Pipe::Mte1 as usize;
        const FIX: usize = Pipe::Fix as usize;
        for p in [V, MTE2, MTE3] {
            assert_eq!(compiler_orders(S, p, MemKind::Ub), Some(AutoSync::Scalar));
            assert_eq!(compiler_orders(p, S, MemKind::Ub), Some(AutoSync::Scalar));
        }
        for (a, b) in [(V, MTE2), (MTE2, V), (V, MTE3), (MTE3, V)] {
            assert_eq!(compiler_orders(a, b, MemKind::Ub), Some(AutoSync::VectorMte));
        }
        // MTE2 <-> MTE3 is TQueBind's (or the kernel's flags), the cube side the framework's: errors stay
        assert_eq!(compiler_orders(MTE2, MTE3, MemKind::Ub), None);
        assert_eq!(compiler_orders(MTE3, MTE2, MemKind::Ub), None);
        for (a, b, mem) in [
            (MTE1, MTE2, MemKind::L1),
            (MTE2, MTE1, MemKind::L1),
            (MTE1, M, MemKind::L0a),
            (M, FIX, MemKind::L0c),
            (MTE1, M, MemKind::Bt),
            (MTE3, MTE1, MemKind::L1),
            (S, M, MemKind::L0c),
        ] {
            assert_eq!(compiler_orders(a, b, mem), None, "{a} {b} {mem:?}");
        }
    }
}
