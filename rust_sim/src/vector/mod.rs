//! Vector instructions (operands in UB) and the repeat/mask engine they share.
//!
//! A vector instruction comes in count form (`Add(dst, a, b, count)`: `count` contiguous elements, Counter mode
//! internally) or repeat form (`Add(dst, a, b, mask, repeat, params)`): `repeat` repeats of 256 bytes, 8
//! blocks of 32 bytes each, with block and repeat strides per operand, and a mask choosing the lanes of each
//! repeat (continuous: the first N; bit mask: bit i = lane i). Masked-off lanes keep their old data. In
//! Counter mode (SetMaskCount) the mask is an element count and the repeat count is ignored.
//!
//! The engine turns either form into runs of contiguous elements (`Run`): one per block span of set lanes,
//! merged when strides are contiguous, so the families below work on slices, not lanes. It checks every
//! operand's footprint against its memory before anything is written, propagates the initialised-ness of
//! each element, and checks writes against the live buffers.

pub mod antiquant;
pub mod binary;
pub mod cast;
pub mod compare;
pub mod cumsum;
pub mod dequant;
pub mod dropout;
pub mod dup;
pub mod elem;
pub mod fma;
pub mod gather;
pub mod high_level;
pub mod layer_norm;
pub mod mask;
pub mod normalize;
pub mod philox;
pub mod proposal;
pub mod quant;
pub mod reduce;
pub mod reduce_all_any;
pub mod reg;
pub mod rms_norm;
pub mod select_bytes;
pub mod sizes;
pub mod softmax;
pub mod softmax_adjust;
pub mod softmax_flash;
pub mod softmax_flash_v1;
pub mod softmax_grad;
pub mod softmax_simple;
pub mod sort;
pub mod topk;
pub mod transdata;
pub mod unary;
pub mod vcadd;
pub mod welford;
pub mod welford_finalize;
pub mod xor;

use crate::api::{Arg, Args, Registry, StackArray};
use crate::checks::code;
use crate::core::Ctx;
use crate::dtype::DType;
use crate::memory::{Handle, MemKind, Space};
use crate::program::Sv;

pub const REPEAT_BYTES: i64 = 256;
pub const BLOCK_BYTES: i64 = 32;

/// Reads `n` elements of type `t` at byte `at` of local memory `mem` as f32, chunk by chunk; whether all were
/// initialised. The high-level APIs and the reductions compute on these working arrays.
pub(crate) fn read_local_f32(cx: &mut Ctx, mem: MemKind, at: usize, n: usize, t: DType) -> (Vec<f32>, bool) {
    let local = cx.local(mem);
    let sz = t.size();
    let mut out = vec![0f32; n];
    for (c, chunk) in out.chunks_mut(elem::CHUNK).enumerate() {
        let off = at + c * elem::CHUNK * sz;
        elem::load_f32(t, &local.data.as_slice()[off..off + chunk.len() * sz], chunk);
    }
    let init = crate::memory::all_ones(&local.init[at..at + n * sz]);
    (out, init)
}

/// The first `n` elements of local tensor handle `h` as f32 (see read_local_f32), after the range check that
/// reports an access past the tensor for `what`; None where that check stopped it or `h` is not local memory.
pub(crate) fn read_tensor_f32(cx: &mut Ctx, h: u32, n: usize, t: DType, what: &str) -> Option<(Vec<f32>, bool)> {
    let sz = t.size();
    let hd = cx.handle(h);
    let at = cx.range(hd, 0, (n * sz) as i64, false, sz, what)?;
    let Space::Local(mem) = hd.space else {
        return None;
    };
    Some(read_local_f32(cx, mem, at, n, t))
}

/// The mask operand of a repeat-form call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaskArg {
    /// continuous: the first N lanes of each repeat (or, in Counter mode, N elements in all)
    Cont(Sv),
    /// `uint64_t mask[2]` on the scalar stack: bit i of word i/64 = lane i
    Bits(StackArray),
}

/// How a vector call says which elements it works on.
#[derive(Clone, Debug, PartialEq)]
pub enum Form {
    Count(Sv),
    /// `repeat` None: one repeat (calls with no repeat operand)
    Repeat {
        mask: MaskArg,
        repeat: Option<Sv>,
        set_mask: bool,
        strides: Vec<Stride>,
    },
}

/// One operand's block and repeat strides (in 32-byte blocks); None = the default (1 and 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Stride {
    pub blk: Option<Sv>,
    pub rep: Option<Sv>,
}

impl Form {
    /// Reads the form of a call: `count`, or `mask` + `repeatTime` + the strides of `params` (a repeat-params
    /// struct) named by `fields`: (block stride field, repeat stride field) per operand, dst first.
    pub fn decode(a: &Args, params: &str, fields: &[(&str, &str)]) -> Result<Form, String> {
        if a.overload.starts_with("count") || a.overload.ends_with("count") {
            let name = ["count", "calCount", "dataSize"]
                .into_iter()
                .find(|n| a.has(n))
                .unwrap_or("count");
            return Ok(Form::Count(a.sv(name)?));
        }
        let mask = match (a.get("mask"), a.stack_array("mask")) {
            (Some(Arg::Reg(sv)), _) => MaskArg::Cont(*sv),
            (_, Some(bits)) => MaskArg::Bits(bits),
            (other, _) => return Err(format!("mask operand {other:?}")),
        };
        let repeat = a.opt_sv("repeatTime")?.or(a.opt_sv("repeatTimes")?);
        // `<T, false>` reaches here as isSetMask=0, `<T, isSetMask = false>` spelled out as false
        let set_mask = !matches!(a.targ("isSetMask"), Some("false") | Some("0"));
        let mut strides = Vec::new();
        for (blk, rep) in fields {
            let get = |f: &str| -> Result<Option<Sv>, String> {
                if f.is_empty() {
                    return Ok(None);
                }
                if params.is_empty() {
                    a.opt_sv(f)
                } else {
                    a.opt_field(params, f)
                }
            };
            strides.push(Stride {
                blk: get(blk)?,
                rep: get(rep)?,
            });
        }
        Ok(Form::Repeat {
            mask,
            repeat,
            set_mask,
            strides,
        })
    }
}

/// A span of `n` contiguous elements, at byte address `addr[i]` of operand i; `lane` is the lane of its
/// first element in repeat `rep` (count form: rep 0, lanes counted from 0 across the whole span).
#[derive(Clone, Copy, Debug)]
pub struct Run {
    pub addr: [i64; 4],
    pub n: u32,
    pub lane: u32,
    pub rep: u32,
}

/// An operand: its tensor, element size, and the byte distances between its blocks and repeats.
#[derive(Clone, Copy, Debug)]
pub struct Geom {
    pub h: Handle,
    pub size: usize,
}

/// The elements a call touches, resolved from its form at run time.
pub struct Plan {
    pub runs: Vec<Run>,
    /// elements per repeat (256 bytes of the widest operand)
    pub lanes: usize,
    /// repeats (count form: the repeats it would take)
    pub repeats: u64,
    pub elements: u64,
}

/// Resolves `form` for operands `geoms` (dst first). None after reporting an invalid operand.
pub fn plan(cx: &mut Ctx, form: &Form, geoms: &[Geom], what: &str) -> Option<Plan> {
    let widest = geoms.iter().map(|g| g.size).max().unwrap_or(1).max(1);
    let lanes = (REPEAT_BYTES as usize) / widest;
    let epb = (BLOCK_BYTES as usize) / widest;
    match form {
        Form::Count(c) => {
            let count = cx.int(*c);
            if count < 0 {
                cx.report(code::INVALID_OPERAND, format!("{what} of {count} elements"));
                return None;
            }
            let mut addr = [0i64; 4];
            for (i, g) in geoms.iter().enumerate().take(4) {
                addr[i] = g.h.addr;
            }
            let runs = if count == 0 {
                vec![]
            } else {
                vec![Run {
                    addr,
                    n: count as u32,
                    lane: 0,
                    rep: 0,
                }]
            };
            let repeats = (count as u64).div_ceil(lanes as u64);
            if let Some(m) = crate::timing::meter(cx.core) {
                m.vector(repeats, count as u64);
            }
            Some(Plan {
                runs,
                lanes,
                repeats,
                elements: count as u64,
            })
        }
        Form::Repeat {
            mask,
            repeat,
            set_mask,
            strides,
        } => {
            let repeat_n = repeat.map(|r| cx.uint(r)).unwrap_or(1);
            if repeat_n > 255 {
                cx.report(
                    code::INVALID_OPERAND,
                    format!("{what} with repeatTime {repeat_n}; at most 255"),
                );
                return None;
            }
            let counter = cx.core.mask.counter;
            // the lanes: from the call (isSetMask) or from the mask register
            let (bits, count) =
                if *set_mask {
                    match mask {
                        MaskArg::Cont(sv) => {
                            let n = cx.uint(*sv);
                            if counter {
                                ([u64::MAX; 2], Some(n))
                            } else {
                                if n == 0 || n as usize > lanes {
                                    cx.report(
                                        code::INVALID_OPERAND,
                                        format!(
                                    "{what} with a continuous mask of {n} lanes; a repeat of {}-byte elements has \
                                     {lanes} (1 to {lanes})", widest),
                                    );
                                    return None;
                                }
                                (first_lanes(n as usize), None)
                            }
                        }
                        MaskArg::Bits(bits) => {
                            let words = bits.first(cx, u64::MAX);
                            if counter {
                                ([u64::MAX; 2], Some(words[0]))
                            } else {
                                if words == [0, 0] {
                                    cx.report(code::INVALID_OPERAND, format!("{what} with a bit mask of all zeros"));
                                    return None;
                                }
                                (words, None)
                            }
                        }
                    }
                } else if counter {
                    ([u64::MAX; 2], Some(cx.core.mask.bits[0]))
                } else {
                    (cx.core.mask.bits, None)
                };
            let (repeats, tail) = match count {
                Some(n) => ((n as usize).div_ceil(lanes) as u64, n as usize % lanes),
                None => (repeat_n, 0),
            };
            let mut geo: Vec<(i64, i64, i64, usize)> = Vec::new(); // (base, blk bytes, rep bytes, size)
            for (i, g) in geoms.iter().enumerate() {
                let s = strides.get(i).copied().unwrap_or_default();
                let blk = s.blk.map(|v| cx.uint(v) as i64).unwrap_or(1);
                let rep = s.rep.map(|v| cx.uint(v) as i64).unwrap_or(8);
                let block_bytes = (epb * g.size) as i64; // a narrower operand's block holds as many elements
                geo.push((g.h.addr, blk * block_bytes, rep * BLOCK_BYTES, g.size));
            }
            let runs = repeat_runs(&geo, repeats as usize, lanes, epb, bits, tail);
            let elements = runs.iter().map(|r| r.n as u64).sum();
            if let Some(m) = crate::timing::meter(cx.core) {
                m.vector(repeats, elements);
            }
            Some(Plan {
                runs,
                lanes,
                repeats,
                elements,
            })
        }
    }
}

fn first_lanes(n: usize) -> [u64; 2] {
    let lo = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    let hi = if n >= 128 {
        u64::MAX
    } else if n > 64 {
        (1u64 << (n - 64)) - 1
    } else {
        0
    };
    [lo, hi]
}

fn lane_on(bits: [u64; 2], lane: usize) -> bool {
    lane < 128 && (bits[lane / 64] >> (lane % 64)) & 1 == 1
}

/// The runs of a repeat-form call: per repeat and block, each span of set lanes; merged across blocks and
/// repeats where every operand is contiguous.
fn repeat_runs(
    geo: &[(i64, i64, i64, usize)],
    repeats: usize,
    lanes: usize,
    epb: usize,
    bits: [u64; 2],
    tail: usize,
) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for r in 0..repeats {
        let last = tail != 0 && r + 1 == repeats;
        for b in 0..(lanes / epb) {
            let mut lane = b * epb;
            let end = lane + epb;
            while lane < end {
                let on = |l: usize| if last { l < tail } else { lane_on(bits, l) };
                if !on(lane) {
                    lane += 1;
                    continue;
                }
                let start = lane;
                while lane < end && on(lane) {
                    lane += 1;
                }
                let mut addr = [0i64; 4];
                for (i, &(base, blk, rep, size)) in geo.iter().enumerate().take(4) {
                    addr[i] = base + r as i64 * rep + b as i64 * blk + ((start - b * epb) * size) as i64;
                }
                let n = (lane - start) as u32;
                if let Some(prev) = runs.last_mut() {
                    let contiguous = geo
                        .iter()
                        .enumerate()
                        .take(4)
                        .all(|(i, g)| prev.addr[i] + prev.n as i64 * g.3 as i64 == addr[i]);
                    if contiguous && (prev.rep as usize == r) {
                        prev.n += n;
                        continue;
                    }
                }
                runs.push(Run {
                    addr,
                    n,
                    lane: start as u32,
                    rep: r as u32,
                });
            }
        }
    }
    runs
}

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

/// Geometry of the tensors named `names` in handle registers `hs`, with element type sizes.
pub fn geoms(cx: &Ctx, hs: &[u32], types: &[DType]) -> Vec<Geom> {
    hs.iter()
        .zip(types)
        .map(|(h, t)| Geom {
            h: cx.handle(*h),
            size: t.size(),
        })
        .collect()
}

pub fn register(r: &mut Registry) {
    binary::register(r);
    reg::calls::register(r);
    reg::transfer::register(r);
    reg::pair::register(r); // after every plain register call: their RegTraitNumTwo forms
    unary::register(r);
    dup::register(r);
    cast::register(r);
    compare::register(r);
    reduce::register(r);
    reduce_all_any::register(r);
    gather::register(r);
    mask::register(r);
    high_level::register(r);
    softmax::register(r);
    cumsum::register(r);
    vcadd::register(r);
    select_bytes::register(r);
    softmax_grad::register(r);
    softmax_flash::register(r);
    transdata::register(r);
    proposal::register(r);
    rms_norm::register(r);
    layer_norm::register(r);
    normalize::register(r);
    welford::register(r);
    welford_finalize::register(r);
    softmax_adjust::register(r);
    softmax_simple::register(r);
    sort::register(r);
    topk::register(r);
    dequant::register(r);
    quant::register(r);
    xor::register(r);
    antiquant::register(r);
    dropout::register(r);
    philox::register(r);
    fma::register(r);
}

#[cfg(test)]
mod overlap_tests {
    use super::{partial_overlap, Geom, Plan, Run};
    use crate::memory::Handle;

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
