//! The cube's mode registers the basic API sets: HF32 mode and its rounding (SetHF32Mode, SetHF32TransMode) and
//! the order of Mmad's output (SetMMLayoutTransform, SetMMRowMajor, SetMMColumnMajor).
//!
//! SetHF32Mode(true / HF32Mode::ENABLE): "FP32 data in L0A/L0B will be rounded to HF32 before matrix
//! multiplication" (asc-devkit kernel_operator_mm_intf.h 458-473 and the SetHF32Mode page); SetHF32TransMode picks
//! the rounding. HF32's format (its mantissa width) is in neither, so a float Mmad under HF32 mode is computed in
//! FP32 and reported as a warning there (mmad.rs reads `hf32`): results can be more exact than the device's.
//! The layout transform orders the cube's work (N first or M first), not the values: the result is the same, so
//! the simulator records nothing for it.

use crate::api::{ApiOp, Args, EnumArg, Pipe, Registry};
use crate::core::{Ctx, Flow};
use crate::program::Sv;

#[derive(Debug)]
enum Setter {
    /// SetHF32Mode: the bool form, or HF32Mode (ENABLE is on)
    Hf32(Option<Sv>, Option<EnumArg>),
    /// SetHF32TransMode, SetMMLayoutTransform / RowMajor / ColumnMajor: no effect on the values
    Order,
}

#[derive(Debug)]
struct ModeOp(Setter);

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let setter = match (a.api.as_str(), a.overload.as_str()) {
        ("SetHF32Mode", "bool") => Setter::Hf32(Some(a.sv("hf32Mode")?), None),
        ("SetHF32Mode", _) => Setter::Hf32(None, Some(a.enum_or_reg("mode")?)),
        _ => Setter::Order,
    };
    Ok(Box::new(ModeOp(setter)))
}

impl ApiOp for ModeOp {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        if let Setter::Hf32(flag, mode) = &self.0 {
            cx.core.cube.hf32 = match (flag, mode) {
                (Some(f), _) => cx.uint(*f) & 1 != 0,
                (None, Some(EnumArg::Name(n))) => n.ends_with("ENABLE"),
                // HF32Mode { ENABLE, DISABLE }: ENABLE is 0
                (None, Some(EnumArg::Reg(r))) => cx.uint(*r) == 0,
                (None, None) => false,
            };
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["SetHF32Mode", "SetHF32TransMode"], &["bool", "enum"], decode);
    r.add_all(
        &["SetMMLayoutTransform", "SetMMRowMajor", "SetMMColumnMajor"],
        &["plain"],
        decode,
    );
}

#[cfg(test)]
mod tests {
    use crate::cube::tests::Rig;

    /// A 16 x 16 x 16 Mmad of `t` after `setters`; the finding codes (the inputs are L0A / L0B zeros).
    fn mmad_after(t: &str, setters: &str) -> Vec<&'static str> {
        let c_t = if t == "i8" { "i32" } else { "f32" };
        let out = Rig::new("aic")
            .fill(crate::memory::MemKind::L0a, 0, vec![0u8; 1024])
            .fill(crate::memory::MemKind::L0b, 0, vec![0u8; 1024])
            .run(
                &[
                    (0, "i32", 0),
                    (1, "i32", 256),
                    (2, "i16", 16),
                    (5, "i1", 1),
                    (6, "i1", 0),
                ],
                &format!(
                    "{setters}  h0 = LocalAt.{t} L0A r0:i32 r1:i32\n  h1 = LocalAt.{t} L0B r0:i32 r1:i32\n  \
                     h2 = LocalAt.{c_t} L0C r0:i32 r1:i32\n  \
                     call Mmad.plain<T={c_t},U={t},S={t}> dst=h2 fm=h0 filter=h1 mmadParams.m=r2:i16 \
                     mmadParams.n=r2:i16 mmadParams.k=r2:i16 mmadParams.cmatrixInitVal=r5:i1"
                ),
            );
        out.codes()
    }

    #[test]
    fn a_float_mmad_under_hf32_mode_is_said_to_be_fp32() {
        let on = "  call SetHF32Mode.bool hf32Mode=r5:i1\n  call SetHF32TransMode.bool hf32TransMode=r6:i1\n";
        assert_eq!(mmad_after("f32", on), vec!["ASC958"]);
        // off again, by the enum form; half is not rounded to HF32; the layout order changes nothing
        let off = format!("{on}  call SetHF32Mode.enum mode=HF32Mode::DISABLE\n");
        assert!(mmad_after("f32", &off).is_empty());
        assert!(mmad_after("f16", on).is_empty());
        let order = "  call SetMMLayoutTransform.plain mmLayoutMode=r5:i1\n  call SetMMRowMajor.plain\n";
        assert!(mmad_after("f32", order).is_empty());
        let enabled = "  call SetHF32Mode.enum mode=HF32Mode::ENABLE\n";
        assert_eq!(mmad_after("f32", enabled), vec!["ASC958"]);
    }
}
