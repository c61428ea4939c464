//! One core: registers, scalar stack, local memories, objects, pipes; the scalar unit's interpreter loop.
//!
//! The scalar unit issues instructions in program order. Scalar work runs at once; every other instruction
//! goes to its pipe. A pipe runs what it is given at once too (eagerly), unless it is blocked on a WaitFlag
//! whose flag is not set: then what is issued to it waits in its queue, with the register values it was
//! issued with, until a SetFlag releases it. With correct synchronisation this is program order; without
//! it, the reordering the hardware could do; and a wait nothing can satisfy is a deadlock finding.
//!
//! This file holds the core's state and the context an instruction runs in; ctx.rs the context's accessors
//! (findings, registers, memories), interp.rs the scalar unit's loop, exec.rs the instructions that work
//! through the context, flags.rs the pipes and flags, memory_access.rs the memory accesses.

use std::rc::Rc;

use crate::api::{Pipe, PIPES};
use crate::checks::{code, describe_range, Findings, Severity};
use crate::dtype::{DType, STy};
use crate::memory::{in_bounds, Gm, GmRole, Handle, LocalMem, MemKind, Space, MEM_KINDS};
use crate::program::{Op, Program, Sv, H, R};
use crate::queue::{self, Alloc, ObjState};
use crate::scalar;
use crate::sync::{FlagKey, SyncState};

mod ctx;
mod exec;
mod flags;
mod interp;
mod memory_access;
#[cfg(test)]
mod ub_pointer_tests;

pub use interp::run;
pub use memory_access::{run_hash, WriteRec, CONTENT_BYTES};

/// What happens after an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Next,
    Jump(u32),
    /// the core waits for the other cores (SyncAll); it resumes at the next instruction
    Wait,
    /// the core cannot issue this instruction yet (a cross-core flag not set): it runs it again when resumed
    Yield,
    /// the core is done: it returned, or it cannot go on (a finding says why)
    Stop,
    /// the whole run ends (the instruction budget is spent)
    Abort,
}

/// Vector mask state: SetMaskCount / SetMaskNorm / SetVectorMask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaskState {
    pub counter: bool,
    pub bits: [u64; 2],
}

impl Default for MaskState {
    fn default() -> Self {
        MaskState {
            counter: false,
            bits: [u64::MAX, u64::MAX],
        }
    }
}

/// GM atomic mode set by SetAtomicAdd/Max/Min<T>, until SetAtomicNone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Atomic {
    None,
    Add(DType),
    Max(DType),
    Min(DType),
}

/// The values an instruction was issued with, kept while it waits in a blocked pipe.
pub struct Snapshot {
    pub r: Vec<u64>,
    pub h: Vec<Handle>,
}

pub struct Core {
    pub block_idx: u32,
    pub block_num: u32,
    pub aiv: bool,
    pub r: Vec<u64>,
    pub h: Vec<Handle>,
    pub stack: Vec<u8>,
    pub mem: Vec<Option<LocalMem>>,
    pub objs: Vec<ObjState>,
    pub allocs: Vec<Alloc>,
    pub pc: usize,
    pub sync: SyncState,
    pub mask: MaskState,
    /// the CMPMASK register: Compare without a destination writes it, Select in VSEL_CMPMASK_SPR mode reads it
    pub cmpmask: [u64; 2],
    /// the MAX_MIN_CNT register: the value (low bits) and index (high 32 bits) the last WholeReduceMax /
    /// WholeReduceMin found over all its repeats, read by GetReduceMaxMinCount; None before any
    pub max_min_cnt: Option<u64>,
    /// SPR.ACC_VAL: the sum the last vcadd in accumulate mode (mode 1) left, as the bits of its element type
    /// (cleared by the next such vcadd before it adds), read by GetAccVal / get_acc_val
    pub acc_val: u64,
    /// VMS4_SR: how many (score, index) pairs of each of the four lists the last MrgSort took (16 bits each,
    /// list 0 lowest), read by GetMrgSortResult and the list form's sortedNum (vector/sort.rs)
    pub vms4_sr: u64,
    /// the DEQSCALE register SetDeqScale sets: the factor of int32 -> half Casts (None before any)
    pub deq_scale: Option<f32>,
    /// the MTE2 pad register set_mov_pad_val writes (SetPadValue, DataCopyPad GM -> UB with isPad true), as the
    /// bits it was given; DataCopyPad with isPad false pads with it (dma.rs). None before any: unknown bytes
    pub mov_pad_val: Option<u64>,
    /// the loop mode registers of the UB -> GM and GM -> UB paths (SetLoopModePara, loop_mode.rs), by
    /// DataCopyMVType; the normal mode (1 x 1) at power-on, as ResetLoopModePara leaves them
    pub loop_mode: [crate::loop_mode::LoopMode; 2],
    pub atomic: Atomic,
    /// the cube unit's registers and the Matmul objects (cube/mod.rs)
    pub cube: crate::cube::CubeState,
    pub executed: u64,
    pub writes: Vec<WriteRec>,
    pub poison_writes: Vec<WriteRec>,
    pub epoch: u32,
    pub done: bool,
    /// the instruction index of the SyncAll the core waits at, if any
    pub waiting: Option<usize>,
    /// the timing model's log of this core, when time is modelled (timing/mod.rs)
    pub tlog: Option<Box<crate::timing::CoreLog>>,
    /// Ctx::copy's staging bytes and flags, kept between copies
    pub copy_scratch: (Vec<u8>, Vec<u8>),
    /// the pipes' clocks and the local memories' access history, for the race check (race.rs)
    pub race: crate::race::RaceState,
    /// scalar values read from memory nothing wrote, followed to where they are used (taint.rs)
    pub taint: crate::taint::Taint,
    /// the ShapeInfo set on each tensor (SetShapeInfo), read by the softmax APIs (vector/softmax_flash/shape_info.rs)
    pub shape_infos: crate::vector::softmax_flash::ShapeInfos,
    /// bytes of in-use buffers overwritten by a write past another buffer's end (ASC954, clobber.rs)
    pub clobbers: crate::clobber::Clobbers,
    /// the register API's registers (arch35 vector functions; vector/reg/), made at the first register call
    pub reg_file: Option<crate::vector::reg::file::RegFile>,
    /// the SIMT launch whose threads run now, when they wait for each other (simt.rs)
    pub simt: Option<Box<crate::simt::Launch>>,
}

impl Core {
    pub fn new(prog: &Program, block_idx: u32, block_num: u32) -> Core {
        let mut r = vec![0u64; prog.n_regs];
        for &(reg, bits) in &prog.consts {
            r[reg as usize] = bits;
        }
        Core {
            block_idx,
            block_num,
            aiv: prog.kernel_type != "aic",
            r,
            h: vec![Handle::NULL; prog.n_handles],
            stack: vec![0u8; prog.stack_bytes],
            mem: (0..MEM_KINDS).map(|_| None).collect(),
            objs: prog.objects.iter().map(|_| ObjState::None).collect(),
            allocs: Vec::new(),
            pc: 0,
            sync: SyncState::default(),
            mask: MaskState::default(),
            cmpmask: [0, 0],
            max_min_cnt: None,
            acc_val: 0,
            vms4_sr: 0,
            deq_scale: None,
            mov_pad_val: None,
            loop_mode: [crate::loop_mode::LoopMode::NORMAL; 2],
            atomic: Atomic::None,
            cube: crate::cube::CubeState::default(),
            executed: 0,
            writes: Vec::new(),
            poison_writes: Vec::new(),
            epoch: 0,
            done: false,
            waiting: None,
            tlog: None,
            copy_scratch: (Vec::new(), Vec::new()),
            race: crate::race::RaceState::new(),
            taint: crate::taint::Taint::default(),
            shape_infos: Default::default(),
            clobbers: Default::default(),
            reg_file: None,
            simt: None,
        }
    }
}

/// What an instruction sees while it runs.
pub struct Ctx<'a> {
    pub core: &'a mut Core,
    pub gm: &'a mut Gm,
    pub prog: &'a Program,
    pub findings: &'a mut Findings,
    pub loc: i32,
    pub pc: usize,
}

#[inline]
pub fn sv(reg: R, ty: STy) -> Sv {
    Sv { reg, ty }
}
