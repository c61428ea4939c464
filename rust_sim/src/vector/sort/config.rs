//! Sort with a SortConfig template argument, the Ascend 950's form (asc-devkit docs 高阶API/排序操作/Sort.md,
//! "带SortConfig"): `Sort<T, isReuseSource, config>(dst[, dstIndex], src[, srcIndex][, sharedTmpBuffer], calCount)`.
//!
//! - calCount values of src, sorted ascending, or descending with `config.isDescend`; both algorithms are stable
//!   ("基排序RadixSort和归并排序MergeSort都为稳定排序，即相同值在排序后的先后顺序保持不变"), so equal values keep
//!   their order and the order is the stable sort's whatever the algorithm.
//! - dstIndex gets, for each sorted value, srcIndex's element at its position, or without srcIndex the position
//!   itself (uint32, from 0: "对输入数据从0开始生成所需排序数量的索引").
//! - RADIX_SORT (the default, DEFAULT_SORT_CONFIG = {RADIX_SORT, false}) takes 8- to 64-bit integers, half,
//!   bfloat16_t and float. MERGE_SORT, whose dst "needs 8 bytes per element" in a layout the page does not give,
//!   is reported as not modelled.
//! - Not documented, so warned about: where a NaN goes (here after every number, as numpy's sort), and the order of
//!   -0 and +0 (compared as numbers here: equal, kept in input order).
//! - sharedTmpBuffer is the library's scratch space; what it holds afterwards is not documented and the simulator
//!   leaves it as it was. The config is the template argument's folded constant (`SortConfig:_0=RADIX_SORT:_1=1`,
//!   by position or by field name, ascendir/lower/template_struct.py) or DEFAULT_SORT_CONFIG.

use std::cmp::Ordering;

use crate::api::{ApiOp, Args, Pipe};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::proposal::{meter, read, write};

const WHAT: &str = "Sort (SortConfig form)";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Config {
    merge: bool,
    descend: bool,
}

/// The template argument `config`: absent or DEFAULT_SORT_CONFIG (radix, ascending), or a folded SortConfig.
fn parse_config(text: Option<&str>) -> Result<Config, String> {
    let mut c = Config {
        merge: false,
        descend: false,
    };
    let Some(text) = text else { return Ok(c) };
    if text.ends_with("DEFAULT_SORT_CONFIG") {
        return Ok(c);
    }
    let fields = text
        .strip_prefix("SortConfig")
        .ok_or_else(|| format!("Sort with config {text}, a constant the program does not carry"))?;
    for item in fields.split(':').filter(|f| !f.is_empty()) {
        let (name, value) = item.split_once('=').unwrap_or((item, ""));
        let v = value.trim();
        match name.trim() {
            "_0" | "type" => {
                c.merge = match v.rsplit("::").next().unwrap_or(v) {
                    "RADIX_SORT" | "0" => false,
                    "MERGE_SORT" | "1" => true,
                    other => return Err(format!("SortConfig type {other}, not a SortType")),
                }
            }
            "_1" | "isDescend" => c.descend = !matches!(v, "0" | "false" | ""),
            other => return Err(format!("SortConfig field {other}, which the page does not declare")),
        }
    }
    Ok(c)
}

/// The stable order of `vals` (ascending, or descending with `descend`): positions, equal values by position; a NaN
/// after every number either way.
pub(super) fn stable_order(vals: &[f64], descend: bool) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..vals.len()).collect();
    idx.sort_by(|&a, &b| {
        let (x, y) = (vals[a], vals[b]);
        match (x.is_nan(), y.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ if descend => y.partial_cmp(&x).unwrap_or(Ordering::Equal),
            _ => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        }
    });
    idx
}

#[derive(Debug)]
struct SortConfigured {
    t: DType,
    config: Config,
    dst: u32,
    dst_index: Option<u32>,
    src: u32,
    /// srcIndex and its element type U
    src_index: Option<(u32, DType)>,
    count: Sv,
}

pub(super) fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let src_index = if a.has("srcIndex") {
        Some((a.handle("srcIndex")?, a.dtype("U")?))
    } else {
        None
    };
    Ok(Box::new(SortConfigured {
        t: a.dtype("T")?,
        config: parse_config(a.targ("config"))?,
        dst: a.handle("dst")?,
        dst_index: if a.has("dstIndex") {
            Some(a.handle("dstIndex")?)
        } else {
            None
        },
        src: a.handle("src")?,
        src_index,
        count: a.sv("calCount")?,
    }))
}

/// The values of float type `t` as numbers (`order` compares integers exactly, as i128: 64-bit ones beyond 2^53
/// would lose their order as f64).
fn keys(bytes: &[u8], n: usize, t: DType) -> Vec<f64> {
    (0..n)
        .map(|i| t.to_f64(t.load_bits(&bytes[i * t.size()..(i + 1) * t.size()])))
        .collect()
}

fn order(bytes: &[u8], n: usize, t: DType, descend: bool) -> Vec<usize> {
    if t.is_float() {
        return stable_order(&keys(bytes, n, t), descend);
    }
    // integers, 64-bit included, compared exactly
    let size = t.size();
    let vals: Vec<i128> = (0..n)
        .map(|i| {
            let bits = t.load_bits(&bytes[i * size..(i + 1) * size]);
            if t.is_signed() {
                t.to_i64(bits) as i128
            } else {
                bits as i128
            }
        })
        .collect();
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| {
        if descend {
            vals[b].cmp(&vals[a])
        } else {
            vals[a].cmp(&vals[b])
        }
    });
    idx
}

impl SortConfigured {
    fn warn_undocumented(&self, cx: &mut Ctx, bytes: &[u8], n: usize, t: DType) {
        if !t.is_float() {
            return;
        }
        let vals = keys(bytes, n, t);
        if vals.iter().any(|v| v.is_nan()) {
            cx.warn(
                code::INVALID_OPERAND,
                format!("{WHAT}: a NaN value; where the sort puts it is not documented (the simulator: last)"),
            );
        }
        let (neg, pos) = (
            vals.iter().any(|v| *v == 0.0 && v.is_sign_negative()),
            vals.iter().any(|v| *v == 0.0 && v.is_sign_positive()),
        );
        if neg && pos {
            cx.warn(
                code::INVALID_OPERAND,
                format!("{WHAT}: both -0 and +0; their order is not documented (the simulator: equal, in input order)"),
            );
        }
    }
}

impl ApiOp for SortConfigured {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        if cx.prog.chip != "950PR" {
            cx.report(
                code::NOT_MODELLED,
                format!("{WHAT} exists on the Ascend 950 only, not on the {}", cx.prog.chip),
            );
            return Flow::Stop;
        }
        if self.config.merge {
            cx.report(
                code::NOT_MODELLED,
                format!("{WHAT} with SortType::MERGE_SORT: its dst layout (8 bytes per element) is not documented"),
            );
            return Flow::Stop;
        }
        let t = self.t;
        let n = cx.int(self.count);
        if n < 0 {
            cx.report(code::INVALID_OPERAND, format!("{WHAT} with calCount {n}"));
            return Flow::Next;
        }
        let n = n as usize;
        meter(cx, (n * t.size()).div_ceil(256) as u64, n as u64);
        if n == 0 {
            return Flow::Next;
        }
        let src = cx.handle(self.src);
        let Some((bytes, init)) = read(cx, src, 0, n * t.size(), WHAT) else {
            return Flow::Next;
        };
        self.warn_undocumented(cx, &bytes, n, t);
        let perm = order(&bytes, n, t, self.config.descend);
        let size = t.size();
        let gather = |data: &[u8], width: usize| -> Vec<u8> {
            perm.iter()
                .flat_map(|&i| data[i * width..(i + 1) * width].to_vec())
                .collect()
        };
        let index = match self.src_index {
            Some((h, u)) => {
                let h = cx.handle(h);
                let Some((ib, ii)) = read(cx, h, 0, n * u.size(), WHAT) else {
                    return Flow::Next;
                };
                Some((gather(&ib, u.size()), gather(&ii, u.size()), u))
            }
            None => {
                let ib: Vec<u8> = perm.iter().flat_map(|&i| (i as u32).to_le_bytes()).collect();
                Some((ib, vec![1u8; n * 4], DType::U32))
            }
        };
        let dst = cx.handle(self.dst);
        write(cx, dst, 0, &gather(&bytes, size), &gather(&init, size), t, WHAT);
        if let (Some(h), Some((ib, ii, u))) = (self.dst_index, index) {
            let h = cx.handle(h);
            write(cx, h, 0, &ib, &ii, u, WHAT);
        }
        Flow::Next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_is_read_by_position_by_name_and_by_default() {
        let asc = Config {
            merge: false,
            descend: false,
        };
        assert_eq!(parse_config(None), Ok(asc));
        assert_eq!(parse_config(Some("AscendC::DEFAULT_SORT_CONFIG")), Ok(asc));
        assert_eq!(
            parse_config(Some("SortConfig:_0=RADIX_SORT:_1=1")),
            Ok(Config {
                merge: false,
                descend: true
            })
        );
        assert_eq!(
            parse_config(Some("SortConfig:type=MERGE_SORT:isDescend=0")),
            Ok(Config {
                merge: true,
                descend: false
            })
        );
        assert!(parse_config(Some("SortConfig:_0=BUBBLE")).is_err());
        assert!(
            parse_config(Some("sortConfig")).is_err(),
            "a config the lowering could not fold"
        );
    }

    #[test]
    fn the_order_is_stable_both_ways_and_puts_nan_last() {
        let v = [3.0, 1.0, 3.0, f64::NAN, -2.0, 1.0];
        assert_eq!(stable_order(&v, false), vec![4, 1, 5, 0, 2, 3]);
        assert_eq!(stable_order(&v, true), vec![0, 2, 1, 5, 4, 3]);
    }

    #[test]
    fn sixty_four_bit_integers_compare_exactly() {
        let vals: [i64; 3] = [(1 << 60) + 1, 1 << 60, -5];
        let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(order(&bytes, 3, DType::I64, false), vec![2, 1, 0]);
        let big: Vec<u8> = [u64::MAX, 7].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(order(&big, 2, DType::U64, true), vec![0, 1]);
    }
}
