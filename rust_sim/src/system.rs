//! System calls: block index and count, workspaces, the UB the TPipe leaves (PopStackBuffer), caches, small scalar
//! helpers.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::core::{Ctx, Flow};
use crate::dtype::{DType, STy};
use crate::memory::{Handle, MemKind, Space};
use crate::program::Sv;

/// The system workspace the library APIs reserve at the start of the kernel's workspace (16 MiB on the 2201
/// chips); GetUserWorkspace hands out what follows it when the workspace is that large.
pub const SYS_WORKSPACE_BYTES: i64 = 16 * 1024 * 1024;

#[derive(Debug, Clone, Copy)]
enum Kind {
    BlockIdx,
    BlockNum,
    SubBlockIdx,
    Nothing,
    SysWorkspace,
    UserWorkspace,
    Cycle,
    DivCeil,
    AlignUp,
    TaskRation,
    BlockBytes,
    ToFloat,
    ToBf16,
    Overflow,
    PopStack,
}

#[derive(Debug)]
struct System {
    kind: Kind,
    args: Vec<Sv>,
    handle_arg: Option<u32>,
    result: Option<Sv>,
    result_handle: Option<u32>,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let kind = match a.api.as_str() {
        "GetBlockIdx" => Kind::BlockIdx,
        "GetBlockNum" => Kind::BlockNum,
        "GetSubBlockIdx" => Kind::SubBlockIdx,
        "GetSysWorkSpacePtr" => Kind::SysWorkspace,
        "GetUserWorkspace" => Kind::UserWorkspace,
        "GetSystemCycle" => Kind::Cycle,
        // Ceil's scalar overload is the same rounded-up division (kernel_utils_ceil_oom_que.h: (a + b - 1) / b);
        // ops-nn gather_elements_v2 counts its loops with it
        "DivCeil" | "CeilDivision" | "Ceil" => Kind::DivCeil,
        "AlignUp" => Kind::AlignUp,
        // the devkit's GetSubBlockNum(ISASI).md: AIVs per block on an AIV (2 in MIX 1:2), 1 on an AIC
        "GetTaskRation" | "GetSubBlockNum" => Kind::TaskRation,
        "GetDataBlockSizeInBytes" => Kind::BlockBytes,
        "ToFloat" => Kind::ToFloat,
        "ToBfloat16" => Kind::ToBf16,
        "SetOverflow" => Kind::Overflow,
        "PopStackBuffer" => Kind::PopStack,
        _ => Kind::Nothing,
    };
    let args = a
        .named
        .iter()
        .filter_map(|(_, arg)| match arg {
            crate::api::Arg::Reg(sv) => Some(*sv),
            _ => None,
        })
        .collect();
    let handle_arg = a.named.iter().find_map(|(_, arg)| match arg {
        crate::api::Arg::Handle(h) => Some(*h),
        _ => None,
    });
    Ok(Box::new(System {
        kind,
        args,
        handle_arg,
        result: a.result_sv(),
        result_handle: a.result_handle(),
    }))
}

impl ApiOp for System {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let value: u64 = match self.kind {
            Kind::BlockIdx => cx.core.block_idx as u64,
            Kind::BlockNum => cx.core.block_num as u64,
            Kind::SubBlockIdx => cx.core.cube.slot.sub as u64,
            Kind::Cycle => cx.core.executed,
            Kind::TaskRation => cx.core.cube.slot.ration.max(1) as u64,
            Kind::BlockBytes => 32,
            Kind::DivCeil => {
                let (a, b) = (cx.uint(self.args[0]), cx.uint(self.args[1]));
                if b == 0 {
                    0
                } else {
                    a.div_ceil(b)
                }
            }
            Kind::AlignUp => {
                let (a, b) = (cx.uint(self.args[0]), cx.uint(self.args[1]));
                if b == 0 {
                    a
                } else {
                    a.div_ceil(b) * b
                }
            }
            Kind::ToFloat => {
                let x = cx.float(self.args[0]);
                STy::F32.from_f64(x)
            }
            Kind::ToBf16 => {
                let x = cx.float(self.args[0]);
                DType::BF16.from_f64(x)
            }
            Kind::SysWorkspace | Kind::UserWorkspace => {
                let ws = match (self.kind, self.handle_arg) {
                    (Kind::UserWorkspace, Some(h)) => cx.handle(h),
                    _ => workspace(cx),
                };
                let out = if matches!(self.kind, Kind::UserWorkspace) {
                    let size = match ws.space {
                        Space::Gm(i) => cx.gm.bufs[i as usize].len() as i64,
                        _ => 0,
                    };
                    if size >= SYS_WORKSPACE_BYTES {
                        ws.offset(SYS_WORKSPACE_BYTES)
                    } else {
                        ws
                    }
                } else {
                    ws
                };
                if let Some(h) = self.result_handle {
                    cx.set_handle(h, out);
                }
                return Flow::Next;
            }
            Kind::PopStack => {
                // asc-devkit impl/basic_api/kernel_pop_stack_buffer.h: the tensor becomes the UB from the end of
                // the TPipe's buffers (GetQueueEndAddress) to the end of UB; the library asserts the position is
                // UB and a TPipe exists, and returns true. (On 2201 the last 64 bytes are the KFC message's and
                // not handed out; the simulator gives the whole rest, as for the library APIs' own temporary
                // space: queue::framework_tmp.) The tensor variable is written in place: its register is the
                // one the program passes (a `LocalTensor<T> pop;` declared for the call).
                let Some(h) = self.handle_arg else {
                    cx.report(
                        crate::checks::code::INVALID_OPERAND,
                        "PopStackBuffer without a LocalTensor to hand the space to".to_string(),
                    );
                    return Flow::Next;
                };
                let Some((start, len)) = crate::queue::framework_tmp(cx, MemKind::Ub) else {
                    cx.report(
                        crate::checks::code::INVALID_OPERAND,
                        "PopStackBuffer before any TPipe is declared: the free UB is the space after a TPipe's \
                         buffers (GetTPipePtr() is null on hardware)"
                            .to_string(),
                    );
                    return Flow::Next;
                };
                cx.set_handle(h, Handle::local(MemKind::Ub, start, len, 0));
                1
            }
            Kind::Overflow => {
                // CTRL[48] on 2201: 1 the INF/NaN mode, the A2/A3 default and the only one the vector model
                // computes (reduce/order.rs); 0 the saturation mode, not modelled
                if cx.uint(self.args[0]) == 0 {
                    cx.warn(
                        crate::checks::code::NOT_MODELLED,
                        "SetOverflow(0) selects the saturation mode, which the simulator does not model: float \
                         results after it keep INF/NaN as in the default mode"
                            .to_string(),
                    );
                }
                return Flow::Next;
            }
            Kind::Nothing => return Flow::Next,
        };
        if let Some(r) = self.result {
            cx.set(r.reg, r.ty, value);
        }
        Flow::Next
    }
}

/// The kernel's workspace parameter (named `workspace`, else the next-to-last GM parameter).
fn workspace(cx: &Ctx) -> Handle {
    let params = &cx.prog.params;
    let found = params
        .iter()
        .find(|p| p.name == "workspace" && p.handle.is_some())
        .or_else(|| params.iter().rev().filter(|p| p.handle.is_some()).nth(1));
    match found.and_then(|p| p.handle) {
        Some(h) => cx.handle(h),
        None => Handle::NULL,
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(
        &[
            "GetBlockIdx",
            "GetBlockNum",
            "GetSubBlockIdx",
            "InitSocState",
            "GetSysWorkSpacePtr",
            "GetUserWorkspace",
            "SetSysWorkspace",
            "SetSysWorkSpacePtr",
            "DataCacheCleanAndInvalid",
            "GetSystemCycle",
            "DivCeil",
            "CeilDivision",
            "AlignUp",
            "GetTaskRation",
            "GetSubBlockNum",
            "GetDataBlockSizeInBytes",
            "ToFloat",
            "ToBfloat16",
            "SetOverflow",
        ],
        &["plain"],
        decode,
    );
    r.add_all(&["PopStackBuffer"], &["tensor"], decode);
    // Ceil(a, b) on two integers (its tensor overloads are the vector unary's)
    r.add_all(&["Ceil"], &["scalar"], decode);
    // 3510's ToFloat<T>(bVal) (asc-devkit impl/basic_api/kernel_scalar_convert.h:130-138): the same conversion
    r.add_all(&["ToFloat"], &["template"], decode);
}
