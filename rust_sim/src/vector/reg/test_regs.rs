//! Test helpers shared by the register modules' unit tests: a 256-byte register of floats and its readback.

use crate::dtype::DType;
use crate::vector::reg::file::VReg;

/// The register width the unit tests use (the 950's 256-byte vector register).
pub(crate) const W: usize = 256;

/// A W-byte register whose first elements are `values` as f32, the rest 0.
pub(crate) fn floats(values: &[f32]) -> VReg {
    let mut r = VReg::zeroed(W);
    for (i, v) in values.iter().enumerate() {
        r.set(DType::F32, i, v.to_bits() as u64);
    }
    r
}

/// Element `i` of `r` read as f32.
pub(crate) fn f(r: &VReg, i: usize) -> f32 {
    f32::from_bits(r.get(DType::F32, i) as u32)
}
