//! The 950's loop mode of GM <-> UB copies: `SetLoopModePara(LoopModeParams, DataCopyMVType)` and
//! `ResetLoopModePara(type)`.
//!
//! asc-devkit's SetLoopModePara.md: with a path's loop mode set, each DataCopy / DataCopyPad on that path (GM ->
//! VECIN, VECOUT -> GM) repeats its whole transfer loop2Size times in the outer and loop1Size times in the inner
//! loop, iteration (i2, i1) reading from `src + i2 * loop2SrcStride + i1 * loop1SrcStride` and writing to
//! `dst + i2 * loop2DstStride + i1 * loop1DstStride` (bytes). The registers are per path and stay set until
//! ResetLoopModePara, which (impl/basic_api/dav_3510/kernel_operator_data_copy_impl.h ResetUBLoopModeParaImpl)
//! writes both counts as 1, "the normal mode"; the 950 copies of DataCopy and DataCopyPad both go through
//! copy_gm_to_ubuf_align_v2 / copy_ubuf_to_gm_align_v2, which read them.

use crate::api::{ApiOp, Args, EnumArg, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::program::Sv;

/// One path's loop registers: counts and byte strides (the normal mode: 1 x 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopMode {
    pub inner: u64,
    pub outer: u64,
    pub inner_src: i64,
    pub inner_dst: i64,
    pub outer_src: i64,
    pub outer_dst: i64,
}

impl LoopMode {
    pub const NORMAL: LoopMode = LoopMode {
        inner: 1,
        outer: 1,
        inner_src: 0,
        inner_dst: 0,
        outer_src: 0,
        outer_dst: 0,
    };

    /// (source, destination) byte offsets of each iteration, outer loop outermost.
    pub fn offsets(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        (0..self.outer as i64).flat_map(move |o| {
            (0..self.inner as i64).map(move |i| {
                (
                    o * self.outer_src + i * self.inner_src,
                    o * self.outer_dst + i * self.inner_dst,
                )
            })
        })
    }
}

/// DataCopyMVType's numbering (kernel_struct_data_copy.h): the index of a path's registers in the core.
pub const UB_TO_OUT: usize = 0;
pub const OUT_TO_UB: usize = 1;

#[derive(Debug)]
struct Fields {
    inner: Sv,
    outer: Sv,
    inner_src: Sv,
    inner_dst: Sv,
    outer_src: Sv,
    outer_dst: Sv,
}

#[derive(Debug)]
struct SetLoopMode {
    /// None: ResetLoopModePara
    params: Option<Fields>,
    path: EnumArg,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let params = if a.api == "SetLoopModePara" {
        let f = |name: &str| a.field("loopParams", name);
        Some(Fields {
            inner: f("loop1Size")?,
            outer: f("loop2Size")?,
            inner_src: f("loop1SrcStride")?,
            inner_dst: f("loop1DstStride")?,
            outer_src: f("loop2SrcStride")?,
            outer_dst: f("loop2DstStride")?,
        })
    } else {
        None
    };
    Ok(Box::new(SetLoopMode {
        params,
        path: a.enum_or_reg("type")?,
    }))
}

impl ApiOp for SetLoopMode {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let path = match &self.path {
            EnumArg::Name(n) if n == "UB_TO_OUT" => UB_TO_OUT,
            EnumArg::Name(n) if n == "OUT_TO_UB" => OUT_TO_UB,
            EnumArg::Reg(sv) if cx.uint(*sv) < 2 => cx.uint(*sv) as usize,
            other => {
                cx.report(
                    code::INVALID_OPERAND,
                    format!("a loop mode path {other:?}: DataCopyMVType is UB_TO_OUT or OUT_TO_UB"),
                );
                return Flow::Next;
            }
        };
        cx.core.loop_mode[path] = match &self.params {
            None => LoopMode::NORMAL,
            Some(p) => LoopMode {
                inner: cx.uint(p.inner) & 0x1f_ffff,
                outer: cx.uint(p.outer) & 0x1f_ffff,
                inner_src: cx.uint(p.inner_src) as i64,
                inner_dst: cx.uint(p.inner_dst) as i64,
                outer_src: cx.uint(p.outer_src) as i64,
                outer_dst: cx.uint(p.outer_dst) as i64,
            },
        };
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["SetLoopModePara", "ResetLoopModePara"], &["plain"], decode);
}

#[cfg(test)]
#[path = "loop_mode_tests.rs"]
mod tests;
