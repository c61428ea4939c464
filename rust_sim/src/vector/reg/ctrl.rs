//! The CTRL special register of arch35 chips and what it does to the register API's Cast: `GetCtrlSpr<s, e>()`,
//! `SetCtrlSpr<s, e>(value)`, `ResetCtrlSpr<s, e>()` (asc-devkit docs/zh/api/SIMD-API/基础API/特殊寄存器访问/
//! SetCtrlSpr(ISASI).md, GetCtrlSpr(ISASI).md, ResetCtrlSpr(ISASI).md; dav_3510 kernel_operator_common_impl.h:
//! 85-140 reads and writes bits [s, e] of one 64-bit register; Set and Reset take the bit ranges 6..10 and the
//! single bits 45, 48, 50, 53, 59, 60 only).
//!
//! The value a kernel starts with is what TPipe's InitSocState writes (kernel_utils_base.h:88-93):
//! 0x1000000000000008 (CTRL[60] = 1: saturation set globally) with CTRL[48] kept from before the kernel. That
//! bit is the runtime's floating-point overflow mode, which no kernel source sets; the model starts it at 1
//! (inf and NaN kept, the mode the simulator's float arithmetic computes in everywhere), and `ResetCtrlSpr<48,
//! 48>` gives the page's default 0.
//!
//! Cast under CTRL (the page's table 6): with CTRL[60] = 0 each Cast saturates as its CastTrait's SatMode says
//! (vconv.rs); with CTRL[60] = 1 the trait's SatMode is not read: a float -> integer or integer -> integer cast
//! saturates when CTRL[59] = 0 and truncates to the low bits when CTRL[59] = 1, and a float narrowing to half or
//! bfloat16 (the page's list for CTRL[48]) keeps inf and NaN when CTRL[48] = 1 and gives +-MAX for inf and 0 for
//! NaN when CTRL[48] = 0. A widening float cast is exact either way. Not modelled: CTRL[48] on half
//! arithmetic, CTRL[53] (integer arithmetic saturation), CTRL[50] (fp8 NaN), CTRL[45] (the cube's fp8 as
//! hifloat8), and CTRL[8:6] / [10:9] (atomics: the simulator's SetAtomic* calls keep their own state): a Set of
//! such a bit to a value other than its default is ASC958 naming it.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::reg::calls::{flow_or_not_modelled, reg_width};
use crate::vector::reg::file::RegFile;
use crate::vector::reg::vconv::{CastTrait, SatMode};

/// CTRL as InitSocState leaves it, CTRL[48] = 1 (see the module comment).
pub const START: u64 = 0x1000_0000_0000_0008 | (1 << 48);
/// The documented default of every bit (ResetCtrlSpr's `defaultCtrl`).
pub const DEFAULT: u64 = 0x1000_0000_0000_0008;
/// The bits whose effect the model applies: 48, 59, 60 (Cast).
const MODELLED: u64 = (1 << 48) | (1 << 59) | (1 << 60);

/// Whether Set / Reset may name bits [s, e] (the static_assert of SetCtrlSprImpl).
fn settable(s: u32, e: u32) -> bool {
    (6..=10).contains(&s) && (6..=10).contains(&e) && s <= e || (s == e && [45, 48, 50, 53, 59, 60].contains(&s))
}

fn field_mask(s: u32, e: u32) -> u64 {
    if e - s == 63 {
        u64::MAX
    } else {
        ((1u64 << (e - s + 1)) - 1) << s
    }
}

/// CTRL after `SetCtrlSpr<s, e>(value)`, or why the model refuses it.
pub fn set(ctrl: u64, s: u32, e: u32, value: i64) -> Result<u64, String> {
    if !settable(s, e) {
        return Err(format!("CTRL[{s}:{e}] is no bit range SetCtrlSpr takes on this chip"));
    }
    let mask = field_mask(s, e);
    let bits = (value as u64) << s;
    if bits & !mask != 0 || value < 0 {
        return Err(format!("the value {value} does not fit CTRL[{s}:{e}]"));
    }
    let next = (ctrl & !mask) | bits;
    if (next ^ DEFAULT) & mask & !MODELLED != 0 {
        return Err(format!(
            "CTRL[{s}:{e}] = {value}: what this bit changes is not modelled"
        ));
    }
    Ok(next)
}

/// CTRL after `ResetCtrlSpr<s, e>()`.
pub fn reset(ctrl: u64, s: u32, e: u32) -> Result<u64, String> {
    if !settable(s, e) {
        return Err(format!("CTRL[{s}:{e}] is no bit range ResetCtrlSpr takes on this chip"));
    }
    let mask = field_mask(s, e);
    Ok((ctrl & !mask) | (DEFAULT & mask))
}

/// `GetCtrlSpr<s, e>()`: bits [s, e] of CTRL.
pub fn get(ctrl: u64, s: u32, e: u32) -> u64 {
    (ctrl & field_mask(s, e)) >> s
}

/// The trait a Cast U -> T runs under with CTRL `ctrl`: the instruction's own with CTRL[60] = 0, else the
/// global saturation bits' (module comment).
pub fn effective_trait(ctrl: u64, t: DType, u: DType, trait_: &CastTrait) -> CastTrait {
    if ctrl & (1 << 60) == 0 {
        return *trait_;
    }
    let sat = if !t.is_float() {
        if ctrl & (1 << 59) == 0 {
            SatMode::Sat
        } else {
            SatMode::NoSat
        }
    } else if u.is_float() && t.size() < u.size() && matches!(t, DType::F16 | DType::BF16) {
        if ctrl & (1 << 48) == 0 {
            SatMode::SatInfNan
        } else {
            SatMode::NoSat
        }
    } else {
        trait_.sat
    };
    CastTrait { sat, ..*trait_ }
}

#[derive(Debug)]
enum Kind {
    Get { out: Option<Sv> },
    Set { value: Sv },
    Reset,
}

#[derive(Debug)]
struct CtrlCall {
    name: String,
    width: usize,
    start: u32,
    end: u32,
    kind: Kind,
}

fn bit(a: &Args, name: &str) -> Result<u32, String> {
    let text = a.targ(name).ok_or_else(|| format!("no {name} bit"))?;
    text.parse::<u32>()
        .ok()
        .filter(|&b| b < 64)
        .ok_or_else(|| format!("CTRL bit '{text}'"))
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let api = a.api.trim_start_matches("Reg::");
    let (start, end) = (bit(a, "start")?, bit(a, "end")?);
    if start > end {
        return Err(format!("CTRL[{start}:{end}] is no bit range"));
    }
    let kind = match api {
        "GetCtrlSpr" => Kind::Get { out: a.result_sv() },
        "SetCtrlSpr" => Kind::Set { value: a.sv("value")? },
        _ => Kind::Reset,
    };
    Ok(Box::new(CtrlCall {
        name: format!("AscendC::{api}"),
        width: reg_width(a)?,
        start,
        end,
        kind,
    }))
}

impl CtrlCall {
    fn run(&self, cx: &mut Ctx) -> Result<Flow, String> {
        let (s, e) = (self.start, self.end);
        let width = self.width;
        match self.kind {
            Kind::Get { out } => {
                let ctrl = cx.core.reg_file.get_or_insert_with(|| RegFile::new(width)).ctrl;
                if let Some(out) = out {
                    cx.set(out.reg, out.ty, out.ty.norm(get(ctrl, s, e)));
                }
            }
            Kind::Set { value } => {
                let v = cx.int(value);
                let file = cx.core.reg_file.get_or_insert_with(|| RegFile::new(width));
                file.ctrl = set(file.ctrl, s, e, v)?;
            }
            Kind::Reset => {
                let file = cx.core.reg_file.get_or_insert_with(|| RegFile::new(width));
                file.ctrl = reset(file.ctrl, s, e)?;
            }
        }
        Ok(Flow::Next)
    }
}

impl ApiOp for CtrlCall {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let result = self.run(cx);
        flow_or_not_modelled(cx, &self.name, result)
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(
        &["Reg::GetCtrlSpr", "Reg::SetCtrlSpr", "Reg::ResetCtrlSpr"],
        &["plain"],
        decode,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::RoundMode;
    use crate::vector::reg::ops::MergeMode;
    use crate::vector::reg::vconv::convert;

    #[test]
    fn set_get_reset_work_on_the_named_bits() {
        assert_eq!(get(START, 60, 60), 1);
        assert_eq!(get(START, 59, 59), 0);
        let off = set(START, 60, 60, 0).unwrap();
        assert_eq!((get(off, 60, 60), get(off, 48, 48)), (0, 1));
        assert_eq!(get(off, 0, 63), START & !(1 << 60));
        assert_eq!(reset(off, 60, 60).unwrap(), START);
        assert_eq!(get(reset(START, 48, 48).unwrap(), 48, 48), 0); // the page's default
        assert!(set(START, 60, 60, 2).is_err()); // past the one bit
        assert!(set(START, 11, 11, 1).is_err()); // not a bit SetCtrlSpr takes
        assert!(set(START, 53, 53, 1).is_err()); // integer arithmetic saturation: not modelled
        assert_eq!(set(START, 53, 53, 0).unwrap(), START); // its default: nothing changes
    }

    #[test]
    fn global_saturation_overrides_the_cast_trait() {
        let no_sat = CastTrait {
            layout: Some(0),
            sat: SatMode::NoSat,
            mode: MergeMode::Zeroing,
            round: Some(RoundMode::Rint),
        };
        let (i16t, i32t, f, h) = (DType::I16, DType::I32, DType::F32, DType::F16);
        // int32 70000 -> int16: NO_SAT wraps (4464) under CTRL[60] = 0; the global default CTRL[59] = 0 saturates
        let single = set(START, 60, 60, 0).unwrap();
        let wrap = convert(i16t, i32t, &effective_trait(single, i16t, i32t, &no_sat), 70000).unwrap();
        assert_eq!(wrap, 4464);
        let sat = convert(i16t, i32t, &effective_trait(START, i16t, i32t, &no_sat), 70000).unwrap();
        assert_eq!(sat, 32767);
        let trunc = set(START, 59, 59, 1).unwrap();
        assert_eq!(
            convert(i16t, i32t, &effective_trait(trunc, i16t, i32t, &no_sat), 70000).unwrap(),
            4464
        );
        // float -> half: CTRL[48] = 1 keeps inf and NaN; 0 gives 65504 and 0
        let big = (1e6f32).to_bits() as u64;
        let nan = f32::NAN.to_bits() as u64;
        let keep = effective_trait(START, h, f, &no_sat);
        assert!(h.to_f64(convert(h, f, &keep, big).unwrap()).is_infinite());
        assert!(h.to_f64(convert(h, f, &keep, nan).unwrap()).is_nan());
        let saturating = effective_trait(reset(START, 48, 48).unwrap(), h, f, &no_sat);
        assert_eq!(h.to_f64(convert(h, f, &saturating, big).unwrap()), 65504.0);
        assert_eq!(convert(h, f, &saturating, nan).unwrap(), 0);
        // a widening cast is exact whatever CTRL says
        assert_eq!(effective_trait(START, f, h, &no_sat), no_sat);
    }
}
