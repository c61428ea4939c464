//! The instructions that need the context: pipe work (catalog calls, deferred behind a wait), the scalar stack
//! arrays, pointers and tensors, GetValue / SetValue, the objects (queue.rs), tiling and core tests, SIMT
//! atomics, and what the program left out or the simulator does not model.

use super::*;

pub(super) fn exec_other(cx: &mut Ctx, op: &Op) -> Flow {
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
