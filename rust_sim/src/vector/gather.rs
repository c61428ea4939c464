//! Gathers and layout changes: Gather (byte offsets), GatherMask (a bit pattern compacts the selected
//! elements), CreateVecIndex, Brcb (each element broadcast to a 32-byte block), Transpose of a 16x16 block.

use crate::api::{ApiOp, Arg, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::Space;
use crate::program::Sv;
use crate::vector::{check_count_fits, check_footprint, elementwise, geoms, plan, Form};

/// Copies `n` bytes of local memory out, checked, with their initialised flags; None after reporting.
fn read_bytes(cx: &mut Ctx, h: crate::memory::Handle, off: i64, n: usize, what: &str) -> Option<(Vec<u8>, Vec<u8>)> {
    let at = cx.range(h, off, n as i64, false, 1, what)?;
    match h.space {
        Space::Local(m) => {
            let local = cx.local(m);
            Some((
                local.data.as_slice()[at..at + n].to_vec(),
                local.init[at..at + n].to_vec(),
            ))
        }
        _ => {
            cx.report(code::INVALID_OPERAND, format!("{what}: a vector operand in GM"));
            None
        }
    }
}

fn write_bytes(cx: &mut Ctx, h: crate::memory::Handle, off: i64, data: &[u8], init: &[u8], t: DType, what: &str) {
    let Some(at) = cx.range(h, off, data.len() as i64, true, t.size(), what) else {
        return;
    };
    cx.store_bytes(h, at, data, init, t, what);
}

// ---------------------------------------------------------------------------------------------------------

#[derive(Debug)]
struct Gather {
    t: DType,
    dst: u32,
    src: u32,
    offsets: u32,
    base: Sv,
    form: Form,
}

fn decode_gather(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let form = Form::decode(a, "", &[("", "dstRepStride"), ("", ""), ("", "")])?;
    Ok(Box::new(Gather {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
        offsets: a.handle("srcOffset")?,
        base: a.sv("srcBaseAddr")?,
        form,
    }))
}

impl ApiOp for Gather {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        let sz = t.size();
        // dst and the offsets (uint32) walk together
        let g = geoms(cx, &[self.dst, self.offsets], &[t, DType::U32]);
        let Some(p) = plan(cx, &self.form, &g, "Gather") else {
            return Flow::Next;
        };
        check_count_fits(cx, &self.form, &g, &["dst", "srcOffset"], "Gather");
        let Some(mem) = check_footprint(cx, &g, &p.runs, &["dst", "srcOffset"], "Gather") else {
            return Flow::Next;
        };
        let src = cx.handle(self.src);
        let base = cx.uint(self.base) as i64;
        let src_size = cx.local_size(mem) as i64;
        // read the whole source memory view once: offsets may point anywhere in it
        let data = cx.local(mem).data.as_slice().to_vec();
        let mut bad: Option<i64> = None;
        elementwise(cx, mem, &p, &g, "Gather", &mut |srcs, out, m, _| {
            for k in 0..m {
                let off = u32::from_le_bytes(srcs[0][k * 4..k * 4 + 4].try_into().unwrap()) as i64;
                let at = src.addr + base + off;
                if at < 0 || at + sz as i64 > src_size {
                    bad.get_or_insert(off);
                    continue;
                }
                let at = at as usize;
                out[k * sz..(k + 1) * sz].copy_from_slice(&data[at..at + sz]);
            }
        });
        if let Some(off) = bad {
            cx.report(
                code::LOCAL_OUT_OF_BOUNDS,
                format!(
                    "Gather reads through byte offset {off}, outside {} ({src_size} bytes)",
                    mem.name()
                ),
            );
        }
        Flow::Next
    }
}

// ---------------------------------------------------------------------------------------------------------

#[derive(Debug)]
enum Pattern {
    Builtin(Sv),
    Tensor(u32),
}

#[derive(Debug)]
struct GatherMask {
    t: DType,
    dst: u32,
    src0: u32,
    pattern: Pattern,
    reduce_mode: Sv,
    mask: Sv,
    params: [Option<Sv>; 4],
    count: Option<Sv>,
}

fn decode_gather_mask(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let pattern = match a.get("src1Pattern") {
        Some(Arg::Handle(h)) => Pattern::Tensor(*h),
        Some(Arg::Reg(sv)) => Pattern::Builtin(*sv),
        other => return Err(format!("src1Pattern {other:?}")),
    };
    // GatherMaskParams(src0BlockStride, repeatTimes, src0RepeatStride, src1RepeatStride), by name or position
    let names = [
        ("src0BlockStride", "_0"),
        ("repeatTimes", "_1"),
        ("src0RepeatStride", "_2"),
        ("src1RepeatStride", "_3"),
    ];
    let mut params = [None; 4];
    for (i, (n, pos)) in names.iter().enumerate() {
        params[i] = a
            .opt_field("gatherMaskParams", n)?
            .or(a.opt_field("gatherMaskParams", pos)?);
    }
    let count = match a.get("rsvdCnt") {
        Some(Arg::Out(sv)) => Some(*sv),
        _ => None,
    };
    Ok(Box::new(GatherMask {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src0: a.handle("src0")?,
        pattern,
        reduce_mode: a.sv("reduceMode")?,
        mask: a.sv("mask")?,
        params,
        count,
    }))
}

impl ApiOp for GatherMask {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        let sz = t.size();
        let lanes = 256 / sz;
        let get = |cx: &Ctx, i: usize, default: u64| self.params[i].map(|v| cx.uint(v)).unwrap_or(default);
        let counter = cx.uint(self.reduce_mode) != 0;
        // counter mode (reduceMode): mask elements in all, over as many repeats as they need; but with repeatTimes
        // > 1 and a mask that fits one repeat, mask elements in each of repeatTimes repeats (the library's own TopK
        // Small mode gathers each row's k pairs so, repeatTimes = rows, mask = 64 floats; as do ops-transformer's
        // moe_gating_top_k group scores and moe_gating_top_k_softmax_v2's per-row extraction)
        let given_repeats = get(cx, 1, 1) as usize;
        let per_repeat = counter && given_repeats > 1 && (cx.uint(self.mask) as usize) <= lanes;
        let (repeats, total) = if per_repeat {
            let n = cx.uint(self.mask) as usize;
            (given_repeats, given_repeats * n)
        } else if counter {
            let n = cx.uint(self.mask) as usize;
            (n.div_ceil(lanes), n)
        } else {
            (given_repeats, given_repeats * lanes)
        };
        let blk = get(cx, 0, 1) as i64 * 32;
        let rep = get(cx, 2, 8) as i64 * 32;
        let pat_rep = get(cx, 3, 1) as i64 * 32;
        let src = cx.handle(self.src0);
        let mut out: Vec<u8> = Vec::new();
        let mut init: Vec<u8> = Vec::new();
        let epb = 32 / sz;
        for r in 0..repeats {
            let n_lanes = if per_repeat {
                total / repeats
            } else if counter {
                (total - r * lanes).min(lanes)
            } else {
                lanes
            };
            let bits: Vec<bool> = match &self.pattern {
                Pattern::Builtin(sv) => {
                    let kind = cx.uint(*sv);
                    (0..n_lanes)
                        .map(|i| match kind {
                            1 => i % 2 == 0,
                            2 => i % 2 == 1,
                            3 => i % 4 == 0,
                            4 => i % 4 == 1,
                            5 => i % 4 == 2,
                            6 => i % 4 == 3,
                            _ => true,
                        })
                        .collect()
                }
                Pattern::Tensor(h) => {
                    let ph = cx.handle(*h);
                    let Some((bytes, _)) = read_bytes(cx, ph, r as i64 * pat_rep, lanes.div_ceil(8), "GatherMask")
                    else {
                        return Flow::Next;
                    };
                    (0..n_lanes).map(|i| (bytes[i / 8] >> (i % 8)) & 1 == 1).collect()
                }
            };
            for (i, on) in bits.iter().enumerate() {
                if !on {
                    continue;
                }
                let off = r as i64 * rep + (i / epb) as i64 * blk + ((i % epb) * sz) as i64;
                let Some((bytes, ok)) = read_bytes(cx, src, off, sz, "GatherMask") else {
                    return Flow::Next;
                };
                init.extend(ok);
                out.extend(bytes);
            }
        }
        let dst = cx.handle(self.dst);
        write_bytes(cx, dst, 0, &out, &init, t, "GatherMask");
        if let Some(c) = self.count {
            cx.set(c.reg, c.ty, (out.len() / sz) as u64);
        }
        Flow::Next
    }
}

// ---------------------------------------------------------------------------------------------------------

#[derive(Debug)]
struct CreateVecIndex {
    t: DType,
    dst: u32,
    first: Sv,
    form: Form,
}

fn decode_vec_index(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(CreateVecIndex {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        first: a.sv("firstValue")?,
        form: Form::decode(a, "", &[("dstBlkStride", "dstRepStride")])?,
    }))
}

impl ApiOp for CreateVecIndex {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        let g = geoms(cx, &[self.dst], &[t]);
        let Some(p) = plan(cx, &self.form, &g, "CreateVecIndex") else {
            return Flow::Next;
        };
        check_count_fits(cx, &self.form, &g, &["dst"], "CreateVecIndex");
        let Some(mem) = check_footprint(cx, &g, &p.runs, &["dst"], "CreateVecIndex") else {
            return Flow::Next;
        };
        let first = t.to_f64(cx.value_as(self.first, t));
        let sz = t.size();
        elementwise(cx, mem, &p, &g, "CreateVecIndex", &mut |_, out, m, e0| {
            for k in 0..m {
                let v = first + (e0 + k as u64) as f64;
                let bits = if t.is_float() {
                    t.from_f64(v)
                } else {
                    t.from_i64(v as i64)
                };
                t.store_bits(&mut out[k * sz..(k + 1) * sz], bits);
            }
        });
        Flow::Next
    }
}

// ---------------------------------------------------------------------------------------------------------

#[derive(Debug)]
struct Brcb {
    t: DType,
    dst: u32,
    src: u32,
    repeat: Sv,
    dst_blk: Option<Sv>,
    dst_rep: Option<Sv>,
}

fn decode_brcb(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(Brcb {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src0")?,
        repeat: a.sv("repeatTime")?,
        dst_blk: a
            .opt_field("repeatParams", "dstBlkStride")?
            .or(a.opt_field("repeatParams", "_0")?),
        dst_rep: a
            .opt_field("repeatParams", "dstRepStride")?
            .or(a.opt_field("repeatParams", "_1")?),
    }))
}

impl ApiOp for Brcb {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        let sz = t.size();
        let repeat = cx.uint(self.repeat) as i64;
        let blk = self.dst_blk.map(|v| cx.uint(v)).unwrap_or(1) as i64 * 32;
        let rep = self.dst_rep.map(|v| cx.uint(v)).unwrap_or(8) as i64 * 32;
        let src = cx.handle(self.src);
        let dst = cx.handle(self.dst);
        let Some((vals, init)) = read_bytes(cx, src, 0, (repeat * 8) as usize * sz, "Brcb") else {
            return Flow::Next;
        };
        for r in 0..repeat {
            for b in 0..8i64 {
                let e = ((r * 8 + b) as usize) * sz;
                let block: Vec<u8> = vals[e..e + sz].iter().copied().cycle().take(32).collect();
                let flags: Vec<u8> = init[e..e + sz].iter().copied().cycle().take(32).collect();
                write_bytes(cx, dst, r * rep + b * blk, &block, &flags, t, "Brcb");
            }
        }
        Flow::Next
    }
}

// ---------------------------------------------------------------------------------------------------------

#[derive(Debug)]
struct Transpose16 {
    t: DType,
    dst: u32,
    src: u32,
}

fn decode_transpose(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(Transpose16 {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        src: a.handle("src")?,
    }))
}

impl ApiOp for Transpose16 {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let sz = self.t.size();
        if sz != 2 {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "Transpose of a 16x16 block needs 16-bit elements, not {}",
                    self.t.name()
                ),
            );
            return Flow::Next;
        }
        let src = cx.handle(self.src);
        let dst = cx.handle(self.dst);
        let Some((vals, init)) = read_bytes(cx, src, 0, 256 * sz, "Transpose") else {
            return Flow::Next;
        };
        let mut out = vec![0u8; 256 * sz];
        let mut flags = vec![0u8; 256 * sz];
        for i in 0..16 {
            for j in 0..16 {
                let (s, d) = ((i * 16 + j) * sz, (j * 16 + i) * sz);
                out[d..d + sz].copy_from_slice(&vals[s..s + sz]);
                flags[d..d + sz].copy_from_slice(&init[s..s + sz]);
            }
        }
        write_bytes(cx, dst, 0, &out, &flags, self.t, "Transpose");
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["Gather"], &["count", "mask", "bitmask"], decode_gather);
    r.add_all(
        &["GatherMask"],
        &["tensor_pattern", "builtin_pattern"],
        decode_gather_mask,
    );
    r.add_all(&["CreateVecIndex"], &["count", "mask", "bitmask"], decode_vec_index);
    r.add("Brcb.params", decode_brcb);
    r.add("Transpose.block16", decode_transpose);
}
