//! The calls over a shape: Sum / Mean along the last axis (SumParams / MeanParams), Broadcast of size-1 axes.

use crate::api::{ApiOp, Args, Pipe, StackArray};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::Space;
use crate::program::Sv;
use crate::vector::elem::{load_f32, store_f32};
use crate::vector::reduce::{mean_of, repeats_then_tree};

// ---------------------------------------------------------------------------------------------------------
// Sum / Mean over the last axis: SumParams / MeanParams {outter, inner, n}

#[derive(Debug)]
struct RowReduce {
    mean: bool,
    t: DType,
    /// Mean<half, accType = float>: summed and scaled in float, cast to half once
    float_acc: bool,
    dst: u32,
    src: u32,
    outter: Sv,
    inner: Sv,
    n: Sv,
}

pub(super) fn decode_row_reduce(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let p = if a.api == "Mean" { "meanParams" } else { "sumParams" };
    Ok(Box::new(RowReduce {
        mean: a.api == "Mean",
        t: a.dtype("T")?,
        float_acc: a.api == "Mean"
            && a.dtype("accType")
                .is_ok_and(|acc| acc.size() > a.dtype("T").map_or(4, |t| t.size())),
        dst: a.handle("dstTensor")?,
        src: a.handle("srcTensor")?,
        outter: a.field(p, "outter")?,
        inner: a.field(p, "inner")?,
        n: a.field(p, "n")?,
    }))
}

impl ApiOp for RowReduce {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        let sz = t.size();
        let (rows, inner, n) = (
            cx.uint(self.outter) as usize,
            cx.uint(self.inner) as usize,
            cx.uint(self.n) as usize,
        );
        let src = cx.handle(self.src);
        let total = rows * inner;
        crate::timing::vector_pass(cx.core, total as u64, sz as u64);
        let Some(at) = cx.range(src, 0, (total * sz) as i64, false, sz, "Sum") else {
            return Flow::Next;
        };
        let Space::Local(mem) = src.space else {
            return Flow::Next;
        };
        let mut vals = vec![0f32; total];
        let init = {
            let local = cx.local(mem);
            load_f32(t, &local.data.as_slice()[at..at + total * sz], &mut vals);
            crate::memory::all_ones(&local.init[at..at + total * sz])
        };
        // the library's order (reduce/order.rs): a tree per repeat, then trees of those; Mean scales the sum
        let acc_t = if self.float_acc { DType::F32 } else { t };
        let out: Vec<f32> = (0..rows)
            .map(|r| {
                let s = repeats_then_tree(acc_t, &vals[r * inner..r * inner + n.min(inner)]);
                if self.mean {
                    mean_of(t, s, n, self.float_acc)
                } else {
                    s
                }
            })
            .collect();
        let dst = cx.handle(self.dst);
        let mut bytes = vec![0u8; rows * sz];
        store_f32(t, &out, &mut bytes);
        if let Some(d) = cx.range(dst, 0, bytes.len() as i64, true, sz, "Sum") {
            cx.store_bytes(dst, d, &bytes, &vec![init as u8; bytes.len()], t, "Sum");
        }
        Flow::Next
    }
}

// ---------------------------------------------------------------------------------------------------------
// Broadcast<T, dim, axis>(dst, src, dstShape[dim], srcShape[dim]): numpy broadcasting of a size-1 axis

#[derive(Debug)]
struct Broadcast {
    t: DType,
    dst: u32,
    src: u32,
    dims: u32,
    dst_shape: StackArray,
    src_shape: StackArray,
}

pub(super) fn decode_broadcast(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let dst_shape = a.array("dstShape", 0, 0, "uint32_t[dim] array")?;
    let src_shape = a.array("srcShape", 0, 0, "uint32_t[dim] array")?;
    let dims = a.targ("dim").and_then(|d| d.parse().ok()).unwrap_or(dst_shape.len);
    Ok(Box::new(Broadcast {
        t: a.dtype("T")?,
        dst: a.handle("dstLocal")?,
        src: a.handle("srcLocal")?,
        dims,
        dst_shape,
        src_shape,
    }))
}

impl ApiOp for Broadcast {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        let sz = t.size();
        let read = |cx: &Ctx, shape: StackArray| -> Vec<usize> {
            (0..self.dims as usize).map(|i| shape.get(cx, i) as usize).collect()
        };
        let (ds, ss) = (read(cx, self.dst_shape), read(cx, self.src_shape));
        if ds.iter().zip(&ss).any(|(d, s)| *s != *d && *s != 1) {
            cx.report(
                code::INVALID_OPERAND,
                format!("Broadcast from shape {ss:?} to {ds:?}: each source axis must equal the destination's or be 1"),
            );
            return Flow::Next;
        }
        let (dn, sn): (usize, usize) = (ds.iter().product(), ss.iter().product());
        // the destination's elements, written once
        crate::timing::vector_pass(cx.core, dn as u64, sz as u64);
        let (src, dst) = (cx.handle(self.src), cx.handle(self.dst));
        let Some(at) = cx.range(src, 0, (sn * sz) as i64, false, sz, "Broadcast") else {
            return Flow::Next;
        };
        let Space::Local(mem) = src.space else {
            return Flow::Next;
        };
        let (data, init) = {
            let local = cx.local(mem);
            (
                local.data.as_slice()[at..at + sn * sz].to_vec(),
                local.init[at..at + sn * sz].to_vec(),
            )
        };
        let mut out = vec![0u8; dn * sz];
        let mut flags = vec![0u8; dn * sz];
        for i in 0..dn {
            // the source element of destination element i
            let (mut rem, mut j, mut sstride) = (i, 0usize, 1usize);
            let mut coords = vec![0usize; ds.len()];
            for k in (0..ds.len()).rev() {
                coords[k] = rem % ds[k];
                rem /= ds[k];
            }
            for k in (0..ds.len()).rev() {
                if ss[k] != 1 {
                    j += coords[k] * sstride;
                }
                sstride *= ss[k];
            }
            out[i * sz..(i + 1) * sz].copy_from_slice(&data[j * sz..(j + 1) * sz]);
            flags[i * sz..(i + 1) * sz].copy_from_slice(&init[j * sz..(j + 1) * sz]);
        }
        if let Some(d) = cx.range(dst, 0, out.len() as i64, true, sz, "Broadcast") {
            cx.store_bytes(dst, d, &out, &flags, t, "Broadcast");
        }
        Flow::Next
    }
}
