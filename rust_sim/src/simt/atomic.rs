//! The SIMT atomics (asc_atomic_add / sub / max / min / exch / cas / inc / dec / and / or / xor): their kinds in
//! the program text and the one instruction that reads, updates and writes the element.

use crate::core::{Atomic, Ctx, Flow};
use crate::dtype::DType;
use crate::memory::Space;
use crate::program::{Sv, H, R};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicKind {
    Add,
    Sub,
    Max,
    Min,
    Exch,
    Cas,
    Inc,
    Dec,
    And,
    Or,
    Xor,
}

impl AtomicKind {
    /// The opcode's middle part (`simt.atomic_add.f32`) and how many values it takes after the pointer.
    pub fn parse(name: &str) -> Option<(AtomicKind, usize)> {
        Some(match name.strip_prefix("atomic_")? {
            "add" => (AtomicKind::Add, 1),
            "sub" => (AtomicKind::Sub, 1),
            "max" => (AtomicKind::Max, 1),
            "min" => (AtomicKind::Min, 1),
            "exch" => (AtomicKind::Exch, 1),
            "cas" => (AtomicKind::Cas, 2),
            "inc" => (AtomicKind::Inc, 1),
            "dec" => (AtomicKind::Dec, 1),
            "and" => (AtomicKind::And, 1),
            "or" => (AtomicKind::Or, 1),
            "xor" => (AtomicKind::Xor, 1),
            _ => return None,
        })
    }
}

/// `rOld = simt.atomic_<kind>.<elem> hP values`: the element at hP before, and the kind's update of it
/// (asc_atomic_cas(address, compare, val): val when the element equals compare; inc: 0 once the element is
/// at least val, else one more; dec: val when the element is 0 or above val, else one less).
pub fn atomic(cx: &mut Ctx, kind: AtomicKind, elem: DType, d: R, h: H, a: &[Sv]) -> Flow {
    let handle = cx.handle(h);
    let size = elem.size();
    let what = "a SIMT atomic";
    let Some(at) = cx.range(handle, 0, size as i64, true, size, what) else {
        return Flow::Next;
    };
    let (old, _) = cx.read_scalar(handle.space, at, elem);
    let v = cx.value_as(a[0], elem);
    let float = elem.is_float();
    let (x, y) = (elem.to_f64(old), elem.to_f64(v));
    let (i, j) = (elem.to_i64(old), elem.to_i64(v));
    let (u, w) = (old & mask(elem), v & mask(elem));
    let new = match kind {
        AtomicKind::Add if float => elem.from_f64((x as f32 + y as f32) as f64),
        AtomicKind::Sub if float => elem.from_f64((x as f32 - y as f32) as f64),
        AtomicKind::Max if float => elem.from_f64(x.max(y)),
        AtomicKind::Min if float => elem.from_f64(x.min(y)),
        AtomicKind::Add => elem.from_i64(i.wrapping_add(j)),
        AtomicKind::Sub => elem.from_i64(i.wrapping_sub(j)),
        AtomicKind::Max => elem.from_i64(i.max(j)),
        AtomicKind::Min => elem.from_i64(i.min(j)),
        AtomicKind::Exch => v,
        AtomicKind::Cas => {
            if old == v {
                cx.value_as(a[1], elem)
            } else {
                old
            }
        }
        AtomicKind::Inc => {
            if u >= w {
                0
            } else {
                u + 1
            }
        }
        AtomicKind::Dec => {
            if u == 0 || u > w {
                w
            } else {
                u - 1
            }
        }
        AtomicKind::And => u & w,
        AtomicKind::Or => u | w,
        AtomicKind::Xor => u ^ w,
    } & mask(elem);
    cx.core.r[d as usize] = old;
    if new == old {
        return Flow::Next;
    }
    let mut bytes = [0u8; 8];
    elem.store_bits(&mut bytes, new);
    let saved = cx.core.atomic;
    if matches!(handle.space, Space::Gm(_)) {
        // the store's atomic mode leaves `new` (the larger or the smaller of it and the element) and keeps the
        // write out of the cross-core race check, as the device's atomic is
        let larger = if float {
            elem.to_f64(new) > x
        } else {
            elem.to_i64(new) > i
        };
        cx.core.atomic = if larger { Atomic::Max(elem) } else { Atomic::Min(elem) };
    }
    cx.store_bytes(handle, at, &bytes[..size], &[1u8; 8][..size], elem, what);
    cx.core.atomic = saved;
    Flow::Next
}

fn mask(elem: DType) -> u64 {
    if elem.size() >= 8 {
        u64::MAX
    } else {
        (1u64 << (elem.size() * 8)) - 1
    }
}
