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
use crate::vector::reg::calls::{flow_or_not_modelled, reg_operand, reg_width, ub_range, ub_range_at};
use crate::vector::reg::dist::{self, LoadDist, StoreDist};
use crate::vector::reg::file::{RegFile, VReg};
use crate::vector::reg::mask::{self, MaskPattern, MaskReg};
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
    /// the two-register interleaving store (DIST_INTLV_B*): all `2 * VL` bytes, the mask ignored
    StorePair {
        src: usize,
        src1: usize,
        addr: Sv,
        bytes: usize,
    },
    /// StoreUnAlign: the first `count` elements of `src`
    StoreCount {
        src: usize,
        addr: Sv,
        count: Sv,
    },
    /// Gather(dst, ubAddr, index, mask): element `index[i]` of type `u` at `addr` into lane i, the index
    /// register's lanes of type `ix`
    GatherUb {
        dst: usize,
        index: usize,
        mask: usize,
        addr: Sv,
        u: DType,
        ix: DType,
    },
    /// Scatter(ubAddr, src, index, mask): lane i of `src` to element `index[i]` of ubAddr
    ScatterUb {
        src: usize,
        index: usize,
        mask: usize,
        addr: Sv,
    },
    /// DataCopyMode::DATA_BLOCK_COPY: the register's 32-byte blocks from / to `addr + k * stride * 32`
    Blocks {
        load: bool,
        reg: usize,
        mask: usize,
        addr: Sv,
        stride: Sv,
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
    a.targ("dist").is_some() || a.targ("block").is_some()
}

pub fn decode(a: &Args) -> Result<Box<dyn crate::api::ApiOp>, String> {
    let api = a.api.trim_start_matches("Reg::");
    let width = reg_width(a)?;
    let t = a.dtype("T")?;
    let dist = a.targ("dist").unwrap_or("DIST_NORM");
    let kind = match api {
        "LoadAlign" | "StoreAlign" if a.targ("block").is_some() => {
            if t.size() > 4 {
                return Err(format!("DATA_BLOCK_COPY of {} (b8, b16 and b32 only)", t.name()));
            }
            let load = api == "LoadAlign";
            Kind::Blocks {
                load,
                reg: reg_operand(a, if load { "dst" } else { "src" }, 'v')?,
                mask: reg_operand(a, "mask", 'p')?,
                addr: a.sv("addr")?,
                stride: a.sv("stride")?,
            }
        }
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
        "StoreAlign" if dist::interleave_width(dist).is_some() => Kind::StorePair {
            src: reg_operand(a, "src", 'v')?,
            src1: reg_operand(a, "src1", 'v')?,
            addr: a.sv("addr")?,
            bytes: dist::interleave_width(dist).unwrap_or(1),
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
        // the count-less form after a Squeeze with STORE_REG: the count is AR's (spr.rs)
        "StoreUnAlign" if a.targ("count") == Some("AR") => return crate::vector::reg::spr::decode(a),
        "StoreUnAlign" => Kind::StoreCount {
            src: reg_operand(a, "src", 'v')?,
            addr: a.sv("addr")?,
            count: a.sv("count")?,
        },
        "Gather" => Kind::GatherUb {
            dst: reg_operand(a, "dst", 'v')?,
            index: reg_operand(a, "index", 'v')?,
            mask: reg_operand(a, "mask", 'p')?,
            addr: a.sv("addr")?,
            u: if a.targ("U").is_some() { a.dtype("U")? } else { t },
            // the index register's type (`I=u32` for a b64 gather by 32-bit indices); else one of T's width
            ix: if a.targ("I").is_some() {
                a.dtype("I")?
            } else {
                unsigned_of(t.size())?
            },
        },
        "Scatter" => Kind::ScatterUb {
            src: reg_operand(a, "src", 'v')?,
            index: reg_operand(a, "index", 'v')?,
            mask: reg_operand(a, "mask", 'p')?,
            addr: a.sv("addr")?,
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
            Kind::StorePair { src, src1, addr, bytes } => {
                let (even, odd) = (self.file(cx).vreg(src).clone(), self.file(cx).vreg(src1).clone());
                Ok(self.write(cx, addr, &[(0, dist::interleave(&even, &odd, bytes))]))
            }
            Kind::StoreCount { src, addr, count } => {
                let n = cx.uint(count) as usize;
                let src = self.file(cx).vreg(src).clone();
                let bytes = unalign::store_count(&src, self.t, n)?;
                Ok(self.write(cx, addr, &[(0, bytes)]))
            }
            Kind::GatherUb {
                dst,
                index,
                mask,
                addr,
                u,
                ix,
            } => self.gather(cx, dst, index, mask, addr, (u, ix)),
            Kind::ScatterUb { src, index, mask, addr } => {
                let f = self.file(cx);
                let (s, idx, m) = (f.vreg(src).clone(), f.vreg(index).clone(), f.mask(mask).clone());
                let base = cx.int(addr);
                let size = self.t.size();
                for (k, bits) in scatter(&s, &idx, &m, self.t)? {
                    let at = base + k as i64 * size as i64;
                    let Some(start) = ub_range_at(cx, at, size, true, size, &self.name) else {
                        return Ok(Flow::Stop);
                    };
                    self.t
                        .store_bits(&mut cx.local(MemKind::Ub).data.as_mut_slice()[start..], bits);
                    cx.mark_local(MemKind::Ub, start, size);
                }
                Ok(Flow::Next)
            }
            Kind::Blocks {
                load,
                reg,
                mask,
                addr,
                stride,
            } => self.blocks(cx, load, (reg, mask), addr, stride),
            Kind::Nothing => Ok(Flow::Next),
        }
    }

    /// DATA_BLOCK_COPY (asc-devkit docs .../Reg数据搬入/非连续对齐搬入（LoadAlign）.md and Reg数据搬出/
    /// 非连续对齐搬出（StoreAlign）.md): the eight 32-byte blocks of the register, block k at `addr + k *
    /// dataBlockStride * 32` bytes. A load reads a block when the mask selects any of its elements and leaves
    /// it 0 otherwise (not read, so no bounds finding: the page); a store leaves a block none of whose elements
    /// is selected unwritten. A store of a block only some of whose elements are selected is refused: the
    /// store page does not say whether the others are written.
    fn blocks(&self, cx: &mut Ctx, load: bool, regs: (usize, usize), addr: Sv, stride: Sv) -> Result<Flow, String> {
        let (reg, mask) = regs;
        let t = self.t;
        let m = self.file(cx).mask(mask).clone();
        let mut data = if load {
            VReg::zeroed(self.width)
        } else {
            self.file(cx).vreg(reg).clone()
        };
        let (base, step) = (cx.int(addr), cx.int(stride) * 32);
        for k in selected_blocks(&m, t, self.width, !load)? {
            let Some(at) = ub_range_at(cx, base + k as i64 * step, 32, !load, t.size(), &self.name) else {
                return Ok(Flow::Stop);
            };
            let ub = &mut cx.local(MemKind::Ub).data.as_mut_slice()[at..at + 32];
            if load {
                data.bytes[32 * k..32 * (k + 1)].copy_from_slice(ub);
            } else {
                ub.copy_from_slice(&data.bytes[32 * k..32 * (k + 1)]);
                cx.mark_local(MemKind::Ub, at, 32);
            }
        }
        if load {
            *self.file(cx).vreg(reg) = data;
        }
        Ok(Flow::Next)
    }

    fn gather(
        &self,
        cx: &mut Ctx,
        dst: usize,
        index: usize,
        mask: usize,
        addr: Sv,
        types: (DType, DType),
    ) -> Result<Flow, String> {
        let (u, ix) = types;
        let idx = self.file(cx).vreg(index).clone();
        let m = self.file(cx).mask(mask).clone();
        let base = cx.int(addr);
        let mut stopped = false;
        let out = gather(&idx, &m, (self.t, u, ix), self.width, |k| {
            let start = ub_range_at(
                cx,
                base + k as i64 * u.size() as i64,
                u.size(),
                false,
                u.size(),
                &self.name,
            )?;
            Some(u.load_bits(&cx.local(MemKind::Ub).data.as_slice()[start..]))
        })?;
        match out {
            Some(reg) => *self.file(cx).vreg(dst) = reg,
            None => stopped = true,
        }
        Ok(if stopped { Flow::Stop } else { Flow::Next })
    }
}

/// The 32-byte blocks of a `width`-byte register a DATA_BLOCK_COPY moves under `mask` (elements of `t`): those
/// with a selected element; for a store, a block only partly selected is refused ([`Transfer::blocks`]).
pub fn selected_blocks(mask: &MaskReg, t: DType, width: usize, store: bool) -> Result<Vec<usize>, String> {
    let per_block = 32 / t.size();
    let mut blocks = Vec::new();
    for k in 0..width / 32 {
        let selected = (k * per_block..(k + 1) * per_block)
            .filter(|&i| mask.active(t, i))
            .count();
        if selected == 0 {
            continue;
        }
        if store && selected < per_block {
            return Err(format!(
                "a DATA_BLOCK_COPY store of block {k} with {selected} of its {per_block} elements selected \
                 (whether the others are written is not documented)"
            ));
        }
        blocks.push(k);
    }
    Ok(blocks)
}

/// The unsigned integer type of `size` bytes (an index register's lane type by default).
fn unsigned_of(size: usize) -> Result<DType, String> {
    match size {
        1 => Ok(DType::U8),
        2 => Ok(DType::U16),
        4 => Ok(DType::U32),
        8 => Ok(DType::U64),
        _ => Err(format!("no index type of {size} bytes")),
    }
}

/// `Gather(dst, baseAddr, index, mask)` from UB (vgather2; asc-devkit docs/zh/api/SIMD-API/基础API/Reg矢量计算/
/// Reg数据搬入/离散搬入（Gather）.md and the C API's reg_load/asc_gather.md): lane i of a register of `t` lanes gets
/// element `index[i]` (counted in elements of the source type `u` from baseAddr), read by `read`; a lane the mask
/// leaves out is 0 (asc_gather.md: "mask未筛选的元素在输出中置零"); a b8 source in a b16 lane keeps its 8 bits
/// with the upper 8 zero (int8 -40 becomes 216). The index register holds one unsigned index per lane, of the
/// lane's width (uint16_t for b16, uint32_t for b32, the table of the Gather page), `types.2`; a b64 gather may
/// take uint32_t indices (the page's B64 table: into a RegTraitNumTwo tensor lane i takes index lane i; into a
/// one-register tensor only the first 32 indices count, as here). None when `read` refused an element
/// (outside UB: the finding is reported there).
pub fn gather(
    index: &VReg,
    mask: &crate::vector::reg::mask::MaskReg,
    types: (DType, DType, DType),
    width: usize,
    mut read: impl FnMut(u64) -> Option<u64>,
) -> Result<Option<VReg>, String> {
    let (t, u, ix) = types;
    if !(u.size() == t.size() || (u.size() == 1 && t.size() == 2)) {
        return Err(format!("a gather of {} elements into {} lanes", u.name(), t.name()));
    }
    let lanes = width / t.size();
    if index.lanes(ix) < lanes || (ix.size() != t.size() && !(t.size() == 8 && ix.size() == 4)) {
        return Err(format!(
            "a gather of {} elements by {} indices ({} index lanes for {lanes} elements)",
            t.name(),
            ix.name(),
            index.lanes(ix)
        ));
    }
    let mut out = VReg::zeroed(width);
    for i in (0..lanes).filter(|&i| mask.active(t, i)) {
        let Some(bits) = read(index.get(ix, i)) else {
            return Ok(None);
        };
        out.set(t, i, bits);
    }
    Ok(Some(out))
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
    let apis = [
        "LoadUnAlign",
        "LoadUnAlignPre",
        "StoreUnAlign",
        "StoreUnAlignPost",
        "Scatter",
    ];
    let heads: Vec<String> = apis.iter().map(|a| format!("Reg::{a}")).collect();
    let refs: Vec<&str> = heads.iter().map(String::as_str).collect();
    r.add_all(&refs, &["plain"], decode);
}

/// `Scatter(baseAddr, srcReg, index, mask)` to UB (vscatter; docs .../Reg数据搬出/离散搬出（Scatter）.md): each lane
/// the mask selects writes its element at `index[i]` elements of `t` past baseAddr, the index one unsigned value per
/// lane of t's width (uint16_t for b16, uint32_t for b32); returns (element offset, bits) in lane order. Refused:
/// two selected lanes with one index (the page: which one is kept cannot be said), b8 (only the even elements of
/// the register count, under a mask whose width the page does not give) and b64 (RegTraitNumTwo registers).
pub fn scatter(
    src: &VReg,
    index: &VReg,
    mask: &crate::vector::reg::mask::MaskReg,
    t: DType,
) -> Result<Vec<(u64, u64)>, String> {
    if t.size() != 2 && t.size() != 4 {
        return Err(format!("a scatter of {} elements", t.name()));
    }
    let mut out: Vec<(u64, u64)> = Vec::new();
    for i in (0..src.lanes(t)).filter(|&i| mask.active(t, i)) {
        let k = index.get(t, i);
        if out.iter().any(|&(seen, _)| seen == k) {
            return Err(format!(
                "two lanes scatter to element {k} (which one UB keeps is not said: the indices must be unique)"
            ));
        }
        out.push((k, src.get(t, i)));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vector::reg::mask::MaskReg;

    #[test]
    fn gather_reads_by_element_index_and_zeros_inactive_lanes() {
        // 64 float lanes; index[i] = 2 * i + 1 (odd elements), the mask covers the first 3 lanes
        let ub: Vec<f32> = (0..200).map(|k| k as f32 * 0.5).collect();
        let mut index = VReg::zeroed(256);
        for i in 0..64 {
            index.set(DType::U32, i, (2 * i + 1) as u64);
        }
        let mask = MaskReg::first(256, DType::F32, 3);
        let read = |k: u64| Some(ub[k as usize].to_bits() as u64);
        let out = gather(&index, &mask, (DType::F32, DType::F32, DType::U32), 256, read)
            .unwrap()
            .unwrap();
        let lane = |i| f32::from_bits(out.get(DType::F32, i) as u32);
        assert_eq!((lane(0), lane(1), lane(2)), (0.5, 1.5, 2.5));
        assert!((3..64).all(|i| out.get(DType::F32, i) == 0));
    }

    #[test]
    fn gather_of_bytes_into_16_bit_lanes_zero_extends_and_repeats_indices() {
        let ub: [u8; 4] = [40, (-40i8) as u8, 7, 9];
        let mut index = VReg::zeroed(256);
        for (i, k) in [0u64, 1, 1, 3].iter().enumerate() {
            index.set(DType::U16, i, *k);
        }
        let mask = MaskReg::first(256, DType::I16, 4);
        let out = gather(&index, &mask, (DType::I16, DType::I8, DType::U16), 256, |k| {
            Some(ub[k as usize] as u64)
        })
        .unwrap()
        .unwrap();
        let lanes: Vec<u64> = (0..5).map(|i| out.get(DType::I16, i)).collect();
        assert_eq!(lanes, vec![40, 216, 216, 9, 0]);
    }

    #[test]
    fn scatter_writes_the_selected_lanes_at_their_indices() {
        let mut src = VReg::zeroed(256);
        let mut index = VReg::zeroed(256);
        for i in 0..64 {
            src.set(DType::I32, i, (100 + i) as u64);
            index.set(DType::U32, i, (63 - i) as u64); // reversed
        }
        let mask = MaskReg::first(256, DType::I32, 3);
        assert_eq!(
            scatter(&src, &index, &mask, DType::I32).unwrap(),
            vec![(63, 100), (62, 101), (61, 102)]
        );
        index.set(DType::U32, 2, 63); // lane 2 onto lane 0's element
        assert!(scatter(&src, &index, &mask, DType::I32).is_err());
        assert!(scatter(&src, &index, &mask, DType::I8).is_err());
    }

    #[test]
    fn b64_gather_by_u32_indices_fills_a_pair_and_the_first_32_of_one_register() {
        // the Gather page's B64 table: int64_t by uint32_t indices into a RegTraitNumTwo tensor (64 elements,
        // a 512-byte register here: the two halves joined, pair.rs) or a one-register one (32 elements)
        let mut index = VReg::zeroed(256);
        for i in 0..64 {
            index.set(DType::U32, i, (3 * i) as u64);
        }
        let mask = MaskReg::first(512, DType::I64, 64);
        let read = |k: u64| Some(k.wrapping_mul(1 << 33)); // element k of UB holds k * 2^33
        let out = gather(&index, &mask, (DType::I64, DType::I64, DType::U32), 512, read)
            .unwrap()
            .unwrap();
        assert_eq!(out.get(DType::I64, 63), 189 << 33);
        let one = MaskReg::first(256, DType::I64, 32);
        let out = gather(&index, &one, (DType::I64, DType::I64, DType::U32), 256, read)
            .unwrap()
            .unwrap();
        assert_eq!((out.lanes(DType::I64), out.get(DType::I64, 31)), (32, 93 << 33));
    }

    #[test]
    fn data_block_copy_moves_the_blocks_with_a_selected_element() {
        // 20 floats selected: blocks 0, 1 whole, block 2 half (elements 16..20)
        let m = MaskReg::first(256, DType::F32, 20);
        assert_eq!(selected_blocks(&m, DType::F32, 256, false).unwrap(), vec![0, 1, 2]);
        let e = selected_blocks(&m, DType::F32, 256, true).unwrap_err();
        assert!(e.contains("block 2 with 4 of its 8 elements selected"), "{e}");
        let halves = MaskReg::first(256, DType::F16, 32);
        assert_eq!(selected_blocks(&halves, DType::F16, 256, true).unwrap(), vec![0, 1]);
        assert!(selected_blocks(&MaskReg::none(256), DType::F32, 256, true)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn gather_refusals() {
        let index = VReg::zeroed(256);
        let mask = MaskReg::first(256, DType::F32, 1);
        assert!(
            gather(&index, &mask, (DType::F32, DType::F32, DType::U32), 256, |_| None)
                .unwrap()
                .is_none()
        );
        // 64 u32 index lanes cannot index the 128 b64 elements of a 1024-byte register
        assert!(gather(&index, &mask, (DType::I64, DType::I64, DType::U32), 1024, |_| Some(0)).is_err());
        assert!(gather(&index, &mask, (DType::F32, DType::F16, DType::U32), 256, |_| Some(0)).is_err());
    }
}
