//! The register API's loads and stores beyond the plain aligned ones: the distributed forms
//! (`call Reg::LoadAlign.plain<T=f16,vl=256,dist=DIST_UNPACK_B16> dst=v0 addr=r3:u64`, [`dist`]) and the
//! unaligned forms (`Reg::LoadUnAlign`, `Reg::StoreUnAlign` with their `...Pre` / `...Post`, [`unalign`]).
//! The address arithmetic of the post-update forms and of AddrReg offsets is the lowering's
//! (ascendir/lower/register_moves.py): each call here gets the address it works at.

use crate::api::{Args, Pipe, Registry};
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::MemKind;
use crate::program::Sv;
use crate::vector::reg::calls::{flow_or_not_modelled, reg_operand, reg_width, ub_range};
use crate::vector::reg::dist::{self, LoadDist, StoreDist};
use crate::vector::reg::file::RegFile;
use crate::vector::reg::mask::{self, MaskPattern};
use crate::vector::reg::unalign;

#[derive(Debug)]
enum Kind {
    Load {
        dst: usize,
        addr: Sv,
        dist: LoadDist,
    },
    Store {
        src: usize,
        mask: Option<usize>,
        addr: Sv,
        dist: StoreDist,
    },
    /// the two-register deinterleaving load (DIST_DINTLV_B*)
    LoadPair {
        dst: usize,
        dst1: usize,
        addr: Sv,
        bytes: usize,
    },
    /// StoreUnAlign: the first `count` elements of `src`
    StoreCount {
        src: usize,
        addr: Sv,
        count: Sv,
    },
    /// LoadUnAlignPre / StoreUnAlignPost: the alignment register's own work, nothing to do here ([`unalign`])
    Nothing,
}

#[derive(Debug)]
struct Transfer {
    name: String,
    t: DType,
    width: usize,
    kind: Kind,
}

/// Whether the decoder of a `Reg::LoadAlign` / `Reg::StoreAlign` call should hand it to [`decode`]: it names a
/// distribution.
pub fn is_distributed(a: &Args) -> bool {
    a.targ("dist").is_some()
}

pub fn decode(a: &Args) -> Result<Box<dyn crate::api::ApiOp>, String> {
    let api = a.api.trim_start_matches("Reg::");
    let width = reg_width(a)?;
    let t = a.dtype("T")?;
    let dist = a.targ("dist").unwrap_or("DIST_NORM");
    let kind = match api {
        "LoadAlign" if dist::deinterleave_width(dist).is_some() => Kind::LoadPair {
            dst: reg_operand(a, "dst", 'v')?,
            dst1: reg_operand(a, "dst1", 'v')?,
            addr: a.sv("addr")?,
            bytes: dist::deinterleave_width(dist).unwrap_or(1),
        },
        "LoadAlign" | "LoadUnAlign" => Kind::Load {
            dst: reg_operand(a, "dst", 'v')?,
            addr: a.sv("addr")?,
            dist: LoadDist::from_name(dist)?,
        },
        "StoreAlign" => Kind::Store {
            src: reg_operand(a, "src", 'v')?,
            mask: if a.has("mask") {
                Some(reg_operand(a, "mask", 'p')?)
            } else {
                None
            },
            addr: a.sv("addr")?,
            dist: StoreDist::from_name(dist, t)?,
        },
        "StoreUnAlign" => Kind::StoreCount {
            src: reg_operand(a, "src", 'v')?,
            addr: a.sv("addr")?,
            count: a.sv("count")?,
        },
        "LoadUnAlignPre" | "StoreUnAlignPost" => Kind::Nothing,
        _ => return Err(format!("the register API's {api} is not modelled")),
    };
    Ok(Box::new(Transfer {
        name: format!("Reg::{api}"),
        t,
        width,
        kind,
    }))
}

impl Transfer {
    fn file<'c>(&self, cx: &'c mut Ctx) -> &'c mut RegFile {
        cx.core.reg_file.get_or_insert_with(|| RegFile::new(self.width))
    }

    /// Writes `writes` (offsets from `addr`) into UB: refused whole, as one out-of-bounds finding, when the
    /// last byte is outside UB.
    fn write(&self, cx: &mut Ctx, addr: Sv, writes: &[(usize, Vec<u8>)]) -> Flow {
        let Some(end) = writes.iter().map(|(off, b)| off + b.len()).max() else {
            return Flow::Next;
        };
        let Some(start) = ub_range(cx, addr, end, true, self.t.size(), &self.name) else {
            return Flow::Stop;
        };
        for (off, bytes) in writes {
            let at = start + off;
            cx.local(MemKind::Ub).data.as_mut_slice()[at..at + bytes.len()].copy_from_slice(bytes);
            cx.mark_local(MemKind::Ub, at, bytes.len());
        }
        Flow::Next
    }

    fn run(&self, cx: &mut Ctx) -> Result<Flow, String> {
        match self.kind {
            Kind::Load { dst, addr, dist } => {
                let len = dist.bytes_read(self.width);
                let Some(start) = ub_range(cx, addr, len, false, self.t.size(), &self.name) else {
                    return Ok(Flow::Stop);
                };
                let bytes = cx.local(MemKind::Ub).data.as_slice()[start..start + len].to_vec();
                let reg = dist.load(&bytes, self.width)?;
                *self.file(cx).vreg(dst) = reg;
                Ok(Flow::Next)
            }
            Kind::LoadPair { dst, dst1, addr, bytes } => {
                let len = 2 * self.width;
                let Some(start) = ub_range(cx, addr, len, false, self.t.size(), &self.name) else {
                    return Ok(Flow::Stop);
                };
                let ub = cx.local(MemKind::Ub).data.as_slice()[start..start + len].to_vec();
                let (even, odd) = dist::deinterleave(&ub, self.width, bytes)?;
                *self.file(cx).vreg(dst) = even;
                *self.file(cx).vreg(dst1) = odd;
                Ok(Flow::Next)
            }
            Kind::Store { src, mask, addr, dist } => {
                let m = match mask {
                    Some(id) => self.file(cx).mask(id).clone(),
                    None => mask::create_mask(self.width, self.t, MaskPattern::All),
                };
                let src = self.file(cx).vreg(src).clone();
                Ok(self.write(cx, addr, &dist.writes(&src, &m)))
            }
            Kind::StoreCount { src, addr, count } => {
                let n = cx.uint(count) as usize;
                let src = self.file(cx).vreg(src).clone();
                let bytes = unalign::store_count(&src, self.t, n)?;
                Ok(self.write(cx, addr, &[(0, bytes)]))
            }
            Kind::Nothing => Ok(Flow::Next),
        }
    }
}

impl crate::api::ApiOp for Transfer {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let result = self.run(cx);
        flow_or_not_modelled(cx, &self.name, result)
    }
}

pub fn register(r: &mut Registry) {
    let apis = ["LoadUnAlign", "LoadUnAlignPre", "StoreUnAlign", "StoreUnAlignPost"];
    let heads: Vec<String> = apis.iter().map(|a| format!("Reg::{a}")).collect();
    let refs: Vec<&str> = heads.iter().map(String::as_str).collect();
    r.add_all(&refs, &["plain"], decode);
}
