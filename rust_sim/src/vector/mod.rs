//! Vector instructions (operands in UB) and the repeat/mask engine they share.
//!
//! A vector instruction comes in count form (`Add(dst, a, b, count)`: `count` contiguous elements, Counter mode
//! internally) or repeat form (`Add(dst, a, b, mask, repeat, params)`): `repeat` repeats of 256 bytes, 8
//! blocks of 32 bytes each, with block and repeat strides per operand, and a mask choosing the lanes of each
//! repeat (continuous: the first N; bit mask: bit i = lane i). Masked-off lanes keep their old data. In
//! Counter mode (SetMaskCount) the mask is an element count and the repeat count is ignored.
//!
//! The engine turns either form into runs of contiguous elements (`Run`): one per block span of set lanes,
//! merged when strides are contiguous, so the families below work on slices, not lanes. It checks every
//! operand's footprint against its memory before anything is written, propagates the initialised-ness of
//! each element, and checks writes against the live buffers.
//!
//! The engine is plan.rs (form -> runs), footprint.rs (the operands' checks) and elementwise.rs (the kernel
//! driver); the families are the other modules.

pub mod antiquant;
pub mod binary;
pub mod cast;
pub mod compare;
pub mod cumsum;
pub mod dequant;
pub mod dropout;
pub mod dup;
pub mod elem;
pub mod fma;
pub mod gather;
pub mod high_level;
pub mod layer_norm;
pub mod mask;
pub mod normalize;
pub mod philox;
pub mod proposal;
pub mod quant;
pub mod reduce;
pub mod reduce_all_any;
pub mod reg;
pub mod rms_norm;
pub mod select_bytes;
pub mod sizes;
pub mod softmax;
pub mod softmax_adjust;
pub mod softmax_flash;
pub mod softmax_flash_v1;
pub mod softmax_grad;
pub mod softmax_simple;
pub mod sort;
pub mod topk;
pub mod transdata;
pub mod unary;
pub mod vcadd;
pub mod welford;
pub mod welford_finalize;
pub mod xor;

mod elementwise;
mod footprint;
mod plan;

pub use elementwise::{elementwise, elementwise_absorbing, Kernel};
pub use footprint::{check_count_fits, check_footprint};
pub use plan::{plan, Form, Geom, MaskArg, Plan, Run, Stride};

use crate::api::Registry;
use crate::core::Ctx;
use crate::dtype::DType;
use crate::memory::{MemKind, Space};

pub const REPEAT_BYTES: i64 = 256;
pub const BLOCK_BYTES: i64 = 32;

/// Reads `n` elements of type `t` at byte `at` of local memory `mem` as f32, chunk by chunk; whether all were
/// initialised. The high-level APIs and the reductions compute on these working arrays.
pub(crate) fn read_local_f32(cx: &mut Ctx, mem: MemKind, at: usize, n: usize, t: DType) -> (Vec<f32>, bool) {
    let local = cx.local(mem);
    let sz = t.size();
    let mut out = vec![0f32; n];
    for (c, chunk) in out.chunks_mut(elem::CHUNK).enumerate() {
        let off = at + c * elem::CHUNK * sz;
        elem::load_f32(t, &local.data.as_slice()[off..off + chunk.len() * sz], chunk);
    }
    let init = crate::memory::all_ones(&local.init[at..at + n * sz]);
    (out, init)
}

/// The first `n` elements of local tensor handle `h` as f32 (see read_local_f32), after the range check that
/// reports an access past the tensor for `what`; None where that check stopped it or `h` is not local memory.
pub(crate) fn read_tensor_f32(cx: &mut Ctx, h: u32, n: usize, t: DType, what: &str) -> Option<(Vec<f32>, bool)> {
    let sz = t.size();
    let hd = cx.handle(h);
    let at = cx.range(hd, 0, (n * sz) as i64, false, sz, what)?;
    let Space::Local(mem) = hd.space else {
        return None;
    };
    Some(read_local_f32(cx, mem, at, n, t))
}

/// Geometry of the tensors named `names` in handle registers `hs`, with element type sizes.
pub fn geoms(cx: &Ctx, hs: &[u32], types: &[DType]) -> Vec<Geom> {
    hs.iter()
        .zip(types)
        .map(|(h, t)| Geom {
            h: cx.handle(*h),
            size: t.size(),
        })
        .collect()
}

pub fn register(r: &mut Registry) {
    binary::register(r);
    reg::calls::register(r);
    reg::transfer::register(r);
    reg::pair::register(r); // after every plain register call: their RegTraitNumTwo forms
    unary::register(r);
    dup::register(r);
    cast::register(r);
    compare::register(r);
    reduce::register(r);
    reduce_all_any::register(r);
    gather::register(r);
    mask::register(r);
    high_level::register(r);
    softmax::register(r);
    cumsum::register(r);
    vcadd::register(r);
    select_bytes::register(r);
    softmax_grad::register(r);
    softmax_flash::register(r);
    transdata::register(r);
    proposal::register(r);
    rms_norm::register(r);
    layer_norm::register(r);
    normalize::register(r);
    welford::register(r);
    welford_finalize::register(r);
    softmax_adjust::register(r);
    softmax_simple::register(r);
    sort::register(r);
    topk::register(r);
    dequant::register(r);
    quant::register(r);
    xor::register(r);
    antiquant::register(r);
    dropout::register(r);
    philox::register(r);
    fma::register(r);
}
