//! The vector mask register: SetMaskCount / SetMaskNorm switch between Counter and Normal mode,
//! SetVectorMask / SetMask set the lanes (or, in Counter mode, the element count), ResetMask sets all lanes.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::core::{Ctx, Flow};
use crate::program::Sv;

#[derive(Debug)]
enum MaskCall {
    Counter,
    Normal,
    Reset,
    Bits { high: Sv, low: Sv },
    Len(Sv),
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let call = match (a.api.as_str(), a.overload.as_str()) {
        ("SetMaskCount", _) => MaskCall::Counter,
        ("SetMaskNorm", _) => MaskCall::Normal,
        ("ResetMask", _) => MaskCall::Reset,
        (_, "bits") | (_, "words") => MaskCall::Bits {
            high: a.sv("maskHigh")?,
            low: a.sv("maskLow")?,
        },
        _ => MaskCall::Len(a.sv("len")?),
    };
    Ok(Box::new(call))
}

impl ApiOp for MaskCall {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        match self {
            MaskCall::Counter => cx.core.mask.counter = true,
            MaskCall::Normal => cx.core.mask.counter = false,
            MaskCall::Reset => cx.core.mask.bits = [u64::MAX, u64::MAX],
            MaskCall::Bits { high, low } => cx.core.mask.bits = [cx.uint(*low), cx.uint(*high)],
            MaskCall::Len(n) => {
                let len = cx.uint(*n);
                cx.core.mask.bits = if cx.core.mask.counter {
                    [len, 0]
                } else {
                    let lo = if len >= 64 { u64::MAX } else { (1u64 << len) - 1 };
                    let hi = if len >= 128 {
                        u64::MAX
                    } else if len > 64 {
                        (1u64 << (len - 64)) - 1
                    } else {
                        0
                    };
                    [lo, hi]
                };
            }
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["SetMaskCount", "SetMaskNorm"], &["plain", "template"], decode);
    r.add("ResetMask.plain", decode);
    r.add_all(&["SetVectorMask"], &["bits", "count"], decode);
    r.add_all(&["SetMask"], &["words", "len"], decode);
}
