//! One core: registers, scalar stack, local memories, objects, pipes; the scalar unit's interpreter loop.
//!
//! The scalar unit issues instructions in program order. Scalar work runs at once; every other instruction
//! goes to its pipe. A pipe runs what it is given at once too (eagerly), unless it is blocked on a WaitFlag
//! whose flag is not set: then what is issued to it waits in its queue, with the register values it was
//! issued with, until a SetFlag releases it. With correct synchronisation this is program order; without
//! it, the reordering the hardware could do; and a wait nothing can satisfy is a deadlock finding.

use std::rc::Rc;

use crate::api::{Pipe, PIPES};
use crate::checks::{code, describe_range, Findings, Severity};
use crate::dtype::{DType, STy};
use crate::memory::{in_bounds, Gm, GmRole, Handle, LocalMem, MemKind, Space, MEM_KINDS};
use crate::program::{Op, Program, Sv, H, R};
use crate::queue::{self, Alloc, ObjState};
use crate::scalar;
use crate::sync::{FlagKey, SyncState};

mod flags;
mod memory_access;
#[cfg(test)]
mod ub_pointer_tests;

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
    /// the ShapeInfo set on each tensor (SetShapeInfo), read by the softmax APIs (vector/softmax_flash.rs)
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

impl<'a> Ctx<'a> {
    // ------------------------------------------------------------------ findings

    pub fn report(&mut self, code: &'static str, message: String) {
        self.findings.report(
            code,
            Severity::Error,
            self.loc,
            self.core.block_idx as i64,
            message,
            Vec::new(),
        );
    }

    pub fn report_notes(&mut self, code: &'static str, message: String, notes: Vec<String>) {
        self.findings.report(
            code,
            Severity::Error,
            self.loc,
            self.core.block_idx as i64,
            message,
            notes,
        );
    }

    pub fn warn(&mut self, code: &'static str, message: String) {
        self.findings.report(
            code,
            Severity::Warning,
            self.loc,
            self.core.block_idx as i64,
            message,
            Vec::new(),
        );
    }

    // ------------------------------------------------------------------ registers

    #[inline]
    pub fn raw(&self, r: R) -> u64 {
        self.core.r[r as usize]
    }

    #[inline]
    pub fn int(&self, sv: Sv) -> i64 {
        sv.ty.sext(self.core.r[sv.reg as usize])
    }

    #[inline]
    pub fn uint(&self, sv: Sv) -> u64 {
        sv.ty.zext(self.core.r[sv.reg as usize])
    }

    #[inline]
    pub fn float(&self, sv: Sv) -> f64 {
        sv.ty.to_f64(self.core.r[sv.reg as usize])
    }

    /// A scalar operand's value in element type `dt` (a float register converted to an integer type, or the
    /// other way, as a C conversion would).
    pub fn value_as(&self, sv: Sv, dt: DType) -> u64 {
        let bits = self.core.r[sv.reg as usize];
        if sv.ty.is_float() == dt.is_float() && sv.ty.bits() as usize == dt.size() * 8 {
            return bits;
        }
        if sv.ty.is_float() {
            dt.from_f64(sv.ty.to_f64(bits))
        } else if dt.is_float() {
            dt.from_f64(sv.ty.sext(bits) as f64)
        } else {
            dt.from_i64(sv.ty.sext(bits))
        }
    }

    #[inline]
    pub fn set(&mut self, r: R, ty: STy, bits: u64) {
        self.core.r[r as usize] = ty.norm(bits);
    }

    #[inline]
    pub fn handle(&self, h: H) -> Handle {
        self.core.h[h as usize]
    }

    #[inline]
    pub fn set_handle(&mut self, h: H, v: Handle) {
        self.core.h[h as usize] = v;
    }

    // ------------------------------------------------------------------ memories

    /// GetValue's read (the instruction's and LocalTensor / GlobalTensor::GetValue's) of an `elem` scalar at byte
    /// `at` of `space`, in range: its bits, and the mask of those that bytes nothing wrote form
    /// (taint::unwritten_bits; 0 when every byte was written).
    pub fn read_scalar(&mut self, space: Space, at: usize, elem: DType) -> (u64, u64) {
        let n = elem.size();
        let mut flags = [1u8; 8];
        let bits = match space {
            Space::Gm(b) => {
                let buf = &self.gm.bufs[b as usize];
                if !buf.all_init(at, n) {
                    buf.init_flags(at, &mut flags[..n]);
                }
                elem.load_bits(&buf.bytes()[at..])
            }
            Space::Local(m) => {
                let mem = self.local(m);
                flags[..n].copy_from_slice(&mem.init[at..at + n]);
                elem.load_bits(&mem.data.as_slice()[at..])
            }
            Space::Null => 0,
        };
        (bits, crate::taint::unwritten_bits(&flags[..n], elem.is_float()))
    }

    pub fn local(&mut self, m: MemKind) -> &mut LocalMem {
        let idx = m as usize;
        if self.core.mem[idx].is_none() {
            let size = self.prog.memory(m).map(|(s, _)| s).unwrap_or(0);
            self.core.mem[idx] = Some(LocalMem::new(size));
        }
        self.core.mem[idx].as_mut().unwrap()
    }

    pub fn local_size(&self, m: MemKind) -> usize {
        self.prog.memory(m).map(|(s, _)| s).unwrap_or(0)
    }

    /// Runs a catalog call; when time is modelled, records what it cost (timing/mod.rs).
    pub fn exec_api(&mut self, api: &dyn crate::api::ApiOp) -> Flow {
        crate::timing::begin_op(self.core);
        let pipe = api.pipe().index();
        self.core.race.issue(pipe);
        let outer = std::mem::replace(&mut self.core.race.current, pipe);
        let flow = api.exec(self);
        crate::race_unchanged::settle(self);
        self.core.race.current = outer;
        crate::timing::end_op(self, api.pipe(), flow);
        flow
    }
}

/// Runs the core until it returns, waits for other cores, stops, or the budget runs out.
pub fn run(core: &mut Core, gm: &mut Gm, prog: &Program, findings: &mut Findings, budget: &mut u64) -> Flow {
    let code = &prog.code;
    loop {
        if *budget == 0 {
            let loc = code.get(core.pc).map(|i| i.loc).unwrap_or(-1);
            findings.report(
                code::BUDGET,
                Severity::Error,
                loc,
                core.block_idx as i64,
                format!(
                    "the instruction budget ran out on core {} (it was still running here): a runaway loop, or a \
                 kernel larger than the budget (raise it with budget=/--budget)",
                    core.block_idx
                ),
                Vec::new(),
            );
            return Flow::Abort;
        }
        *budget -= 1;
        core.executed += 1;
        let pc = core.pc;
        let Some(ins) = code.get(pc) else {
            return finish(core, gm, prog, findings, -1);
        };
        if core.taint.any {
            crate::taint::step(core, prog, pc, findings);
        }
        let flow = match &ins.op {
            Op::Mov { d, a } => {
                core.r[*d as usize] = core.r[*a as usize];
                Flow::Next
            }
            Op::Int2 { op, ty, d, a, b } => {
                let (x, y) = (core.r[*a as usize], core.r[*b as usize]);
                match scalar::int_bin(*op, *ty, x, y) {
                    Ok(v) => core.r[*d as usize] = v,
                    Err(_) => {
                        // the scalar unit does not trap: a quotient never used (Gemm's `x % kLoopsNext` past
                        // the last block) is harmless, so this is a warning; a used one makes the output wrong
                        core.r[*d as usize] = 0;
                        findings.report(
                            code::DIVISION_BY_ZERO,
                            Severity::Warning,
                            ins.loc,
                            core.block_idx as i64,
                            format!("integer division by zero ({op:?} on {ty:?})"),
                            Vec::new(),
                        );
                    }
                }
                Flow::Next
            }
            Op::Cmpi { pred, ty, d, a, b } => {
                core.r[*d as usize] = scalar::cmpi(*pred, *ty, core.r[*a as usize], core.r[*b as usize]) as u64;
                Flow::Next
            }
            Op::Brz { c, target } => {
                if core.r[*c as usize] & 1 == 0 {
                    Flow::Jump(*target)
                } else {
                    Flow::Next
                }
            }
            Op::Br { target } => Flow::Jump(*target),
            Op::Select { d, c, a, b } => {
                core.r[*d as usize] = if core.r[*c as usize] & 1 != 0 {
                    core.r[*a as usize]
                } else {
                    core.r[*b as usize]
                };
                Flow::Next
            }
            Op::Conv { op, from, to, d, a } => {
                core.r[*d as usize] = scalar::convert(*op, *from, *to, core.r[*a as usize]);
                Flow::Next
            }
            Op::Float2 { op, ty, d, a, b } => {
                core.r[*d as usize] = scalar::float_bin(*op, *ty, core.r[*a as usize], core.r[*b as usize]);
                Flow::Next
            }
            Op::Unary { op, ty, d, a } => {
                core.r[*d as usize] = scalar::unary(*op, *ty, core.r[*a as usize]);
                Flow::Next
            }
            Op::Cmpf { pred, ty, d, a, b } => {
                core.r[*d as usize] = scalar::cmpf(*pred, *ty, core.r[*a as usize], core.r[*b as usize]) as u64;
                Flow::Next
            }
            Op::Fma { ty, d, a, b, c } => {
                let (x, y, z) = (
                    ty.to_f64(core.r[*a as usize]),
                    ty.to_f64(core.r[*b as usize]),
                    ty.to_f64(core.r[*c as usize]),
                );
                let v = if *ty == STy::F64 {
                    x.mul_add(y, z)
                } else {
                    (x as f32).mul_add(y as f32, z as f32) as f64
                };
                core.r[*d as usize] = ty.from_f64(v);
                Flow::Next
            }
            Op::MovH { d, a } => {
                core.h[*d as usize] = core.h[*a as usize];
                Flow::Next
            }
            Op::SelectH { d, c, a, b } => {
                core.h[*d as usize] = if core.r[*c as usize] & 1 != 0 {
                    core.h[*a as usize]
                } else {
                    core.h[*b as usize]
                };
                Flow::Next
            }
            Op::Undef { d, what } => {
                core.r[*d as usize] = 0;
                if what.is_some() {
                    // followed to where it is used: an offset or a size of 0 is no one's value (taint.rs)
                    core.taint.mark(*d, Some(crate::taint::undef_origin(pc)), prog.n_regs);
                }
                Flow::Next
            }
            Op::NullH { d } => {
                core.h[*d as usize] = Handle::NULL;
                Flow::Next
            }
            Op::Ret => return finish(core, gm, prog, findings, ins.loc),
            Op::SimtBegin { d, n, end } => crate::simt::begin(core, findings, pc, ins.loc, *d, *n, *end),
            Op::SimtSync | Op::SimtEnd => crate::simt::wait(core, prog, findings, pc, [0; 3]),
            Op::SimtWarp { a, .. } => {
                let mut posted = [0u64; 3];
                for (p, r) in posted.iter_mut().zip(a) {
                    *p = core.r[*r as usize];
                }
                crate::simt::wait(core, prog, findings, pc, posted)
            }
            _ => {
                let mut cx = Ctx {
                    core: &mut *core,
                    gm: &mut *gm,
                    prog,
                    findings: &mut *findings,
                    loc: ins.loc,
                    pc,
                };
                exec_other(&mut cx, &ins.op)
            }
        };
        match flow {
            Flow::Next => core.pc += 1,
            Flow::Jump(t) => core.pc = t as usize,
            Flow::Wait => {
                core.waiting = Some(core.pc);
                core.pc += 1;
                return Flow::Wait;
            }
            Flow::Yield => return Flow::Yield,
            Flow::Stop => {
                core.done = true;
                return Flow::Stop;
            }
            Flow::Abort => return Flow::Abort,
        }
    }
}

/// The end of the kernel: a pipe still blocked is a deadlock.
fn finish(core: &mut Core, gm: &mut Gm, prog: &Program, findings: &mut Findings, loc: i32) -> Flow {
    core.done = true;
    for p in 0..PIPES {
        if let Some((key, wait_loc)) = core.sync.blocked[p] {
            let pipe = [
                Pipe::S,
                Pipe::V,
                Pipe::M,
                Pipe::Mte1,
                Pipe::Mte2,
                Pipe::Mte3,
                Pipe::Fix,
                Pipe::All,
            ][p];
            let pending = core.sync.pending[p].len();
            findings.report(
                code::DEADLOCK,
                Severity::Error,
                wait_loc,
                core.block_idx as i64,
                format!(
                    "{} waits here for {}, which nothing sets: the pipe never runs again ({} instruction{} issued \
                 to it after this never run) and the kernel hangs",
                    pipe.name(),
                    key.describe(prog),
                    pending,
                    if pending == 1 { "" } else { "s" }
                ),
                Vec::new(),
            );
        }
    }
    let _ = (gm, loc);
    Flow::Stop
}

fn exec_other(cx: &mut Ctx, op: &Op) -> Flow {
    match op {
        Op::Api(api) => {
            let pipe = api.pipe();
            if cx.defer_if_blocked(pipe) {
                return Flow::Next;
            }
            cx.exec_api(&**api)
        }
        Op::LdStack { elem, off, len, idx, d } => {
            let i = cx.core.r[*idx as usize] as i64;
            if i < 0 || i >= *len as i64 {
                cx.report(
                    code::LOCAL_OUT_OF_BOUNDS,
                    format!("reads element {i} of a local array of {len} elements"),
                );
                cx.core.r[*d as usize] = 0;
                return Flow::Next;
            }
            let at = *off as usize + i as usize * elem.size();
            cx.core.r[*d as usize] = elem.load_bits(&cx.core.stack[at..]);
            Flow::Next
        }
        Op::StStack { elem, off, len, idx, v } => {
            let i = cx.core.r[*idx as usize] as i64;
            if i < 0 || i >= *len as i64 {
                cx.report(
                    code::LOCAL_OUT_OF_BOUNDS,
                    format!("writes element {i} of a local array of {len} elements"),
                );
                return Flow::Next;
            }
            let at = *off as usize + i as usize * elem.size();
            let bits = cx.core.r[*v as usize];
            elem.store_bits(&mut cx.core.stack[at..], bits);
            Flow::Next
        }
        Op::PtrAdd { elem, d, a, n } | Op::SubTensor { elem, d, a, n } => {
            let h = cx.handle(*a);
            let off = crate::int4::bytes(cx.int(*n), *elem);
            cx.set_handle(*d, h.offset(off));
            Flow::Next
        }
        Op::PtrToInt { d, a } => {
            let h = cx.handle(*a);
            cx.core.r[*d as usize] = match h.space {
                Space::Gm(b) => crate::memory::gm_address(b, h.addr),
                Space::Local(_) => h.addr as u64,
                Space::Null => 0,
            };
            Flow::Next
        }
        Op::IntToPtr { d, a } => {
            let value = cx.raw(*a);
            let h = match crate::memory::gm_buffer_of(value, cx.gm) {
                Some((b, addr)) => Handle {
                    space: Space::Gm(b),
                    addr,
                    len: cx.gm.bufs[b as usize].len() as i64 - addr,
                    alloc: 0,
                },
                None => {
                    if value != 0 {
                        cx.report(
                            code::INVALID_OPERAND,
                            format!(
                                "the integer {value:#x} is used as a GM pointer, but no tensor of the launch is \
                                 at that address (a pointer table or a computed address is wrong)"
                            ),
                        );
                    }
                    Handle::NULL
                }
            };
            cx.set_handle(*d, h);
            Flow::Next
        }
        Op::UbToPtr { d, a } => {
            // a bare pointer into UB (no length: each access is checked against UB itself, as the register
            // API's addresses are)
            let h = Handle {
                space: Space::Local(MemKind::Ub),
                addr: cx.raw(*a) as i64,
                len: -1,
                alloc: 0,
            };
            cx.set_handle(*d, h);
            Flow::Next
        }
        Op::SetGlobalBuffer { elem, d, p, count } => {
            let mut h = cx.handle(*p);
            h.len = match count {
                Some(c) => crate::int4::bytes(cx.int(*c), *elem),
                None => 0,
            };
            cx.set_handle(*d, h);
            Flow::Next
        }
        Op::GetValue { elem, d, h, idx } => {
            let handle = cx.handle(*h);
            let i = cx.int(*idx);
            if *elem == DType::I4 {
                // two elements share a byte: a scalar access would read or write half of one (not modelled)
                cx.report(
                    code::NOT_MODELLED,
                    "GetValue of an int4b_t element (two to a byte)".into(),
                );
                return Flow::Stop;
            }
            let size = elem.size() as i64;
            let Some(at) = cx.range(handle, i.wrapping_mul(size), size, false, elem.size(), "GetValue") else {
                cx.core.r[*d as usize] = 0;
                cx.core.taint.mark(*d, None, cx.prog.n_regs);
                return Flow::Next;
            };
            crate::timing::scalar_access(cx.core, handle.space, at as i64);
            // reading unwritten bytes is not itself a fault: the value is judged where it is used (taint.rs),
            // and only the bits the unwritten bytes form are unknown
            let (bits, unknown) = cx.read_scalar(handle.space, at, *elem);
            cx.core.taint.mark_bits(*d, Some(cx.loc), unknown, cx.prog.n_regs);
            cx.core.r[*d as usize] = bits;
            Flow::Next
        }
        Op::SetValue { elem, h, idx, v } => {
            let handle = cx.handle(*h);
            let i = cx.int(*idx);
            if *elem == DType::I4 {
                // two elements share a byte: a scalar access would read or write half of one (not modelled)
                cx.report(
                    code::NOT_MODELLED,
                    "SetValue of an int4b_t element (two to a byte)".into(),
                );
                return Flow::Stop;
            }
            let size = elem.size() as i64;
            let Some(at) = cx.range(handle, i.wrapping_mul(size), size, true, elem.size(), "SetValue") else {
                return Flow::Next;
            };
            crate::timing::scalar_access(cx.core, handle.space, at as i64);
            let bits = cx.value_as(*v, *elem);
            let mut bytes = [0u8; 8];
            elem.store_bits(&mut bytes, bits);
            let n = size as usize;
            // a value from unwritten memory stays unwritten data where it is stored (the bytes its unknown bits are)
            let init = cx.core.taint.init_bytes(v.reg, elem.is_float());
            cx.store_bytes(handle, at, &bytes[..n], &init[..n], *elem, "SetValue");
            Flow::Next
        }
        Op::ObjInit { .. }
        | Op::InitBuffer { .. }
        | Op::AllocTensor { .. }
        | Op::FreeTensor { .. }
        | Op::EnQue { .. }
        | Op::DeQue { .. }
        | Op::TBufGet { .. }
        | Op::LocalAlloc { .. }
        | Op::LocalAt { .. } => queue::exec(cx, op),
        Op::TilingMissing { field, d } => {
            cx.core.r[*d as usize] = 0;
            cx.report(
                code::NOT_MODELLED,
                format!(
                    "the kernel reads tiling field '{field}', which the host tiling did not set (no value for it was \
                 given): it reads 0 here"
                ),
            );
            Flow::Next
        }
        Op::TilingKeyIs { key, d } => {
            let is = cx.prog.tiling_key.unwrap_or(0) == *key;
            cx.core.r[*d as usize] = is as u64;
            Flow::Next
        }
        Op::CoreIs { aiv, d } => {
            cx.core.r[*d as usize] = (*aiv == cx.core.aiv) as u64;
            Flow::Next
        }
        Op::SimtAtomic { kind, elem, d, h, a } => crate::simt::atomic(cx, *kind, *elem, *d, *h, a),
        Op::LeftOut { what } => {
            cx.report(
                code::NOT_MODELLED,
                format!(
                    "the run reached code the lowering left out ({what}): the simulator ran on without it, and \
                     what it would have done may change what the kernel computes"
                ),
            );
            Flow::Next
        }
        Op::Unsupported { what, results, handles } => {
            for r in results {
                cx.core.r[*r as usize] = 0;
            }
            for h in handles {
                cx.core.h[*h as usize] = Handle::NULL;
            }
            cx.report(
                code::NOT_MODELLED,
                format!("the simulator does not model {what}; the core stops here (its results are not computed)"),
            );
            Flow::Stop
        }
        _ => Flow::Next,
    }
}

#[inline]
pub fn sv(reg: R, ty: STy) -> Sv {
    Sv { reg, ty }
}
