//! Two-register tensors: `RegTensor<T, RegTraitNumTwo>` of a 64-bit T holds VL / 4 elements in two vector
//! registers, reg[0] the low 32 bits of each element and reg[1] the high 32 bits, element i in 32-bit lane i of
//! both (asc-devkit docs/zh/api/SIMD-API/基础API/Reg矢量计算/寄存器数据类型/RegTensor.md, "b64类型RegTensor存储
//! 结构": loaded by DIST_DINTLV_B32, even 32-bit words to reg[0], odd to reg[1]). Its masks are the b32 masks
//! (UpdateMask / CreateMask with RegTraitNumTwo are plt_b32 / pset_b32: dav_3510
//! kernel_reg_compute_maskreg_impl.h:50-54, 101-104), element i active when the bit of byte lane 4i is set.
//!
//! The program names such a tensor by its first register and lists the operands that are pairs
//! (`call Reg::Add.pair<T=i64,vl=256,pairs=dst+src0+src1> dst=v4 src0=v0 src1=v2 mask=p0`). A pair call runs the
//! plain call on registers twice as wide: each pair is joined into one register of 2 * VL bytes holding its
//! elements in order, each mask widened to one bit per byte of those elements, and after the call each pair
//! is split back and each mask the call changed narrowed to the b32 layout. The element-wise arithmetic,
//! compare, select, duplicate, move and the plain loads and stores then need no 64-bit form of their own: a
//! plain LoadAlign of 2 * VL bytes split this way is the DIST_DINTLV_B32 load, a StoreAlign the INTLV store.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::vector::reg::calls::{flow_or_not_modelled, reg_operand, reg_width};
use crate::vector::reg::file::{RegFile, VReg};
use crate::vector::reg::mask::MaskReg;

/// The calls whose vector operands are all of the tensor's type, so that every one of them may be a pair
/// (Gather's index register is the one operand of another width: one index per element, `I=`).
const PAIRABLE: [&str; 26] = [
    "LoadAlign",
    "StoreAlign",
    "Duplicate",
    "Add",
    "Sub",
    "Mul",
    "Max",
    "Min",
    "Adds",
    "Muls",
    "Maxs",
    "Mins",
    "Abs",
    "Neg",
    "Relu",
    "Move",
    "Copy",
    "Compare",
    "Compares",
    "Select",
    "And",
    "Or",
    "Xor",
    "Not",
    "Gather",
    "Arange",
];

#[derive(Debug)]
struct PairCall {
    name: String,
    width: usize,
    /// the first register of each pair operand
    pairs: Vec<usize>,
    masks: Vec<usize>,
    inner: Box<dyn ApiOp>,
}

/// Element i of a pair, from lane i of its two halves.
pub fn join(lo: &VReg, hi: &VReg) -> VReg {
    let mut wide = VReg::zeroed(2 * lo.bytes.len());
    for i in 0..lo.lanes(DType::U32) {
        wide.set(DType::U64, i, lo.get(DType::U32, i) | (hi.get(DType::U32, i) << 32));
    }
    wide
}

/// The halves (reg[0], reg[1]) of a register of 64-bit elements twice the width.
pub fn split(wide: &VReg, width: usize) -> (VReg, VReg) {
    let (mut lo, mut hi) = (VReg::zeroed(width), VReg::zeroed(width));
    for i in 0..lo.lanes(DType::U32) {
        let bits = wide.get(DType::U64, i);
        lo.set(DType::U32, i, bits & 0xffff_ffff);
        hi.set(DType::U32, i, bits >> 32);
    }
    (lo, hi)
}

/// A b32 mask read per 64-bit element: element i (byte lanes 8i..8i+8 of the wide register) has the bit of
/// byte lane 4i.
pub fn widen_mask(m: &MaskReg) -> MaskReg {
    MaskReg {
        bits: (0..2 * m.bits.len()).map(|b| m.bits[4 * (b / 8)]).collect(),
    }
}

/// A mask of 64-bit elements written back in the b32 layout: byte lanes 4i..4i+4 take element i's bit.
pub fn narrow_mask(wide: &MaskReg) -> MaskReg {
    MaskReg {
        bits: (0..wide.bits.len() / 2).map(|b| wide.bits[8 * (b / 4)]).collect(),
    }
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let api = a.api.trim_start_matches("Reg::").to_string();
    let width = reg_width(a)?;
    let names: Vec<&str> = a
        .targ("pairs")
        .unwrap_or("")
        .split('+')
        .filter(|s| !s.is_empty())
        .collect();
    if !PAIRABLE.contains(&api.as_str()) {
        return Err(format!(
            "{api} on RegTraitNumTwo (two-register) tensors is not modelled"
        ));
    }
    let t = a.dtype("T")?;
    if t.size() != 8 {
        return Err(format!("a RegTraitNumTwo tensor of {} (b64 only here)", t.name()));
    }
    let mut pairs = Vec::new();
    let mut masks = Vec::new();
    for (key, arg) in &a.named {
        let crate::api::Arg::Name(text) = arg else { continue };
        if text.starts_with('p') {
            masks.push(reg_operand(a, key, 'p')?);
        } else if text.starts_with('v') {
            if names.contains(&key.as_str()) {
                pairs.push(reg_operand(a, key, 'v')?);
            } else if !(api == "Gather" && key == "index") {
                return Err(format!(
                    "{api} with operand {key} a one-register tensor beside two-register ones"
                ));
            }
        }
    }
    // the plain call, on registers of twice the width
    let mut plain = a.clone();
    plain.overload = "plain".into();
    plain.targs.retain(|(k, _)| k != "pairs" && k != "vl");
    plain.targs.push(("vl".into(), (2 * width).to_string()));
    let head = format!("{}.plain", a.api);
    let inner = crate::api::registry()
        .get(&head)
        .ok_or_else(|| format!("no decoder for {head}"))?(&plain)?;
    pairs.sort_unstable();
    pairs.dedup();
    masks.sort_unstable();
    masks.dedup();
    Ok(Box::new(PairCall {
        name: format!("Reg::{api}"),
        width,
        pairs,
        masks,
        inner,
    }))
}

impl PairCall {
    fn run(&self, cx: &mut Ctx) -> Result<Flow, String> {
        let width = self.width;
        let file = cx.core.reg_file.get_or_insert_with(|| RegFile::new(width));
        if file.width() != width {
            return Err(format!(
                "a register width of {width} bytes in a file of {}",
                file.width()
            ));
        }
        for &n in &self.pairs {
            let wide = join(&file.vreg(n).clone(), &file.vreg(n + 1).clone());
            *file.vreg(n) = wide;
        }
        let mut before = Vec::new();
        for &m in &self.masks {
            let saved = file.mask(m).clone();
            let wide = widen_mask(&saved);
            *file.mask(m) = wide.clone();
            before.push((saved, wide));
        }
        let flow = self.inner.exec(cx);
        let file = cx.core.reg_file.get_or_insert_with(|| RegFile::new(width));
        for &n in &self.pairs {
            let wide = file.vreg(n).clone();
            if wide.bytes.len() != 2 * width {
                return Err(format!(
                    "{} left a pair register of {} bytes",
                    self.name,
                    wide.bytes.len()
                ));
            }
            let (lo, hi) = split(&wide, width);
            *file.vreg(n) = lo;
            *file.vreg(n + 1) = hi;
        }
        for (&m, (saved, wide)) in self.masks.iter().zip(before) {
            let now = file.mask(m).clone();
            *file.mask(m) = if now == wide { saved } else { narrow_mask(&now) };
        }
        Ok(flow)
    }
}

impl ApiOp for PairCall {
    fn pipe(&self) -> Pipe {
        self.inner.pipe()
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let result = self.run(cx);
        flow_or_not_modelled(cx, &self.name, result)
    }
}

/// Every register call's `pair` form (after the plain forms are registered).
pub fn register(r: &mut Registry) {
    for head in r.heads() {
        if let Some(api) = head.strip_prefix("Reg::").and_then(|h| h.strip_suffix(".plain")) {
            if PAIRABLE.contains(&api) {
                r.add(&format!("Reg::{api}.pair"), decode);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vector::reg::mask::update_mask;
    use crate::vector::reg::ops::{self, MergeMode, RegBinOp};
    use crate::vector::reg::test_regs::W;

    fn pair_of(values: &[i64]) -> (VReg, VReg) {
        let mut wide = VReg::zeroed(2 * W);
        for (i, v) in values.iter().enumerate() {
            wide.set(DType::I64, i, *v as u64);
        }
        split(&wide, W)
    }

    #[test]
    fn a_pair_holds_the_low_words_in_reg0_and_the_high_in_reg1() {
        // RegTensor.md: reg[0] the low 32 bits of the 64 b64 elements, reg[1] the high 32 bits
        let (lo, hi) = pair_of(&[0x1_0000_0002, -1, 5]);
        assert_eq!(lo.get(DType::U32, 0), 2);
        assert_eq!(hi.get(DType::U32, 0), 1);
        assert_eq!(lo.get(DType::U32, 1), 0xffff_ffff);
        assert_eq!(hi.get(DType::U32, 1), 0xffff_ffff);
        assert_eq!((lo.get(DType::U32, 2), hi.get(DType::U32, 2)), (5, 0));
        assert_eq!(join(&lo, &hi).get(DType::I64, 1) as i64, -1);
        assert_eq!(join(&lo, &hi).lanes(DType::I64), 64);
    }

    #[test]
    fn a_b32_mask_selects_the_64_bit_elements_of_its_lanes() {
        // UpdateMask<int64_t, RegTraitNumTwo>(3) is plt_b32(3): elements 0..3 of the pair
        let mut n = 3;
        let m = update_mask(W, DType::U32, &mut n);
        let wide = widen_mask(&m);
        assert_eq!(wide.bits.len(), 2 * W);
        assert!((0..3).all(|i| wide.active(DType::I64, i)));
        assert!(!wide.active(DType::I64, 3));
        assert_eq!(narrow_mask(&wide), m);
        // a 64-bit max with a carry into the high word: 0xffff_ffff + 1 over the halves
        let (alo, ahi) = pair_of(&[0xffff_ffff, -7, 9, 100]);
        let (blo, bhi) = pair_of(&[1, 3, -9, 1]);
        let mut dst = VReg::zeroed(2 * W);
        let (a, b) = (join(&alo, &ahi), join(&blo, &bhi));
        ops::binary(RegBinOp::Add, DType::I64, &mut dst, &a, &b, &wide, MergeMode::Zeroing).unwrap();
        let (lo, hi) = split(&dst, W);
        assert_eq!((lo.get(DType::U32, 0), hi.get(DType::U32, 0)), (0, 1));
        assert_eq!(join(&lo, &hi).get(DType::I64, 1) as i64, -4);
        assert_eq!(join(&lo, &hi).get(DType::I64, 2) as i64, 0);
        assert_eq!(join(&lo, &hi).get(DType::I64, 3), 0); // outside the mask: ZEROING
    }
}
