//! Synchronisation: SetFlag / WaitFlag on HardEvents, PipeBarrier, SyncAll, the GM atomic mode, event-id
//! allocation. A flag is a count per (event, id): SetFlag runs on the event's source pipe and raises it,
//! WaitFlag runs on the destination pipe and lowers it, blocking that pipe while it is 0 (core/).

use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use crate::api::{ApiOp, Args, EnumArg, Pipe, Registry, PIPES};
use crate::checks::code;
use crate::core::{Atomic, Ctx, Flow, Snapshot};
use crate::dtype::DType;
use crate::program::{Program, Sv};

/// The HardEvents: X_Y means pipe Y waits for pipe X. MTE1_FIX / FIX_MTE1 (kernel_event.h: the fixpipe and
/// L1 -> L0 moves, catlass 19_mla's cube kernel raises FIX_MTE1 before its first loads) were missing: the core
/// stopped at the SetFlag as an unmodelled event.
pub const HARD_EVENTS: [&str; 34] = [
    "MTE2_MTE1",
    "MTE1_MTE2",
    "MTE1_M",
    "M_MTE1",
    "MTE2_V",
    "V_MTE2",
    "MTE3_V",
    "V_MTE3",
    "M_V",
    "V_M",
    "V_V",
    "MTE3_MTE1",
    "MTE1_MTE3",
    "MTE1_V",
    "MTE2_M",
    "M_MTE2",
    "V_MTE1",
    "M_FIX",
    "FIX_M",
    "MTE3_MTE2",
    "MTE2_MTE3",
    "S_V",
    "V_S",
    "S_MTE2",
    "MTE2_S",
    "S_MTE3",
    "MTE3_S",
    "MTE2_FIX",
    "FIX_MTE2",
    "FIX_S",
    "M_S",
    "FIX_MTE3",
    "MTE1_FIX",
    "FIX_MTE1",
];

pub fn event_index(name: &str) -> Option<u8> {
    let n = name.rsplit("::").next().unwrap_or(name);
    HARD_EVENTS.iter().position(|e| *e == n).map(|i| i as u8)
}

/// (source pipe, destination pipe) of a HardEvent.
pub fn event_pipes(event: u8) -> (Pipe, Pipe) {
    let name = HARD_EVENTS[event as usize];
    let (src, dst) = name.split_once('_').unwrap_or(("S", "S"));
    (Pipe::parse(src).unwrap_or(Pipe::S), Pipe::parse(dst).unwrap_or(Pipe::S))
}

/// A flag: a HardEvent with an id, or the event behind one queue buffer's EnQue/DeQue (`back` false) or
/// FreeTensor/AllocTensor (`back` true).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlagKey {
    Hard { event: u8, id: u8 },
    Queue { obj: u32, buf: u32, back: bool },
}

impl FlagKey {
    pub fn describe(self, prog: &Program) -> String {
        match self {
            FlagKey::Hard { event, id } => {
                format!("SetFlag<HardEvent::{}>({id})", HARD_EVENTS[event as usize])
            }
            FlagKey::Queue { obj, buf, back } => {
                let name = prog.objects.get(obj as usize).map(|o| o.name.as_str()).unwrap_or("?");
                if back {
                    format!("FreeTensor of buffer {buf} of queue {name}")
                } else {
                    format!("EnQue of buffer {buf} of queue {name}")
                }
            }
        }
    }
}

/// Work queued behind a blocked pipe.
pub enum Deferred {
    Set(FlagKey),
    Wait(FlagKey, i32),
    Instr { pc: usize, snap: Rc<Snapshot> },
}

#[derive(Default)]
pub struct SyncState {
    pub flags: HashMap<FlagKey, u32>,
    /// the flag each blocked pipe waits for, and where it started waiting
    pub blocked: [Option<(FlagKey, i32)>; PIPES],
    pub pending: [VecDeque<Deferred>; PIPES],
    /// event ids taken by AllocEventID, per event (bit i = id i)
    pub event_ids: HashMap<u8, u16>,
}

impl SyncState {
    pub fn take(&mut self, key: FlagKey) -> bool {
        match self.flags.get_mut(&key) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        }
    }

    pub fn blocked_notes(&self, prog: &Program) -> Vec<String> {
        let mut notes = Vec::new();
        for p in 0..PIPES {
            if let Some((key, loc)) = self.blocked[p] {
                notes.push(format!(
                    "{} is itself blocked since {} waiting for {}",
                    pipe_name(p),
                    prog.where_(loc),
                    key.describe(prog)
                ));
            }
        }
        notes
    }
}

/// The name of pipe index `p` (the order of `Pipe`, PIPE_ALL last).
pub(crate) fn pipe_name(p: usize) -> &'static str {
    [
        "PIPE_S",
        "PIPE_V",
        "PIPE_M",
        "PIPE_MTE1",
        "PIPE_MTE2",
        "PIPE_MTE3",
        "PIPE_FIX",
        "PIPE_ALL",
    ][p]
}

// ---------------------------------------------------------------------------------------------------------
// SetFlag / WaitFlag

#[derive(Debug)]
struct Flag {
    set: bool,
    event: EventArg,
    id: Sv,
}

#[derive(Debug, Clone)]
enum EventArg {
    Known(u8),
    /// TQueSync<PIPE_X, PIPE_Y> and the like are not modelled; a missing event stops the core when run
    Unknown(String),
}

fn decode_flag(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let set = a.api == "SetFlag";
    let id = a.sv("eventID")?;
    let event = match a.targ("event") {
        Some(e) => match event_index(e) {
            Some(i) => EventArg::Known(i),
            None => EventArg::Unknown(format!("HardEvent {e}")),
        },
        None => EventArg::Unknown("a flag whose HardEvent is not a template argument".into()),
    };
    Ok(Box::new(Flag { set, event, id }))
}

impl ApiOp for Flag {
    fn pipe(&self) -> Pipe {
        match &self.event {
            EventArg::Known(e) => {
                let (src, dst) = event_pipes(*e);
                if self.set {
                    src
                } else {
                    dst
                }
            }
            EventArg::Unknown(_) => Pipe::S,
        }
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let event = match &self.event {
            EventArg::Known(e) => *e,
            EventArg::Unknown(what) => {
                cx.report(
                    code::NOT_MODELLED,
                    format!("the simulator does not model {what}; the core stops here"),
                );
                return Flow::Stop;
            }
        };
        let id = cx.int(self.id);
        if !(0..16).contains(&id) {
            cx.report(
                code::INVALID_OPERAND,
                format!("event id {id} is not a hardware event id (0-7)"),
            );
            return Flow::Next;
        }
        let key = FlagKey::Hard { event, id: id as u8 };
        let (src, dst) = event_pipes(event);
        if self.set {
            cx.set_flag(src, key);
            Flow::Next
        } else if cx.wait_flag(dst, key) {
            Flow::Next
        } else {
            Flow::Stop
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// PipeBarrier, SyncAll

#[derive(Debug)]
struct Barrier {
    pipe: Pipe,
}

fn decode_barrier(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let name = a.targ("pipe").ok_or("PipeBarrier without its pipe")?;
    let pipe = Pipe::parse(name).ok_or_else(|| format!("unknown pipe {name}"))?;
    Ok(Box::new(Barrier { pipe }))
}

impl ApiOp for Barrier {
    fn pipe(&self) -> Pipe {
        self.pipe
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        if self.pipe == Pipe::All {
            // the scalar unit waits for every pipe to drain: a blocked pipe never does
            if cx.core.sync.blocked.iter().any(|b| b.is_some()) {
                let notes = cx.core.sync.blocked_notes(cx.prog);
                cx.report_notes(
                    code::DEADLOCK,
                    "PipeBarrier<PIPE_ALL> waits for every pipe to finish, but a pipe \
                                                 waits for a flag nothing sets: the core hangs here"
                        .into(),
                    notes,
                );
                return Flow::Stop;
            }
            cx.core.race.barrier_all();
        }
        Flow::Next
    }
}

#[derive(Debug)]
struct SyncAll;

fn decode_sync_all(_a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(SyncAll))
}

impl ApiOp for SyncAll {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        if cx.core.sync.blocked.iter().any(|b| b.is_some()) {
            let notes = cx.core.sync.blocked_notes(cx.prog);
            cx.report_notes(
                code::DEADLOCK,
                "SyncAll waits for this core's pipes to finish, but a pipe waits for a \
                                             flag nothing sets"
                    .into(),
                notes,
            );
            return Flow::Stop;
        }
        cx.core.race.barrier_all();
        Flow::Wait
    }
}

// ---------------------------------------------------------------------------------------------------------
// atomics

#[derive(Debug)]
struct SetAtomic {
    kind: u8,
    dtype: Option<DType>,
}

fn decode_atomic(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let kind = match a.api.as_str() {
        "SetAtomicAdd" => 1,
        "SetAtomicMax" => 2,
        "SetAtomicMin" => 3,
        _ => 0,
    };
    let dtype = if kind == 0 { None } else { Some(a.dtype("T")?) };
    Ok(Box::new(SetAtomic { kind, dtype }))
}

impl ApiOp for SetAtomic {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        cx.core.atomic = match (self.kind, self.dtype) {
            (1, Some(t)) => Atomic::Add(t),
            (2, Some(t)) => Atomic::Max(t),
            (3, Some(t)) => Atomic::Min(t),
            _ => Atomic::None,
        };
        Flow::Next
    }
}

// ---------------------------------------------------------------------------------------------------------
// event ids: TPipe::AllocEventID / ReleaseEventID / FetchEventID

#[derive(Debug)]
struct EventId {
    kind: u8, // 0 alloc, 1 release, 2 fetch
    event: Option<EnumArg>,
    id: Option<Sv>,
    result: Option<Sv>,
}

fn decode_event_id(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let kind = match a.api.as_str() {
        "AllocEventID" => 0,
        "ReleaseEventID" => 1,
        _ => 2,
    };
    let event = match a.targ("event").or_else(|| a.targ("evt")) {
        Some(name) => Some(EnumArg::Name(name.to_string())),
        None => a.named.iter().find_map(|(_, arg)| match arg {
            crate::api::Arg::Name(n) if event_index(n).is_some() => Some(EnumArg::Name(n.clone())),
            _ => None,
        }),
    };
    let id = a.named.iter().find_map(|(_, arg)| match arg {
        crate::api::Arg::Reg(sv) => Some(*sv),
        _ => None,
    });
    Ok(Box::new(EventId {
        kind,
        event,
        id,
        result: a.result_sv(),
    }))
}

impl ApiOp for EventId {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let event = match &self.event {
            Some(EnumArg::Name(n)) => event_index(n).unwrap_or(0),
            _ => 0,
        };
        let taken = cx.core.sync.event_ids.entry(event).or_insert(0);
        match self.kind {
            1 => {
                if let Some(id) = self.id {
                    let v = cx.int(id);
                    if (0..16).contains(&v) {
                        *cx.core.sync.event_ids.get_mut(&event).unwrap() &= !(1u16 << v);
                    }
                }
            }
            k => {
                let free = (0..8).find(|i| *taken & (1 << i) == 0);
                let Some(id) = free else {
                    cx.report(
                        code::INVALID_OPERAND,
                        format!(
                            "AllocEventID<HardEvent::{}>: all 8 event ids are taken",
                            HARD_EVENTS[event as usize]
                        ),
                    );
                    return Flow::Next;
                };
                if k == 0 {
                    *taken |= 1 << id;
                }
                if let Some(r) = self.result {
                    cx.set(r.reg, r.ty, id as u64);
                }
            }
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add("SetFlag.plain", decode_flag);
    r.add("WaitFlag.plain", decode_flag);
    r.add("PipeBarrier.plain", decode_barrier);
    r.add("SyncAll.hard", decode_sync_all);
    // the software form (gmWorkspace, ubWorkspace, usedCores) meets the same way: its cores count one another in
    // the GM workspace through the UB one until every one has arrived (asc-devkit SyncAll, the soft overload);
    // what it leaves in the workspaces is scratch nothing reads after it
    r.add("SyncAll.soft", decode_sync_all);
    r.add_all(
        &["SetAtomicAdd", "SetAtomicMax", "SetAtomicMin", "SetAtomicNone"],
        &["plain"],
        decode_atomic,
    );
    r.add_all(
        &["AllocEventID", "ReleaseEventID", "FetchEventID"],
        &["plain", "argument", "template"],
        decode_event_id,
    );
}

#[cfg(test)]
mod event_tests {
    use super::*;

    #[test]
    fn fixpipe_and_mte1_events_are_known() {
        let fix_mte1 = event_index("AscendC::HardEvent::FIX_MTE1").expect("FIX_MTE1");
        assert_eq!(event_pipes(fix_mte1), (Pipe::Fix, Pipe::Mte1));
        let mte1_fix = event_index("MTE1_FIX").expect("MTE1_FIX");
        assert_eq!(event_pipes(mte1_fix), (Pipe::Mte1, Pipe::Fix));
    }
}
