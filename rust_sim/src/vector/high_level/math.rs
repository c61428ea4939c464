//! The element-wise functions' formulas, in f32 (Sigmoid on 16-bit types step by step, as the library's
//! instructions round).

use crate::dtype::DType;

/// The element-wise functions, by API name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fun {
    Sigmoid,
    Tanh,
    Gelu,
    FasterGelu,
    Silu,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Asinh,
    Acosh,
    Atanh,
    Log,
    Log2,
    Log10,
    Erf,
    Erfc,
    Floor,
    Ceil,
    Round,
    Rint,
    Trunc,
    Frac,
    Sign,
    Exp,
    // two tensors (or a tensor and a scalar)
    Power,
    Hypot,
    Fmod,
    SwiGlu,
    GeGlu,
    ReGlu,
    ClampMax,
    ClampMin,
}

pub(super) fn fun(name: &str) -> Option<Fun> {
    Some(match name {
        "Sigmoid" => Fun::Sigmoid,
        "Tanh" => Fun::Tanh,
        "Gelu" | "FasterGeluV2" => Fun::Gelu,
        "FasterGelu" => Fun::FasterGelu,
        "Silu" => Fun::Silu,
        "Sin" => Fun::Sin,
        "Cos" => Fun::Cos,
        "Tan" => Fun::Tan,
        "Asin" => Fun::Asin,
        "Acos" => Fun::Acos,
        "Atan" => Fun::Atan,
        "Sinh" => Fun::Sinh,
        "Cosh" => Fun::Cosh,
        "Asinh" => Fun::Asinh,
        "Acosh" => Fun::Acosh,
        "Atanh" => Fun::Atanh,
        "Log" => Fun::Log,
        "Log2" => Fun::Log2,
        "Log10" => Fun::Log10,
        "Erf" => Fun::Erf,
        "Erfc" => Fun::Erfc,
        "Floor" => Fun::Floor,
        "Ceil" => Fun::Ceil,
        "Round" => Fun::Round,
        "Rint" => Fun::Rint,
        "Trunc" => Fun::Trunc,
        "Frac" => Fun::Frac,
        "Sign" => Fun::Sign,
        "Exp" => Fun::Exp,
        "Power" => Fun::Power,
        "Hypot" => Fun::Hypot,
        "Fmod" => Fun::Fmod,
        "SwiGLU" => Fun::SwiGlu,
        "GeGLU" => Fun::GeGlu,
        "ReGlu" => Fun::ReGlu,
        "ClampMax" => Fun::ClampMax,
        "ClampMin" => Fun::ClampMin,
        _ => return None,
    })
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Sigmoid on a 16-bit type as the library computes it: Muls by -1, Exp, Adds 1, then Div of 1 by that, each a
/// vector instruction on T whose result is rounded to T (asc-devkit impl/adv_api/detail/activation/sigmoid/
/// sigmoid_impl.h, SigmoidIntrinsicsImpl). Rounded once instead, a half result can differ by an ulp or two
/// (NPUKernelBench's MulSigmoidMulAddCustom, whose torch reference rounds each fp16 op the same way).
pub(super) fn sigmoid_in(t: DType, x: f32) -> f32 {
    let round = |v: f32| match t {
        DType::F16 => half::f16::from_f32(v).to_f32(),
        DType::BF16 => half::bf16::from_f32(v).to_f32(),
        _ => v,
    };
    let e = round((-x).exp());
    let d = round(1.0 + e);
    round(1.0 / d)
}

/// GELU, tanh approximation (the library's formula): x / (1 + exp(-1.5957691 * (x + 0.044715 x^3))).
fn gelu(x: f32) -> f32 {
    x / (1.0 + (-1.595_769 * (x + 0.044715 * x * x * x)).exp())
}

pub(super) fn apply(f: Fun, x: f32, y: f32, s: f32) -> f32 {
    match f {
        Fun::Sigmoid => sigmoid(x),
        Fun::Tanh => x.tanh(),
        Fun::Gelu => gelu(x),
        Fun::FasterGelu => x * sigmoid(1.702 * x),
        Fun::Silu => x * sigmoid(x),
        Fun::Sin => x.sin(),
        Fun::Cos => x.cos(),
        Fun::Tan => x.tan(),
        Fun::Asin => x.asin(),
        Fun::Acos => x.acos(),
        Fun::Atan => x.atan(),
        Fun::Sinh => x.sinh(),
        Fun::Cosh => x.cosh(),
        Fun::Asinh => x.asinh(),
        Fun::Acosh => x.acosh(),
        Fun::Atanh => x.atanh(),
        Fun::Log => x.ln(),
        Fun::Log2 => x.log2(),
        Fun::Log10 => x.log10(),
        Fun::Erf => crate::scalar::erf(x as f64) as f32,
        Fun::Erfc => 1.0 - crate::scalar::erf(x as f64) as f32,
        Fun::Floor => x.floor(),
        Fun::Ceil => x.ceil(),
        Fun::Round => x.round(),
        Fun::Rint => x.round_ties_even(),
        Fun::Trunc => x.trunc(),
        Fun::Frac => x - x.trunc(),
        Fun::Sign => {
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                0.0
            }
        }
        Fun::Exp => x.exp(),
        Fun::Power => x.powf(y),
        Fun::Hypot => x.hypot(y),
        Fun::Fmod => x % y,
        // dst = src0 * act(src1)
        Fun::SwiGlu => x * (y * sigmoid(s * y)),
        Fun::GeGlu => x * gelu(y),
        Fun::ReGlu => x * y.max(0.0),
        Fun::ClampMax => x.min(s),
        Fun::ClampMin => x.max(s),
    }
}
