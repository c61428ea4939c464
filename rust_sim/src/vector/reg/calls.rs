//! The program's register-API calls (`call Reg::Add.plain<T=f32,mode=ZEROING,vl=256> dst=v2 src0=v0 src1=v1
//! mask=p0`): decoders that bind the operands, and `exec` on the core's register file ([`RegFile`], made at the
//! first call with the chip's register width `vl`). Registers are named `vN` (vector) and `pN` (mask); UB
//! addresses are byte addresses (`addr=r5:i64`, what GetPhyAddr and pointer arithmetic give). An access outside
//! UB is the usual out-of-bounds finding and stops the core.

use crate::api::{Arg, Args, Pipe, Registry};
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::{Handle, MemKind, Space};
use crate::program::Sv;
use crate::vector::reg::file::{RegFile, VReg};
use crate::vector::reg::mask::{self, MaskPattern, MaskReg};
use crate::vector::reg::ops::{self, MergeMode, RegBinOp, RegUnOp};
use crate::vector::reg::transfer;

/// What one call does, with its operands bound.
#[derive(Debug)]
enum Kind {
    Load {
        dst: usize,
        addr: Sv,
    },
    Store {
        src: usize,
        mask: Option<usize>,
        addr: Sv,
    },
    Dup {
        dst: usize,
        scalar: Sv,
        mask: Option<usize>,
    },
    /// Duplicate(dst, src, mask): src's lowest element into dst's lanes
    DupReg {
        dst: usize,
        src: usize,
        mask: usize,
    },
    Binary {
        op: RegBinOp,
        dst: usize,
        a: usize,
        b: usize,
        mask: usize,
        /// Div with a DivSpecificMode whose algorithm flushes subnormal results to zero (`*_FTZ_TRUE`)
        ftz: bool,
    },
    /// dst = src0 * src1 + dst (MulAddDst), or with `dst_factor` dst = dst * src0 + src1 (MulDstAdd); fused
    /// (ops::mul_add_dst)
    MulAddDst {
        dst: usize,
        a: usize,
        b: usize,
        mask: usize,
        dst_factor: bool,
    },
    Scalar {
        op: RegBinOp,
        dst: usize,
        src: usize,
        scalar: Sv,
        mask: usize,
    },
    Unary {
        op: RegUnOp,
        dst: usize,
        src: usize,
        mask: usize,
    },
    UpdateMask {
        dst: usize,
        count: Sv,
        out: Option<Sv>,
    },
    CreateMask {
        dst: usize,
        pattern: MaskPattern,
    },
    MoveVector {
        dst: usize,
        src: usize,
    },
    MoveMask {
        dst: usize,
        src: usize,
    },
    VRegSize {
        out: Option<Sv>,
    },
}

#[derive(Debug)]
struct RegCall {
    name: String,
    t: DType,
    mode: MergeMode,
    width: usize,
    kind: Kind,
}

/// What a register call's `exec` returns: the run's flow, or, where the call is outside what is modelled,
/// an ASC958 (NOT_MODELLED) naming the call and why, and a stop.
pub(crate) fn flow_or_not_modelled(cx: &mut Ctx, name: &str, result: Result<Flow, String>) -> Flow {
    result.unwrap_or_else(|why| {
        cx.report(
            crate::checks::code::NOT_MODELLED,
            format!("{name} as called here: {why}"),
        );
        Flow::Stop
    })
}

/// The register width in bytes (the `vl` the lowering adds to every register call).
pub(crate) fn reg_width(a: &Args) -> Result<usize, String> {
    let vl = a.targ("vl").ok_or("no register width (vl)")?;
    vl.parse().map_err(|_| "a register width that is no number".to_string())
}

/// The call's element type `T`, or uint8_t for a call that names none (mask and byte-wise forms).
pub(crate) fn elem_or_u8(a: &Args) -> Result<DType, String> {
    match a.targ("T") {
        Some(_) => a.dtype("T"),
        None => Ok(DType::U8),
    }
}

/// Register `name` (`v3` / `p1`) of the expected bank.
pub(crate) fn reg_operand(a: &Args, name: &str, bank: char) -> Result<usize, String> {
    match a.get(name) {
        Some(Arg::Name(text)) if text.starts_with(bank) => text[1..]
            .parse()
            .map_err(|_| format!("operand {name}: '{text}' is no register")),
        Some(other) => Err(format!("operand {name} is {other:?}, not a {bank} register")),
        None => Err(format!("missing operand {name}")),
    }
}

fn opt_mask(a: &Args, name: &str) -> Result<Option<usize>, String> {
    if a.has(name) {
        reg_operand(a, name, 'p').map(Some)
    } else {
        Ok(None)
    }
}

fn decode(a: &Args) -> Result<Box<dyn crate::api::ApiOp>, String> {
    let api = a.api.trim_start_matches("Reg::");
    if transfer::is_distributed(a) {
        return transfer::decode(a); // a load / store distribution other than the plain one (dist.rs)
    }
    let width = reg_width(a)?;
    let t = elem_or_u8(a)?;
    let mode = match a.targ("mode") {
        None | Some("ZEROING") => MergeMode::Zeroing,
        Some("MERGING") => MergeMode::Merging,
        Some(other) => return Err(format!("MaskMergeMode::{other} is not modelled")),
    };
    let v = |n: &str| reg_operand(a, n, 'v');
    let p = |n: &str| reg_operand(a, n, 'p');
    let bin = |n: &str| match n {
        "Add" | "Adds" => Some(RegBinOp::Add),
        "Sub" => Some(RegBinOp::Sub),
        "Mul" | "Muls" => Some(RegBinOp::Mul),
        "Div" => Some(RegBinOp::Div),
        "Max" | "Maxs" => Some(RegBinOp::Max),
        "Min" | "Mins" => Some(RegBinOp::Min),
        "ShiftLefts" => Some(RegBinOp::ShiftLeft),
        "ShiftRights" => Some(RegBinOp::ShiftRight),
        _ => None,
    };
    let kind = match api {
        "LoadAlign" => Kind::Load {
            dst: v("dst")?,
            addr: a.sv("addr")?,
        },
        "StoreAlign" => Kind::Store {
            src: v("src")?,
            mask: opt_mask(a, "mask")?,
            addr: a.sv("addr")?,
        },
        // the Tensor mode (docs .../Reg矢量计算/数据填充/Duplicate.md): srcReg's lowest element broadcast to the lanes
        // the mask selects; `pos` is LOWEST, "no other value supported yet"
        "Duplicate" if a.has("src") => match a.targ("part") {
            None | Some("LOWEST") => Kind::DupReg {
                dst: v("dst")?,
                src: v("src")?,
                mask: p("mask")?,
            },
            Some(other) => {
                return Err(format!(
                    "Duplicate from HighLowPart::{other} (only LOWEST is documented)"
                ))
            }
        },
        "Duplicate" => Kind::Dup {
            dst: v("dst")?,
            scalar: a.sv("scalar")?,
            mask: opt_mask(a, "mask")?,
        },
        "Add" | "Sub" | "Mul" | "Div" | "Max" | "Min" => Kind::Binary {
            op: bin(api).unwrap_or(RegBinOp::Add),
            dst: v("dst")?,
            a: v("src0")?,
            b: v("src1")?,
            mask: p("mask")?,
            ftz: api == "Div" && a.targ("ftz") == Some("1"),
        },
        "MulAddDst" | "MulDstAdd" if mode == MergeMode::Merging => {
            return Err(format!(
                "{api} with MaskMergeMode::MERGING (the page: not supported yet)"
            ))
        }
        "MulAddDst" | "MulDstAdd" => Kind::MulAddDst {
            dst: v("dst")?,
            a: v("src0")?,
            b: v("src1")?,
            mask: p("mask")?,
            dst_factor: api == "MulDstAdd",
        },
        "Adds" | "Muls" | "Maxs" | "Mins" | "ShiftLefts" | "ShiftRights" => Kind::Scalar {
            op: bin(api).unwrap_or(RegBinOp::Add),
            dst: v("dst")?,
            src: v("src")?,
            scalar: a.sv("scalar")?,
            mask: p("mask")?,
        },
        "Abs" | "Sqrt" | "Exp" | "Relu" | "Neg" | "Ln" | "Log" => Kind::Unary {
            op: match api {
                "Abs" => RegUnOp::Abs,
                "Sqrt" => RegUnOp::Sqrt,
                "Relu" => RegUnOp::Relu,
                "Neg" => RegUnOp::Neg,
                "Ln" | "Log" => RegUnOp::Ln,
                _ => RegUnOp::Exp,
            },
            dst: v("dst")?,
            src: v("src")?,
            mask: p("mask")?,
        },
        "UpdateMask" => Kind::UpdateMask {
            dst: p("dst")?,
            count: a.sv("count")?,
            out: a.result_sv(),
        },
        "CreateMask" => Kind::CreateMask {
            dst: p("dst")?,
            pattern: MaskPattern::from_name(a.targ("pattern").unwrap_or("ALL"))?,
        },
        "Move" if a.has("mask") => return crate::vector::reg::compute_calls::decode(a), // Move under a mask
        "Move" if a.name("dst").is_some_and(|d| d.starts_with('p')) => Kind::MoveMask {
            dst: p("dst")?,
            src: p("src")?,
        },
        "Move" => Kind::MoveVector {
            dst: v("dst")?,
            src: v("src")?,
        },
        "GetVRegSize" => Kind::VRegSize { out: a.result_sv() },
        _ => return Err(format!("the register API's {api} is not modelled")),
    };
    Ok(Box::new(RegCall {
        name: format!("Reg::{api}"),
        t,
        mode,
        width,
        kind,
    }))
}

/// The UB byte range [addr, addr + len) if inside UB (reported and None otherwise).
pub(crate) fn ub_range(cx: &mut Ctx, addr: Sv, len: usize, write: bool, elem: usize, what: &str) -> Option<usize> {
    let start = cx.int(addr);
    ub_range_at(cx, start, len, write, elem, what)
}

/// [`ub_range`] at a byte address already read.
pub(crate) fn ub_range_at(cx: &mut Ctx, start: i64, len: usize, write: bool, elem: usize, what: &str) -> Option<usize> {
    let ub = Handle {
        space: Space::Local(MemKind::Ub),
        addr: 0,
        len: -1,
        alloc: 0,
    };
    cx.range(ub, start, len as i64, write, elem, what)
}

impl RegCall {
    fn file<'c>(&self, cx: &'c mut Ctx) -> &'c mut RegFile {
        cx.core.reg_file.get_or_insert_with(|| RegFile::new(self.width))
    }

    fn mask_of(&self, cx: &mut Ctx, id: Option<usize>) -> MaskReg {
        match id {
            Some(id) => self.file(cx).mask(id).clone(),
            None => mask::create_mask(self.width, self.t, MaskPattern::All),
        }
    }

    fn run(&self, cx: &mut Ctx) -> Result<Flow, String> {
        let t = self.t;
        match self.kind {
            Kind::Load { dst, addr } => {
                let Some(start) = ub_range(cx, addr, self.width, false, t.size(), &self.name) else {
                    return Ok(Flow::Stop);
                };
                let bytes = cx.local(MemKind::Ub).data.as_slice()[start..start + self.width].to_vec();
                ops::load_align(self.file(cx).vreg(dst), &bytes)?;
            }
            Kind::Store { src, mask, addr } => {
                let m = self.mask_of(cx, mask);
                let src = self.file(cx).vreg(src).clone();
                // the bytes up to the last active element: those past it are not written
                let last = (0..src.lanes(t)).rev().find(|&i| m.active(t, i));
                let Some(last) = last else { return Ok(Flow::Next) };
                let len = (last + 1) * t.size();
                let Some(start) = ub_range(cx, addr, len, true, t.size(), &self.name) else {
                    return Ok(Flow::Stop);
                };
                let mem = cx.local(MemKind::Ub);
                ops::store_align(&mut mem.data.as_mut_slice()[start..start + len], &src, t, Some(&m))?;
                for i in (0..=last).filter(|&i| m.active(t, i)) {
                    cx.mark_local(MemKind::Ub, start + i * t.size(), t.size());
                }
            }
            Kind::Dup { dst, scalar, mask } => {
                let m = self.mask_of(cx, mask);
                let bits = cx.value_as(scalar, t);
                ops::duplicate(self.file(cx).vreg(dst), t, bits, &m, self.mode);
            }
            Kind::DupReg { dst, src, mask } => {
                let m = self.mask_of(cx, Some(mask));
                let s = self.file(cx).read(&[src]);
                ops::duplicate_lowest(self.file(cx).vreg(dst), t, &s[0], &m, self.mode);
            }
            Kind::Binary {
                op,
                dst,
                a,
                b,
                mask,
                ftz,
            } => {
                let m = self.mask_of(cx, Some(mask));
                let src = self.file(cx).read(&[a, b]);
                ops::binary(op, t, self.file(cx).vreg(dst), &src[0], &src[1], &m, self.mode)?;
                if ftz {
                    ops::flush_subnormals(t, self.file(cx).vreg(dst));
                }
            }
            Kind::MulAddDst {
                dst,
                a,
                b,
                mask,
                dst_factor,
            } => {
                let m = self.mask_of(cx, Some(mask));
                let src = self.file(cx).read(&[a, b]);
                ops::mul_add_dst(t, self.file(cx).vreg(dst), &src[0], &src[1], &m, dst_factor);
            }
            Kind::Scalar {
                op,
                dst,
                src,
                scalar,
                mask,
            } => {
                let m = self.mask_of(cx, Some(mask));
                let bits = cx.value_as(scalar, t);
                let src = self.file(cx).read(&[src]);
                ops::binary_scalar(op, t, self.file(cx).vreg(dst), &src[0], bits, &m, self.mode)?;
            }
            Kind::Unary { op, dst, src, mask } => {
                let m = self.mask_of(cx, Some(mask));
                let src = self.file(cx).read(&[src]);
                ops::unary(op, t, self.file(cx).vreg(dst), &src[0], &m, self.mode)?;
            }
            Kind::UpdateMask { dst, count, out } => {
                let mut n = cx.uint(count) as u32;
                let m = mask::update_mask(self.width, t, &mut n);
                *self.file(cx).mask(dst) = m;
                if let Some(out) = out {
                    cx.set(out.reg, out.ty, out.ty.norm(n as u64));
                }
            }
            Kind::CreateMask { dst, pattern } => {
                *self.file(cx).mask(dst) = mask::create_mask(self.width, t, pattern);
            }
            Kind::MoveVector { dst, src } => {
                let v: VReg = self.file(cx).vreg(src).clone();
                *self.file(cx).vreg(dst) = v;
            }
            Kind::MoveMask { dst, src } => {
                let m = self.file(cx).mask(src).clone();
                *self.file(cx).mask(dst) = m;
            }
            Kind::VRegSize { out } => {
                if let Some(out) = out {
                    cx.set(out.reg, out.ty, out.ty.norm(self.width as u64));
                }
            }
        }
        Ok(Flow::Next)
    }
}

impl crate::api::ApiOp for RegCall {
    fn pipe(&self) -> Pipe {
        match self.kind {
            Kind::VRegSize { .. } => Pipe::S,
            _ => Pipe::V,
        }
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let result = self.run(cx);
        flow_or_not_modelled(cx, &self.name, result)
    }
}

pub fn register(r: &mut Registry) {
    let apis = [
        "LoadAlign",
        "StoreAlign",
        "Duplicate",
        "Add",
        "Sub",
        "Mul",
        "MulAddDst",
        "MulDstAdd",
        "Div",
        "Max",
        "Min",
        "Adds",
        "Muls",
        "Maxs",
        "Mins",
        "ShiftLefts",
        "ShiftRights",
        "Abs",
        "Sqrt",
        "Exp",
        "Relu",
        "Neg",
        "Ln",
        "Log",
        "UpdateMask",
        "CreateMask",
        "Move",
        "GetVRegSize",
    ];
    let heads: Vec<String> = apis.iter().map(|a| format!("Reg::{a}")).collect();
    let refs: Vec<&str> = heads.iter().map(String::as_str).collect();
    r.add_all(&refs, &["plain"], decode);
    crate::vector::reg::compute_calls::register(r);
    crate::vector::reg::spr::register(r);
    crate::vector::reg::ctrl::register(r);
}
