//! The 950's multi-dimensional GM -> UB copy, NDDMA: `DataCopy<T, dim, config>(dstLocal, srcGlobal, params)`
//! with `MultiCopyParams<T, dim>` (alias NdDmaParams).
//!
//! asc-devkit's page (docs/zh/api/SIMD-API/基础API/Memory矢量计算/数据搬运/GM与UB数据搬运/
//! GMToUB多维数据搬运NDDMA(DataCopy).md) and DataCopyWithNDDMAImpl (impl/basic_api/dav_3510/
//! kernel_operator_data_copy_impl.h) define it: up to five nested loops, index 0 the innermost; dimension k runs
//! over `loopLpSize[k] + loopSize[k] + loopRpSize[k]` positions, the destination element of a position i_k is at
//! `sum i_k * loopDstStride[k]` (strides in elements, padding counted), and a position inside every dimension's
//! data reads GM at `sum (i_k - loopLpSize[k]) * loopSrcStride[k]`. A padding position gets
//! `params.constantValue`, or with `config.isNearestValueMode` the value of the nearest data position of that
//! dimension (the page: "左右Padding值会选取当前维度最左或最右的值进行填充"). A config's loopLpSize /
//! loopRpSize other than unsetPad (0xffff) replace every dimension's. 64-bit types are copied by the
//! implementation as two 32-bit halves, which moves the same bytes; their padding may only be the constant 0
//! (a static_assert and an assert there).

use crate::api::{ApiOp, Args, Pipe, Registry, StackArray};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::Handle;
use crate::program::Sv;

/// NdDmaConfig::unsetPad: the config leaves the paddings to the per-dimension arrays.
const UNSET_PAD: u64 = 0xffff;
const MAX_DIM: usize = 5;

/// The template argument `config`: a folded `NdDmaConfig` constant (`NdDmaConfig:_0=1`, by position or by
/// field name), or the default kDefaultNdDmaConfig (its old name kDefaultMultiCopyConfig).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Config {
    nearest: bool,
    lp: u64,
    rp: u64,
}

fn parse_config(text: Option<&str>) -> Result<Config, String> {
    let mut c = Config {
        nearest: false,
        lp: UNSET_PAD,
        rp: UNSET_PAD,
    };
    let Some(text) = text else {
        return Ok(c);
    };
    if text.ends_with("kDefaultNdDmaConfig") || text.ends_with("kDefaultMultiCopyConfig") {
        return Ok(c);
    }
    let fields = text
        .strip_prefix("NdDmaConfig")
        .or_else(|| text.strip_prefix("MultiCopyConfig"))
        .ok_or_else(|| format!("the NDDMA DataCopy with config {text}, a constant the program does not carry"))?;
    for item in fields.split(':').filter(|f| !f.is_empty()) {
        let (name, value) = item.split_once('=').unwrap_or((item, ""));
        let v = value.trim();
        let number = || {
            v.parse::<u64>()
                .map_err(|_| format!("NdDmaConfig field {name} = {v} is not a number"))
        };
        match name.trim() {
            "_0" | "isNearestValueMode" => c.nearest = v != "0" && v != "false",
            "_1" | "loopLpSize" => c.lp = number()?,
            "_2" | "loopRpSize" => c.rp = number()?,
            _ => {} // ascOptimize: reserved, "暂不支持"
        }
    }
    Ok(c)
}

/// One `uint64_t loopSrcStride[dim]`-like member of MultiCopyLoopInfo: a C array on the scalar stack.
fn column(a: &Args, name: &str) -> Result<StackArray, String> {
    a.array(
        &format!("params.loopInfo.{name}"),
        0,
        0,
        "MultiCopyLoopInfo array member",
    )
}

#[derive(Debug)]
struct NdDma {
    t: DType,
    dim: usize,
    config: Config,
    dst: u32,
    src: u32,
    src_stride: StackArray,
    dst_stride: StackArray,
    size: StackArray,
    lp: StackArray,
    rp: StackArray,
    value: Sv,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let t = a.dtype("T")?;
    let dim: usize = a
        .targ("dim")
        .ok_or("the NDDMA DataCopy without its dim template argument")?
        .parse()
        .map_err(|_| format!("the NDDMA DataCopy's dim {:?} is not a number", a.targ("dim")))?;
    if !(1..=MAX_DIM).contains(&dim) {
        return Err(format!(
            "the NDDMA DataCopy with dim {dim}: MultiCopyLoopInfo takes 1 to 5 dimensions"
        ));
    }
    Ok(Box::new(NdDma {
        t,
        dim,
        config: parse_config(a.targ("config"))?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        src_stride: column(a, "loopSrcStride")?,
        dst_stride: column(a, "loopDstStride")?,
        size: column(a, "loopSize")?,
        lp: column(a, "loopLpSize")?,
        rp: column(a, "loopRpSize")?,
        value: a.field("params", "constantValue")?,
    }))
}

/// One dimension's loop: left padding, data, right padding (elements), and its two strides (elements).
#[derive(Debug, Clone, Copy)]
struct Loop {
    lp: i64,
    size: i64,
    rp: i64,
    ss: i64,
    ds: i64,
}

impl Loop {
    fn positions(&self) -> i64 {
        self.lp + self.size + self.rp
    }

    /// The data index position `i` reads: itself inside the data, the nearest end in the padding (`nearest`),
    /// else None (the constant).
    fn source(&self, i: i64, nearest: bool) -> Option<i64> {
        let j = i - self.lp;
        if (0..self.size).contains(&j) {
            Some(j)
        } else if nearest {
            Some(j.clamp(0, self.size - 1))
        } else {
            None
        }
    }
}

impl NdDma {
    fn loops(&self, cx: &Ctx) -> Vec<Loop> {
        (0..self.dim)
            .map(|k| {
                let pad = |cfg: u64, col: &StackArray| {
                    if cfg == UNSET_PAD {
                        col.get(cx, k) & 0xff
                    } else {
                        cfg & 0xff
                    }
                };
                Loop {
                    lp: pad(self.config.lp, &self.lp) as i64,
                    size: self.size.get(cx, k) as i64,
                    rp: pad(self.config.rp, &self.rp) as i64,
                    ss: self.src_stride.get(cx, k) as i64,
                    ds: self.dst_stride.get(cx, k) as i64,
                }
            })
            .collect()
    }

    fn fill(&self, cx: &mut Ctx, dst: Handle, elem: i64, bits: u64) -> bool {
        let size = self.t.size();
        let Some(at) = cx.range(dst, elem * size as i64, size as i64, true, size, "DataCopy (NDDMA)") else {
            return false;
        };
        let mut data = [0u8; 8];
        self.t.store_bits(&mut data, bits);
        cx.store_bytes(dst, at, &data[..size], &[1u8; 8][..size], self.t, "DataCopy (NDDMA)");
        true
    }
}

impl ApiOp for NdDma {
    fn pipe(&self) -> Pipe {
        Pipe::Mte2
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let dst = cx.handle(self.dst);
        let src = cx.handle(self.src);
        let loops = self.loops(cx);
        let nearest = self.config.nearest;
        if self.t.size() == 8 && nearest {
            cx.report(
                code::INVALID_OPERAND,
                "the NDDMA DataCopy of a 64-bit type with isNearestValueMode: the implementation allows only the \
                 constant padding (a static_assert)"
                    .into(),
            );
            return Flow::Next;
        }
        if nearest {
            if let Some(k) = loops.iter().position(|l| l.size == 0 && l.lp + l.rp > 0) {
                cx.report(
                    code::INVALID_OPERAND,
                    format!(
                        "the NDDMA DataCopy pads dimension {k} with the nearest value, but loopSize[{k}] is 0: \
                         there is no value to take"
                    ),
                );
                return Flow::Next;
            }
        }
        let bits = cx.value_as(self.value, self.t);
        let size = self.t.size() as i64;
        let inner = loops[0];
        // every position of the outer dimensions (1..dim), innermost first; each is one row of dimension 0
        let outer = &loops[1..];
        let rows: i64 = outer.iter().map(Loop::positions).product();
        for row in 0..rows {
            let (mut rest, mut dst_at, mut src_at, mut data) = (row, 0i64, 0i64, true);
            for l in outer {
                let i = rest % l.positions();
                rest /= l.positions();
                dst_at += i * l.ds;
                match l.source(i, nearest) {
                    Some(j) => src_at += j * l.ss,
                    None => data = false,
                }
            }
            // the row's data contiguous on both sides: one copy, the padding around it element by element
            let whole = inner.ss == 1 && inner.ds == 1 && data && inner.size > 0;
            if whole {
                let at = (dst_at + inner.lp) * size;
                if !cx.copy(
                    dst,
                    at,
                    src,
                    src_at * size,
                    inner.size * size,
                    self.t,
                    "DataCopy (NDDMA)",
                ) {
                    return Flow::Next;
                }
            }
            for i in 0..inner.positions() {
                if whole && (0..inner.size).contains(&(i - inner.lp)) {
                    continue;
                }
                let d = dst_at + i * inner.ds;
                let ok = match if data { inner.source(i, nearest) } else { None } {
                    Some(j) => {
                        let s = (src_at + j * inner.ss) * size;
                        cx.copy(dst, d * size, src, s, size, self.t, "DataCopy (NDDMA)")
                    }
                    None => self.fill(cx, dst, d, bits),
                };
                if !ok {
                    return Flow::Next;
                }
            }
        }
        Flow::Next
    }
}

/// NdDmaDci (NdDmaDci.md): flushes the 32 KB NDDMA cache so that GM another core wrote is read fresh before a
/// multi-dimensional DataCopy. The simulator's copies read GM itself: no cache goes stale, nothing to do.
#[derive(Debug)]
struct Dci;

impl ApiOp for Dci {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, _cx: &mut Ctx) -> Flow {
        Flow::Next
    }
}

fn decode_dci(_: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(Dci))
}

pub fn register(r: &mut Registry) {
    r.add_all(&["DataCopy"], &["nddma_gm_to_local"], decode);
    r.add_all(&["NdDmaDci"], &["plain"], decode_dci);
}

#[cfg(test)]
#[path = "nddma_tests.rs"]
mod tests;
