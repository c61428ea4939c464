//! CumSum<T, config>(dst, lastRow, src[, sharedTmpBuffer], cumSumInfo{outter, inner}): running sums of an
//! [outter, inner] source along the last axis (each row on its own: dst[i][j] = src[i][0] + ... + src[i][j]) or
//! the first axis (each column: dst[i][j] = src[0][j] + ... + src[i][j]), as config.isLastAxis says; with
//! config.outputLastRow, lastRow also gets dst's last row. (The vendor's API page, and asc-devkit
//! impl/adv_api/detail/math/cumsum/cumsum_common_impl.h for the 220x chips.)
//!
//! `config` is a CumSumConfig constant, a template argument: the lowering passes its fields as
//! `config=CumSumConfig:isLastAxis=1:isReuseSource=0:outputLastRow=0`; none means the library's
//! defaultCumSumConfig {true, false, true}.
//!
//! Precision: the library sums in f32 (a half source is cast up, summed, cast back once), one addition per step
//! in order, so does this.
//!
//! Temporary space: the last-axis form transposes 16 rows at a time through the temporary buffer and needs at
//! least GetCumSumMaxMinTmpSize's minimum (2 * 16 * inner * sizeof(T), plus 16 * inner * sizeof(half) for half);
//! the first-axis form needs outter * inner floats for half and none for float. The caller's sharedTmpBuffer, or
//! without one the UB left after the TPipe's buffers (PopStackBuffer). With less, the library's group count comes
//! out 0 and the transposes of the whole source write past the space: an error, and the core stops.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::Space;
use crate::program::Sv;
use crate::vector::elem::{load_f32, store_f32};

/// The fields of a CumSumConfig.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CumSumConfig {
    pub last_axis: bool,
    pub output_last_row: bool,
}

/// The library's defaultCumSumConfig (include/adv_api/math/cumsum.h): {true, false, true}.
const DEFAULT_CONFIG: CumSumConfig = CumSumConfig {
    last_axis: true,
    output_last_row: true,
};

/// Reads `CumSumConfig:isLastAxis=1:isReuseSource=0:outputLastRow=0` (positional fields `_0`, `_1`, `_2` as
/// the struct's order: isLastAxis, isReuseSource, outputLastRow).
pub fn parse_config(text: Option<&str>) -> Result<CumSumConfig, String> {
    let Some(text) = text else {
        return Ok(DEFAULT_CONFIG);
    };
    let Some(fields) = text.strip_prefix("CumSumConfig:") else {
        return Err(format!(
            "CumSum's config template argument '{text}' is not a CumSumConfig constant the simulator can read"
        ));
    };
    // a field the initialiser leaves out keeps the struct's default: {true, false, false}
    let mut c = CumSumConfig {
        last_axis: true,
        output_last_row: false,
    };
    for kv in fields.split(':') {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("CumSum config field '{kv}'"))?;
        let on = v.parse::<i64>().map_err(|_| format!("CumSum config field '{kv}'"))? != 0;
        match k {
            "isLastAxis" | "_0" => c.last_axis = on,
            "outputLastRow" | "_2" => c.output_last_row = on,
            _ => {}
        }
    }
    Ok(c)
}

#[derive(Debug)]
struct CumSum {
    t: DType,
    config: CumSumConfig,
    dst: u32,
    last_row: u32,
    src: u32,
    tmp: Option<u32>,
    outter: Sv,
    inner: Sv,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(CumSum {
        t: a.dtype("T")?,
        config: parse_config(a.targ("config"))?,
        dst: a.handle("dstTensor")?,
        last_row: a.handle("lastRowTensor")?,
        src: a.handle("srcTensor")?,
        tmp: if a.overload == "tmp" {
            Some(a.handle("sharedTmpBuffer")?)
        } else {
            None
        },
        outter: a.field("cumSumInfo", "outter")?,
        inner: a.field("cumSumInfo", "inner")?,
    }))
}

/// GetCumSumMaxMinTmpSize's minimum (asc-devkit impl/adv_api/tiling/math/cumsum_tiling.cpp), in bytes.
pub fn min_tmp_bytes(t: DType, last_axis: bool, outter: u64, inner: u64) -> u64 {
    let half = t.size() == 2;
    if last_axis {
        let cast = if half { inner * 16 * 2 } else { 0 };
        cast + 16 * inner * t.size() as u64 * 2
    } else if half {
        outter * inner * 4
    } else {
        0
    }
}

/// The running sums of `v` ([rows, inner], row-major) along the last axis or the first, in f32, in order.
pub fn running_sums(v: &mut [f32], rows: usize, inner: usize, last_axis: bool) {
    if last_axis {
        for r in v.chunks_mut(inner.max(1)).take(rows) {
            for j in 1..r.len() {
                r[j] += r[j - 1];
            }
        }
    } else {
        for i in 1..rows {
            let (done, rest) = v.split_at_mut(i * inner);
            let prev = &done[(i - 1) * inner..];
            for (x, p) in rest[..inner].iter_mut().zip(prev) {
                *x += *p;
            }
        }
    }
}

impl ApiOp for CumSum {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        let sz = t.size();
        let (rows, inner) = (cx.uint(self.outter) as usize, cx.uint(self.inner) as usize);
        if inner == 0 || !(inner * sz).is_multiple_of(32) {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "CumSum's cumSumInfo.inner is {inner}: inner * sizeof(T) ({} bytes) must be a positive \
                     multiple of 32 bytes",
                    inner * sz
                ),
            );
            return Flow::Stop;
        }
        crate::timing::vector_pass(cx.core, (rows * inner) as u64, sz as u64);
        let need = min_tmp_bytes(t, self.config.last_axis, rows as u64, inner as u64) as i64;
        if need > 0 {
            let (have, place) = crate::queue::tmp_space(cx, self.tmp).unwrap_or((need, String::new()));
            if let (Some(h), true) = (self.tmp, have >= need) {
                // the transposes write the buffer's first `need` bytes: a buffer placed past the end of UB (an
                // InitBuffer the device placed without a check) faults there
                let th = cx.handle(h);
                if cx.range(th, 0, need, true, 1, "CumSum's temporary buffer").is_none() {
                    return Flow::Stop;
                }
            }
            if have < need {
                let code = if self.tmp.is_some() {
                    code::INVALID_OPERAND
                } else {
                    code::LOCAL_OUT_OF_BOUNDS
                };
                cx.report(
                    code,
                    format!(
                        "CumSum over [{rows}, {inner}] needs at least {need} bytes of temporary space \
                         (GetCumSumMaxMinTmpSize's minimum), and {place} holds {have}: the library's transposes \
                         write past it (on the device: 'ub address out of bounds')"
                    ),
                );
                return Flow::Stop;
            }
        }
        let n = rows * inner;
        let src = cx.handle(self.src);
        let Some(at) = cx.range(src, 0, (n * sz) as i64, false, sz, "CumSum") else {
            return Flow::Stop;
        };
        let Space::Local(mem) = src.space else {
            return Flow::Next;
        };
        let (mut v, init) = {
            let local = cx.local(mem);
            let mut v = vec![0f32; n];
            load_f32(t, &local.data.as_slice()[at..at + n * sz], &mut v);
            (v, crate::memory::all_ones(&local.init[at..at + n * sz]))
        };
        running_sums(&mut v, rows, inner, self.config.last_axis);
        let mut bytes = vec![0u8; n * sz];
        store_f32(t, &v, &mut bytes);
        let dst = cx.handle(self.dst);
        match cx.range(dst, 0, bytes.len() as i64, true, sz, "CumSum") {
            Some(d) => cx.store_bytes(dst, d, &bytes, &vec![init as u8; bytes.len()], t, "CumSum"),
            None => return Flow::Stop,
        }
        if self.config.output_last_row && rows > 0 {
            let last = &bytes[(rows - 1) * inner * sz..];
            let lr = cx.handle(self.last_row);
            match cx.range(lr, 0, last.len() as i64, true, sz, "CumSum") {
                Some(d) => cx.store_bytes(lr, d, last, &vec![init as u8; last.len()], t, "CumSum"),
                None => return Flow::Stop,
            }
        }
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["CumSum"], &["plain", "tmp"], decode);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_from_the_lowering_and_the_default() {
        assert_eq!(parse_config(None).unwrap(), DEFAULT_CONFIG);
        let c = parse_config(Some("CumSumConfig:isLastAxis=0:isReuseSource=0:outputLastRow=1")).unwrap();
        assert_eq!(
            c,
            CumSumConfig {
                last_axis: false,
                output_last_row: true
            }
        );
        // positional fields, and a field left out keeps the struct's default (outputLastRow false)
        let c = parse_config(Some("CumSumConfig:_0=1")).unwrap();
        assert!(c.last_axis && !c.output_last_row);
        assert!(parse_config(Some("kConfig")).is_err());
    }

    #[test]
    fn running_sums_along_either_axis() {
        // the API page's example: [[0, 1, 2], [3, 4, 5]]
        let mut v = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0];
        running_sums(&mut v, 2, 3, true);
        assert_eq!(v, [0.0, 1.0, 3.0, 3.0, 7.0, 12.0]);
        let mut v = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0];
        running_sums(&mut v, 2, 3, false);
        assert_eq!(v, [0.0, 1.0, 2.0, 3.0, 5.0, 7.0]);
    }

    #[test]
    fn temporary_space_minimum() {
        // float, last axis: two transposes of 16 rows of inner floats
        assert_eq!(min_tmp_bytes(DType::F32, true, 128, 4000), 2 * 16 * 4000 * 4);
        // half, last axis: the cast buffer as well
        assert_eq!(min_tmp_bytes(DType::F16, true, 1, 16), 16 * 16 * 2 + 2 * 16 * 16 * 2);
        assert_eq!(min_tmp_bytes(DType::F32, false, 8, 8), 0);
        assert_eq!(min_tmp_bytes(DType::F16, false, 8, 16), 8 * 16 * 4);
    }
}
