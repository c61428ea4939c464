//! Concat (on 2201 an assignment of the tensor), Extract (the scores and indices out of the pairs) and
//! GetSortLen / GetSortOffset.

use super::{proposal_chip, sort_len, GROUP, PAIR};
use crate::api::{ApiOp, Args, Pipe};
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::proposal::{meter, read, repeat_of, sort_type, write};

#[derive(Debug)]
struct Concat {
    concat: u32,
    src: u32,
    repeat: Sv,
}

pub(super) fn decode_concat(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(Concat {
        concat: a.handle("concat")?,
        src: a.handle("src")?,
        repeat: a.sv("repeatTime")?,
    }))
}

impl ApiOp for Concat {
    fn pipe(&self) -> Pipe {
        // on 2201 nothing is issued: the call assigns a tensor
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let what = "Concat";
        if proposal_chip(cx, what) {
            return Flow::Stop;
        }
        if repeat_of(cx, self.repeat, what).is_none() {
            return Flow::Next;
        }
        let src = cx.handle(self.src);
        cx.set_handle(self.concat, src);
        Flow::Next
    }
}

#[derive(Debug)]
struct Extract {
    t: DType,
    value: u32,
    index: u32,
    sorted: u32,
    repeat: Sv,
}

pub(super) fn decode_extract(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(Extract {
        t: a.dtype("T")?,
        value: a.handle("dstValue")?,
        index: a.handle("dstIndex")?,
        sorted: a.handle("sorted")?,
        repeat: a.sv("repeatTime")?,
    }))
}

impl ApiOp for Extract {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let what = "Extract";
        if proposal_chip(cx, what) {
            return Flow::Stop;
        }
        let Some(t) = sort_type(cx, self.t, what) else {
            return Flow::Next;
        };
        let Some(repeat) = repeat_of(cx, self.repeat, what) else {
            return Flow::Next;
        };
        let n = repeat * GROUP;
        meter(cx, 2 * repeat as u64, 2 * n as u64);
        if n == 0 {
            return Flow::Next;
        }
        let size = t.size();
        let sorted = cx.handle(self.sorted);
        let Some((pairs, flags)) = read(cx, sorted, 0, n * PAIR, what) else {
            return Flow::Next;
        };
        let (mut vals, mut v_init) = (Vec::with_capacity(n * size), Vec::with_capacity(n * size));
        let (mut idx, mut i_init) = (Vec::with_capacity(n * 4), Vec::with_capacity(n * 4));
        for (p, f) in pairs.chunks_exact(PAIR).zip(flags.chunks_exact(PAIR)) {
            vals.extend_from_slice(&p[..size]);
            v_init.extend_from_slice(&f[..size]);
            idx.extend_from_slice(&p[4..]);
            i_init.extend_from_slice(&f[4..]);
        }
        let (value, index) = (cx.handle(self.value), cx.handle(self.index));
        write(cx, value, 0, &vals, &v_init, t, what);
        if index.len != 0 {
            write(cx, index, 0, &idx, &i_init, DType::U32, what);
        }
        Flow::Next
    }
}

// ------------------------------------------------------------------------------------------- GetSortLen / Offset

#[derive(Debug)]
struct SortLen {
    t: DType,
    n: Sv,
    result: Option<Sv>,
}

pub(super) fn decode_len(a: &Args, arg: &str) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(SortLen {
        t: a.dtype("T")?,
        n: a.sv(arg)?,
        result: a.result_sv(),
    }))
}
impl ApiOp for SortLen {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let Some(t) = sort_type(cx, self.t, "GetSortLen") else {
            return Flow::Next;
        };
        let v = sort_len(cx.uint(self.n) & 0xFFFF_FFFF, t) & 0xFFFF_FFFF;
        if let Some(r) = self.result {
            cx.set(r.reg, r.ty, v);
        }
        Flow::Next
    }
}
