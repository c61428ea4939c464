//! SoftMax / LogSoftMax over rows (SoftMaxShapeInfo{srcM, srcK, oriSrcM, oriSrcK}), and the helpers the other
//! softmax variants share: a lane-wise fold, which elements of a local tensor were written.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::Space;
use crate::program::Sv;
use crate::vector::elem::store_f32;

// SoftMax / LogSoftMax over rows: SoftMaxShapeInfo{srcM, srcK, oriSrcM, oriSrcK}

/// `f` over `v` in 16 interleaved lanes, then the lanes folded pairwise (a tree, like the vector unit's
/// reductions): independent lanes let the compiler use SIMD where one running value could not.
pub(crate) fn lanes_fold(v: &[f32], zero: f32, f: impl Fn(f32, f32) -> f32 + Copy) -> f32 {
    let mut acc = [zero; 16];
    let mut chunks = v.chunks_exact(16);
    for c in &mut chunks {
        for (a, &x) in acc.iter_mut().zip(c) {
            *a = f(*a, x);
        }
    }
    for (a, &x) in acc.iter_mut().zip(chunks.remainder()) {
        *a = f(*a, x);
    }
    let mut w = 16;
    while w > 1 {
        w /= 2;
        for i in 0..w {
            acc[i] = f(acc[i], acc[i + w]);
        }
    }
    acc[0]
}

#[derive(Debug)]
struct SoftMax {
    log: bool,
    t: DType,
    dst: u32,
    sum: Option<u32>,
    max: Option<u32>,
    src: u32,
    shape: [Option<Sv>; 4],
    stat_type: DType,
    /// no sharedTmpBuffer: the library takes its temporary space from the UB after the TPipe's buffers
    framework_tmp: bool,
}

fn decode_softmax(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let t = a.dtype("T")?;
    let mut shape = [None; 4];
    for (i, f) in ["srcM", "srcK", "oriSrcM", "oriSrcK"].iter().enumerate() {
        shape[i] = a.opt_field("softmaxShapeInfo", f)?;
    }
    Ok(Box::new(SoftMax {
        log: a.api == "LogSoftMax",
        t,
        dst: a.handle("dst")?,
        sum: a.handle("sumTensor").ok(),
        max: a.handle("maxTensor").ok(),
        src: a.handle("src")?,
        shape,
        stat_type: if a.overload.starts_with("half_float") {
            DType::F32
        } else {
            t
        },
        framework_tmp: !a.overload.ends_with("tmp"),
    }))
}

impl ApiOp for SoftMax {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let t = self.t;
        let sz = t.size();
        // the SoftMaxShapeInfo argument when it sets srcM and srcK, else the source tensor's ShapeInfo, as the
        // library reads them (softmax_base_impl.h)
        let given = match [self.shape[0], self.shape[1]] {
            [Some(m), Some(k)] => Some((cx.uint(m) as usize, cx.uint(k) as usize)).filter(|&(m, k)| m > 0 && k > 0),
            _ => None,
        };
        let (rows, cols, ori) = match given {
            Some((m, k)) => (m, k, self.shape[3].map(|v| cx.uint(v) as usize)),
            None => match crate::vector::softmax_flash::tensor_shape(cx, self.src) {
                Some(found) => found,
                None => {
                    cx.report(
                        code::NOT_MODELLED,
                        "SoftMax without its shape: the simulator takes the rows and columns from the \
                         SoftMaxShapeInfo argument, else from the source tensor's ShapeInfo (SetShapeInfo), as the \
                         library does; this call has neither (the SoftMaxTiling alone does not say them)"
                            .into(),
                    );
                    return Flow::Stop;
                }
            },
        };
        if self.framework_tmp && !framework_tmp_fits(cx, self.t, cols) {
            return Flow::Stop;
        }
        let ori = ori.filter(|&v| v > 0 && v <= cols).unwrap_or(cols);
        let src = cx.handle(self.src);
        let n = rows * cols;
        crate::timing::vector_pass(cx.core, n as u64, sz as u64);
        let kind = if self.log {
            crate::timing::library::Kind::LogSoftMax
        } else {
            crate::timing::library::Kind::SoftMax
        };
        crate::timing::library_shape(
            cx.core,
            crate::timing::library::Shape {
                kind,
                rows: rows as u64,
                cols: cols as u64,
                real: ori as u64,
                blocks: 1,
                inner: 0,
                elem: sz as u64,
            },
        );
        let Some(at) = cx.range(src, 0, (n * sz) as i64, false, sz, "SoftMax") else {
            return Flow::Next;
        };
        let Space::Local(mem) = src.space else {
            return Flow::Next;
        };
        // a source written whole (the usual case) skips the per-element bookkeeping below: every result is known
        let (mut out, all_known) = crate::vector::read_local_f32(cx, mem, at, n, t);
        let src_known = if all_known {
            Vec::new()
        } else {
            element_known(&cx.local(mem).init[at..at + n * sz], sz)
        };
        // The library reduces (max, sum) over the first oriSrcK columns of a row but subtracts, exponentiates and
        // divides over all srcK (softmax_impl.h / logsoftmax_common_impl.h: GenericSubNDImpl, Exp, GenericDivNDImpl
        // with tiling.srcK), so the padding columns are written too, from the source's padding: exp(x - max) / sum.
        // A row's first oriSrcK results are known when its first oriSrcK sources are; a padding column also needs
        // its own source element.
        let mut known = if all_known { Vec::new() } else { vec![false; n] };
        let mut maxes = Vec::with_capacity(rows);
        let mut sums = Vec::with_capacity(rows);
        let mut stats_known = true;
        for r in 0..rows {
            let o = &mut out[r * cols..(r + 1) * cols];
            if !all_known {
                let row_known = src_known[r * cols..r * cols + ori].iter().all(|&k| k);
                stats_known &= row_known;
                for (c, k) in known[r * cols..(r + 1) * cols].iter_mut().enumerate() {
                    *k = row_known && (c < ori || src_known[r * cols + c]);
                }
            }
            let mx = lanes_fold(&o[..ori], f32::NEG_INFINITY, f32::max);
            for v in o.iter_mut() {
                *v = (*v - mx).exp();
            }
            // summed in 16 lanes and then folded, as the vector unit's reduction does (and so it vectorises)
            let s = lanes_fold(&o[..ori], 0.0, |a, b| a + b);
            if self.log {
                // LogSoftMax's last step is log10, not ln: the API page (CANN 8.5 and later, atlasascendc_api_07_0768)
                // and asc-devkit's logsoftmax example say so, and kernels convert with a factor of ln(10)
                o.iter_mut().for_each(|v| *v = (*v / s).log10());
            } else {
                o.iter_mut().for_each(|v| *v /= s);
            }
            maxes.push(mx);
            sums.push(s);
        }
        let dst = cx.handle(self.dst);
        if let Some(d) = cx.range(dst, 0, (n * sz) as i64, true, sz, "SoftMax") {
            if let Space::Local(m) = dst.space {
                // straight into the destination (what store_bytes does for local memory, without staging)
                cx.check_local_write(m, d, n * sz, dst.alloc, "SoftMax");
                let local = cx.local(m);
                store_f32(t, &out, &mut local.data.as_mut_slice()[d..d + n * sz]);
                if all_known {
                    local.init[d..d + n * sz].fill(1);
                } else {
                    local.init[d..d + n * sz].copy_from_slice(&known_bytes(&known, sz));
                }
            } else {
                let init_bytes = if all_known {
                    vec![1u8; n * sz]
                } else {
                    known_bytes(&known, sz)
                };
                let mut bytes = vec![0u8; n * sz];
                store_f32(t, &out, &mut bytes);
                cx.store_bytes(dst, d, &bytes, &init_bytes, t, "SoftMax");
            }
        }
        let init = stats_known;
        // sum and max: one 32-byte block per row, the value repeated
        let st = self.stat_type;
        for (h, vals) in [(self.sum, &sums), (self.max, &maxes)] {
            let Some(h) = h else { continue };
            let per = 32 / st.size();
            let mut block = vec![0f32; rows * per];
            for (r, v) in vals.iter().enumerate() {
                block[r * per..(r + 1) * per].fill(*v);
            }
            let mut b = vec![0u8; block.len() * st.size()];
            store_f32(st, &block, &mut b);
            let hh = cx.handle(h);
            if let Some(d) = cx.range(hh, 0, b.len() as i64, true, st.size(), "SoftMax") {
                cx.store_bytes(hh, d, &b, &vec![init as u8; b.len()], st, "SoftMax");
            }
        }
        Flow::Next
    }
}

/// Per element of `sz` bytes: whether all its bytes are known (`init` flags of local memory).
pub(crate) fn element_known(init: &[u8], sz: usize) -> Vec<bool> {
    init.chunks_exact(sz).map(|e| e.iter().all(|&b| b == 1)).collect()
}

/// Per element: whether the first `n` elements (of `sz` bytes) of local tensor handle `h` are known; all false
/// where `h` is not local memory or the range is past it (the caller's read has reported that).
pub(crate) fn local_known(cx: &mut Ctx, h: u32, n: usize, sz: usize) -> Vec<bool> {
    let hd = cx.handle(h);
    let Space::Local(mem) = hd.space else {
        return vec![false; n];
    };
    let at = hd.addr.max(0) as usize;
    let init = &cx.local(mem).init;
    match init.get(at..at + n * sz) {
        Some(flags) => element_known(flags, sz),
        None => vec![false; n],
    }
}

/// Init flags for `known` elements of `sz` bytes each.
pub(crate) fn known_bytes(known: &[bool], sz: usize) -> Vec<u8> {
    known.iter().flat_map(|&k| std::iter::repeat_n(k as u8, sz)).collect()
}

/// GetSoftMaxMinTmpSize's minimum for rows of `cols` elements of `t` on the 220x chips, in bytes: one row at a
/// time, (32 / sizeof(T) + cols + 64) floats (ascendir/lower/host.py models the same tiling call).
pub fn softmax_min_tmp_bytes(t: DType, cols: usize) -> i64 {
    ((32 / t.size() + cols + 64) * 4) as i64
}

/// Whether the UB left after the TPipe's buffers (where SoftMax without a sharedTmpBuffer takes its temporary
/// space) holds SoftMax's minimum; if not, an error at the call (the library writes past the end of UB).
fn framework_tmp_fits(cx: &mut Ctx, t: DType, cols: usize) -> bool {
    let need = softmax_min_tmp_bytes(t, cols);
    let Some((start, have)) = crate::queue::framework_tmp(cx, crate::memory::MemKind::Ub) else {
        return true;
    };
    if have >= need {
        return true;
    }
    cx.report(
        code::LOCAL_OUT_OF_BOUNDS,
        format!(
            "SoftMax over rows of {cols} elements needs at least {need} bytes of temporary space \
             (GetSoftMaxMinTmpSize's minimum); without a sharedTmpBuffer the library takes it from the UB left after \
             the TPipe's buffers, bytes [{start}, {}), {have} bytes: it writes past the end of UB (on the device: \
             'ub address out of bounds'). Leave that much UB free, or pass a sharedTmpBuffer",
            start + have
        ),
    );
    false
}

pub fn register(r: &mut Registry) {
    r.add_all(
        &["SoftMax"],
        &[
            "plain",
            "tmp",
            "half_float",
            "half_float_tmp",
            "no_sum_max",
            "no_sum_max_tmp",
        ],
        decode_softmax,
    );
    r.add("LogSoftMax.tmp", decode_softmax);
}
