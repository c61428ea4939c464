//! Sort32 (each group of 32 pairs on its own) and Sort<T, isFullSort> (Sort32 over the groups, then with
//! isFullSort their merge, leaving tmp holding a copy of the result).

use super::{flag, pairs_at, proposal_chip, score, sort_positions, warn_nan, GROUP};
use crate::api::{ApiOp, Args, Pipe};
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::proposal::{meter, read, repeat_of, sort_type, write};

#[derive(Debug)]
struct Sort {
    t: DType,
    dst: u32,
    src0: u32,
    src1: u32,
    /// Sort<T, isFullSort>: Some(tmp) with isFullSort
    full: Option<u32>,
    repeat: Sv,
    what: &'static str,
}

pub(super) fn decode_sort32(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(Sort {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src0: a.handle("src0")?,
        src1: a.handle("src1")?,
        full: None,
        repeat: a.sv("repeatTime")?,
        what: "Sort32",
    }))
}

pub(super) fn decode_sort(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let tmp = a.handle("tmp")?;
    Ok(Box::new(Sort {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src0: a.handle("concat")?,
        src1: a.handle("index")?,
        full: flag(a, "isFullSort").then_some(tmp),
        repeat: a.sv("repeatTime")?,
        what: "Sort",
    }))
}

impl ApiOp for Sort {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let what = self.what;
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
        meter(cx, repeat as u64, n as u64);
        if n == 0 {
            return Flow::Next;
        }
        let (dst, src0, src1) = (cx.handle(self.dst), cx.handle(self.src0), cx.handle(self.src1));
        let Some((scores, s_init)) = read(cx, src0, 0, n * t.size(), what) else {
            return Flow::Next;
        };
        let Some((indices, i_init)) = read(cx, src1, 0, n * 4, what) else {
            return Flow::Next;
        };
        let vals: Vec<f64> = (0..n).map(|i| score(&scores[i * t.size()..], t)).collect();
        warn_nan(cx, &vals, what);
        let positions = sort_positions(&scores, n, t, self.full.is_some());
        let pairs = pairs_at(&scores, &indices, &positions, t);
        // a pair is known where its score and its index were (the reserved half bytes with the score)
        let size = t.size();
        let flags: Vec<u8> = positions
            .iter()
            .flat_map(|&i| {
                let s = s_init[i * size..(i + 1) * size].iter().all(|&b| b != 0) as u8;
                let x = i_init[i * 4..i * 4 + 4].iter().all(|&b| b != 0) as u8;
                [s, s, s, s, x, x, x, x]
            })
            .collect();
        write(cx, dst, 0, &pairs, &flags, t, what);
        if let Some(tmp) = self.full {
            // the library's rounds of MrgSort go through tmp and leave it holding a copy of the result
            let tmp = cx.handle(tmp);
            write(cx, tmp, 0, &pairs, &flags, t, what);
        }
        Flow::Next
    }
}
