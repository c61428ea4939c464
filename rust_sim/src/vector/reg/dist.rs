//! Load and store distributions of the register API (`LoadAlign<T, LoadDist::...>`, `StoreAlign<T,
//! StoreDist::...>`, MicroAPI's register `DataCopy` forms): how the bytes of UB and of a vector register
//! correspond when the layout is not the plain one.
//!
//! Facts (asc-devkit; the enumerators are reg_compute/kernel_reg_compute_utils.h:156-201, the dists each
//! direction accepts dav_3510/kernel_reg_compute_datacopy_load_impl.h:31-45 and _store_impl.h:31-46):
//! - `DIST_UNPACK_B16`: the load reads half a register of 16-bit elements and element j lands in the low half
//!   of 32-bit lane j (examples/.../02_reg_vector_compute/cast/cast.asc:40-43: "loads VL/2 ... unpacks,
//!   x[i*2]", and a `RegLayout::ZERO` Cast then reads the even 16-bit lanes). UNPACK_B8 (8 -> 16 bits),
//!   UNPACK_B32 (32 -> 64) and UNPACK4_B8 (8 -> 32 bits, a quarter register) are the same widening at the
//!   other widths. What the other part of each lane holds the sources do not say: zero here, and the kernels
//!   that use these loads read only the low part (RegLayout::ZERO).
//! - `DIST_BRC_B8/B16/B32`: one element at the address, broadcast to every lane of its width (the
//!   `CopyInBroadcastVF` example, examples/.../00_data_movement/reg_load_store_align/ld_st_reg_align.asc:108-121).
//! - `DIST_PACK_B32`: the store keeps the low 16 bits of each 32-bit lane and writes them contiguously
//!   (cast.asc:62-66: "the low half bits of the b32 format stored contiguously, y[i*2] in turn");
//!   PACK_B16 (low byte of each 16-bit lane), PACK_B64 (low 32 bits of each 64-bit lane) and PACK4_B32 (low
//!   byte of each 32-bit lane, the inverse of UNPACK4_B8) likewise.
//! - `DIST_NORM_B8/B16/B32`: the plain store, the mask read at that width (`DIST_NORM` resolves to the width
//!   of T, dav_3510/kernel_reg_compute_common_impl.h:33-49). A lane of the distribution's width is stored
//!   when the mask bit of its first byte lane is set, the rule every predicated instruction follows here
//!   (mask.rs); `DIST_NORM_B32` on 16-bit elements therefore stores pairs of them.
//! - `DIST_FIRST_ELEMENT_B8/B16/B32`: only lane 0 of that width is stored, when the mask sets it.
//!
//! - `DIST_DINTLV_B8/B16/B32` (the two-register load): two registers' bytes from the address, element 2j of
//!   that width into lane j of the first register and element 2j+1 into lane j of the second. The library
//!   itself loads a 64-bit RegTensor of two registers this way, its low 32-bit words into `reg[0]` and the
//!   high ones into `reg[1]` (dav_3510/kernel_reg_compute_datacopy_load_impl.h:60-66), and complex32's real
//!   and imaginary halves with DINTLV_B16 (:72-78).
//!
//! - `DIST_E2B_B16/B32`, `DIST_BLK`, `DIST_US_B8/B16`, `DIST_DS_B8/B16` (asc-devkit docs .../Reg数据搬入/
//!   连续对齐搬入（LoadAlign）.md, table 3): E2B loads VL / 32 elements and broadcasts each to one 32-byte block
//!   (lane i of the register is element i / (32 / size)); BLK reads one 32-byte block and repeats it over the
//!   register; US loads VL / 2 bytes and repeats each element twice (lane i is element i / 2); DS loads 2 * VL
//!   bytes and keeps every other element (lane i is element 2i).
//!
//! - `DIST_INTLV_B8/B16/B32` (the two-register store, [`interleave`]): the inverse of DINTLV, lane j of the first
//!   register to element 2j of that width and lane j of the second to element 2j+1, `2 * VL` bytes. The store
//!   ignores its mask (连续对齐搬出（StoreAlign）.md, table of StoreDist: "双搬出模式 ... 忽略mask ... dst长度需要为
//!   2*VL").
//!
//! Not modelled, each a named error: the channel split/merge forms (SPLT*, MRG*).

use crate::dtype::DType;
use crate::vector::reg::file::VReg;
use crate::vector::reg::mask::MaskReg;

/// A load distribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadDist {
    /// the register's bytes as they are in UB
    Norm,
    /// one element of `bytes` bytes into every lane of that width
    Brc { bytes: usize },
    /// elements of `bytes` bytes, each into the low part of a lane `factor` times wider
    Unpack { bytes: usize, factor: usize },
    /// VL / 32 elements of `bytes` bytes, each broadcast to a 32-byte block (E2B)
    ElemToBlock { bytes: usize },
    /// one 32-byte block repeated over the register (BLK)
    Block,
    /// elements of `bytes` bytes, each into two lanes (US: 2x up-sampling of VL / 2 bytes)
    UpSample { bytes: usize },
    /// every other element of `bytes` bytes of 2 * VL (DS: 2x down-sampling)
    DownSample { bytes: usize },
}

/// A store distribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreDist {
    /// every lane of `bytes` bytes the mask sets, at its own offset
    Norm { bytes: usize },
    /// lane 0 of `bytes` bytes only
    FirstElement { bytes: usize },
    /// the low `bytes / factor` bytes of each lane of `bytes` bytes, written one after another
    Pack { bytes: usize, factor: usize },
}

fn bare(name: &str) -> &str {
    let name = name.rsplit("::").next().unwrap_or(name);
    name.strip_prefix("DIST_").unwrap_or(name)
}

fn unmodelled(kind: &str, name: &str) -> String {
    format!(
        "{kind}::DIST_{} is not modelled (the headers do not say which bytes go where)",
        bare(name)
    )
}

impl LoadDist {
    /// The distribution of enumerator `name` (`DIST_UNPACK_B16`, `LoadDist::DIST_BRC_B32`, `UNPACK_B16`).
    pub fn from_name(name: &str) -> Result<LoadDist, String> {
        Ok(match bare(name) {
            "NORM" => LoadDist::Norm,
            "BRC_B8" => LoadDist::Brc { bytes: 1 },
            "BRC_B16" => LoadDist::Brc { bytes: 2 },
            "BRC_B32" => LoadDist::Brc { bytes: 4 },
            "UNPACK_B8" => LoadDist::Unpack { bytes: 1, factor: 2 },
            "UNPACK_B16" => LoadDist::Unpack { bytes: 2, factor: 2 },
            "UNPACK_B32" => LoadDist::Unpack { bytes: 4, factor: 2 },
            "UNPACK4_B8" => LoadDist::Unpack { bytes: 1, factor: 4 },
            "E2B_B16" => LoadDist::ElemToBlock { bytes: 2 },
            "E2B_B32" => LoadDist::ElemToBlock { bytes: 4 },
            "BLK" => LoadDist::Block,
            "US_B8" => LoadDist::UpSample { bytes: 1 },
            "US_B16" => LoadDist::UpSample { bytes: 2 },
            "DS_B8" => LoadDist::DownSample { bytes: 1 },
            "DS_B16" => LoadDist::DownSample { bytes: 2 },
            _ => return Err(unmodelled("LoadDist", name)),
        })
    }

    /// The UB bytes a load of a `width`-byte register reads from its address.
    pub fn bytes_read(self, width: usize) -> usize {
        match self {
            LoadDist::Norm => width,
            LoadDist::Brc { bytes } => bytes,
            LoadDist::Unpack { factor, .. } => width / factor,
            LoadDist::ElemToBlock { bytes } => width / 32 * bytes,
            LoadDist::Block => 32,
            LoadDist::UpSample { .. } => width / 2,
            LoadDist::DownSample { .. } => 2 * width,
        }
    }

    /// The register a load makes of `ub` (the bytes from the address on, at least `bytes_read`).
    pub fn load(self, ub: &[u8], width: usize) -> Result<VReg, String> {
        let need = self.bytes_read(width);
        if ub.len() < need {
            return Err(format!(
                "the load reads {need} bytes, {} past the end of the buffer",
                need - ub.len()
            ));
        }
        let mut reg = VReg::zeroed(width);
        match self {
            LoadDist::Norm => reg.bytes.copy_from_slice(&ub[..width]),
            LoadDist::Brc { bytes } => {
                for lane in reg.bytes.chunks_exact_mut(bytes) {
                    lane.copy_from_slice(&ub[..bytes]);
                }
            }
            LoadDist::Unpack { bytes, factor } => {
                let wide = bytes * factor;
                for (j, lane) in reg.bytes.chunks_exact_mut(wide).enumerate() {
                    lane[..bytes].copy_from_slice(&ub[j * bytes..(j + 1) * bytes]);
                }
            }
            LoadDist::ElemToBlock { bytes } => {
                for (i, lane) in reg.bytes.chunks_exact_mut(bytes).enumerate() {
                    let k = i / (32 / bytes);
                    lane.copy_from_slice(&ub[k * bytes..(k + 1) * bytes]);
                }
            }
            LoadDist::Block => {
                for (b, byte) in reg.bytes.iter_mut().enumerate() {
                    *byte = ub[b % 32];
                }
            }
            LoadDist::UpSample { bytes } => {
                for (i, lane) in reg.bytes.chunks_exact_mut(bytes).enumerate() {
                    lane.copy_from_slice(&ub[(i / 2) * bytes..(i / 2 + 1) * bytes]);
                }
            }
            LoadDist::DownSample { bytes } => {
                for (i, lane) in reg.bytes.chunks_exact_mut(bytes).enumerate() {
                    lane.copy_from_slice(&ub[2 * i * bytes..(2 * i + 1) * bytes]);
                }
            }
        }
        Ok(reg)
    }
}

/// `LoadAlign<T, LoadDist::DIST_DINTLV_B<8 * bytes>>(dst0, dst1, addr)`: the element width of a two-register
/// deinterleaving load, or None for any other distribution.
pub fn deinterleave_width(name: &str) -> Option<usize> {
    match bare(name) {
        "DINTLV_B8" => Some(1),
        "DINTLV_B16" => Some(2),
        "DINTLV_B32" => Some(4),
        _ => None,
    }
}

/// The two registers a deinterleaving load makes of `ub` (`2 * width` bytes from the address on): even
/// elements of `bytes` bytes into the first, odd ones into the second.
pub fn deinterleave(ub: &[u8], width: usize, bytes: usize) -> Result<(VReg, VReg), String> {
    if ub.len() < 2 * width {
        return Err(format!(
            "the load reads {} bytes, {} past the end of the buffer",
            2 * width,
            2 * width - ub.len()
        ));
    }
    let (mut even, mut odd) = (VReg::zeroed(width), VReg::zeroed(width));
    for (k, elem) in ub[..2 * width].chunks_exact(bytes).enumerate() {
        let dst = if k.is_multiple_of(2) { &mut even } else { &mut odd };
        let j = k / 2;
        dst.bytes[j * bytes..(j + 1) * bytes].copy_from_slice(elem);
    }
    Ok((even, odd))
}

/// `StoreAlign<T, StoreDist::DIST_INTLV_B<8 * bytes>>(addr, src0, src1, mask)`: the element width of a
/// two-register interleaving store, or None for any other distribution.
pub fn interleave_width(name: &str) -> Option<usize> {
    match bare(name) {
        "INTLV_B8" => Some(1),
        "INTLV_B16" => Some(2),
        "INTLV_B32" => Some(4),
        _ => None,
    }
}

/// The `2 * width` bytes an interleaving store writes: lane j of `even` (elements of `bytes` bytes) at element
/// 2j, lane j of `odd` at 2j+1 ([`deinterleave`] undone).
pub fn interleave(even: &VReg, odd: &VReg, bytes: usize) -> Vec<u8> {
    let width = even.bytes.len();
    let mut out = vec![0u8; 2 * width];
    for (j, (a, b)) in even
        .bytes
        .chunks_exact(bytes)
        .zip(odd.bytes.chunks_exact(bytes))
        .enumerate()
    {
        out[2 * j * bytes..(2 * j + 1) * bytes].copy_from_slice(a);
        out[(2 * j + 1) * bytes..(2 * j + 2) * bytes].copy_from_slice(b);
    }
    out
}

impl StoreDist {
    /// The distribution of enumerator `name` for elements of `t` (`DIST_NORM` is the plain store of T's width).
    pub fn from_name(name: &str, t: DType) -> Result<StoreDist, String> {
        Ok(match bare(name) {
            "NORM" => StoreDist::Norm { bytes: t.size().min(4) },
            "NORM_B8" => StoreDist::Norm { bytes: 1 },
            "NORM_B16" => StoreDist::Norm { bytes: 2 },
            "NORM_B32" => StoreDist::Norm { bytes: 4 },
            "FIRST_ELEMENT_B8" => StoreDist::FirstElement { bytes: 1 },
            "FIRST_ELEMENT_B16" => StoreDist::FirstElement { bytes: 2 },
            "FIRST_ELEMENT_B32" => StoreDist::FirstElement { bytes: 4 },
            "PACK_B16" => StoreDist::Pack { bytes: 2, factor: 2 },
            "PACK_B32" => StoreDist::Pack { bytes: 4, factor: 2 },
            "PACK_B64" => StoreDist::Pack { bytes: 8, factor: 2 },
            "PACK4_B32" => StoreDist::Pack { bytes: 4, factor: 4 },
            _ => return Err(unmodelled("StoreDist", name)),
        })
    }

    /// The writes a store of `src` under `mask` makes: (byte offset from the address, bytes), in address
    /// order; a lane the mask does not set writes nothing.
    pub fn writes(self, src: &VReg, mask: &MaskReg) -> Vec<(usize, Vec<u8>)> {
        let set = |lane: usize, bytes: usize| mask.bits.get(lane * bytes).copied().unwrap_or(false);
        let width = src.bytes.len();
        match self {
            StoreDist::Norm { bytes } => (0..width / bytes)
                .filter(|&i| set(i, bytes))
                .map(|i| (i * bytes, src.bytes[i * bytes..(i + 1) * bytes].to_vec()))
                .collect(),
            StoreDist::FirstElement { bytes } => match set(0, bytes) {
                true => vec![(0, src.bytes[..bytes].to_vec())],
                false => Vec::new(),
            },
            StoreDist::Pack { bytes, factor } => {
                let keep = bytes / factor;
                (0..width / bytes)
                    .filter(|&i| set(i, bytes))
                    .map(|i| (i * keep, src.bytes[i * bytes..i * bytes + keep].to_vec()))
                    .collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ub(n: usize) -> Vec<u8> {
        (0..n).map(|i| i as u8).collect()
    }

    #[test]
    fn unpack_b16_puts_half_j_in_the_low_half_of_word_j() {
        // 256-byte register: 64 halves read (128 bytes); half j = bytes 2j, 2j+1 -> bytes 4j, 4j+1 of the register
        let d = LoadDist::from_name("LoadDist::DIST_UNPACK_B16").unwrap();
        assert_eq!(d.bytes_read(256), 128);
        let r = d.load(&ub(128), 256).unwrap();
        assert_eq!(&r.bytes[..8], &[0, 1, 0, 0, 2, 3, 0, 0]);
        assert_eq!(&r.bytes[252..], &[126, 127, 0, 0]);
        // read as 16-bit lanes: lane 2j holds half j, lane 2j+1 is 0
        assert_eq!(r.get(DType::U16, 6), 0x0706);
        assert_eq!(r.get(DType::U16, 7), 0);
        // a load with fewer than 128 bytes left before the end of UB is refused
        assert!(d.load(&ub(127), 256).unwrap_err().contains("1 past the end"));
    }

    #[test]
    fn unpack4_b8_and_unpack_b8_widen_bytes() {
        let r = LoadDist::from_name("DIST_UNPACK4_B8")
            .unwrap()
            .load(&ub(64), 256)
            .unwrap();
        assert_eq!(&r.bytes[..12], &[0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]);
        assert_eq!(r.get(DType::U32, 63), 63);
        let r = LoadDist::from_name("DIST_UNPACK_B8")
            .unwrap()
            .load(&ub(128), 256)
            .unwrap();
        assert_eq!(&r.bytes[..6], &[0, 0, 1, 0, 2, 0]);
    }

    #[test]
    fn brc_b32_repeats_the_first_word() {
        let d = LoadDist::from_name("DIST_BRC_B32").unwrap();
        assert_eq!(d.bytes_read(256), 4);
        let r = d.load(&[9, 8, 7, 6, 5], 256).unwrap();
        assert!(r.bytes.chunks(4).all(|w| w == [9, 8, 7, 6]));
        let r = LoadDist::from_name("DIST_BRC_B16").unwrap().load(&[1, 2], 256).unwrap();
        assert!(r.bytes.chunks(2).all(|w| w == [1, 2]));
    }

    #[test]
    fn pack_b32_keeps_the_low_halves_of_the_active_words() {
        let mut src = VReg::zeroed(256);
        src.bytes.copy_from_slice(&ub(256));
        // 3 float lanes active: words 0..3 -> low halves at bytes 0..6 (0,1 | 4,5 | 8,9)
        let m = MaskReg::first(256, DType::F32, 3);
        let w = StoreDist::from_name("DIST_PACK_B32", DType::F16)
            .unwrap()
            .writes(&src, &m);
        assert_eq!(w, vec![(0, vec![0, 1]), (2, vec![4, 5]), (4, vec![8, 9])]);
        // all 64 words: 128 bytes, the last the low half of word 63
        let all = MaskReg::first(256, DType::F32, 64);
        let w = StoreDist::from_name("DIST_PACK_B32", DType::F16)
            .unwrap()
            .writes(&src, &all);
        assert_eq!((w.len(), w[63].clone()), (64, (126, vec![252, 253])));
    }

    #[test]
    fn pack4_b32_and_pack_b16_keep_the_low_bytes() {
        let mut src = VReg::zeroed(256);
        src.bytes.copy_from_slice(&ub(256));
        let all32 = MaskReg::first(256, DType::F32, 64);
        let w = StoreDist::from_name("DIST_PACK4_B32", DType::U8)
            .unwrap()
            .writes(&src, &all32);
        assert_eq!(&w[..3], &[(0, vec![0]), (1, vec![4]), (2, vec![8])]);
        let all16 = MaskReg::first(256, DType::F16, 128);
        let w = StoreDist::from_name("DIST_PACK_B16", DType::U8)
            .unwrap()
            .writes(&src, &all16);
        assert_eq!((w.len(), w[5].clone()), (128, (5, vec![10])));
    }

    #[test]
    fn norm_b32_on_16_bit_elements_stores_the_pairs_a_b16_mask_starts() {
        let mut src = VReg::zeroed(256);
        src.bytes.copy_from_slice(&ub(256));
        // UpdateMask<int16_t>(44): byte lanes 0..88 set; as 32-bit lanes, 0..22 (byte 4*21 = 84 set, 88 clear)
        let m = MaskReg::first(256, DType::I16, 44);
        let w = StoreDist::from_name("StoreDist::DIST_NORM_B32", DType::I16)
            .unwrap()
            .writes(&src, &m);
        assert_eq!(w.len(), 22);
        assert_eq!(w[21], (84, vec![84, 85, 86, 87]));
        // an odd count, 45: the 23rd word (bytes 88..92) starts at a set lane and is stored whole
        let m = MaskReg::first(256, DType::I16, 45);
        let w = StoreDist::from_name("DIST_NORM_B32", DType::I16)
            .unwrap()
            .writes(&src, &m);
        assert_eq!(w.last().unwrap(), &(88, vec![88, 89, 90, 91]));
        // DIST_NORM of 16-bit elements is NORM_B16: element by element
        let w = StoreDist::from_name("DIST_NORM", DType::I16).unwrap().writes(&src, &m);
        assert_eq!((w.len(), w[44].clone()), (45, (88, vec![88, 89])));
    }

    #[test]
    fn first_element_b32_stores_lane_0_only_when_set() {
        let mut src = VReg::zeroed(256);
        src.bytes.copy_from_slice(&ub(256));
        let d = StoreDist::from_name("DIST_FIRST_ELEMENT_B32", DType::F32).unwrap();
        let w = d.writes(&src, &MaskReg::first(256, DType::F32, 64));
        assert_eq!(w, vec![(0, vec![0, 1, 2, 3])]);
        assert!(d.writes(&src, &MaskReg::none(256)).is_empty());
    }

    #[test]
    fn dintlv_b16_splits_even_and_odd_halves() {
        // 512 bytes: halves 0..256; even halves 0, 2, .. 254 into the first register, odd ones into the second
        let bytes: Vec<u8> = (0..512u32).map(|i| (i % 251) as u8).collect();
        assert_eq!(deinterleave_width("LoadDist::DIST_DINTLV_B16"), Some(2));
        let (a, b) = deinterleave(&bytes, 256, 2).unwrap();
        assert_eq!(&a.bytes[..4], &[0, 1, 4, 5]);
        assert_eq!(&b.bytes[..4], &[2, 3, 6, 7]);
        // half 255 (bytes 510, 511 = 510 % 251, 511 % 251) is lane 127 of the second register
        assert_eq!(&b.bytes[254..], &[8, 9]);
        // b32: a 64-bit element's low word into the first register, its high word into the second
        let (lo, hi) = deinterleave(&bytes, 256, 4).unwrap();
        assert_eq!(
            (&lo.bytes[..4], &hi.bytes[..4]),
            (&[0u8, 1, 2, 3][..], &[4u8, 5, 6, 7][..])
        );
        assert!(deinterleave(&bytes[..500], 256, 2)
            .unwrap_err()
            .contains("12 past the end"));
        assert_eq!(deinterleave_width("DIST_INTLV_B16"), None);
    }

    #[test]
    fn e2b_blk_us_ds_follow_the_load_align_page() {
        let ub: Vec<u8> = (0..=255u8).chain(0..=255u8).collect();
        // E2B_B32: 8 words, each over one 32-byte block (8 lanes)
        let r = LoadDist::from_name("DIST_E2B_B32").unwrap().load(&ub, 256).unwrap();
        assert_eq!((r.get(DType::U32, 0), r.get(DType::U32, 7)), (0x0302_0100, 0x0302_0100));
        assert_eq!(
            (r.get(DType::U32, 8), r.get(DType::U32, 63)),
            (0x0706_0504, 0x1f1e_1d1c)
        );
        assert_eq!(LoadDist::ElemToBlock { bytes: 4 }.bytes_read(256), 32);
        let r = LoadDist::from_name("DIST_E2B_B16").unwrap().load(&ub, 256).unwrap();
        assert_eq!((r.get(DType::U16, 15), r.get(DType::U16, 16)), (0x0100, 0x0302));
        let r = LoadDist::from_name("DIST_BLK").unwrap().load(&ub, 256).unwrap();
        assert_eq!((r.bytes[31], r.bytes[32], r.bytes[255]), (31, 0, 31));
        let r = LoadDist::from_name("DIST_US_B16").unwrap().load(&ub, 256).unwrap();
        assert_eq!(
            (r.get(DType::U16, 0), r.get(DType::U16, 1), r.get(DType::U16, 2)),
            (0x0100, 0x0100, 0x0302)
        );
        let r = LoadDist::from_name("DIST_DS_B8").unwrap().load(&ub, 256).unwrap();
        assert_eq!((r.bytes[1], r.bytes[127], r.bytes[128]), (2, 254, 0));
        assert!(LoadDist::from_name("DIST_DS_B8")
            .unwrap()
            .load(&ub[..300], 256)
            .is_err());
    }

    #[test]
    fn the_distributions_the_headers_leave_open_are_named() {
        let e = LoadDist::from_name("LoadDist::DIST_SPLT2CHN_B16").unwrap_err();
        assert!(e.contains("LoadDist::DIST_SPLT2CHN_B16 is not modelled"), "{e}");
        let e = StoreDist::from_name("DIST_MRG2CHN_B16", DType::F16).unwrap_err();
        assert!(e.contains("StoreDist::DIST_MRG2CHN_B16 is not modelled"), "{e}");
    }

    #[test]
    fn the_interleaving_store_undoes_the_deinterleaving_load() {
        let ub: Vec<u8> = (0..=255u8).chain(0..=255u8).collect();
        for (name, bytes) in [
            ("DIST_INTLV_B8", 1),
            ("StoreDist::DIST_INTLV_B16", 2),
            ("DIST_INTLV_B32", 4),
        ] {
            assert_eq!(interleave_width(name), Some(bytes));
            let (even, odd) = deinterleave(&ub, 256, bytes).unwrap();
            assert_eq!(interleave(&even, &odd, bytes), ub, "{name}");
        }
        // b32: lane 0 of the first register at bytes 0..4, lane 0 of the second at 4..8, lane 1 of the first at 8..
        let mut a = VReg::zeroed(256);
        let mut b = VReg::zeroed(256);
        a.set(DType::U32, 0, 0x11);
        a.set(DType::U32, 1, 0x33);
        b.set(DType::U32, 0, 0x22);
        let out = interleave(&a, &b, 4);
        assert_eq!((out[0], out[4], out[8], out[12]), (0x11, 0x22, 0x33, 0));
        assert_eq!(interleave_width("DIST_DINTLV_B32"), None);
    }
}
