//! TPipe, TQue, TBuf and LocalMemAllocator at run time.
//!
//! InitBuffer places a queue's `num` buffers (or a TBuf's one) one after another in the memory of its
//! TPosition, from where the pipe's previous buffer there ended, each length rounded up to the memory's
//! alignment (32 B in UB), as the vendor's TPipe does. AllocTensor and DeQue hand out buffers in rotation.
//! Each buffer follows FREE -Alloc-> OCCUPIED -EnQue-> ENQUE -DeQue-> DEQUE -Free-> FREE, and the queue ops
//! are the flags they stand for on hardware: EnQue sets the forward event, DeQue waits for it, FreeTensor
//! sets the backward event, AllocTensor waits for it when the buffer was freed before.

use std::collections::VecDeque;

use crate::api::Pipe;
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::memory::{Handle, MemKind, Space};
use crate::program::{ObjectKind, Op};
use crate::sync::{event_index, event_pipes, FlagKey};

/// A buffer of local memory handed out by a queue or a TBuf: for the live-tensor check.
#[derive(Clone, Debug)]
pub struct Alloc {
    pub mem: MemKind,
    pub start: i64,
    pub len: i64,
    pub live: bool,
    pub name: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufState {
    Free,
    Occupied,
    Enqueued,
    Dequeued,
}

#[derive(Clone, Debug)]
pub struct QBuf {
    pub addr: i64,
    pub state: BufState,
    pub alloc: u32,
    pub freed_before: bool,
}

#[derive(Clone, Debug)]
pub struct QueueObj {
    pub mem: MemKind,
    pub len: i64,
    pub bufs: Vec<QBuf>,
    pub cursor: usize,
    pub fifo: VecDeque<usize>,
}

#[derive(Clone, Debug)]
pub enum ObjState {
    None,
    /// a TPipe: where the next buffer goes in each memory
    Pipe {
        cursor: [i64; 7],
    },
    Queue(QueueObj),
    TBuf {
        mem: MemKind,
        addr: i64,
        len: i64,
        alloc: u32,
    },
    Allocator {
        mem: MemKind,
        cursor: i64,
    },
}

fn align_up(v: i64, a: i64) -> i64 {
    if a <= 1 {
        v
    } else {
        v.saturating_add(a - 1) / a * a // saturating: a cursor past i64 (an absurd InitBuffer) stays past any size
    }
}

/// The temporary space a high-level API takes when the caller passes no `sharedTmpBuffer`: PopStackBuffer hands
/// it the bytes of `mem` after the TPipe's buffers, up to the end of the memory (asc-devkit
/// impl/basic_api/kernel_pop_stack_buffer.h: [GetQueueEndAddress, end)). (start, length) in bytes; None when the
/// kernel has no TPipe (then the API's space is not the pipe's to describe).
pub fn framework_tmp(cx: &Ctx, mem: MemKind) -> Option<(i64, i64)> {
    let end_of_queues = cx
        .core
        .objs
        .iter()
        .filter_map(|o| match o {
            ObjState::Pipe { cursor } => Some(cursor[mem as usize]),
            _ => None,
        })
        .max()?;
    let start = align_up(end_of_queues, 32);
    Some((start, (cx.local_size(mem) as i64 - start).max(0)))
}

/// A high-level API's temporary space and a phrase naming it: the caller's sharedTmpBuffer (handle register
/// `tmp`), or without one the UB the TPipe's buffers leave (`framework_tmp`); None when there is neither.
pub fn tmp_space(cx: &Ctx, tmp: Option<u32>) -> Option<(i64, String)> {
    match tmp {
        Some(h) => Some((cx.handle(h).len.max(0), "its sharedTmpBuffer".to_string())),
        None => framework_tmp(cx, MemKind::Ub).map(|(start, len)| {
            let place = format!(
                "the UB left after the TPipe's buffers (bytes [{start}, {}); without a sharedTmpBuffer the library \
                 takes its temporary space there)",
                start + len
            );
            (len, place)
        }),
    }
}

pub fn exec(cx: &mut Ctx, op: &Op) -> Flow {
    match op {
        Op::ObjInit { obj } => {
            let decl = &cx.prog.objects[*obj as usize];
            let state = match decl.kind {
                ObjectKind::Pipe => ObjState::Pipe { cursor: [0; 7] },
                ObjectKind::Allocator => ObjState::Allocator {
                    mem: decl.mem.unwrap_or(MemKind::Ub),
                    cursor: 0,
                },
                _ => ObjState::None,
            };
            cx.core.objs[*obj as usize] = state;
            Flow::Next
        }
        // `len` is TPipe::InitBuffer's `uint32_t len` (the lowering converts it to uint32): read unsigned, so that
        // `0xffffffffu` is the 4294967295 bytes it asks for, not -1 (the program's registers carry no sign)
        Op::InitBuffer { pipe, obj, num, len } => {
            init_buffer(cx, *pipe, *obj, num.map(|n| cx.int(n)), cx.uint(*len) as i64)
        }
        Op::AllocTensor { q, d } => alloc_tensor(cx, *q, *d),
        Op::FreeTensor { q, h } => free_tensor(cx, *q, *h),
        Op::EnQue { q, h, d } => enque(cx, *q, *h, *d),
        Op::DeQue { q, d } => deque(cx, *q, *d),
        Op::TBufGet { b, elem, count, off, d } => {
            let (mem, addr, len, alloc) = match &cx.core.objs[*b as usize] {
                ObjState::TBuf { mem, addr, len, alloc } => (*mem, *addr, *len, *alloc),
                _ => {
                    // a TBuf never initialised hands out a tensor with no memory: valid code when that
                    // tensor is not used (a branch that needs the buffer only for some dtypes); an access
                    // through it is the finding
                    cx.set_handle(*d, Handle::NULL);
                    return Flow::Next;
                }
            };
            let offset = off.map(|o| cx.int(o)).unwrap_or(0);
            let bytes = match count {
                Some(c) => crate::int4::bytes(cx.int(*c), *elem),
                None => len - offset,
            };
            if offset < 0 || bytes < 0 {
                let name = cx.prog.objects[*b as usize].name.clone();
                cx.report(
                    code::INVALID_OPERAND,
                    format!("{name}.Get asks for {bytes} bytes at offset {offset}, but the buffer has {len} bytes"),
                );
            } else if offset + bytes > len {
                // asc-devkit's TBuf::Get(len) asserts len <= bufLen only in the CPU debug build
                // (kernel_tbuf_impl.h, under ASCENDC_CPU_DEBUG): the device build hands the tensor out, and a
                // kernel that uses no more than the buffer holds is correct; accesses past it are judged where
                // they happen
                let name = cx.prog.objects[*b as usize].name.clone();
                cx.warn(
                    code::INVALID_OPERAND,
                    format!(
                        "{name}.Get asks for {bytes} bytes at offset {offset}, but the buffer has {len} bytes (only \
                         the CPU debug build checks this)"
                    ),
                );
            }
            cx.set_handle(*d, Handle::local(mem, addr + offset, bytes, alloc));
            Flow::Next
        }
        Op::LocalAlloc { a, elem, count, d } => {
            let n = crate::int4::bytes(cx.int(*count), *elem);
            let (mem, at) = match &mut cx.core.objs[*a as usize] {
                ObjState::Allocator { mem, cursor } => {
                    let at = *cursor;
                    *cursor = align_up(at + n, 32);
                    (*mem, at)
                }
                _ => (MemKind::Ub, 0),
            };
            if at + n > cx.local_size(mem) as i64 {
                cx.report(
                    code::LOCAL_OUT_OF_BOUNDS,
                    format!(
                        "LocalMemAllocator hands out bytes [{at}, {}) of {}, which has {} bytes",
                        at + n,
                        mem.name(),
                        cx.local_size(mem)
                    ),
                );
            }
            cx.set_handle(*d, Handle::local(mem, at, n, 0));
            Flow::Next
        }
        Op::LocalAt {
            mem,
            elem,
            addr,
            count,
            d,
        } => {
            let at = cx.int(*addr);
            let n = crate::int4::bytes(cx.int(*count), *elem);
            cx.set_handle(*d, Handle::local(*mem, at, n, 0));
            Flow::Next
        }
        _ => Flow::Next,
    }
}

fn init_buffer(cx: &mut Ctx, pipe: u32, obj: u32, num: Option<i64>, len: i64) -> Flow {
    let decl = cx.prog.objects[obj as usize].clone();
    let Some(mem) = decl.mem else {
        cx.report(
            code::NOT_MODELLED,
            format!("InitBuffer of {} (no memory known for its position)", decl.name),
        );
        return Flow::Stop;
    };
    let align = cx.prog.memory(mem).map(|(_, a)| a as i64).unwrap_or(32);
    let size = cx.local_size(mem) as i64;
    let count = num.unwrap_or(1);
    if count <= 0 || len < 0 {
        cx.report(
            code::INVALID_OPERAND,
            format!("InitBuffer of {} with {count} buffers of {len} bytes", decl.name),
        );
        return Flow::Stop;
    }
    let cursor = match &mut cx.core.objs[pipe as usize] {
        ObjState::Pipe { cursor } => cursor,
        _ => {
            cx.core.objs[pipe as usize] = ObjState::Pipe { cursor: [0; 7] };
            match &mut cx.core.objs[pipe as usize] {
                ObjState::Pipe { cursor } => cursor,
                _ => unreachable!(),
            }
        }
    };
    let start = align_up(cursor[mem as usize], align);
    let each = align_up(len, 32.max(align));
    // saturating: a length near 2^32 times a count near 2^31 passes i64, and the sum is only compared with the
    // memory's size (the warning below) or is past it
    let end = start.saturating_add(each.saturating_mul(count));
    cursor[mem as usize] = end;
    if end > size {
        // the device's TPipe places buffers without a check (only the CPU-debug build asserts): what faults is
        // an access past the memory's end, which every access checks
        cx.warn(
            code::LOCAL_OUT_OF_BOUNDS,
            format!(
            "InitBuffer places {} ({count} x {len} bytes) at bytes [{start}, {end}) of {}, which has {size} bytes: \
             the buffers of this pipe need {end} bytes (the CPU-debug build stops here; on the device an access \
             past the end faults)", decl.name, mem.name()),
        );
    }
    match decl.kind {
        ObjectKind::TBuf => {
            let alloc = new_alloc(cx, mem, start, each, format!("TBuf {}", decl.name), true);
            cx.core.objs[obj as usize] = ObjState::TBuf {
                mem,
                addr: start,
                len,
                alloc,
            };
        }
        _ => {
            let bufs = (0..count)
                .map(|i| {
                    let addr = start + i * each;
                    let alloc = new_alloc(cx, mem, addr, each, format!("buffer {i} of queue {}", decl.name), false);
                    QBuf {
                        addr,
                        state: BufState::Free,
                        alloc,
                        freed_before: false,
                    }
                })
                .collect();
            cx.core.objs[obj as usize] = ObjState::Queue(QueueObj {
                mem,
                len,
                bufs,
                cursor: 0,
                fifo: VecDeque::new(),
            });
        }
    }
    Flow::Next
}

fn new_alloc(cx: &mut Ctx, mem: MemKind, start: i64, len: i64, name: String, live: bool) -> u32 {
    cx.core.allocs.push(Alloc {
        mem,
        start,
        len,
        live,
        name,
    });
    cx.core.allocs.len() as u32
}

fn queue_name(cx: &Ctx, q: u32) -> String {
    cx.prog.objects[q as usize].name.clone()
}

fn queue_event(cx: &Ctx, q: u32, back: bool) -> Option<(Pipe, Pipe)> {
    let decl = &cx.prog.objects[q as usize];
    let name = if back {
        decl.back.as_deref()
    } else {
        decl.fwd.as_deref()
    }?;
    event_index(name).map(event_pipes)
}

fn with_queue<T>(cx: &mut Ctx, q: u32, what: &str, f: impl FnOnce(&mut QueueObj) -> T) -> Option<T> {
    if let ObjState::Queue(queue) = &mut cx.core.objs[q as usize] {
        return Some(f(queue));
    }
    let name = queue_name(cx, q);
    cx.report(
        code::QUEUE_MISUSE,
        format!("{name}.{what} before pipe.InitBuffer({name}, ...)"),
    );
    None
}

fn alloc_tensor(cx: &mut Ctx, q: u32, d: u32) -> Flow {
    let Some(found) = with_queue(cx, q, "AllocTensor()", |queue| {
        let n = queue.bufs.len();
        let pick = (0..n)
            .map(|k| (queue.cursor + k) % n)
            .find(|&i| queue.bufs[i].state == BufState::Free);
        if let Some(i) = pick {
            queue.cursor = (i + 1) % n;
            let b = &mut queue.bufs[i];
            b.state = BufState::Occupied;
            Ok((i, b.addr, queue.len, queue.mem, b.alloc, b.freed_before))
        } else {
            Err(n)
        }
    }) else {
        return Flow::Stop;
    };
    match found {
        Ok((i, addr, len, mem, alloc, freed_before)) => {
            cx.core.allocs[(alloc - 1) as usize].live = true;
            cx.set_handle(d, Handle::local(mem, addr, len, alloc));
            if freed_before {
                if let Some((_, dst)) = queue_event(cx, q, true) {
                    if !cx.wait_flag(
                        dst,
                        FlagKey::Queue {
                            obj: q,
                            buf: i as u32,
                            back: true,
                        },
                    ) {
                        return Flow::Stop;
                    }
                }
            }
            Flow::Next
        }
        Err(n) => {
            let name = queue_name(cx, q);
            cx.report(
                code::QUEUE_MISUSE,
                format!(
                    "{name}.AllocTensor() with all {n} of its buffers in use (allocated and not freed): on hardware \
                 it waits for a FreeTensor that never comes, and the kernel hangs"
                ),
            );
            Flow::Stop
        }
    }
}

fn find_buf(queue: &QueueObj, h: Handle) -> Option<usize> {
    if h.space != Space::Local(queue.mem) {
        return None;
    }
    queue.bufs.iter().position(|b| b.addr == h.addr)
}

fn enque(cx: &mut Ctx, q: u32, h: u32, d: u32) -> Flow {
    let handle = cx.handle(h);
    let Some(res) = with_queue(cx, q, "EnQue()", |queue| {
        let i = find_buf(queue, handle).ok_or("not a buffer of this queue")?;
        match queue.bufs[i].state {
            BufState::Occupied | BufState::Dequeued => {
                queue.bufs[i].state = BufState::Enqueued;
                queue.fifo.push_back(i);
                Ok(i)
            }
            BufState::Free => Err("a buffer that is not allocated (freed, or never taken with AllocTensor)"),
            BufState::Enqueued => Err("a buffer that is already in the queue"),
        }
    }) else {
        return Flow::Stop;
    };
    match res {
        Ok(i) => {
            cx.set(d, crate::dtype::STy::I1, 1);
            if let Some((src, _)) = queue_event(cx, q, false) {
                cx.set_flag(
                    src,
                    FlagKey::Queue {
                        obj: q,
                        buf: i as u32,
                        back: false,
                    },
                );
            }
            Flow::Next
        }
        Err(why) => {
            let name = queue_name(cx, q);
            cx.report(code::QUEUE_MISUSE, format!("{name}.EnQue() of {why}"));
            cx.set(d, crate::dtype::STy::I1, 0);
            Flow::Next
        }
    }
}

fn deque(cx: &mut Ctx, q: u32, d: u32) -> Flow {
    let Some(res) = with_queue(cx, q, "DeQue()", |queue| {
        let i = queue.fifo.pop_front()?;
        queue.bufs[i].state = BufState::Dequeued;
        Some((i, queue.bufs[i].addr, queue.len, queue.mem, queue.bufs[i].alloc))
    }) else {
        return Flow::Stop;
    };
    match res {
        Some((i, addr, len, mem, alloc)) => {
            cx.set_handle(d, Handle::local(mem, addr, len, alloc));
            if let Some((_, dst)) = queue_event(cx, q, false) {
                if !cx.wait_flag(
                    dst,
                    FlagKey::Queue {
                        obj: q,
                        buf: i as u32,
                        back: false,
                    },
                ) {
                    return Flow::Stop;
                }
            }
            Flow::Next
        }
        None => {
            let name = queue_name(cx, q);
            cx.report(
                code::QUEUE_MISUSE,
                format!(
                    "{name}.DeQue() of an empty queue (no EnQue before it): on hardware it waits for an EnQue that \
                 never comes, and the kernel hangs"
                ),
            );
            Flow::Stop
        }
    }
}

/// The queue that owns `handle`'s buffer, when it is not `q` but another queue whose buffers are freed with the
/// same event as `q`'s (`meanQue.FreeTensor(rstdLocal)` beside `rstdQue.FreeTensor(meanLocal)`, both VECIN).
/// On the device `FreeTensor` frees the tensor's own buffer through its handle and sets `q`'s free event, the one
/// the owner's next `AllocTensor` waits for; asc-devkit checks that the buffer is `q`'s only under
/// ASCENDC_CPU_DEBUG (kernel_tquebind_impl.h, FreeBuffer). Queues of different events are left to the error.
fn owner_of_same_kind(cx: &Ctx, q: u32, handle: Handle) -> Option<u32> {
    if let ObjState::Queue(queue) = &cx.core.objs[q as usize] {
        if find_buf(queue, handle).is_some() {
            return None;
        }
    } else {
        return None;
    }
    let event = queue_event(cx, q, true);
    (0..cx.core.objs.len() as u32).find(|&k| {
        k != q
            && matches!(&cx.core.objs[k as usize], ObjState::Queue(other) if find_buf(other, handle).is_some())
            && queue_event(cx, k, true) == event
    })
}

fn free_tensor(cx: &mut Ctx, q: u32, h: u32) -> Flow {
    let handle = cx.handle(h);
    let q = match owner_of_same_kind(cx, q, handle) {
        Some(owner) => {
            let (name, other) = (queue_name(cx, q), queue_name(cx, owner));
            cx.warn(
                code::QUEUE_MISUSE,
                format!(
                    "{name}.FreeTensor() of a buffer of {other}: the device frees it in {other} (through the \
                     tensor's buffer handle, with the same free event), so it runs as {other}.FreeTensor()"
                ),
            );
            owner
        }
        None => q,
    };
    let Some(res) = with_queue(cx, q, "FreeTensor()", |queue| {
        let i = find_buf(queue, handle).ok_or("a tensor that is not a buffer of this queue")?;
        match queue.bufs[i].state {
            BufState::Free => Err("a buffer that is already free"),
            _ => {
                let b = &mut queue.bufs[i];
                b.state = BufState::Free;
                b.freed_before = true;
                if let Some(pos) = queue.fifo.iter().position(|&k| k == i) {
                    queue.fifo.remove(pos);
                }
                Ok((i, b.alloc))
            }
        }
    }) else {
        return Flow::Stop;
    };
    match res {
        Ok((i, alloc)) => {
            cx.core.allocs[(alloc - 1) as usize].live = false;
            cx.core.clobbers.released(alloc);
            if let Some((src, _)) = queue_event(cx, q, true) {
                cx.set_flag(
                    src,
                    FlagKey::Queue {
                        obj: q,
                        buf: i as u32,
                        back: true,
                    },
                );
            }
        }
        Err(why) => {
            let name = queue_name(cx, q);
            cx.report(code::QUEUE_MISUSE, format!("{name}.FreeTensor() of {why}"));
        }
    }
    Flow::Next
}
