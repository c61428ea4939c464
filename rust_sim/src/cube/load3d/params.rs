//! The LoadData calls' parameter forms -> one load's `Settings`: LoadData3DParamsV2's fields (setting the left
//! FMATRIX and the padding value first, as IsResetLoad3dConfig says), V2Pro's packed words, and V1 (reported).

use super::window::Settings;
use super::{flag, pad_values, pads, Fmatrix};
use crate::api::{ApiOp, Args, Pipe, StackArray};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;

#[derive(Debug)]
struct Load3dV2 {
    t: DType,
    dst: u32,
    src: u32,
    pads: Option<StackArray>,
    l1h: Sv,
    l1w: Sv,
    channels: Sv,
    k_ext: Sv,
    m_ext: Sv,
    k_start: Sv,
    m_start: Sv,
    stride_w: Sv,
    stride_h: Sv,
    filter_w: Sv,
    filter_h: Sv,
    dil_w: Sv,
    dil_h: Sv,
    transpose: Option<Sv>,
    pad_value: Option<Sv>,
    size_w: Option<Sv>,
    size_h: Option<Sv>,
    fm_ctrl: Option<Sv>,
    /// IsResetLoad3dConfig: whether the call sets the left FMATRIX / the padding value from its params first
    reset: (bool, bool),
}

/// The IsResetLoad3dConfig a LoadData call's defaultConfig names: the default (both set), or a constant the
/// program spells out (`IsResetLoad3dConfig:_0=0:_1=0`, `...:isSetFMatrix=0:isSetPadding=1`).
pub(crate) fn reset_config(text: Option<&str>) -> Result<(bool, bool), String> {
    let Some(cfg) = text else {
        return Ok((true, true));
    };
    if cfg.contains("IS_RESER_LOAD3D_DEFAULT_CONFIG") {
        return Ok((true, true));
    }
    let mut out = (None, None);
    if let Some(fields) = cfg.strip_prefix("IsResetLoad3dConfig") {
        for item in fields.split(':').filter(|f| !f.is_empty()) {
            let (name, value) = item.split_once('=').unwrap_or((item, ""));
            let v = value.trim() != "0" && value.trim() != "false";
            match name.trim() {
                "_0" | "isSetFMatrix" => out.0 = Some(v),
                "_1" | "isSetPadding" => out.1 = Some(v),
                _ => {}
            }
        }
    }
    match out {
        (Some(f), Some(p)) => Ok((f, p)),
        // the configuration is a constexpr struct the program does not carry
        _ => Err(format!(
            "LoadData with LoadData3DParamsV2 and defaultConfig {cfg} is not modelled (the default \
             IS_RESER_LOAD3D_DEFAULT_CONFIG and an IsResetLoad3dConfig constant whose two fields are known are)"
        )),
    }
}

pub(super) fn decode_v2(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let reset = reset_config(a.targ("defaultConfig"))?;
    let p = "loadDataParams";
    Ok(Box::new(Load3dV2 {
        reset,
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        pads: pads(a, "loadDataParams.padList")?,
        l1h: a.field(p, "l1H")?,
        l1w: a.field(p, "l1W")?,
        channels: a.field(p, "channelSize")?,
        k_ext: a.field(p, "kExtension")?,
        m_ext: a.field(p, "mExtension")?,
        k_start: a.field(p, "kStartPt")?,
        m_start: a.field(p, "mStartPt")?,
        stride_w: a.field(p, "strideW")?,
        stride_h: a.field(p, "strideH")?,
        filter_w: a.field(p, "filterW")?,
        filter_h: a.field(p, "filterH")?,
        dil_w: a.field(p, "dilationFilterW")?,
        dil_h: a.field(p, "dilationFilterH")?,
        transpose: a.opt_field(p, "enTranspose")?,
        pad_value: a.opt_field(p, "padValue")?,
        size_w: a.opt_field(p, "filterSizeW")?,
        size_h: a.opt_field(p, "filterSizeH")?,
        fm_ctrl: a.opt_field(p, "fMatrixCtrl")?,
    }))
}

impl Load3dV2 {
    fn settings(&self, cx: &Ctx) -> Settings {
        let half = |s: Sv| (cx.uint(s) & 0xFFFF) as usize;
        let byte = |s: Sv| (cx.uint(s) & 0xFF) as usize;
        let size = |s: Option<Sv>| (flag(cx, s) & 0xFF) as usize;
        Settings {
            t: self.t,
            dst: self.dst,
            src: self.src,
            channels: half(self.channels),
            k_ext: half(self.k_ext),
            m_ext: half(self.m_ext),
            k_start: half(self.k_start),
            m_start: half(self.m_start),
            stride: (byte(self.stride_h), byte(self.stride_w)),
            filter: (
                byte(self.filter_h) + (size(self.size_h) << 8),
                byte(self.filter_w) + (size(self.size_w) << 8),
            ),
            dilation: (byte(self.dil_h), byte(self.dil_w)),
            transpose: flag(cx, self.transpose) & 1 != 0,
            fm_ctrl: flag(cx, self.fm_ctrl) & 1 != 0,
        }
    }
}

impl ApiOp for Load3dV2 {
    fn pipe(&self) -> Pipe {
        Pipe::Mte1
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        // the default IsResetLoad3dConfig: the call sets the left FMATRIX and the padding value first
        if self.reset.0 {
            cx.core.cube.fmatrix[0] = Some(Fmatrix {
                h: cx.uint(self.l1h) & 0xFFFF,
                w: cx.uint(self.l1w) & 0xFFFF,
                pad: pad_values(&self.pads, cx),
            });
        }
        if self.reset.1 {
            cx.core.cube.pad_value = self.pad_value.map(|v| cx.value_as(v, self.t)).unwrap_or(0);
        }
        let s = self.settings(cx);
        s.load(cx)
    }
}

/// A 3D form the simulator reports instead of running.
#[derive(Debug)]
struct Unsupported(&'static str);

impl ApiOp for Unsupported {
    fn pipe(&self) -> Pipe {
        Pipe::Mte1
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        cx.report(code::NOT_MODELLED, self.0.to_string());
        Flow::Next
    }
}

pub(super) fn decode_v1(_: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(Unsupported(
        "LoadData with LoadData3DParamsV1 is not available on the 910B: asc-devkit's dav_c220 implementation \
         reports it unsupported (A1->A2, B1->B2 and L1->UB); use LoadData3DParamsV2",
    )))
}

/// LoadData with LoadData3DParamsV2Pro: Load3Dv2 with its settings packed into two words, as asc-devkit's
/// dav_c220 implementation unpacks them for the same instruction: extConfig = kExtension | mExtension << 16 |
/// kStartPt << 32 | mStartPt << 48; filterConfig = strideW | strideH << 8 | filterW << 16 | filterH << 24 |
/// dilationFilterW << 32 | dilationFilterH << 40 (0x10101010101 by default: all 1). It carries no map size,
/// padding or padding value: the load reads what SetFmatrix and SetLoadDataPaddingValue set.
#[derive(Debug)]
struct Load3dV2Pro {
    t: DType,
    dst: u32,
    src: u32,
    channels: Sv,
    ext: Option<Sv>,
    filter: Option<Sv>,
    transpose: Option<Sv>,
    size_w: Option<Sv>,
    size_h: Option<Sv>,
    fm_ctrl: Option<Sv>,
}

pub(super) fn decode_v2pro(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let p = "loadDataParams";
    Ok(Box::new(Load3dV2Pro {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        channels: a.field(p, "channelSize")?,
        ext: a.opt_field(p, "extConfig")?,
        filter: a.opt_field(p, "filterConfig")?,
        transpose: a.opt_field(p, "enTranspose")?,
        size_w: a.opt_field(p, "filterSizeW")?,
        size_h: a.opt_field(p, "filterSizeH")?,
        fm_ctrl: a.opt_field(p, "fMatrixCtrl")?,
    }))
}

impl Load3dV2Pro {
    fn settings(&self, cx: &Ctx) -> Settings {
        let ext = flag(cx, self.ext);
        let filter = self.filter.map(|f| cx.uint(f)).unwrap_or(0x0101_0101_0101);
        let half = |shift: u32| ((ext >> shift) & 0xFFFF) as usize;
        let byte = |shift: u32| ((filter >> shift) & 0xFF) as usize;
        let size = |s: Option<Sv>| (flag(cx, s) & 0xFF) as usize;
        Settings {
            t: self.t,
            dst: self.dst,
            src: self.src,
            channels: (cx.uint(self.channels) & 0xFFFF) as usize,
            k_ext: half(0),
            m_ext: half(16),
            k_start: half(32),
            m_start: half(48),
            stride: (byte(8), byte(0)),
            filter: (byte(24) + (size(self.size_h) << 8), byte(16) + (size(self.size_w) << 8)),
            dilation: (byte(40), byte(32)),
            transpose: flag(cx, self.transpose) & 1 != 0,
            fm_ctrl: flag(cx, self.fm_ctrl) & 1 != 0,
        }
    }
}

impl ApiOp for Load3dV2Pro {
    fn pipe(&self) -> Pipe {
        Pipe::Mte1
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        self.settings(cx).load(cx)
    }
}
