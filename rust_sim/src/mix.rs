//! MIX kernels: the AIC and AIV cores of a launch, their numbering, and the cross-core flags between them.
//!
//! On the split chips (910B, 910_93) a MIX launch of blockDim blocks runs, per block, one cube core (AIC) and
//! one or two vector cores (AIV) (KERNEL_TYPE_MIX_AIC_1_1 / _1_2). GetBlockIdx is the block on an AIC and
//! `block * GetTaskRation() + GetSubBlockIdx()` on an AIV; GetBlockNum is blockDim on both (asc-devkit
//! impl/basic_api/dav_c220/kernel_operator_common_impl.h, GetBlockIdxImpl).
//!
//! CrossCoreSetFlag<mode, pipe>(id) / CrossCoreWaitFlag(id) (the devkit's CrossCoreSetFlag(ISASI).md): each core
//! has a counter per flag id; a wait takes one, or stops the core's issue until there is one. Mode 0 raises
//! the counter of every core of the setter's kind once all of them have set; mode 1 raises both AIVs' of a
//! block once both have set; mode 2 from the AIC raises the counters of its block's AIVs, and from the AIVs
//! raises the AIC's once every AIV of the block has set.
//!
//! Mode 0 also works in a kernel of one kind of core (no KERNEL_TASK_TYPE, or AIV_ONLY): it is the barrier the
//! hardware SyncAll itself is made of (asc-devkit impl/basic_api/dav_c220/kernel_operator_sync_impl.h,
//! SyncAllImpl<isAIVOnly = true>: ffts_cross_core_sync(PIPE_MTE3, GetffstMsg(0x0, SYNC_AIV_ONLY_ALL)) then
//! wait_flag_dev(SYNC_AIV_ONLY_ALL)), and the CANN 8.0 / 8.1 CrossCoreSetFlag pages show mode 0 among the AIVs
//! with no kernel type; NPUKernelBench's ForeachNorm, correct on hardware, relies on it. Only the 9.0 beta pages
//! ask for KERNEL_TYPE_MIX_AIV_1_0 there. Modes 1 and 2 pair the cores of one AI Core, which only a MIX launch
//! has: in a one-kind kernel they stay an error.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::program::Sv;

/// Where one core of a launch sits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slot {
    /// what GetBlockIdx returns there
    pub block_idx: u32,
    /// the block (AI Core group) it belongs to
    pub group: u32,
    pub aiv: bool,
    /// GetSubBlockIdx (the AIV's index in its block; 0 on an AIC)
    pub sub: u32,
    /// GetTaskRation (AIVs per block on an AIV; 1 on an AIC)
    pub ration: u32,
    /// its index among the launch's cores
    pub slot: u32,
}

/// The AIVs per block of a MIX kernel type, or None for a kernel that runs on one kind of core.
pub fn mix_ratio(kernel_type: &str) -> Option<(u32, u32)> {
    match kernel_type {
        "mix_aic_1_2" => Some((1, 2)),
        "mix_aic_1_1" => Some((1, 1)),
        "mix_aic_1_0" => Some((1, 0)),
        "mix_aiv_1_0" => Some((0, 1)),
        _ => None,
    }
}

/// The cores a launch of `block_dim` blocks runs, in the order they start: per block the AIVs, then the AIC.
pub fn layout(kernel_type: &str, block_dim: u32) -> Vec<Slot> {
    let mut out = Vec::new();
    let Some((aic, aiv)) = mix_ratio(kernel_type) else {
        let on_aiv = kernel_type != "aic";
        for b in 0..block_dim {
            out.push(Slot {
                block_idx: b,
                group: b,
                aiv: on_aiv,
                sub: 0,
                ration: 1,
                slot: b,
            });
        }
        return out;
    };
    for g in 0..block_dim {
        for s in 0..aiv {
            let slot = out.len() as u32;
            out.push(Slot {
                block_idx: g * aiv + s,
                group: g,
                aiv: true,
                sub: s,
                ration: aiv,
                slot,
            });
        }
        if aic == 1 {
            let slot = out.len() as u32;
            out.push(Slot {
                block_idx: g,
                group: g,
                aiv: false,
                sub: 0,
                ration: 1,
                slot,
            });
        }
    }
    out
}

/// The flag counters of a launch, shared by its cores.
#[derive(Debug, Default)]
pub struct CrossFlags {
    pub slots: Vec<Slot>,
    /// a core's counter per flag id
    counters: HashMap<(u32, u16), u64>,
    /// sets that wait for the other setters of their group: (mode, scope, id) -> count per setting core
    pending: HashMap<(u8, u32, u16), HashMap<u32, u64>>,
    /// raised whenever a counter goes up, so the launch knows when a waiting core may go on
    pub version: u64,
    /// the (setters, receivers) of the last set that raised its group's flag, for the timing model
    pub last_raise: Option<(Vec<u32>, Vec<u32>)>,
    /// the scope of the last set (with its mode and id, the flag group it belongs to)
    pub last_scope: u32,
    /// GM ranges a block's AIC wrote for its AIVs' Matmul requests: (block, buffer, start, end, epoch)
    pub served: std::collections::HashSet<(u32, u32, i64, i64, u32)>,
}

pub type Shared = Rc<RefCell<CrossFlags>>;

impl CrossFlags {
    pub fn new(slots: Vec<Slot>) -> Shared {
        Rc::new(RefCell::new(CrossFlags {
            slots,
            ..CrossFlags::default()
        }))
    }

    fn raise(&mut self, slots: &[u32], id: u16) {
        for s in slots {
            *self.counters.entry((*s, id)).or_insert(0) += 1;
        }
        self.version += 1;
    }

    /// A set from core `me` in `mode`; false when the mode is not one the 2201 chips have.
    pub fn set(&mut self, me: Slot, mode: u8, id: u16) -> bool {
        let group_aivs: Vec<u32> = self
            .slots
            .iter()
            .filter(|s| s.group == me.group && s.aiv)
            .map(|s| s.slot)
            .collect();
        let (setters, receivers, scope): (Vec<u32>, Vec<u32>, u32) = match mode {
            0 => {
                let same: Vec<u32> = self.slots.iter().filter(|s| s.aiv == me.aiv).map(|s| s.slot).collect();
                (same.clone(), same, me.aiv as u32)
            }
            1 if me.aiv => (group_aivs.clone(), group_aivs, me.group),
            2 if !me.aiv => (vec![me.slot], group_aivs, me.group * 2),
            2 => {
                let aic: Vec<u32> = self
                    .slots
                    .iter()
                    .filter(|s| s.group == me.group && !s.aiv)
                    .map(|s| s.slot)
                    .collect();
                (group_aivs, aic, me.group * 2 + 1)
            }
            _ => return false,
        };
        let key = (mode, scope, id);
        let counts = self.pending.entry(key).or_default();
        *counts.entry(me.slot).or_insert(0) += 1;
        if setters.iter().all(|s| counts.get(s).copied().unwrap_or(0) > 0) {
            for s in &setters {
                *counts.get_mut(s).unwrap() -= 1;
            }
            self.raise(&receivers, id);
            self.last_raise = Some((setters, receivers));
        }
        self.last_scope = scope;
        true
    }

    /// A wait by core `me`: takes one from its counter, or says it must wait.
    pub fn take(&mut self, me: u32, id: u16) -> bool {
        match self.counters.get_mut(&(me, id)) {
            Some(c) if *c > 0 => {
                *c -= 1;
                true
            }
            _ => false,
        }
    }
}

#[derive(Debug)]
struct CrossCore {
    name: String, // the API as written (CrossCoreSetFlag or NotifyEvent, ...), for the findings
    set: bool,
    mode: u8,
    pipe: Pipe,
    id: Sv,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    // NotifyEvent<pipe>(id) / WaitEvent<pipe>(id), the Matmul library's cube-vector events, are the same flags
    // (asc-devkit kernel_operator_block_sync_intf_impl.h): NotifyEventImpl<subBlockSyncMode, pipe> with mode 2
    // (the AIC and the AIVs of one block; the 950 form takes it as a template argument defaulting to 2), and
    // WaitEventImpl, which waits as CrossCoreWaitFlag does
    let set = matches!(a.api.as_str(), "CrossCoreSetFlag" | "NotifyEvent");
    let mode = match a.targ("modeId").or_else(|| a.targ("subBlockSyncMode")) {
        Some(v) => v.parse::<u8>().map_err(|_| format!("modeId {v}"))?,
        None if a.api == "NotifyEvent" => 2,
        None if set => return Err("CrossCoreSetFlag without its modeId".into()),
        None => 0,
    };
    let pipe = match a.targ("pipe") {
        Some(p) => Pipe::parse(p).ok_or_else(|| format!("pipe {p}"))?,
        None => Pipe::S,
    };
    Ok(Box::new(CrossCore {
        name: a.api.clone(),
        set,
        mode,
        pipe: if set { pipe } else { Pipe::S },
        id: a.sv("flagId")?,
    }))
}

impl ApiOp for CrossCore {
    fn pipe(&self) -> Pipe {
        self.pipe
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let id = cx.uint(self.id);
        let what = self.name.as_str();
        if id > 15 {
            cx.report(
                code::INVALID_OPERAND,
                format!("{what} with flagId {id}: the ids are 0 to 15"),
            );
            return Flow::Next;
        }
        let one_kind = mix_ratio(&cx.prog.kernel_type).is_none();
        let cross = cx
            .core
            .cube
            .cross
            .clone()
            .filter(|_| !(one_kind && self.set && self.mode != 0));
        let Some(shared) = cross else {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "{what}<{}> in a {} kernel: modes 1 and 2 pair the cores of one AI Core and need a MIX kernel \
                     type (mode 0, all cores of the kind, works in any kernel)",
                    self.mode, cx.prog.kernel_type
                ),
            );
            return Flow::Next;
        };
        let me = cx.core.cube.slot;
        if self.set {
            let known = shared.borrow_mut().set(me, self.mode, id as u16);
            if known {
                let (raised, scope) = {
                    let mut flags = shared.borrow_mut();
                    (flags.last_raise.take(), flags.last_scope)
                };
                let key = crate::timing::cross_key(self.mode, scope, id as u16);
                crate::timing::cross_set(cx.core, self.pipe, key, me.slot, raised);
            }
            if !known {
                cx.report(
                    code::INVALID_OPERAND,
                    format!(
                        "{what}<{}> on an {}: the 2201 chips have modes 0 (all cores of a kind), 1 \
                         (the AIVs of a block) and 2 (AIC and AIVs of a block, from either side)",
                        self.mode,
                        if me.aiv { "AIV" } else { "AIC" }
                    ),
                );
            }
            return Flow::Next;
        }
        if shared.borrow_mut().take(me.slot, id as u16) {
            crate::timing::cross_wait(cx.core, id as u16, me.slot);
            Flow::Next
        } else {
            Flow::Yield
        }
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(
        &["CrossCoreSetFlag", "CrossCoreWaitFlag", "NotifyEvent", "WaitEvent"],
        &["plain"],
        decode,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mix_1_2_launch_numbers_its_aivs_per_block() {
        let l = layout("mix_aic_1_2", 2);
        let aiv: Vec<(u32, u32, u32)> = l
            .iter()
            .filter(|s| s.aiv)
            .map(|s| (s.block_idx, s.group, s.sub))
            .collect();
        assert_eq!(aiv, vec![(0, 0, 0), (1, 0, 1), (2, 1, 0), (3, 1, 1)]);
        let aic: Vec<u32> = l.iter().filter(|s| !s.aiv).map(|s| s.block_idx).collect();
        assert_eq!(aic, vec![0, 1]);
        assert!(l.iter().filter(|s| s.aiv).all(|s| s.ration == 2));
        assert_eq!(layout("aiv", 3).len(), 3);
    }

    #[test]
    fn mode_0_in_a_vector_only_launch_waits_for_every_core() {
        let l = layout("aiv", 3);
        let shared = CrossFlags::new(l.clone());
        let mut f = shared.borrow_mut();
        f.set(l[0], 0, 1);
        f.set(l[1], 0, 1);
        assert!(!f.take(l[0].slot, 1));
        f.set(l[2], 0, 1);
        assert!(l.iter().all(|s| f.take(s.slot, 1)));
        assert!(!f.take(l[1].slot, 1));
    }

    #[test]
    fn notify_and_wait_event_are_the_mode_2_flag_and_its_wait() {
        let call = |api: &str, targs: &[(&str, &str)]| {
            let a = Args {
                api: api.into(),
                overload: "plain".into(),
                targs: targs.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect(),
                named: vec![(
                    "flagId".into(),
                    crate::api::Arg::Reg(Sv {
                        reg: 1,
                        ty: crate::dtype::STy::I64,
                    }),
                )],
                ..Default::default()
            };
            let op = decode(&a).unwrap();
            let text = format!("{op:?}");
            (text.contains("set: true"), text.contains("mode: 2"), op.pipe())
        };
        assert_eq!(call("NotifyEvent", &[("pipe", "PIPE_FIX")]), (true, true, Pipe::Fix));
        // the 950 form's subBlockSyncMode, when written
        assert_eq!(
            call("NotifyEvent", &[("pipe", "PIPE_MTE3"), ("subBlockSyncMode", "1")]),
            (true, false, Pipe::Mte3)
        );
        assert_eq!(call("WaitEvent", &[("pipe", "PIPE_MTE3")]), (false, false, Pipe::S));
    }

    #[test]
    fn mode_2_goes_from_the_aic_to_both_aivs_and_back_when_both_set() {
        let l = layout("mix_aic_1_2", 1);
        let shared = CrossFlags::new(l.clone());
        let mut f = shared.borrow_mut();
        let (v0, v1, c) = (l[0], l[1], l[2]);
        assert!(!f.take(v0.slot, 3));
        f.set(c, 2, 3);
        assert!(f.take(v0.slot, 3) && f.take(v1.slot, 3));
        assert!(!f.take(v0.slot, 3));
        f.set(v0, 2, 5);
        assert!(!f.take(c.slot, 5));
        f.set(v1, 2, 5);
        assert!(f.take(c.slot, 5));
        // mode 1: both AIVs must set before either goes on
        f.set(v0, 1, 7);
        assert!(!f.take(v0.slot, 7));
        f.set(v1, 1, 7);
        assert!(f.take(v0.slot, 7) && f.take(v1.slot, 7));
    }
}
