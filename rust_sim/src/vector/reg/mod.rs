//! The register-based SIMD unit of arch35 chips (Ascend 950, `__NPU_ARCH__` 3510): vector functions
//! (`__simd_vf__`, `__VEC_SCOPE__`) work on registers, not on UB tensors. A `RegTensor<T>` holds one vector
//! register of `GetVRegSize()` bytes (the chip file's `vector_register_bytes`), a `MaskReg` one predicate bit per
//! byte lane of that register; `LoadAlign` / `StoreAlign` move whole registers between UB and the register
//! file, and the arithmetic is predicated by a MaskReg (asc-devkit include/basic_api/reg_compute/*.h and
//! impl/basic_api/reg_compute/dav_3510/*.h).
//!
//! The functional model: a per-core register file ([`file::RegFile`]), the mask instructions ([`mask`]) and
//! the data-movement and arithmetic instructions ([`ops`]), compare / select / logic ([`cmpsel`]), Cast
//! ([`vconv`]), Reduce and Arange ([`reduce`]); [`calls`] and [`compute_calls`] decode the program's
//! `call Reg::*` instructions onto them.

pub mod calls;
pub mod cmpsel;
pub mod compute_calls;
pub mod ctrl;
pub mod dist;
pub mod file;
pub mod mask;
pub mod ops;
pub mod pair;
pub mod reduce;
pub mod relayout;
pub mod spr;
#[cfg(test)]
mod test_regs;
pub mod transfer;
pub mod unalign;
pub mod vconv;
