//! AscendC::WelfordUpdate<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
//! inputX[, sharedTmpBuffer], WelfordUpdateParam): one step of Welford's online mean and variance, element by
//! element over the first abComputeLength of abLength columns (rnLength must be 1): with x = inputX (half cast to
//! float), d = x - mean, outputMean = d * nRec + mean and outputVariance = d * (x - outputMean) + variance, the
//! variance being the running sum of squared deviations (M2) that WelfordFinalize divides. In f32, in the 220x
//! library's order (asc-devkit layernorm_common_impl.h / layernorm_common_basic_impl.h, WelfordUpdateCompute*,
//! read for the facts): Sub, Muls by nRec, Add; Sub, Mul, Add. With config.isInplace and abComputeLength <
//! abLength, the columns past abComputeLength of the outputs take the inputs' values (the library copies a
//! 32-byte-aligned stretch first, which the computation then overwrites where they overlap); without it they are
//! left as they were. With isReuseSource and float x, inputX's computed columns end up holding x - mean, as the
//! library leaves them.
//!
//! What the library asserts is reported (ASC959): T not half/float or U not float, rnLength other than 1,
//! abComputeLength 0 or over abLength, abLength over inputX's size or not a whole number of 32-byte blocks of T,
//! a sharedTmpBuffer under one repeat's worth of its buffers (3 * 256 bytes for half x, 256 reusing a float x,
//! else 512), and mean/variance tensors shorter than the columns written.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::layer_norm::{read_at, write_at};
use crate::vector::sizes::too_small;

#[derive(Debug)]
struct WelfordUpdate {
    t: DType,
    u: DType,
    reuse: bool,
    inplace: bool,
    out_mean: u32,
    out_var: u32,
    in_mean: u32,
    in_var: u32,
    x: u32,
    tmp: Option<u32>,
    /// rnLength, abLength, abComputeLength, nRec
    para: [Sv; 4],
}

fn flag(v: Option<&str>) -> bool {
    v.is_some_and(|v| v == "true" || v == "1")
}

/// A WelfordUpdateConfig template argument: WFUPDATE_DEFAULT_CFG ({false}) or a constexpr one's isInplace.
pub fn parse_inplace(text: Option<&str>) -> Result<bool, String> {
    let Some(text) = text else {
        return Ok(false);
    };
    if text.rsplit("::").next() == Some("WFUPDATE_DEFAULT_CFG") {
        return Ok(false);
    }
    let Some(fields) = text.strip_prefix("WelfordUpdateConfig:") else {
        return Err(format!(
            "the config template argument '{text}' is not a WelfordUpdateConfig constant the simulator can read"
        ));
    };
    for kv in fields.split(':') {
        if let Some(("isInplace" | "_0", v)) = kv.split_once('=') {
            return Ok(v
                .parse::<f64>()
                .map_err(|_| format!("WelfordUpdateConfig field '{kv}'"))?
                != 0.0);
        }
    }
    Ok(false)
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(WelfordUpdate {
        t: a.dtype("T")?,
        u: a.dtype("U")?,
        reuse: flag(a.targ("isReuseSource")),
        inplace: parse_inplace(a.targ("config"))?,
        out_mean: a.handle("outputMean")?,
        out_var: a.handle("outputVariance")?,
        in_mean: a.handle("inputMean")?,
        in_var: a.handle("inputVariance")?,
        x: a.handle("inputX")?,
        tmp: a.handle("sharedTmpBuffer").ok(),
        para: [
            a.field("para", "rnLength")?,
            a.field("para", "abLength")?,
            a.field("para", "abComputeLength")?,
            a.field("para", "nRec")?,
        ],
    }))
}

/// One Welford step for one column: (new mean, new M2).
pub fn step(x: f32, mean: f32, m2: f32, n_rec: f32) -> (f32, f32) {
    let d = x - mean;
    let new_mean = d * n_rec + mean;
    (new_mean, d * (x - new_mean) + m2)
}

/// The smallest sharedTmpBuffer in bytes: one 256-byte repeat per buffer the library carves.
pub fn min_tmp_bytes(t: DType, reuse: bool) -> usize {
    256 * if t == DType::F16 {
        3
    } else if reuse {
        1
    } else {
        2
    }
}

impl ApiOp for WelfordUpdate {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let (t, u) = (self.t, self.u);
        let rn = cx.uint(self.para[0]);
        let (ab, comp) = (cx.uint(self.para[1]) as usize, cx.uint(self.para[2]) as usize);
        let n_rec = cx.float(self.para[3]) as f32;
        let x_len = cx.handle(self.x).len;
        let bad = if !matches!(t, DType::F16 | DType::F32) || u != DType::F32 {
            Some(format!(
                "takes half or float inputX and float mean/variance, not {t:?} and {u:?}"
            ))
        } else if rn != 1 {
            Some(format!("para.rnLength is {rn}; the library supports only 1"))
        } else if comp == 0 || comp > ab {
            Some(format!("para.abComputeLength {comp} must be in 1..=abLength ({ab})"))
        } else if x_len >= 0 && ab * t.size() > x_len as usize {
            Some(format!(
                "para.abLength {ab} is more than inputX's {} elements",
                x_len as usize / t.size()
            ))
        } else if ab * t.size() % 32 != 0 {
            Some(format!(
                "para.abLength {ab} is not a whole number of 32-byte blocks of {t:?}"
            ))
        } else {
            None
        };
        if let Some(msg) = bad {
            cx.report(code::INVALID_OPERAND, format!("WelfordUpdate: {msg}"));
            return Flow::Next;
        }
        let width = if self.inplace { ab } else { comp };
        let what = "para's abComputeLength (abLength in place)";
        let mut failed = false;
        for (name, h) in [
            ("outputMean", self.out_mean),
            ("outputVariance", self.out_var),
            ("inputMean", self.in_mean),
            ("inputVariance", self.in_var),
        ] {
            failed = failed || too_small(cx, "WelfordUpdate", name, h, width * 4, what);
        }
        if let Some(tmp) = self.tmp {
            let need = min_tmp_bytes(t, self.reuse && t == DType::F32);
            failed = failed
                || too_small(
                    cx,
                    "WelfordUpdate",
                    "sharedTmpBuffer",
                    tmp,
                    need,
                    "one repeat of the library's buffers",
                );
        }
        if failed {
            return Flow::Next;
        }
        let Some((x, x_init)) = read_at(cx, self.x, 0, comp, t, "WelfordUpdate") else {
            return Flow::Next;
        };
        let Some((mean, m_init)) = read_at(cx, self.in_mean, 0, width, DType::F32, "WelfordUpdate") else {
            return Flow::Next;
        };
        let Some((var, v_init)) = read_at(cx, self.in_var, 0, width, DType::F32, "WelfordUpdate") else {
            return Flow::Next;
        };
        // the library's passes run in float over abComputeLength elements (rnLength is 1)
        crate::timing::vector_pass(cx.core, comp as u64, 4);
        let (mut out_m, mut out_v) = (mean.clone(), var.clone());
        for i in 0..comp {
            (out_m[i], out_v[i]) = step(x[i], mean[i], var[i], n_rec);
        }
        let init = x_init && m_init && v_init;
        write_at(cx, self.out_mean, 0, &out_m, DType::F32, init, "WelfordUpdate");
        write_at(cx, self.out_var, 0, &out_v, DType::F32, init, "WelfordUpdate");
        if self.reuse && t == DType::F32 {
            let diff: Vec<f32> = x.iter().zip(&mean).map(|(x, m)| x - m).collect();
            write_at(cx, self.x, 0, &diff, t, init, "WelfordUpdate");
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["WelfordUpdate"], &["plain", "tmp"], decode);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_steps_give_mean_and_m2() {
        // x = 2, 4, 9 (n = 1, 2, 3): means 2, 3, 5; M2 0, 2, 2 + (9 - 3) * (9 - 5) = 26
        let (mut m, mut v) = (0.0f32, 0.0f32);
        for (n, x) in [(1.0f32, 2.0f32), (2.0, 4.0), (3.0, 9.0)] {
            (m, v) = step(x, m, v, 1.0 / n);
        }
        assert_eq!((m, v), (5.0, 26.0));
    }

    #[test]
    fn configs_and_buffers() {
        assert!(!parse_inplace(None).unwrap());
        assert!(!parse_inplace(Some("AscendC::WFUPDATE_DEFAULT_CFG")).unwrap());
        assert!(parse_inplace(Some("WelfordUpdateConfig:isInplace=1")).unwrap());
        assert!(parse_inplace(Some("myCfg")).is_err());
        assert_eq!(min_tmp_bytes(DType::F16, false), 768);
        assert_eq!(min_tmp_bytes(DType::F32, true), 256);
        assert_eq!(min_tmp_bytes(DType::F32, false), 512);
    }
}
