//! The unaligned register loads and stores (`LoadUnAlignPre` + `LoadUnAlign`, `StoreUnAlign` +
//! `StoreUnAlignPost`; MicroAPI's `DataCopyUnAlignPre` / `DataCopyUnAlign` / `DataCopyUnAlignPost`).
//!
//! Facts (asc-devkit): `LoadUnAlign(dst, ureg, addr, stride)` fills the register from an address of any
//! alignment and, in its default POST_MODE_UPDATE, steps the address by `stride` elements
//! (reg_compute/kernel_reg_compute_datacopy_intf.h:94-99; the examples step it by one register of elements,
//! examples/.../00_data_movement/reg_load_store_unalign/ld_st_reg_unalign.asc:71-76). `StoreUnAlign(addr, src,
//! ureg, count)` stores the first `count` elements of `src` at `addr` and steps it by `count`: the library's
//! `Store(addr, src, count)` is exactly StoreUnAlign(count) followed by StoreUnAlignPost(addr, ureg, 0)
//! (dav_3510/kernel_reg_compute_datacopy_store_impl.h:443-450), and the examples lay consecutive stores end to
//! end (ld_st_reg_unalign.asc:159-166, eight reduced elements per register).
//!
//! The model: the bytes are written by StoreUnAlign itself, and the Pre / Post calls move nothing. The
//! hardware holds a store's last partial 32-byte block in the alignment register until the next store or the
//! Post call writes it; a program that reads those bytes back before its Post would see them here earlier
//! than the hardware shows them. The forms whose count or offset comes from an AddrReg or a special register
//! (vstu, vstur, vldu with `inc`) are reported by the lowering as not modelled.

use crate::dtype::DType;
use crate::vector::reg::file::VReg;

/// The bytes `StoreUnAlign` writes: the first `count` elements of `t` in `src`; more than the register holds
/// is an error naming both counts.
pub fn store_count(src: &VReg, t: DType, count: usize) -> Result<Vec<u8>, String> {
    let lanes = src.lanes(t);
    if count > lanes {
        return Err(format!(
            "StoreUnAlign of {count} elements, more than the {lanes} a register of {} holds",
            t.name()
        ));
    }
    Ok(src.bytes[..count * t.size()].to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_count_takes_the_first_elements() {
        let mut src = VReg::zeroed(256);
        src.bytes.iter_mut().enumerate().for_each(|(i, b)| *b = i as u8);
        // 3 halves: bytes 0..6
        assert_eq!(store_count(&src, DType::F16, 3).unwrap(), vec![0, 1, 2, 3, 4, 5]);
        // 8 floats (one ReduceDataBlock result per 32-byte block): 32 bytes
        assert_eq!(store_count(&src, DType::F32, 8).unwrap().len(), 32);
        assert!(store_count(&src, DType::F32, 0).unwrap().is_empty());
        let e = store_count(&src, DType::F32, 65).unwrap_err();
        assert!(e.contains("65 elements, more than the 64"), "{e}");
    }
}
