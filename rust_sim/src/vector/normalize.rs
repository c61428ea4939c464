//! AscendC::Normalize<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX, gamma,
//! beta[, sharedTmpBuffer], epsilon, NormalizePara): given each row's mean and variance, rstd = 1 /
//! sqrt(variance plus epsilon) (outputRstd, aLength floats) and output = (x - mean) * rstd * gamma + beta over the
//! first rLength values of each rLengthWithPadding-long row, in f32 (half x, and half gamma/beta, cast up first;
//! half output rounded once); config's isNoGamma / isNoBeta leave the product / the sum out. The 220x library's order
//! (asc-devkit normalize_common_impl.h, read for the facts): Adds, Sqrt, a Div of 1 by it; Sub the mean, Mul
//! by rstd, Mul gamma, Add beta. LayerNorm's rstd form ends in this same computation (layer_norm.rs).
//!
//! T float takes U float; T half takes U half or float. The library splits the rows into passes of N rows
//! that fit the sharedTmpBuffer: N = size / (2 * rLengthWithPadding) floats for float gamma/beta, (size minus
//! 2R) / 2R for half, so a buffer under 2R (4R for half U) floats, or under aLength floats, divides by zero or
//! writes past it: reported (ASC959), as are tensors shorter than the para's shape and a config whose aLength
//! (when not -1) differs from the para's. output's padding columns are left as they were (the library leaves
//! values there no caller should read).

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::layer_norm::{read_at, write_at};
use crate::vector::sizes::{checked_bytes, report_oversized, too_small};

/// What a LayerNormConfig / NormalizeConfig template argument says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NormFlags {
    pub no_beta: bool,
    pub no_gamma: bool,
    pub only_output: bool,
    /// NormalizeConfig's aLength, -1 for any
    pub a_length: i64,
}

/// A LayerNormConfig or NormalizeConfig template argument: the library's named constants, or a constexpr
/// struct's fields (`LayerNormConfig:isNoBeta=1:...`, positional `_0` .. when the lowering had no names).
pub fn parse_config(text: Option<&str>, strukt: &str) -> Result<NormFlags, String> {
    let mut c = NormFlags {
        a_length: -1,
        ..NormFlags::default()
    };
    let Some(text) = text else {
        return Ok(c);
    };
    let name = text.rsplit("::").next().unwrap_or(text);
    match name {
        "LNCFG_NORM" | "NLCFG_NORM" => return Ok(c),
        "NLCFG_NOBETA" => c.no_beta = true,
        "NLCFG_NOGAMMA" => c.no_gamma = true,
        "NLCFG_NOOPT" => (c.no_beta, c.no_gamma) = (true, true),
        _ => {
            let Some(fields) = text.strip_prefix(strukt).and_then(|rest| rest.strip_prefix(':')) else {
                return Err(format!(
                    "the config template argument '{text}' is not a {strukt} constant the simulator can read"
                ));
            };
            // positions of the struct's fields, in declaration order (layernorm_utils.h, normalize_utils.h)
            let order: &[&str] = if strukt == "NormalizeConfig" {
                &["reducePattern", "aLength", "isNoBeta", "isNoGamma", "isOnlyOutput"]
            } else {
                &["isNoBeta", "isNoGamma", "isOnlyOutput", "isOutputRstd"]
            };
            for kv in fields.split(':').filter(|kv| !kv.is_empty()) {
                let (k, v) = kv.split_once('=').ok_or_else(|| format!("{strukt} field '{kv}'"))?;
                let key = k
                    .strip_prefix('_')
                    .and_then(|i| i.parse::<usize>().ok())
                    .and_then(|i| order.get(i).copied())
                    .unwrap_or(k);
                if key == "reducePattern" {
                    // an enumerator's name or its value; AR (0) is the only pattern of the 220x library
                    if !matches!(v, "AR" | "0") {
                        return Err(format!(
                            "{strukt}'s reducePattern {v}: the 220x library normalises AR only"
                        ));
                    }
                    continue;
                }
                let n = v.parse::<f64>().map_err(|_| format!("{strukt} field '{kv}'"))? as i64;
                match key {
                    "isNoBeta" => c.no_beta = n != 0,
                    "isNoGamma" => c.no_gamma = n != 0,
                    "isOnlyOutput" => c.only_output = n != 0,
                    "aLength" => c.a_length = n,
                    _ => {}
                }
            }
        }
    }
    Ok(c)
}

/// The element type pairs the library accepts: T float with U float, T half with U half or float.
pub fn types_valid(u: DType, t: DType) -> bool {
    matches!(
        (t, u),
        (DType::F32, DType::F32) | (DType::F16, DType::F16) | (DType::F16, DType::F32)
    )
}

/// The rows a pass the library fits in `floats` floats of tmp (GetNormalizeTensorInfo, normalize_common_impl.h:
/// 71-96: two rows' worth a row, and half gamma and beta's float copies first), at least 1.
pub fn rows_a_pass(u: DType, floats: usize, r_pad: usize) -> usize {
    let row = 2 * r_pad.max(1);
    let room = if u == DType::F32 {
        floats
    } else {
        floats.saturating_sub(row)
    };
    (room / row).max(1)
}

/// The smallest sharedTmpBuffer (floats) Normalize can work in: one pass of one row and aLength floats.
pub fn tmp_floats(u: DType, a: usize, r_pad: usize) -> usize {
    let rows = if u == DType::F32 { 2 * r_pad } else { 4 * r_pad };
    rows.max(a)
}

#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub a: usize,
    pub r: usize,
    pub r_pad: usize,
}

#[derive(Clone, Copy, Debug)]
pub struct Operands {
    pub t: DType,
    pub u: DType,
    pub output: u32,
    pub rstd: u32,
    pub gamma: u32,
    pub beta: u32,
}

/// 1 / sqrt(variance + eps), as the library takes it (Adds, Sqrt, Div).
pub fn rstd_of(var: f32, eps: f32) -> f32 {
    1.0f32 / (var + eps).sqrt()
}

/// One row's output values: (x - mean) * rstd, times gamma, plus beta, as the flags say.
pub fn normalise_row(x: &[f32], mean: f32, rstd: f32, gamma: Option<&[f32]>, beta: Option<&[f32]>) -> Vec<f32> {
    x.iter()
        .enumerate()
        .map(|(i, v)| {
            let mut y = (v - mean) * rstd;
            if let Some(g) = gamma {
                y *= g[i];
            }
            if let Some(b) = beta {
                y += b[i];
            }
            y
        })
        .collect()
}

/// rstd out for every row, then each row's first r outputs; x holds a * r_pad values (f32).
pub fn apply(
    cx: &mut Ctx,
    o: &Operands,
    s: Shape,
    flags: NormFlags,
    (x, x_init): (&[f32], bool),
    (means, vars): (&[f32], &[f32]),
    eps: f32,
) {
    let rstd: Vec<f32> = vars.iter().map(|v| rstd_of(*v, eps)).collect();
    write_at(cx, o.rstd, 0, &rstd, DType::F32, x_init, "LayerNorm");
    let mut init = x_init;
    let gamma = if flags.no_gamma {
        None
    } else {
        let Some((g, ok)) = read_at(cx, o.gamma, 0, s.r, o.u, "Normalize") else {
            return;
        };
        init &= ok;
        Some(g)
    };
    let beta = if flags.no_beta {
        None
    } else {
        let Some((b, ok)) = read_at(cx, o.beta, 0, s.r, o.u, "Normalize") else {
            return;
        };
        init &= ok;
        Some(b)
    };
    for k in 0..s.a {
        let row = &x[k * s.r_pad..k * s.r_pad + s.r];
        let y = normalise_row(row, means[k], rstd[k], gamma.as_deref(), beta.as_deref());
        write_at(cx, o.output, k * s.r_pad, &y, o.t, init, "Normalize");
    }
}

#[derive(Debug)]
struct Normalize {
    ops: Operands,
    mean: u32,
    var: u32,
    x: u32,
    tmp: Option<u32>,
    epsilon: Sv,
    para: [Sv; 3],
    flags: NormFlags,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(Normalize {
        ops: Operands {
            t: a.dtype("T")?,
            u: a.dtype("U")?,
            output: a.handle("output")?,
            rstd: a.handle("outputRstd")?,
            gamma: a.handle("gamma")?,
            beta: a.handle("beta")?,
        },
        mean: a.handle("inputMean")?,
        var: a.handle("inputVariance")?,
        x: a.handle("inputX")?,
        tmp: a.handle("sharedTmpBuffer").ok(),
        epsilon: a.sv("epsilon")?,
        para: [
            a.field("para", "aLength")?,
            a.field("para", "rLength")?,
            a.field("para", "rLengthWithPadding")?,
        ],
        flags: parse_config(a.targ("config"), "NormalizeConfig")?,
    }))
}

impl ApiOp for Normalize {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let o = self.ops;
        if !types_valid(o.u, o.t) {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "Normalize takes T float with U float, or T half with U half or float, not T {:?} with U {:?}",
                    o.t, o.u
                ),
            );
            return Flow::Next;
        }
        let s = Shape {
            a: cx.uint(self.para[0]) as usize,
            r: cx.uint(self.para[1]) as usize,
            r_pad: cx.uint(self.para[2]) as usize,
        };
        let f = self.flags;
        let bad = if f.only_output {
            Some("config.isOnlyOutput must be false (the library's static_assert)".to_string())
        } else if f.a_length == 1 || f.a_length != -1 && f.a_length != s.a as i64 {
            Some(format!(
                "config.aLength {} differs from the NormalizePara's aLength {} (or is 1, which the library forbids)",
                f.a_length, s.a
            ))
        } else if s.a == 0 || s.r == 0 || s.r_pad < s.r {
            Some(format!(
                "the NormalizePara's aLength {} and rLength {} in rows of {} describe no rows",
                s.a, s.r, s.r_pad
            ))
        } else {
            None
        };
        if let Some(msg) = bad {
            cx.report(code::INVALID_OPERAND, format!("Normalize: {msg}"));
            return Flow::Next;
        }
        let (tsz, usz) = (o.t.size(), o.u.size());
        let Some(x_bytes) = checked_bytes(&[s.a, s.r_pad, tsz]) else {
            report_oversized(cx, "Normalize", format!("NormalizePara ({} rows of {})", s.a, s.r_pad));
            return Flow::Next;
        };
        let shape = "the NormalizePara's shape";
        let mut failed = too_small(cx, "Normalize", "inputX", self.x, x_bytes, shape)
            || too_small(cx, "Normalize", "output", o.output, x_bytes, shape)
            || too_small(cx, "Normalize", "inputMean", self.mean, s.a * 4, shape)
            || too_small(cx, "Normalize", "inputVariance", self.var, s.a * 4, shape)
            || too_small(cx, "Normalize", "outputRstd", o.rstd, s.a * 4, shape);
        if !f.no_gamma {
            failed = failed || too_small(cx, "Normalize", "gamma", o.gamma, s.r * usz, shape);
        }
        if !f.no_beta {
            failed = failed || too_small(cx, "Normalize", "beta", o.beta, s.r * usz, shape);
        }
        if let Some(tmp) = self.tmp {
            let need = tmp_floats(o.u, s.a, s.r_pad) * 4;
            failed = failed
                || too_small(
                    cx,
                    "Normalize",
                    "sharedTmpBuffer",
                    tmp,
                    need,
                    "a pass of one row (2 * rLengthWithPadding floats, 4 * for half gamma and beta, and aLength)",
                );
        }
        if failed {
            return Flow::Next;
        }
        let Some((x, x_init)) = read_at(cx, self.x, 0, s.a * s.r_pad, o.t, "Normalize") else {
            return Flow::Next;
        };
        let Some((means, m_init)) = read_at(cx, self.mean, 0, s.a, DType::F32, "Normalize") else {
            return Flow::Next;
        };
        let Some((vars, v_init)) = read_at(cx, self.var, 0, s.a, DType::F32, "Normalize") else {
            return Flow::Next;
        };
        let eps = cx.float(self.epsilon) as f32;
        // the library computes in float (half x is Cast first): aLength rows of rLengthWithPadding
        crate::timing::vector_pass(cx.core, (s.a * s.r_pad) as u64, 4);
        crate::timing::library_shape(
            cx.core,
            crate::timing::library::Shape {
                kind: crate::timing::library::Kind::Normalize,
                rows: s.a as u64,
                cols: s.r_pad as u64,
                real: s.r as u64,
                blocks: 1,
                inner: self.tmp.map_or(0, |h| {
                    rows_a_pass(o.u, cx.handle(h).len.max(0) as usize / 4, s.r_pad) as u64
                }),
                elem: o.t.size() as u64,
            },
        );
        apply(cx, &o, s, f, (&x, x_init && m_init && v_init), (&means, &vars), eps);
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["Normalize"], &["plain", "tmp"], decode);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configs_read_by_name_and_by_field() {
        assert_eq!(parse_config(None, "LayerNormConfig").unwrap().a_length, -1);
        let c = parse_config(Some("AscendC::NLCFG_NOBETA"), "NormalizeConfig").unwrap();
        assert!(c.no_beta && !c.no_gamma);
        let c = parse_config(
            Some("LayerNormConfig:isNoBeta=0:isNoGamma=1:isOnlyOutput=0"),
            "LayerNormConfig",
        )
        .unwrap();
        assert!(!c.no_beta && c.no_gamma);
        let c = parse_config(Some("NormalizeConfig:_0=0:_1=-1:_2=1:_3=1:_4=0"), "NormalizeConfig").unwrap();
        assert!(c.no_beta && c.no_gamma && c.a_length == -1);
        let text = "NormalizeConfig:reducePattern=AR:aLength=-1:isNoBeta=0:isNoGamma=1:isOnlyOutput=0";
        let c = parse_config(Some(text), "NormalizeConfig").unwrap();
        assert!(!c.no_beta && c.no_gamma);
        assert!(parse_config(Some("NormalizeConfig:reducePattern=RA"), "NormalizeConfig").is_err());
        assert!(parse_config(Some("myConfig"), "NormalizeConfig").is_err());
    }

    #[test]
    fn rows_by_hand() {
        // variance 3 + eps 1: rstd 0.5; x - mean = [2, -2]: [1, -1], times gamma [2, 4], plus beta [1, 1]
        let r = rstd_of(3.0, 1.0);
        assert_eq!(r, 0.5);
        let g = [2.0, 4.0];
        let b = [1.0, 1.0];
        assert_eq!(normalise_row(&[5.0, 1.0], 3.0, r, Some(&g), Some(&b)), vec![3.0, -3.0]);
        assert_eq!(normalise_row(&[5.0, 1.0], 3.0, r, None, Some(&b)), vec![2.0, 0.0]);
        assert_eq!(normalise_row(&[5.0, 1.0], 3.0, r, Some(&g), None), vec![2.0, -4.0]);
    }

    #[test]
    fn smallest_buffer() {
        assert_eq!(tmp_floats(DType::F32, 3, 16), 32);
        assert_eq!(tmp_floats(DType::F16, 3, 16), 64);
        assert_eq!(tmp_floats(DType::F32, 100, 16), 100);
    }
}
