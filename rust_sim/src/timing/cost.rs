//! What each instruction costs: its catalog name says its class (vector throughput class, copy, Mmad, ...),
//! what its `exec` measured says how much work it was, and the chip's parameters turn both into cycles.
//!
//! Vector classes and their bytes per cycle are msKPP's measurements (ascendc-reference.md section 6): a
//! repeat (256 bytes of the widest operand) costs 256 / throughput cycles after a short startup. High-level
//! vector APIs (SoftMax, LayerNorm, Sigmoid, ...) are costed as the sum of the basic instructions their
//! documented algorithm is made of, one pass of each over the input: an estimate, not a measurement.

use crate::api::Pipe;
use crate::memory::MemKind;
use crate::program::Program;

use super::params::Params;
use super::Meter;

/// How an instruction is costed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Class {
    /// recorded by its own hook (SetFlag / WaitFlag) or not a pipe instruction
    Skip,
    /// PipeBarrier on one pipe
    Barrier,
    /// a vector instruction: startup + repeats x cycles per repeat
    Vector { cpr: f64 },
    /// a register-API instruction (`Reg::Add`, ...): one pass over one vector register, a repeat's worth
    Register { cpr: f64 },
    /// a high-level vector API made of `parts` basic passes of `cpr` cycles per repeat in all, over the
    /// repeats of its first pass
    Composite { cpr: f64, parts: u32 },
    /// a copy: latency + bytes over the route's bandwidth
    Copy,
    /// cube fractal steps
    Mmad,
    /// no model: timed from whatever it measured, else as a bare startup
    Unknown,
}

/// An instruction's cost with the whole bandwidth to itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost {
    pub cycles: f64,
    pub latency: f64,
    pub gm_bytes: u64,
    pub amount: u64,
    pub modelled: bool,
}

/// The parameters and, per instruction of a program, its class and its name (for the trace).
pub struct Model {
    pub params: Params,
    pub classes: Vec<Class>,
    pub names: Vec<String>,
    /// the core's local memory sizes (bytes), for the library pipelines that size their own buffers
    pub mem: MemSizes,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct MemSizes {
    pub l1: u64,
    pub l0a: u64,
    pub l0b: u64,
}

impl Model {
    pub fn new(prog: &Program, params: Params) -> Model {
        let mut classes = Vec::with_capacity(prog.code.len());
        let mut names = Vec::with_capacity(prog.code.len());
        for pc in 0..prog.code.len() {
            match prog.call_heads.get(pc).and_then(|h| h.as_deref()) {
                Some(head) => {
                    let (api, dtype) = split_head(head);
                    classes.push(classify(api, dtype, &params));
                    names.push(api.to_string());
                }
                None => {
                    classes.push(Class::Skip);
                    names.push(String::new());
                }
            }
        }
        let size = |m: MemKind, default: u64| prog.memory(m).map(|(s, _)| s as u64).unwrap_or(default);
        Model {
            params,
            classes,
            names,
            mem: MemSizes {
                l1: size(MemKind::L1, 524288),
                l0a: size(MemKind::L0a, 65536),
                l0b: size(MemKind::L0b, 65536),
            },
        }
    }

    /// The cost of instruction `pc` issued to `pipe` after it measured `m`; None when it has no record.
    pub fn cost(&self, pc: usize, pipe: Pipe, m: &Meter) -> Option<Cost> {
        let p = &self.params;
        let class = self.classes.get(pc).copied().unwrap_or(Class::Unknown);
        let vector = |cpr: f64, repeats: u64, parts: u32| Cost {
            cycles: p.vector_startup * parts as f64 + repeats as f64 * cpr,
            latency: 0.0,
            gm_bytes: 0,
            amount: repeats,
            modelled: true,
        };
        let work_repeats = |r: u64| if r == 0 { m.bytes.div_ceil(256) } else { r };
        Some(match class {
            Class::Skip => return None,
            Class::Barrier => Cost {
                cycles: p.barrier_cycles,
                latency: 0.0,
                gm_bytes: 0,
                amount: 0,
                modelled: true,
            },
            Class::Vector { cpr } => vector(cpr, work_repeats(m.repeats), 1),
            Class::Register { cpr } => vector(cpr, 1, 1),
            // an API that loops per row reported its shape: the library's own sequence (library.rs)
            Class::Composite { .. } if m.shape.is_some() => Cost {
                cycles: m.shape.map_or(0.0, |s| super::library::cycles(&s, p)),
                ..vector(0.0, work_repeats(m.first_repeats.unwrap_or(m.repeats)), 0)
            },
            Class::Composite { cpr, parts } => vector(cpr, work_repeats(m.first_repeats.unwrap_or(m.repeats)), parts),
            Class::Copy => self.copy(m),
            Class::Mmad => self.mmad(m),
            Class::Unknown => {
                if m.bursts > 0 {
                    self.copy(m)
                } else if m.cube_steps > 0 {
                    self.mmad(m)
                } else if m.repeats > 0 {
                    // a guess nobody chose: one simple pass per repeat, and the run says so
                    Cost {
                        modelled: false,
                        ..vector(p.cycles_per_repeat("vector_simple"), m.repeats, 1)
                    }
                } else {
                    let _ = pipe;
                    Cost {
                        cycles: p.vector_startup,
                        latency: 0.0,
                        gm_bytes: 0,
                        amount: 0,
                        modelled: false,
                    }
                }
            }
        })
    }

    fn copy(&self, m: &Meter) -> Cost {
        let route = self.params.route(m.route.0, m.route.1);
        let cycles = route.cycles(m.bytes as f64);
        Cost {
            cycles,
            latency: route.latency.min(cycles),
            gm_bytes: if route.gm { m.bytes } else { 0 },
            amount: m.bytes,
            modelled: route.known && m.bursts > 0,
        }
    }

    fn mmad(&self, m: &Meter) -> Cost {
        Cost {
            cycles: self.params.mmad_startup + m.cube_steps as f64,
            latency: 0.0,
            gm_bytes: 0,
            amount: m.cube_steps,
            modelled: m.cube_steps > 0,
        }
    }
}

/// `Add.count<T=f16>` -> ("Add", Some("f16")): the API and its element type (T, else the first type argument).
fn split_head(head: &str) -> (&str, Option<&str>) {
    let (name, targs) = match head.split_once('<') {
        Some((n, rest)) => (n, rest.trim_end_matches('>')),
        None => (head, ""),
    };
    let api = name.split('.').next().unwrap_or(name);
    let mut first = None;
    for kv in targs.split(',') {
        if let Some((k, v)) = kv.split_once('=') {
            if k == "T" {
                return (api, Some(v));
            }
            first.get_or_insert(v);
        }
    }
    (api, first)
}

/// Basic vector classes by letter, for the composite table: S simple, B binary, E exp/ln/sqrt, D div,
/// R whole reduce, K block reduce, A multiply-add, G gather, M merge sort.
pub(crate) fn letter_cpr(c: char, half: bool, p: &Params) -> f64 {
    let by_dtype = |h: &str, f: &str| p.cycles_per_repeat(if half { h } else { f });
    match c {
        'S' => p.cycles_per_repeat("vector_simple"),
        'B' => p.cycles_per_repeat("vector_binary"),
        'E' => by_dtype("vector_exp_ln_sqrt_half", "vector_exp_ln_sqrt_float"),
        'D' => p.cycles_per_repeat("vector_div"),
        'R' => by_dtype("vector_whole_reduce_half", "vector_whole_reduce_float"),
        'K' => by_dtype("vector_block_reduce_half", "vector_block_reduce_float"),
        'A' => p.cycles_per_repeat("vector_muladd"),
        'G' => (p.cycles_per_repeat("vector_gather_min") + p.cycles_per_repeat("vector_gather_max")) / 2.0,
        'M' => p.cycles_per_repeat("vector_mrgsort"),
        _ => p.cycles_per_repeat("vector_binary"),
    }
}

/// Basic instructions by their class letter.
const BASIC: &[(&str, char)] = &[
    ("Add", 'B'),
    ("Sub", 'B'),
    ("Mul", 'B'),
    ("Max", 'B'),
    ("Min", 'B'),
    ("And", 'B'),
    ("Or", 'B'),
    ("AddRelu", 'B'),
    ("SubRelu", 'B'),
    ("Axpy", 'B'),
    ("Compare", 'B'),
    ("Select", 'B'),
    ("SelectWithBytesMask", 'B'),
    ("Adds", 'S'),
    ("Muls", 'S'),
    ("Maxs", 'S'),
    ("Mins", 'S'),
    ("ShiftLeft", 'S'),
    ("ShiftRight", 'S'),
    ("LeakyRelu", 'S'),
    ("Abs", 'S'),
    ("Relu", 'S'),
    ("Not", 'S'),
    ("Copy", 'S'),
    ("Duplicate", 'S'),
    ("Brcb", 'S'),
    ("Cast", 'S'),
    ("Rsqrt", 'S'),
    ("Reciprocal", 'S'),
    ("CompareScalar", 'S'),
    ("Compares", 'S'),
    ("Transpose", 'S'),
    ("TransDataTo5HD", 'S'),
    ("TransDataTo5HDImpl", 'S'),
    ("CreateVecIndex", 'S'),
    ("Exp", 'E'),
    ("Ln", 'E'),
    ("Sqrt", 'E'),
    ("Div", 'D'),
    ("MulAddDst", 'A'),
    ("MulDstAdd", 'A'), // the register API's dst * src0 + src1, one fused pass as MulAddDst
    ("FusedMulAdd", 'A'),
    ("MulAdd", 'A'),
    ("WholeReduceSum", 'R'),
    ("WholeReduceMax", 'R'),
    ("WholeReduceMin", 'R'),
    ("RepeatReduceSum", 'R'),
    ("vcadd", 'R'), // the RepeatReduceSum instruction by its builtin name
    // ReduceSum/Max/Min reduce the input with whole-reduce passes; the later passes work on 1/lanes of it
    ("ReduceSum", 'R'),
    ("ReduceMax", 'R'),
    ("ReduceMin", 'R'),
    ("ReduceProd", 'R'),
    ("BlockReduceSum", 'K'),
    ("BlockReduceMax", 'K'),
    ("BlockReduceMin", 'K'),
    ("PairReduceSum", 'K'),
    ("Gather", 'G'),
    ("GatherMask", 'G'),
    ("Sort", 'M'),
    ("Sort32", 'M'),
    ("MrgSort", 'M'),
    ("MrgSort4", 'M'),
    ("RpSort16", 'M'),
    ("ProposalConcat", 'S'),
    ("ProposalExtract", 'S'),
    ("Concat", 'S'),
    ("Extract", 'S'),
];

/// High-level vector APIs as the basic passes of their documented algorithms (estimates).
const COMPOSITE: &[(&str, &str)] = &[
    ("SoftMax", "RBERD"),         // max, x - max, exp, sum, / sum
    ("SoftmaxFlashV2", "RBERDB"), // plus the running-max rescale
    ("SoftmaxFlash", "RBERDB"),   // V2's passes; its division by the new sum is per row, left out
    ("LogSoftMax", "RBEREB"),     // max, x - max, exp, sum, ln, subtract
    ("SoftmaxGrad", "BRB"),       // dy * y, sum, y * (dy - sum)
    ("SoftmaxGradFront", "BR"),   // dy * y, sum
    ("LayerNorm", "RBBRBBB"),     // mean, x - mean, square, var, * rstd, * gamma, + beta
    ("RmsNorm", "BRBB"),          // square, mean, * rstd, * gamma
    ("DeepNorm", "BRBBRBBB"),     // alpha x + y, then LayerNorm
    ("Sigmoid", "SESD"),          // -x, exp, + 1, 1 / .
    ("Tanh", "SESSD"),            // 2x, exp, - 1, + 1, divide
    ("Silu", "SESDB"),            // sigmoid, * x
    ("Gelu", "BSESDB"),           // tanh form: x^3, scale, exp, + 1, divide, * x
    // one Min (ReduceAll) or Max (ReduceAny) reduction pass over the tensor (reduce_all_any.rs)
    ("ReduceAll", "R"),
    ("ReduceAny", "R"),
    // (x - mean) * rstd * gamma + beta with the row statistics given: Sub, Mul, Mul, Add over rows x columns;
    // the Rsqrt of the variance row is per row, left out (normalize_common_impl.h)
    ("Normalize", "BBBB"),
    // delta = x - mean, mean += delta / n (Muls, Add), delta2 = x - new mean, var += delta * delta2 (Mul,
    // Add), over rn x ab (layernorm_common_impl.h WelfordUpdateCompute*; half input adds a Cast, left out)
    ("WelfordUpdate", "BSBBBB"),
    // over the abLength columns: mean = sum(mean * w) (Muls, WholeReduceSum), variance = sum((var + (mean -
    // m)^2 * n) * rRec) (Sub, Mul, Mul, Muls, WholeReduceSum) (welfordfinalize_common_impl.h)
    ("WelfordFinalize", "SRBBBSR"),
    // SoftMax with the row max and sum given: x - max, exp, / sum (simple_softmax_common_impl.h: Sub, Exp,
    // Div; the half-in float-statistics form adds Casts, left out)
    ("SimpleSoftMax", "BED"),
    // a scalar read of each row's max; a row equal to `from` is rewritten by one Duplicate
    // (softmax_common_impl.h); the meter: the rows rewritten x columns
    ("AdjustSoftMaxRes", "S"),
    ("FasterGelu", "BSESDB"),
    ("FasterGeluV2", "BSESDB"),
    ("SwiGLU", "SESDBB"), // swish of one half, * the other
    ("GeGLU", "BSESDBB"),
    ("ReGlu", "SB"),
    ("Erf", "BBBBBBE"), // polynomial with an exp
    ("Erfc", "BBBBBBE"),
    ("Sin", "BBBBBBBB"), // range reduction and a polynomial
    ("Cos", "BBBBBBBB"),
    ("Tan", "BBBBBBBBD"),
    ("SinCos", "BBBBBBBBBBBB"),
    ("Sinh", "SESD"),
    ("Cosh", "SESD"),
    ("Asin", "BBBBBBBBE"),
    ("Acos", "BBBBBBBBE"),
    ("Atan", "BBBBBBBBD"),
    ("Asinh", "BBEEB"),
    ("Acosh", "BBEEB"),
    ("Atanh", "BDEB"),
    ("Log", "E"),
    ("Log2", "ES"),
    ("Log10", "ES"),
    ("Power", "EEB"), // exp(y ln x)
    ("Sign", "SSS"),
    ("Floor", "SS"), // cast there and back
    ("Ceil", "SS"),
    ("Trunc", "SS"),
    ("Round", "SS"),
    ("Rint", "SS"),
    ("Frac", "SSB"),
    ("IsNan", "BS"),
    ("IsInf", "BS"),
    ("IsFinite", "BS"),
    ("Clamp", "SS"),
    ("ClampMax", "S"),
    ("ClampMin", "S"),
    ("Where", "B"),
    ("Fma", "A"), // 950: one FusedMulDstAdd pass (fma_common_impl.h)
    ("Fmod", "DSB"),
    ("Hypot", "BBBE"),
    ("BitwiseAnd", "B"),
    ("BitwiseOr", "B"),
    ("BitwiseXor", "B"),
    ("BitwiseNot", "S"),
    ("Xor", "BBSB"), // 220x has no xor: And, Or, Not, And (xor_membase_impl.h)
    ("LogicalAnd", "B"),
    ("LogicalOr", "B"),
    ("LogicalXor", "B"),
    ("LogicalNot", "S"),
    // int32 -> float Cast, * the per-column scale row (Mul), Cast to the destination type
    // (ascend_dequant_common_impl.h); the meter: the rows x columns dequantised
    ("AscendDequant", "SBS"),
    // x * scale (Mul, or Muls for a scalar scale), + offset (Adds), Cast float -> half, Cast half -> int8
    // (ascend_quant_pre_impl.h); the meter: the elements quantised
    ("AscendQuant", "BSSS"),
    // int8 -> half Cast (and half -> float for a float result), + offset (Add), * scale (Mul); per-channel
    // parameters Brcb'd to rows first, a small pass left out (ascend_antiquant_c220_impl.h); the meter: src's
    // elements
    ("AscendAntiQuant", "SSBB"),
    ("CumSum", "BBBBBBBB"), // log-step prefix sums
    ("Mean", "RS"),
    ("Sum", "R"),
    ("Broadcast", "S"),
    ("BroadCast", "S"),
    ("ArithProgression", "S"),
    ("Arange", "S"),
    ("TopK", "MM"),
    // byte mode: Cast the mask bytes to half, * src (Mul), * 1 / keepProb (Muls); bit mode: a Select by the
    // bits and the Muls, one pass fewer (dropout_membase_impl.h); the meter: src's elements
    ("DropOut", "SBS"),
    // Ascend 950 only: Rounds (default 7) of the Philox S-box on each 4-word block, each a 32 x 32 -> 64
    // multiply per pair (two passes), two xors with the key and the key bump, then the float mantissa (Shift,
    // Adds) (philox_3510_impl.h); the meter: the elements generated
    ("PhiloxRandom", "BBBBBBBBBBBBBBBBBBBBBBBBBBBBSS"),
    ("ConfusionTranspose", "S"),
];

pub(crate) fn classify(api: &str, dtype: Option<&str>, p: &Params) -> Class {
    // the half rates for 8- and 16-bit elements; a call whose first template argument is no element type
    // (WelfordFinalize<isReuseSource>, ...) works on float
    let half = matches!(
        dtype,
        Some("f16" | "bf16" | "i16" | "u16" | "i8" | "u8" | "bool" | "i1")
    );
    match api {
        "SetFlag" | "WaitFlag" | "CrossCoreSetFlag" | "CrossCoreWaitFlag" | "NotifyEvent" | "WaitEvent" => {
            return Class::Skip
        }
        "PipeBarrier" => return Class::Barrier,
        "DataCopy" | "DataCopyPad" | "LoadData" | "LoadDataWithTranspose" | "Fixpipe" => return Class::Copy,
        // the GM fills: the library duplicates the value in UB and copies it out (MTE3), bytes of the fill
        // InitConstValue: Fill's former name (its local form fills L1 / L0A / L0B, cube/fill.rs)
        "InitGlobalMemory" | "Fill" | "InitOutput" | "InitConstValue" => return Class::Copy,
        // MmadImpl: the body of Mmad, which vendor kernels call directly (cube/mmad.rs)
        "Mmad" | "MmadImpl" => return Class::Mmad,
        _ => {}
    }
    if let Some(op) = api.strip_prefix("Reg::") {
        // the register API: the basic instruction of the same name on one register; the register moves and
        // the mask writes are one simple issue each
        let letter = match op {
            "LoadAlign" | "StoreAlign" | "Move" | "CreateMask" | "UpdateMask" => Some('S'),
            // the unaligned forms (reg/unalign.rs): one load or store each, the Pre / Post one alignment-
            // register move; a distribution (reg/dist.rs) is the same one instruction as the plain form
            "LoadUnAlign" | "StoreUnAlign" | "LoadUnAlignPre" | "StoreUnAlignPost" => Some('S'),
            // Scatter (vscatter): one store of a register's lanes
            "Scatter" => Some('S'),
            // Reduce folds one register (the RepeatReduceSum pass, vcadd); Arange and Xor are one simple pass
            "Reduce" => Some('R'),
            "Arange" | "Xor" | "Neg" => Some('S'),
            // ShiftLefts / ShiftRights: the tensor API's ShiftLeft / ShiftRight class, one simple pass
            "ShiftLefts" | "ShiftRights" => Some('S'),
            // register relayout (reg/relayout.rs): one pass over the source registers
            "Pack" | "UnPack" | "Interleave" | "DeInterleave" => Some('S'),
            // the register Gather (vselr) and the UB one (vgather2, one register of elements): one pass each;
            // Squeeze (reg/spr.rs) one pass over its source register
            "Gather" | "Squeeze" => Some('S'),
            // Truncate: the Cast class of the tensor API, one conversion pass
            "Truncate" => Some('S'),
            "Log" => Some('E'), // the natural log, as Ln
            _ => BASIC.iter().find(|(n, _)| *n == op).map(|(_, c)| *c),
        };
        return match letter {
            Some(c) => Class::Register {
                cpr: letter_cpr(c, half, p),
            },
            None => Class::Unknown,
        };
    }
    if let Some((_, c)) = BASIC.iter().find(|(n, _)| *n == api) {
        return Class::Vector {
            cpr: letter_cpr(*c, half, p),
        };
    }
    if let Some((_, parts)) = COMPOSITE.iter().find(|(n, _)| *n == api) {
        return Class::Composite {
            cpr: parts.chars().map(|c| letter_cpr(c, half, p)).sum(),
            parts: parts.len() as u32,
        };
    }
    Class::Unknown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_split_into_api_and_element_type() {
        assert_eq!(split_head("Add.count<T=f16>"), ("Add", Some("f16")));
        assert_eq!(split_head("Cast.count<U=f32,T=f16>"), ("Cast", Some("f16")));
        assert_eq!(
            split_head("PipeBarrier.plain<pipe=PIPE_V>"),
            ("PipeBarrier", Some("PIPE_V"))
        );
        assert_eq!(split_head("GetBlockIdx.plain"), ("GetBlockIdx", None));
    }

    #[test]
    fn classes_follow_the_measured_throughputs() {
        let p = Params::default();
        assert_eq!(classify("Add", Some("f16"), &p), Class::Vector { cpr: 2.0 });
        assert_eq!(classify("Exp", Some("f32"), &p), Class::Vector { cpr: 2.0 });
        let Class::Vector { cpr } = classify("Exp", Some("f16"), &p) else {
            panic!()
        };
        assert!((cpr - 256.0 / 65.0).abs() < 1e-9);
        assert!(matches!(
            classify("SoftMax", Some("f32"), &p),
            Class::Composite { parts: 5, .. }
        ));
        assert_eq!(classify("Frobnicate", None, &p), Class::Unknown);
        assert_eq!(classify("Reg::Add", Some("f32"), &p), Class::Register { cpr: 2.0 });
        assert_eq!(classify("Reg::Frobnicate", None, &p), Class::Unknown);
        // WelfordFinalize is float only and has no T: its reduces at the float rate, not the half one
        let float = classify("WelfordFinalize", Some("f32"), &p);
        assert_eq!(classify("WelfordFinalize", Some("false"), &p), float);
        assert_eq!(classify("WelfordFinalize", None, &p), float);
        assert_ne!(classify("WelfordFinalize", Some("f16"), &p), float);
        assert_eq!(classify("WaitFlag", None, &p), Class::Skip);
    }

    #[test]
    fn a_vector_instruction_costs_startup_plus_repeats() {
        let prog = Program {
            code: Vec::new(),
            ..Default::default()
        };
        let mut model = Model::new(&prog, Params::default());
        model.classes.push(Class::Vector { cpr: 2.0 });
        let mut m = Meter::default();
        m.vector(64, 8192);
        let c = model.cost(0, Pipe::V, &m).unwrap();
        assert_eq!(c.cycles, 2.0 + 128.0);
        assert!(c.modelled && c.gm_bytes == 0);
    }

    #[test]
    fn an_api_without_a_class_is_timed_by_a_guess_and_says_so() {
        let prog = Program::default();
        let mut model = Model::new(&prog, Params::default());
        model.classes.push(Class::Unknown);
        let mut m = Meter::default();
        m.vector(4, 256);
        let c = model.cost(0, Pipe::V, &m).unwrap();
        assert!(!c.modelled && c.cycles > 0.0, "{c:?}");
        // a copy it measured is timed as a copy, from what it moved
        let mut m = Meter::default();
        m.copy(
            512,
            (crate::memory::Space::Gm(0), 0),
            (crate::memory::Space::Local(MemKind::Ub), 0),
        );
        assert!(model.cost(0, Pipe::Mte2, &m).unwrap().modelled);
    }
}
