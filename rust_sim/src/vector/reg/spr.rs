//! Squeeze and the AR special register of the register API (asc-devkit docs/zh/api/SIMD-API/基础API/Reg矢量计算/
//! 比较与选择/Squeeze.md, 系统变量访问/ClearSpr.md, Reg数据搬出/连续非对齐搬出（StoreUnAlign）.md and 特殊寄存器访问/
//! GetSpr.md):
//! - `Squeeze<T, mode>(dst, src, mask)` copies the elements the mask selects, in order, to the lowest lanes of dst
//!   and zeros the rest; with `GatherMaskMode::STORE_REG` it also adds their bytes to AR ("the total bytes of the
//!   valid elements": ops-nn scatter_add reads `GetSpr<AR>() / sizeof(int32_t)` after a loop of them as the count
//!   of all elements kept);
//! - `StoreUnAlign(dstAddr, src, ureg)` (no count: scenario 3 of the StoreUnAlign page) stores the bytes the last
//!   Squeeze kept, after those the earlier ones stored: the loop of the pages' examples packs every kept element
//!   contiguously from dstAddr. The pages require the two to alternate (a hardware constraint), which this model
//!   checks: a second Squeeze before the store, or such a store without a Squeeze, is ASC958;
//! - `ClearSpr<AR>()` sets AR to 0 (required before the loop) and `GetSpr<AR>()` reads it.
//!
//! As with the counted StoreUnAlign (unalign.rs), the bytes are written at the store; the hardware holds the
//! partial 32-byte block in the UnalignReg until the next store or the Post.

use crate::api::{Args, Pipe};
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::MemKind;
use crate::program::Sv;
use crate::vector::reg::calls::{flow_or_not_modelled, reg_operand, reg_width, ub_range_at};
use crate::vector::reg::file::{RegFile, VReg};
use crate::vector::reg::mask::MaskReg;

/// The AR register's state, per core (held in the register file).
#[derive(Clone, Debug, Default)]
pub struct Ar {
    /// the bytes the Squeezes with STORE_REG kept since the last ClearSpr
    pub bytes: u64,
    /// the bytes of the last such Squeeze, until a StoreUnAlign stores them
    pub pending: Option<u64>,
}

/// `Squeeze`: the elements of `src` the mask selects, in lane order, into the lowest lanes of `dst`, the other
/// lanes 0. Returns how many were kept.
pub fn squeeze(t: DType, dst: &mut VReg, src: &VReg, mask: &MaskReg) -> usize {
    let mut out = VReg::zeroed(src.bytes.len());
    let mut kept = 0;
    for i in (0..src.lanes(t)).filter(|&i| mask.active(t, i)) {
        out.set(t, kept, src.get(t, i));
        kept += 1;
    }
    *dst = out;
    kept
}

#[derive(Debug)]
enum Kind {
    Squeeze {
        dst: usize,
        src: usize,
        mask: usize,
        store: bool,
    },
    Clear,
    Get {
        out: Option<Sv>,
    },
    Store {
        src: usize,
        addr: Sv,
    },
}

#[derive(Debug)]
struct SprCall {
    name: String,
    t: DType,
    width: usize,
    kind: Kind,
}

fn ar_only(a: &Args) -> Result<(), String> {
    match a.targ("spr") {
        Some("AR") => Ok(()),
        Some(other) => Err(format!("the special register {other}")),
        None => Err("no special register named".to_string()),
    }
}

/// Decodes `Reg::Squeeze`, `Reg::ClearSpr`, `Reg::GetSpr` and the count-less `Reg::StoreUnAlign` (`count=AR`).
pub fn decode(a: &Args) -> Result<Box<dyn crate::api::ApiOp>, String> {
    let api = a.api.trim_start_matches("Reg::");
    let t = crate::vector::reg::calls::elem_or_u8(a)?;
    let kind = match api {
        "Squeeze" => Kind::Squeeze {
            dst: reg_operand(a, "dst", 'v')?,
            src: reg_operand(a, "src", 'v')?,
            mask: reg_operand(a, "mask", 'p')?,
            store: match a.targ("store") {
                None | Some("NO_STORE_REG") => false,
                Some("STORE_REG") => true,
                Some(other) => return Err(format!("GatherMaskMode::{other}")),
            },
        },
        "ClearSpr" => {
            ar_only(a)?;
            Kind::Clear
        }
        "GetSpr" => {
            ar_only(a)?;
            Kind::Get { out: a.result_sv() }
        }
        "StoreUnAlign" => Kind::Store {
            src: reg_operand(a, "src", 'v')?,
            addr: a.sv("addr")?,
        },
        _ => return Err(format!("the register API's {api} is not modelled")),
    };
    Ok(Box::new(SprCall {
        name: format!("Reg::{api}"),
        t,
        width: reg_width(a).unwrap_or(256),
        kind,
    }))
}

impl SprCall {
    fn file<'c>(&self, cx: &'c mut Ctx) -> &'c mut RegFile {
        cx.core.reg_file.get_or_insert_with(|| RegFile::new(self.width))
    }

    fn run(&self, cx: &mut Ctx) -> Result<Flow, String> {
        match self.kind {
            Kind::Squeeze { dst, src, mask, store } => {
                let f = self.file(cx);
                if store && f.ar.pending.is_some() {
                    return Err(
                        "a second Squeeze with STORE_REG before the StoreUnAlign that stores the first \
                                (Squeeze.md: the two must alternate)"
                            .to_string(),
                    );
                }
                let (s, m) = (f.vreg(src).clone(), f.mask(mask).clone());
                let kept = squeeze(self.t, f.vreg(dst), &s, &m) as u64 * self.t.size() as u64;
                if store {
                    f.ar.bytes += kept;
                    f.ar.pending = Some(kept);
                }
            }
            Kind::Clear => self.file(cx).ar = Ar::default(),
            Kind::Get { out } => {
                let bytes = self.file(cx).ar.bytes;
                if let Some(out) = out {
                    cx.set(out.reg, out.ty, out.ty.norm(bytes));
                }
            }
            Kind::Store { src, addr } => {
                let f = self.file(cx);
                let Some(n) = f.ar.pending.take() else {
                    return Err(
                        "a StoreUnAlign without a count that no Squeeze with STORE_REG precedes (the count \
                                is the one AR holds: StoreUnAlign.md, scenario 3)"
                            .to_string(),
                    );
                };
                let at = f.ar.bytes - n; // after what the earlier Squeezes kept
                let bytes = f.vreg(src).bytes[..n as usize].to_vec();
                if bytes.is_empty() {
                    return Ok(Flow::Next);
                }
                let base = cx.int(addr) + at as i64;
                let Some(start) = ub_range_at(cx, base, bytes.len(), true, self.t.size(), &self.name) else {
                    return Ok(Flow::Stop);
                };
                cx.local(MemKind::Ub).data.as_mut_slice()[start..start + bytes.len()].copy_from_slice(&bytes);
                cx.mark_local(MemKind::Ub, start, bytes.len());
            }
        }
        Ok(Flow::Next)
    }
}

impl crate::api::ApiOp for SprCall {
    fn pipe(&self) -> Pipe {
        match self.kind {
            Kind::Get { .. } => Pipe::S,
            _ => Pipe::V,
        }
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let result = self.run(cx);
        flow_or_not_modelled(cx, &self.name, result)
    }
}

pub fn register(r: &mut crate::api::Registry) {
    r.add_all(&["Reg::Squeeze", "Reg::ClearSpr", "Reg::GetSpr"], &["plain"], decode);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squeeze_packs_the_selected_lanes_low_and_zeros_the_rest() {
        let mut src = VReg::zeroed(256);
        for i in 0..64 {
            src.set(DType::I32, i, (i as i64 * 10) as u64);
        }
        // byte lanes of elements 1, 3 and 62 set (an element is active by the bit of its first byte)
        let mut m = MaskReg::none(256);
        for i in [1, 3, 62] {
            m.bits[i * 4] = true;
        }
        let mut dst = VReg::zeroed(256);
        dst.set(DType::I32, 5, 99);
        assert_eq!(squeeze(DType::I32, &mut dst, &src, &m), 3);
        let lanes: Vec<u64> = (0..5).map(|i| dst.get(DType::I32, i)).collect();
        assert_eq!(lanes, vec![10, 30, 620, 0, 0]);
        assert!((3..64).all(|i| dst.get(DType::I32, i) == 0));
    }
}
