//! The repeat/mask engine: a call's form (count, or mask + repeats + strides) -> the runs of contiguous
//! elements it touches, one per block span of set lanes, merged where every operand is contiguous.

use super::{BLOCK_BYTES, REPEAT_BYTES};
use crate::api::{Arg, Args, StackArray};
use crate::checks::code;
use crate::core::Ctx;
use crate::memory::Handle;
use crate::program::Sv;

/// The mask operand of a repeat-form call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaskArg {
    /// continuous: the first N lanes of each repeat (or, in Counter mode, N elements in all)
    Cont(Sv),
    /// `uint64_t mask[2]` on the scalar stack: bit i of word i/64 = lane i
    Bits(StackArray),
}

/// How a vector call says which elements it works on.
#[derive(Clone, Debug, PartialEq)]
pub enum Form {
    Count(Sv),
    /// `repeat` None: one repeat (calls with no repeat operand)
    Repeat {
        mask: MaskArg,
        repeat: Option<Sv>,
        set_mask: bool,
        strides: Vec<Stride>,
    },
}

/// One operand's block and repeat strides (in 32-byte blocks); None = the default (1 and 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Stride {
    pub blk: Option<Sv>,
    pub rep: Option<Sv>,
}

impl Form {
    /// Reads the form of a call: `count`, or `mask` + `repeatTime` + the strides of `params` (a repeat-params
    /// struct) named by `fields`: (block stride field, repeat stride field) per operand, dst first.
    pub fn decode(a: &Args, params: &str, fields: &[(&str, &str)]) -> Result<Form, String> {
        if a.overload.starts_with("count") || a.overload.ends_with("count") {
            let name = ["count", "calCount", "dataSize"]
                .into_iter()
                .find(|n| a.has(n))
                .unwrap_or("count");
            return Ok(Form::Count(a.sv(name)?));
        }
        let mask = match (a.get("mask"), a.stack_array("mask")) {
            (Some(Arg::Reg(sv)), _) => MaskArg::Cont(*sv),
            (_, Some(bits)) => MaskArg::Bits(bits),
            (other, _) => return Err(format!("mask operand {other:?}")),
        };
        let repeat = a.opt_sv("repeatTime")?.or(a.opt_sv("repeatTimes")?);
        // `<T, false>` reaches here as isSetMask=0, `<T, isSetMask = false>` spelled out as false
        let set_mask = !matches!(a.targ("isSetMask"), Some("false") | Some("0"));
        let mut strides = Vec::new();
        for (blk, rep) in fields {
            let get = |f: &str| -> Result<Option<Sv>, String> {
                if f.is_empty() {
                    return Ok(None);
                }
                if params.is_empty() {
                    a.opt_sv(f)
                } else {
                    a.opt_field(params, f)
                }
            };
            strides.push(Stride {
                blk: get(blk)?,
                rep: get(rep)?,
            });
        }
        Ok(Form::Repeat {
            mask,
            repeat,
            set_mask,
            strides,
        })
    }
}

/// A span of `n` contiguous elements, at byte address `addr[i]` of operand i; `lane` is the lane of its
/// first element in repeat `rep` (count form: rep 0, lanes counted from 0 across the whole span).
#[derive(Clone, Copy, Debug)]
pub struct Run {
    pub addr: [i64; 4],
    pub n: u32,
    pub lane: u32,
    pub rep: u32,
}

/// An operand: its tensor, element size, and the byte distances between its blocks and repeats.
#[derive(Clone, Copy, Debug)]
pub struct Geom {
    pub h: Handle,
    pub size: usize,
}

/// The elements a call touches, resolved from its form at run time.
pub struct Plan {
    pub runs: Vec<Run>,
    /// elements per repeat (256 bytes of the widest operand)
    pub lanes: usize,
    /// repeats (count form: the repeats it would take)
    pub repeats: u64,
    pub elements: u64,
}

/// Resolves `form` for operands `geoms` (dst first). None after reporting an invalid operand.
pub fn plan(cx: &mut Ctx, form: &Form, geoms: &[Geom], what: &str) -> Option<Plan> {
    let widest = geoms.iter().map(|g| g.size).max().unwrap_or(1).max(1);
    let lanes = (REPEAT_BYTES as usize) / widest;
    let epb = (BLOCK_BYTES as usize) / widest;
    match form {
        Form::Count(c) => {
            let count = cx.int(*c);
            if count < 0 {
                cx.report(code::INVALID_OPERAND, format!("{what} of {count} elements"));
                return None;
            }
            let mut addr = [0i64; 4];
            for (i, g) in geoms.iter().enumerate().take(4) {
                addr[i] = g.h.addr;
            }
            let runs = if count == 0 {
                vec![]
            } else {
                vec![Run {
                    addr,
                    n: count as u32,
                    lane: 0,
                    rep: 0,
                }]
            };
            let repeats = (count as u64).div_ceil(lanes as u64);
            if let Some(m) = crate::timing::meter(cx.core) {
                m.vector(repeats, count as u64);
            }
            Some(Plan {
                runs,
                lanes,
                repeats,
                elements: count as u64,
            })
        }
        Form::Repeat {
            mask,
            repeat,
            set_mask,
            strides,
        } => {
            let repeat_n = repeat.map(|r| cx.uint(r)).unwrap_or(1);
            if repeat_n > 255 {
                cx.report(
                    code::INVALID_OPERAND,
                    format!("{what} with repeatTime {repeat_n}; at most 255"),
                );
                return None;
            }
            let counter = cx.core.mask.counter;
            // the lanes: from the call (isSetMask) or from the mask register
            let (bits, count) =
                if *set_mask {
                    match mask {
                        MaskArg::Cont(sv) => {
                            let n = cx.uint(*sv);
                            if counter {
                                ([u64::MAX; 2], Some(n))
                            } else {
                                if n == 0 || n as usize > lanes {
                                    cx.report(
                                        code::INVALID_OPERAND,
                                        format!(
                                    "{what} with a continuous mask of {n} lanes; a repeat of {}-byte elements has \
                                     {lanes} (1 to {lanes})", widest),
                                    );
                                    return None;
                                }
                                (first_lanes(n as usize), None)
                            }
                        }
                        MaskArg::Bits(bits) => {
                            let words = bits.first(cx, u64::MAX);
                            if counter {
                                ([u64::MAX; 2], Some(words[0]))
                            } else {
                                if words == [0, 0] {
                                    cx.report(code::INVALID_OPERAND, format!("{what} with a bit mask of all zeros"));
                                    return None;
                                }
                                (words, None)
                            }
                        }
                    }
                } else if counter {
                    ([u64::MAX; 2], Some(cx.core.mask.bits[0]))
                } else {
                    (cx.core.mask.bits, None)
                };
            let (repeats, tail) = match count {
                Some(n) => ((n as usize).div_ceil(lanes) as u64, n as usize % lanes),
                None => (repeat_n, 0),
            };
            let mut geo: Vec<(i64, i64, i64, usize)> = Vec::new(); // (base, blk bytes, rep bytes, size)
            for (i, g) in geoms.iter().enumerate() {
                let s = strides.get(i).copied().unwrap_or_default();
                let blk = s.blk.map(|v| cx.uint(v) as i64).unwrap_or(1);
                let rep = s.rep.map(|v| cx.uint(v) as i64).unwrap_or(8);
                let block_bytes = (epb * g.size) as i64; // a narrower operand's block holds as many elements
                geo.push((g.h.addr, blk * block_bytes, rep * BLOCK_BYTES, g.size));
            }
            let runs = repeat_runs(&geo, repeats as usize, lanes, epb, bits, tail);
            let elements = runs.iter().map(|r| r.n as u64).sum();
            if let Some(m) = crate::timing::meter(cx.core) {
                m.vector(repeats, elements);
            }
            Some(Plan {
                runs,
                lanes,
                repeats,
                elements,
            })
        }
    }
}

fn first_lanes(n: usize) -> [u64; 2] {
    let lo = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    let hi = if n >= 128 {
        u64::MAX
    } else if n > 64 {
        (1u64 << (n - 64)) - 1
    } else {
        0
    };
    [lo, hi]
}

fn lane_on(bits: [u64; 2], lane: usize) -> bool {
    lane < 128 && (bits[lane / 64] >> (lane % 64)) & 1 == 1
}

/// The runs of a repeat-form call: per repeat and block, each span of set lanes; merged across blocks and
/// repeats where every operand is contiguous.
fn repeat_runs(
    geo: &[(i64, i64, i64, usize)],
    repeats: usize,
    lanes: usize,
    epb: usize,
    bits: [u64; 2],
    tail: usize,
) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for r in 0..repeats {
        let last = tail != 0 && r + 1 == repeats;
        for b in 0..(lanes / epb) {
            let mut lane = b * epb;
            let end = lane + epb;
            while lane < end {
                let on = |l: usize| if last { l < tail } else { lane_on(bits, l) };
                if !on(lane) {
                    lane += 1;
                    continue;
                }
                let start = lane;
                while lane < end && on(lane) {
                    lane += 1;
                }
                let mut addr = [0i64; 4];
                for (i, &(base, blk, rep, size)) in geo.iter().enumerate().take(4) {
                    addr[i] = base + r as i64 * rep + b as i64 * blk + ((start - b * epb) * size) as i64;
                }
                let n = (lane - start) as u32;
                if let Some(prev) = runs.last_mut() {
                    let contiguous = geo
                        .iter()
                        .enumerate()
                        .take(4)
                        .all(|(i, g)| prev.addr[i] + prev.n as i64 * g.3 as i64 == addr[i]);
                    if contiguous && (prev.rep as usize == r) {
                        prev.n += n;
                        continue;
                    }
                }
                runs.push(Run {
                    addr,
                    n,
                    lane: start as u32,
                    rep: r as u32,
                });
            }
        }
    }
    runs
}
