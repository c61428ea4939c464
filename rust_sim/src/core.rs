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

/// A run of GM bytes one core wrote at one place, for the cross-core overlap check.
#[derive(Clone, Debug)]
pub struct WriteRec {
    pub buf: u32,
    pub start: i64,
    pub end: i64,
    pub loc: i32,
    pub epoch: u32,
    pub elem: u32,
    /// written by the scalar unit (SetValue): through the data cache, whose 64-byte lines go back whole
    pub scalar: bool,
    /// the bytes written, for writes of at most CONTENT_BYTES (a flag, a count): two cores writing the same bytes
    /// leave the same result whichever is last (sim.rs cross_core_writes)
    pub content: Option<Vec<u8>>,
    /// run_hash of the bytes of [start, end) (None where the bytes were not all seen): two
    /// cores writing the same whole run, however large (where_broadcast's 8 cores each writing all 8 MB of z),
    /// compare by it
    pub hash: Option<u64>,
}

/// The longest write whose bytes WriteRec keeps.
pub const CONTENT_BYTES: usize = 64;

/// A hash of the bytes `bytes` written at byte `start` of a buffer, made so that a run written in pieces hashes
/// as the whole run does: the wrapping sum over the aligned 8-byte words the bytes touch of (the word's value with
/// only those bytes, the others 0) x an odd key of the word's index. Two records' hashes add up to their merged
/// run's. A word at a time, where FNV-1a's byte chain (one multiply's latency a byte) took 17% of a 64 MB
/// softmax's simulation.
pub fn run_hash(start: i64, bytes: &[u8]) -> u64 {
    let key = |w: i64| {
        // splitmix64's finaliser: keys of neighbouring words unrelated, so no simple pattern of differences sums
        // to 0
        let mut z = (w as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) | 1
    };
    let partial = |at: i64, part: &[u8]| {
        let word = at.div_euclid(8);
        let mut v = 0u64;
        for (i, &b) in part.iter().enumerate() {
            v |= (b as u64) << (8 * ((at + i as i64).rem_euclid(8)));
        }
        v.wrapping_mul(key(word))
    };
    let head = ((8 - start.rem_euclid(8)) % 8).min(bytes.len() as i64) as usize;
    let mut h = partial(start, &bytes[..head]);
    let body = &bytes[head..];
    let first = (start + head as i64).div_euclid(8);
    let mut words = body.chunks_exact(8);
    for (i, w) in (&mut words).enumerate() {
        let v = u64::from_le_bytes(w.try_into().unwrap_or_default());
        h = h.wrapping_add(v.wrapping_mul(key(first + i as i64)));
    }
    let tail = words.remainder();
    if !tail.is_empty() {
        h = h.wrapping_add(partial(start + (bytes.len() - tail.len()) as i64, tail));
    }
    h
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

    /// Where `len` bytes at byte `off` of `h` are, if inside their memory; reports out-of-bounds accesses.
    /// `elem` is the element size, for the message.
    pub fn range(&mut self, h: Handle, off: i64, len: i64, write: bool, elem: usize, what: &str) -> Option<usize> {
        let start = h.addr.wrapping_add(off);
        let verb = if write { "writes" } else { "reads" };
        match h.space {
            Space::Null => {
                self.report(
                    code::GM_OUT_OF_BOUNDS,
                    format!(
                        "{what} {verb} {len} bytes through a tensor that has no memory (a GlobalTensor before \
                     SetGlobalBuffer, or a LocalTensor never allocated)"
                    ),
                );
                None
            }
            Space::Gm(i) => {
                let size = self.gm.bufs[i as usize].len();
                if in_bounds(start, len, size) {
                    let tensor = self.gm.bufs[i as usize].tensor_len() as i64;
                    if start + len > tensor && len > 0 {
                        self.past_tensor(i, start, len, write, elem, what);
                    }
                    return Some(start as usize);
                }
                let name = self.gm.bufs[i as usize].name.clone();
                let tensor = self.gm.bufs[i as usize].tensor_len();
                let past = if start < 0 {
                    format!("{} bytes before its start", -start)
                } else if tensor < size {
                    format!(
                        "{} bytes past the end of its {size}-byte allocation",
                        start + len - size as i64
                    )
                } else {
                    format!("{} bytes past its end", start + len - size as i64)
                };
                self.report(
                    code::GM_OUT_OF_BOUNDS,
                    format!(
                        "{what} {verb} {} of GM '{name}', which holds {tensor} bytes ({} elements): {past}",
                        describe_range(start, len, elem),
                        tensor / elem.max(1)
                    ),
                );
                None
            }
            Space::Local(m) => {
                let size = self.local_size(m);
                if in_bounds(start, len, size) {
                    crate::race::check(self, m, start as usize, len as usize, write, elem, what);
                    crate::clobber::access(self, m, start as usize, len as usize, write, h.alloc, what);
                    return Some(start as usize);
                }
                self.report(
                    code::LOCAL_OUT_OF_BOUNDS,
                    format!(
                        "{what} {verb} bytes [{start}, {}) of {}, which has {size} bytes",
                        start + len,
                        m.name()
                    ),
                );
                None
            }
        }
    }

    /// An access of GM buffer `i` that reaches past its tensor into the padding allocated after it: harmless on
    /// the device (the bytes are the allocation's), but what is read there is not the tensor's data.
    fn past_tensor(&mut self, i: u32, start: i64, len: i64, write: bool, elem: usize, what: &str) {
        let buf = &self.gm.bufs[i as usize];
        let (name, tensor, size) = (buf.name.clone(), buf.tensor_len() as i64, buf.len());
        let verb = if write { "writes" } else { "reads" };
        let past = start + len - tensor.max(start);
        self.warn(
            code::GM_TENSOR_PADDING,
            format!(
                "{what} {verb} {} of GM '{name}', whose tensor holds {tensor} bytes ({} elements): {past} bytes \
                 past its end, inside the padding of its {size}-byte allocation",
                describe_range(start, len, elem),
                tensor / elem.max(1) as i64
            ),
        );
    }

    /// A write into input tensor `i` (a buffer the op reads and does not declare as updated in place): the
    /// caller's tensor changes under it, so an answer could leave its result there or clobber what it was
    /// given. Bytes in the padding after the tensor are ASC962's, not this check's.
    fn input_written(&mut self, i: u32, start: usize, len: usize, elem: usize, what: &str) {
        let buf = &self.gm.bufs[i as usize];
        let tensor = buf.tensor_len();
        if start >= tensor || len == 0 {
            return;
        }
        let end = (start + len).min(tensor);
        let name = buf.name.clone();
        self.warn(
            code::INPUT_WRITTEN,
            format!(
                "{what} writes {} of input '{name}', which the op does not update in place: the caller's tensor \
                 changes",
                describe_range(start as i64, (end - start) as i64, elem)
            ),
        );
    }

    /// A write of `len` bytes at `start` of local memory `m` through a tensor of allocation `alloc`: reports
    /// a write past the tensor's buffer into another buffer that is in use.
    pub fn check_local_write(&mut self, m: MemKind, start: usize, len: usize, alloc: u32, what: &str) {
        if alloc == 0 || len == 0 {
            return;
        }
        let own = &self.core.allocs[(alloc - 1) as usize];
        let (s, e) = (start as i64, (start + len) as i64);
        if s >= own.start && e <= own.start + own.len {
            return;
        }
        let own_name = own.name.clone();
        let (own_start, own_len) = (own.start, own.len);
        // every buffer in use the write reaches
        let victims: Vec<(u32, usize, usize)> = self
            .core
            .allocs
            .iter()
            .enumerate()
            .filter(|(i, a)| *i as u32 + 1 != alloc && a.mem == m && a.live && a.start < e && s < a.start + a.len)
            .map(|(i, a)| (i as u32 + 1, a.start.max(s) as usize, (a.start + a.len).min(e) as usize))
            .collect();
        if !victims.is_empty() {
            let allocs = &self.core.allocs;
            let part = |&(i, vs, ve): &(u32, usize, usize)| {
                let v = &allocs[(i - 1) as usize];
                format!("bytes [{}, {}) of {}", vs as i64 - v.start, ve as i64 - v.start, v.name)
            };
            let reached: Vec<String> = victims.iter().map(part).collect();
            let verb = if reached.len() > 1 { "are" } else { "is" };
            let message = format!(
                "{what} writes {} bytes past the end of {own_name} ({own_len} bytes at {} address {own_start}), into \
                 {}, which {verb} in use",
                e.max(own_start + own_len) - (own_start + own_len),
                m.name(),
                reached.join(" and ")
            );
            // an error only once the overwritten bytes are read (clobber.rs)
            crate::clobber::overflow(self, m, alloc, &victims, message);
        }
    }

    /// Marks `len` bytes of local memory written with initialised data.
    #[inline]
    pub fn mark_local(&mut self, m: MemKind, start: usize, len: usize) {
        let mem = self.local(m);
        mem.init[start..start + len].fill(1);
    }

    /// Records a GM write by this core (for the cross-core overlap and uninitialised-output checks).
    #[allow(clippy::too_many_arguments)]
    pub fn note_gm_write(
        &mut self,
        buf: u32,
        start: i64,
        len: i64,
        elem: usize,
        poisoned: bool,
        scalar: bool,
        data: &[u8],
    ) {
        // bytes in the padding after a tensor hold nothing anyone reads: no race or output check there
        let end = (start + len).min(self.gm.bufs[buf as usize].tensor_len() as i64);
        if end <= start {
            return;
        }
        let kept = (end - start) as usize;
        let content = (kept <= CONTENT_BYTES && kept <= data.len()).then(|| data[..kept].to_vec());
        let tracked = self.core.atomic == Atomic::None;
        let rec = WriteRec {
            buf,
            start,
            end,
            loc: self.loc,
            epoch: self.core.epoch,
            elem: elem as u32,
            scalar,
            content,
            hash: None,
        };
        let bytes = &data[..kept.min(data.len())];
        if tracked {
            push_merged(&mut self.core.writes, rec.clone(), Some(bytes));
        }
        if poisoned {
            push_merged(&mut self.core.poison_writes, rec, None);
        }
    }

    /// Copies `len` bytes between two places (GM or local), with their initialised-ness, after checking both;
    /// `elem` is the element size for messages and atomics. Returns false when nothing was copied.
    #[allow(clippy::too_many_arguments)]
    pub fn copy(&mut self, dst: Handle, doff: i64, src: Handle, soff: i64, len: i64, elem: DType, what: &str) -> bool {
        if len <= 0 {
            return true;
        }
        let Some(s) = self.range(src, soff, len, false, elem.size(), what) else {
            return false;
        };
        let Some(d) = self.range(dst, doff, len, true, elem.size(), what) else {
            return false;
        };
        if let Some(m) = crate::timing::meter(self.core) {
            m.copy(len as u64, (src.space, s), (dst.space, d));
        }
        let n = len as usize;
        // gather the source bytes and their initialised-ness (in the core's scratch: no allocation per copy)
        let (mut data, mut init) = std::mem::take(&mut self.core.copy_scratch);
        data.resize(n, 0);
        init.resize(n, 0);
        match src.space {
            Space::Gm(i) => {
                let buf = &self.gm.bufs[i as usize];
                data[..n].copy_from_slice(&buf.bytes()[s..s + n]);
                buf.init_flags(s, &mut init[..n]);
            }
            Space::Local(m) => {
                let mem = self.local(m);
                data[..n].copy_from_slice(&mem.data.as_slice()[s..s + n]);
                init[..n].copy_from_slice(&mem.init[s..s + n]);
            }
            Space::Null => {
                self.core.copy_scratch = (data, init);
                return false;
            }
        }
        self.store_bytes(dst, d, &data[..n], &init[..n], elem, what);
        self.core.copy_scratch = (data, init);
        true
    }

    /// Writes `data` (with per-byte initialised flags) at resolved byte `d` of `dst`'s memory, applying the
    /// core's atomic mode to GM.
    pub fn store_bytes(&mut self, dst: Handle, d: usize, data: &[u8], init: &[u8], elem: DType, what: &str) {
        let n = data.len();
        match dst.space {
            Space::Gm(i) => {
                let atomic = self.core.atomic;
                let poisoned = !crate::memory::all_ones(init);
                {
                    let buf = &mut self.gm.bufs[i as usize];
                    let bytes = &mut buf.bytes_mut()[d..d + n];
                    match atomic {
                        Atomic::None => bytes.copy_from_slice(data),
                        Atomic::Add(t) | Atomic::Max(t) | Atomic::Min(t) => atomic_apply(atomic, t, bytes, data),
                    }
                    if let Some(sh) = buf.shadow_for_write() {
                        let sh = &mut sh[d..d + n];
                        if atomic != Atomic::None {
                            for (o, &b) in sh.iter_mut().zip(init) {
                                // accumulating into memory nobody wrote keeps it unknown
                                *o = if b == 0 || *o != 1 { 2 } else { 1 };
                            }
                        } else if !poisoned {
                            sh.fill(1);
                        } else {
                            for (o, &b) in sh.iter_mut().zip(init) {
                                *o = 1 + (b == 0) as u8;
                            }
                        }
                    }
                }
                let role = self.gm.bufs[i as usize].role;
                if role == GmRole::Input {
                    self.input_written(i, d, n, elem.size(), what);
                }
                self.note_gm_write(
                    i,
                    d as i64,
                    n as i64,
                    elem.size(),
                    poisoned && matches!(role, GmRole::Output | GmRole::Workspace),
                    what == "SetValue",
                    data,
                );
            }
            Space::Local(m) => {
                self.check_local_write(m, d, n, dst.alloc, what);
                let mem = self.local(m);
                mem.data.as_mut_slice()[d..d + n].copy_from_slice(data);
                mem.init[d..d + n].copy_from_slice(init);
            }
            Space::Null => {}
        }
    }

    // ------------------------------------------------------------------ pipes

    /// Issues pipe work: runs it now, or queues it behind a wait (the registers as they are now).
    pub fn defer_if_blocked(&mut self, pipe: Pipe) -> bool {
        if pipe == Pipe::S || pipe == Pipe::All || self.core.sync.blocked[pipe.index()].is_none() {
            return false;
        }
        let snap = Rc::new(Snapshot {
            r: self.core.r.clone(),
            h: self.core.h.clone(),
        });
        self.core.sync.pending[pipe.index()].push_back(crate::sync::Deferred::Instr { pc: self.pc, snap });
        true
    }

    /// SetFlag on `pipe` (deferred if the pipe is blocked); releases a pipe waiting for it.
    pub fn set_flag(&mut self, pipe: Pipe, key: FlagKey) {
        self.core.race.issue(pipe.index());
        if pipe != Pipe::S && self.core.sync.blocked[pipe.index()].is_some() {
            self.core.sync.pending[pipe.index()].push_back(crate::sync::Deferred::Set(key));
            return;
        }
        *self.core.sync.flags.entry(key).or_insert(0) += 1;
        self.core.race.set(pipe.index(), key);
        crate::timing::flag_set(self.core, self.pc, pipe, key);
        self.release();
    }

    /// WaitFlag on `pipe`: consumes the flag if set; otherwise blocks the pipe (or, on PIPE_S, the scalar unit
    /// for good: a deadlock). Returns false when the scalar unit deadlocked.
    pub fn wait_flag(&mut self, pipe: Pipe, key: FlagKey) -> bool {
        self.core.race.issue(pipe.index());
        if pipe != Pipe::S && self.core.sync.blocked[pipe.index()].is_some() {
            self.core.sync.pending[pipe.index()].push_back(crate::sync::Deferred::Wait(key, self.loc));
            return true;
        }
        if self.core.sync.take(key) {
            self.core.race.take(pipe.index(), key);
            crate::timing::flag_wait(self.core, self.pc, pipe, key);
            return true;
        }
        if pipe == Pipe::S || pipe == Pipe::All {
            let what = self.describe_flag(key);
            self.report_notes(
                code::DEADLOCK,
                format!("the scalar unit waits for {what}, which nothing sets: the core hangs here"),
                self.core.sync.blocked_notes(self.prog),
            );
            return false;
        }
        self.core.sync.blocked[pipe.index()] = Some((key, self.loc));
        true
    }

    /// Releases pipes whose flags are set and runs what waited in them, until nothing changes.
    fn release(&mut self) {
        loop {
            let mut progressed = false;
            for p in 0..PIPES {
                let Some((key, _)) = self.core.sync.blocked[p] else {
                    continue;
                };
                if !self.core.sync.take(key) {
                    continue;
                }
                self.core.race.take(p, key);
                crate::timing::flag_wait(self.core, self.pc, crate::timing::PIPE_AT[p], key);
                self.core.sync.blocked[p] = None;
                progressed = true;
                while self.core.sync.blocked[p].is_none() {
                    let Some(item) = self.core.sync.pending[p].pop_front() else {
                        break;
                    };
                    match item {
                        crate::sync::Deferred::Set(k) => {
                            *self.core.sync.flags.entry(k).or_insert(0) += 1;
                            self.core.race.set(p, k);
                            crate::timing::flag_set(self.core, self.pc, crate::timing::PIPE_AT[p], k);
                        }
                        crate::sync::Deferred::Wait(k, loc) => {
                            if self.core.sync.take(k) {
                                self.core.race.take(p, k);
                                crate::timing::flag_wait(self.core, self.pc, crate::timing::PIPE_AT[p], k);
                            } else {
                                self.core.sync.blocked[p] = Some((k, loc));
                            }
                        }
                        crate::sync::Deferred::Instr { pc, snap } => self.run_deferred(pc, &snap),
                    }
                }
            }
            if !progressed {
                break;
            }
        }
    }

    fn run_deferred(&mut self, pc: usize, snap: &Snapshot) {
        let prog = self.prog;
        let saved_r = std::mem::replace(&mut self.core.r, snap.r.clone());
        let saved_h = std::mem::replace(&mut self.core.h, snap.h.clone());
        let (saved_loc, saved_pc) = (self.loc, self.pc);
        self.loc = prog.code[pc].loc;
        self.pc = pc;
        if let Op::Api(api) = &prog.code[pc].op {
            let _ = self.exec_api(&**api);
        }
        self.loc = saved_loc;
        self.pc = saved_pc;
        // what the deferred instruction wrote to registers (an output parameter) is lost, as on hardware the
        // scalar unit had moved on; memory effects stay
        self.core.r = saved_r;
        self.core.h = saved_h;
    }

    pub fn describe_flag(&self, key: FlagKey) -> String {
        key.describe(self.prog)
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

/// Appends `rec`, or extends the last record when `rec` continues it; with `bytes` (what `rec` wrote), the
/// record's hash covers them.
fn push_merged(list: &mut Vec<WriteRec>, mut rec: WriteRec, bytes: Option<&[u8]>) {
    let bytes = bytes.filter(|b| b.len() as i64 == rec.end - rec.start);
    if let Some(last) = list.last_mut() {
        if last.buf == rec.buf
            && last.loc == rec.loc
            && last.epoch == rec.epoch
            && last.scalar == rec.scalar
            && last.end == rec.start
        {
            last.end = rec.end;
            last.content = match (last.content.take(), rec.content) {
                (Some(mut a), Some(b)) if a.len() + b.len() <= CONTENT_BYTES => {
                    a.extend(b);
                    Some(a)
                }
                _ => None,
            };
            last.hash = match (last.hash, bytes) {
                (Some(h), Some(b)) => Some(h.wrapping_add(run_hash(rec.start, b))),
                _ => None,
            };
            return;
        }
    }
    rec.hash = bytes.map(|b| run_hash(rec.start, b));
    list.push(rec);
}

fn atomic_apply(mode: Atomic, t: DType, dst: &mut [u8], src: &[u8]) {
    let size = t.size();
    for (d, s) in dst.chunks_exact_mut(size).zip(src.chunks_exact(size)) {
        let (a, b) = (t.load_bits(d), t.load_bits(s));
        let r = if t.is_float() {
            let (x, y) = (t.to_f64(a), t.to_f64(b));
            let v = match mode {
                // accumulate in f32 and round to the element type once, as the vector unit does
                Atomic::Add(_) => (x as f32 + y as f32) as f64,
                Atomic::Max(_) => x.max(y),
                Atomic::Min(_) => x.min(y),
                Atomic::None => y,
            };
            t.from_f64(v)
        } else {
            let (x, y) = (t.to_i64(a), t.to_i64(b));
            let v = match mode {
                Atomic::Add(_) => x.wrapping_add(y),
                Atomic::Max(_) => x.max(y),
                Atomic::Min(_) => x.min(y),
                Atomic::None => y,
            };
            t.from_i64(v)
        };
        t.store_bits(d, r);
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
            Op::Undef { d } => {
                core.r[*d as usize] = 0;
                Flow::Next
            }
            Op::NullH { d } => {
                core.h[*d as usize] = Handle::NULL;
                Flow::Next
            }
            Op::Ret => return finish(core, gm, prog, findings, ins.loc),
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
            let (bits, init) = match handle.space {
                Space::Gm(b) => {
                    let buf = &cx.gm.bufs[b as usize];
                    let init = buf.all_init(at, size as usize);
                    (elem.load_bits(&buf.bytes()[at..]), init)
                }
                Space::Local(m) => {
                    let mem = cx.local(m);
                    let init = mem.init[at..at + size as usize].iter().all(|&x| x == 1);
                    (elem.load_bits(&mem.data.as_slice()[at..]), init)
                }
                Space::Null => (0, true),
            };
            // reading unwritten bytes is not itself a fault: the value is judged where it is used (taint.rs)
            let origin = (!init).then_some(cx.loc);
            cx.core.taint.mark(*d, origin, cx.prog.n_regs);
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
            // a value from unwritten memory stays unwritten data where it is stored
            let init = [cx.core.taint.of(v.reg).is_none() as u8; 8];
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

#[cfg(test)]
mod tests {
    use super::run_hash;

    #[test]
    fn a_run_hashed_in_pieces_hashes_as_the_whole_run() {
        let bytes: Vec<u8> = (0..203u32).map(|i| (i * 37 % 251) as u8).collect();
        for start in [0i64, 3, 8, 13] {
            let whole = run_hash(start, &bytes);
            for cuts in [[1usize, 2], [5, 9], [7, 8], [64, 130], [100, 201]] {
                let (a, rest) = bytes.split_at(cuts[0]);
                let (b, c) = rest.split_at(cuts[1] - cuts[0]);
                let sum = run_hash(start, a)
                    .wrapping_add(run_hash(start + cuts[0] as i64, b))
                    .wrapping_add(run_hash(start + cuts[1] as i64, c));
                assert_eq!(sum, whole, "start {start} cuts {cuts:?}");
            }
            // one byte changed, or two bytes swapped, changes it
            let mut other = bytes.clone();
            other[77] ^= 1;
            assert_ne!(run_hash(start, &other), whole);
            other = bytes.clone();
            other.swap(10, 11);
            assert_ne!(run_hash(start, &other), whole);
        }
    }
}
