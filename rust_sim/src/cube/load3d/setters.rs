//! The registers a Load3D reads and their setters: SetFmatrix (and the library-internal Load3DSetFMatrixCal /
//! Load3DSetFMatrixBCal), SetLoadDataPaddingValue, SetLoadDataRepeat and SetLoadDataBoundary.

use super::{flag, pad_values, pads, Fmatrix};
use crate::api::{ApiOp, Args, EnumArg, Pipe, StackArray};
use crate::core::{Ctx, Flow};
use crate::cube::load3d_repeat;
use crate::dtype::DType;
use crate::program::Sv;

/// Which FMATRIX register a setter writes: SetFmatrix's fmatrixMode, or the register the library-internal
/// Load3DSetFMatrixCal (left) / Load3DSetFMatrixBCal (right) writes (dav_c220 kernel_operator_mm_impl.h 464-499:
/// set_fmatrix / set_fmatrix_b of l1W | l1H << 16 | padList[i] << 32 + 8 i).
#[derive(Debug)]
enum Register {
    Mode(EnumArg),
    Fixed(bool),
}

#[derive(Debug)]
struct SetFmatrix {
    h: Sv,
    w: Sv,
    pads: Option<StackArray>,
    mode: Register,
}

pub(super) fn decode_set_fmatrix(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let mode = match a.api.as_str() {
        "Load3DSetFMatrixCal" => Register::Fixed(false),
        "Load3DSetFMatrixBCal" => Register::Fixed(true),
        _ => Register::Mode(a.enum_or_reg("fmatrixMode")?),
    };
    Ok(Box::new(SetFmatrix {
        h: a.sv("l1H")?,
        w: a.sv("l1W")?,
        pads: pads(a, "padList")?,
        mode,
    }))
}

impl ApiOp for SetFmatrix {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let right = match &self.mode {
            Register::Mode(EnumArg::Name(n)) => n == "FMATRIX_RIGHT",
            Register::Mode(EnumArg::Reg(r)) => cx.uint(*r) == 1,
            Register::Fixed(right) => *right,
        };
        let fm = Fmatrix {
            h: cx.uint(self.h) & 0xFFFF,
            w: cx.uint(self.w) & 0xFFFF,
            pad: pad_values(&self.pads, cx),
        };
        cx.core.cube.fmatrix[right as usize] = Some(fm);
        Flow::Next
    }
}

#[derive(Debug)]
struct SetPadding {
    /// T, where the call names it; else the value's own bits (`SetLoadDataPaddingValue(0)`: T is int)
    t: Option<DType>,
    value: Sv,
}

pub(super) fn decode_set_padding(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(SetPadding {
        t: a.dtype("T").ok(),
        value: a.sv("padValue")?,
    }))
}

impl ApiOp for SetPadding {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        cx.core.cube.pad_value = match self.t {
            Some(t) => cx.value_as(self.value, t),
            None => cx.uint(self.value),
        };
        Flow::Next
    }
}

/// SetLoadDataRepeat / SetLoadDataBoundary: the settings Load3D reads (load3d_repeat.rs, read_map).
#[derive(Debug)]
struct SetLoad3dState {
    /// repeatTime, repeatStride and repeatMode (the struct's defaults 1, 0, 0 where a field is not given)
    repeat: Option<(Sv, Option<Sv>, Option<Sv>)>,
    boundary: Option<Sv>,
}

pub(super) fn decode_set_repeat(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let p = "repeatParams";
    Ok(Box::new(SetLoad3dState {
        repeat: Some((
            a.opt_field(p, "repeatTime")?.ok_or("no repeatParams.repeatTime")?,
            a.opt_field(p, "repeatStride")?,
            a.opt_field(p, "repeatMode")?,
        )),
        boundary: None,
    }))
}

pub(super) fn decode_set_boundary(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(SetLoad3dState {
        repeat: None,
        boundary: Some(a.sv("boundaryValue")?),
    }))
}

impl ApiOp for SetLoad3dState {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        if let Some((time, stride, mode)) = self.repeat {
            cx.core.cube.load3d_repeat = load3d_repeat::Repeat::new(cx.uint(time), flag(cx, stride), flag(cx, mode));
        }
        if let Some(b) = self.boundary {
            cx.core.cube.load3d_boundary = cx.uint(b) & 0xFFFF_FFFF;
        }
        Flow::Next
    }
}
