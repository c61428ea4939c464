//! Copies out of L0C through the fixpipe (PIPE_FIX): Fixpipe (FixpipeParamsV220 and the older FixpipeParams),
//! the DataCopy forms CO1 -> GM / L1 (DataCopyCO12DstParams with SetFixpipeNz2ndFlag and
//! SetFixpipePreQuantFlag), and SetFixPipeConfig's per-channel quantisation tensor.
//!
//! The source is an NZ matrix in L0C (float or int32): element (i, j) at `(j / 16) * srcStride * 16 + i * 16 +
//! j % 16` elements, srcStride counted in 16-element units. The destination is ND (NZ2ND, the CFG_ROW_MAJOR
//! default towards GM): row i at `i * dstStride` elements; or NZ (CFG_NZ, always towards L1): z-column j / 16 at
//! `(j / 16) * dstStride * 32` bytes, rows of 16 elements (with isChannelSplit, a float result: z-columns of 8).
//! ndNum matrices repeat this, `srcNdStride` 16-element units and `dstNdStride` elements apart.
//!
//! On the way each element is converted (quantPre, reluEn), as the devkit's 2201 pages give it:
//! NoQuant copies, F322F16 / F322BF16 round to nearest even; the scalar modes DEQF16 (int32 -> half), QF322B8_PRE
//! (float -> int8/uint8) and REQ8 (int32 -> int8/uint8) multiply by the scale held in bits [31:13] of the 64-bit
//! parameter (a float with a 10-bit mantissa), by 0 instead for negative values when ReLU is on, round, add the
//! 9-bit offset of bits [45:37] and saturate to int8 (bit 46 set) or uint8. The V* modes take the parameter of
//! column j from a uint64 tensor in L1.
//!
//! This file holds the quantisation modes and the per-element conversion; copy.rs the copy out of L0C,
//! params.rs the Fixpipe calls (FixpipeParamsV220, FixpipeParams), co1.rs DataCopy CO1 and the fixpipe's
//! registers.

mod co1;
mod copy;
mod params;

use co1::{decode_copy, decode_set};
pub use copy::{fixpipe, FixOut};
use params::{decode_old, decode_v220};

use crate::api::Registry;
use crate::dtype::DType;
use half::{bf16, f16};

/// QuantMode_t in its C numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quant {
    None,
    F322F16,
    F322BF16,
    Deqf16,
    Vdeqf16,
    Qf322b8,
    Vqf322b8,
    Req8,
    Vreq8,
}

impl Quant {
    pub fn from_index(i: u64) -> Option<Quant> {
        Some(match i {
            0 => Quant::None,
            1 => Quant::F322F16,
            2 => Quant::F322BF16,
            3 => Quant::Deqf16,
            4 => Quant::Vdeqf16,
            5 => Quant::Qf322b8,
            6 => Quant::Vqf322b8,
            7 => Quant::Req8,
            8 => Quant::Vreq8,
            _ => return None,
        })
    }

    fn per_channel(self) -> bool {
        matches!(self, Quant::Vdeqf16 | Quant::Vqf322b8 | Quant::Vreq8)
    }

    fn scalar(self) -> bool {
        matches!(self, Quant::Deqf16 | Quant::Qf322b8 | Quant::Req8)
    }

    /// (source, destination) types the mode converts between; None where any same-type pair is fine.
    fn types(self) -> &'static [(DType, DType)] {
        match self {
            Quant::None => &[(DType::F32, DType::F32), (DType::I32, DType::I32)],
            Quant::F322F16 => &[(DType::F32, DType::F16)],
            Quant::F322BF16 => &[(DType::F32, DType::BF16)],
            Quant::Deqf16 | Quant::Vdeqf16 => &[(DType::I32, DType::F16)],
            Quant::Qf322b8 | Quant::Vqf322b8 => &[(DType::F32, DType::I8), (DType::F32, DType::U8)],
            Quant::Req8 | Quant::Vreq8 => &[(DType::I32, DType::I8), (DType::I32, DType::U8)],
        }
    }
}

/// The scale of a quantisation parameter: bits [31:13] as a float (1 sign, 8 exponent, 10 mantissa bits).
pub fn scale(param: u64) -> f32 {
    f32::from_bits((param as u32) & 0xFFFF_E000)
}

/// One element through the fixpipe's conversion.
pub fn convert(bits: u64, st: DType, dt: DType, q: Quant, param: u64, relu: bool) -> u64 {
    let as_f32 = |b: u64| f32::from_bits(b as u32);
    let as_i32 = |b: u64| b as u32 as i32;
    match q {
        Quant::None => {
            if !relu {
                return bits;
            }
            if st == DType::F32 {
                let x = as_f32(bits);
                (if x < 0.0 { 0.0f32 } else { x }).to_bits() as u64
            } else {
                as_i32(bits).max(0) as u32 as u64
            }
        }
        Quant::F322F16 | Quant::F322BF16 => {
            let mut x = as_f32(bits);
            if relu && x < 0.0 {
                x = 0.0;
            }
            if q == Quant::F322F16 {
                f16::from_f32(x).to_bits() as u64
            } else {
                bf16::from_f32(x).to_bits() as u64
            }
        }
        _ => {
            let m1 = scale(param);
            let mcb = (param >> 36) & 1 == 1;
            let shift = ((param >> 32) & 0xF) + 1;
            let x: f32 = if st == DType::I32 {
                let mut v = as_i32(bits) as i64;
                if mcb && q != Quant::Qf322b8 && q != Quant::Vqf322b8 {
                    v = (v >> shift).clamp(i16::MIN as i64, i16::MAX as i64);
                }
                v as f32
            } else {
                as_f32(bits)
            };
            let y = if x >= 0.0 {
                x * m1
            } else if relu {
                0.0
            } else {
                x * m1
            };
            if matches!(q, Quant::Deqf16 | Quant::Vdeqf16) {
                return f16::from_f32(y.clamp(-65504.0, 65504.0)).to_bits() as u64;
            }
            let offset = {
                let raw = ((param >> 37) & 0x1FF) as i64;
                if raw >= 256 {
                    raw - 512
                } else {
                    raw
                }
            };
            let signed = (param >> 46) & 1 == 1;
            let r = (y as f64).round_ties_even().clamp(-256.0, 255.0) as i64 + offset;
            let v = if signed { r.clamp(-128, 127) } else { r.clamp(0, 255) };
            dt.from_i64(v)
        }
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["Fixpipe"], &["gm", "l1", "gm_quant", "l1_quant"], decode_v220);
    r.add_all(&["Fixpipe"], &["gm_params", "l1_params"], decode_old);
    r.add_all(&["DataCopy"], &["co1_to_gm", "co1_to_l1"], decode_copy);
    r.add("SetFixpipeNz2ndFlag.plain", decode_set);
    r.add("SetFixpipePreQuantFlag.plain", decode_set);
    r.add_all(&["SetFixPipeConfig"], &["relu_quant", "one"], decode_set);
}
