//! SoftmaxFlashV2 (high-level API): one step of the online (FlashAttention-2) softmax over the rows of an ND
//! [srcM, srcK] tile, and the ShapeInfo a LocalTensor carries (SetShapeInfo), where the API reads its shape when
//! the call passes no SoftMaxShapeInfo.
//!
//! The API page (atlasascendc_api_07_0758) gives the formulas as a Python script. Per row, isUpdate false:
//! M = rowmax(x), dst = exp(x - M), S = rowsum(dst). isUpdate true, with the running inMax / inSum:
//! M = max(inMax, rowmax(x)), dst = exp(x - M), E = exp(inMax - M), S = E * inSum + rowsum(dst). dst is not
//! divided by the sum (the caller does that after the last block). M, S, inMax and inSum hold each row's value
//! filled over one 32-byte block (8 floats or 16 halfs); the half/float form keeps them in float; expMax has the
//! element type of dst (16 halfs or 8 floats per row). The library computes in float (half inputs cast up, each
//! result cast back once); the reductions run over the first oriSrcK columns (the basic-block form, whose tiles
//! are whole 64-element repeats, over all srcK), while the subtraction and exp cover every srcK column.
//!
//! Shape: SoftMaxShapeInfo{srcM, srcK, oriSrcM, oriSrcK} when given with srcM and srcK set; else the tiling's
//! srcM / srcK when the program knows those fields; else the source tensor's ShapeInfo (the product of all but the
//! last dimension, and the last), as the library reads it (softmax_flashv2_base_impl.h,
//! GetLastAxisShapeND / GetLastAxisOriginShapeND). The original shape comes from the SoftMaxShapeInfo, else from
//! the tensor's ShapeInfo, else it is the shape itself.
//!
//! This file holds the call (its decoding, its shape and temporary-space checks, its run); softmax_flash/math.rs
//! has the formulas, GetSoftMaxFlashV2MinTmpSize's minimum and the SoftmaxConfig argument, softmax_flash/
//! shape_info.rs the ShapeInfo a LocalTensor carries with SetShapeInfo.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::elem::store_f32;
use crate::vector::softmax::{known_bytes, local_known};

mod math;
mod shape_info;
pub use math::{flash_v2, flash_v2_min_tmp_bytes, parse_config, Config, DEFAULT_CONFIG};
use shape_info::decode_set_shape_info;
pub use shape_info::{tensor_shape, ShapeInfos, ShapeRec};

// ---------------------------------------------------------------------------------------------------------
// SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dst, expSum, max, src,
//     expMax, inExpSum, inMax[, sharedTmpBuffer], tiling[, softmaxShapeInfo])

#[derive(Debug)]
struct SoftmaxFlashV2 {
    /// SoftmaxFlash, the first form (softmax_flash_v1.rs): its formulas, its temporary size, isUpdate an argument
    v1: bool,
    t: DType,
    stat: DType,
    update: bool,
    /// SoftmaxFlash's run-time isUpdate
    update_arg: Option<Sv>,
    basic: bool,
    nz: bool,
    dst: u32,
    sum: u32,
    max: u32,
    src: u32,
    exp_max: u32,
    in_sum: u32,
    in_max: u32,
    tmp: Option<u32>,
    /// SoftMaxShapeInfo{srcM, srcK, oriSrcM, oriSrcK}
    shape: [Option<Sv>; 4],
    /// the tiling's srcM and srcK, when the program knows them
    tiling: [Option<Sv>; 2],
    config: Config,
}

fn flag(a: &Args, name: &str) -> bool {
    matches!(a.targ(name), Some("true" | "1"))
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    decode_form(a, false)
}

/// SoftmaxFlash<T, isReuseSource, isBasicBlock>(dst, sum, max, src, expMax, inSum, inMax[, sharedTmpBuffer],
/// tiling, isUpdate, softmaxShapeInfo)
fn decode_v1(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    decode_form(a, true)
}

fn decode_form(a: &Args, v1: bool) -> Result<Box<dyn ApiOp>, String> {
    let t = a.dtype("T")?;
    let (sum, in_sum) = if v1 {
        ("sumTensor", "inSumTensor")
    } else {
        ("expSumTensor", "inExpSumTensor")
    };
    let mut shape = [None; 4];
    for (i, f) in ["srcM", "srcK", "oriSrcM", "oriSrcK"].iter().enumerate() {
        shape[i] = a.opt_field("softmaxShapeInfo", f)?;
    }
    let half_float = a.overload.starts_with("half_float");
    Ok(Box::new(SoftmaxFlashV2 {
        v1,
        t: if half_float { DType::F16 } else { t },
        stat: if half_float { DType::F32 } else { t },
        update: !v1 && flag(a, "isUpdate"),
        update_arg: if v1 { a.opt_sv("isUpdate")? } else { None },
        basic: flag(a, "isBasicBlock"),
        nz: !v1 && flag(a, "isDataFormatNZ"),
        dst: a.handle("dstTensor")?,
        sum: a.handle(sum)?,
        max: a.handle("maxTensor")?,
        src: a.handle("srcTensor")?,
        exp_max: a.handle("expMaxTensor")?,
        in_sum: a.handle(in_sum)?,
        in_max: a.handle("inMaxTensor")?,
        tmp: a.handle("sharedTmpBuffer").ok(),
        shape,
        tiling: [a.opt_field("tiling", "srcM")?, a.opt_field("tiling", "srcK")?],
        config: if v1 {
            DEFAULT_CONFIG
        } else {
            parse_config(a.targ("config"))
        },
    }))
}

fn read(cx: &mut Ctx, h: u32, n: usize, t: DType, what: &'static str) -> Option<(Vec<f32>, bool)> {
    super::softmax_grad::read(cx, h, n, t, what)
}

/// `vals` into `h`, element `i` known where `known[i]`.
fn write(cx: &mut Ctx, h: u32, vals: &[f32], t: DType, known: &[bool], what: &'static str) -> bool {
    let mut bytes = vec![0u8; vals.len() * t.size()];
    store_f32(t, vals, &mut bytes);
    let hd = cx.handle(h);
    match cx.range(hd, 0, bytes.len() as i64, true, t.size(), what) {
        Some(d) => {
            cx.store_bytes(hd, d, &bytes, &known_bytes(known, t.size()), t, what);
            true
        }
        None => false,
    }
}

/// Each row's value filled over one 32-byte block of `t`.
fn blocks(vals: &[f32], t: DType) -> Vec<f32> {
    let per = 32 / t.size();
    vals.iter().flat_map(|&v| std::iter::repeat_n(v, per)).collect()
}

impl SoftmaxFlashV2 {
    fn what(&self) -> &'static str {
        if self.v1 {
            "SoftmaxFlash"
        } else {
            "SoftmaxFlashV2"
        }
    }

    /// isUpdate: V2's template argument, SoftmaxFlash's run-time one
    fn update(&self, cx: &Ctx) -> bool {
        self.update || self.update_arg.is_some_and(|v| cx.uint(v) != 0)
    }

    /// Whether the library takes its basic-block path: isBasicBlock, unless the config names a constant
    /// original shape (then that shape decides: whole 64-element repeats below 2048 columns, rows by 8).
    fn basic(&self) -> bool {
        let c = self.config;
        if c.ori_m != 0 && c.ori_k != 0 {
            return c.ori_k.is_multiple_of(64) && c.ori_k < 2048 && c.ori_m.is_multiple_of(8);
        }
        self.basic
    }

    /// (rows, cols, original cols), or a finding when nothing says them. The SoftMaxShapeInfo argument when it
    /// sets srcM and srcK; else the tiling's, unless the config checks the tiling and the tensor's ShapeInfo
    /// says otherwise (the library then recomputes the tiling for that shape); else the tensor's ShapeInfo.
    fn shape(&self, cx: &mut Ctx) -> Option<(usize, usize, usize)> {
        let what = self.what();
        let given = |i: usize| self.shape[i].map(|v| cx.uint(v) as usize).filter(|&v| v > 0);
        let tensor = tensor_shape(cx, self.src);
        let from_tensor = tensor.map(|(m, k, _)| (m, k));
        let ori_tensor = tensor.and_then(|(_, _, o)| o);
        let tiling = match self.tiling.map(|v| v.map(|v| cx.uint(v) as usize)) {
            [Some(m), Some(k)] => Some((m, k)),
            _ => None,
        };
        let (rows, cols, ori) = if let (Some(m), Some(k)) = (given(0), given(1)) {
            (m, k, given(3))
        } else if let Some((m, k)) = tiling.filter(|t| !self.config.check_tiling || from_tensor.is_none_or(|s| s == *t))
        {
            (m, k, ori_tensor)
        } else if let Some((m, k)) = from_tensor {
            (m, k, ori_tensor)
        } else {
            cx.report(
                code::NOT_MODELLED,
                format!(
                    "{what} without its shape: the simulator takes the rows and columns from the SoftMaxShapeInfo \
                     argument, else from the SoftMaxTiling's srcM and srcK when the program computes them \
                     ({}), else from the source tensor's ShapeInfo (SetShapeInfo), as the library does; this \
                     call has none of them",
                    if self.v1 {
                        "SoftMaxFlashTilingFunc"
                    } else {
                        "SoftMaxFlashV2TilingFuncImpl"
                    }
                ),
            );
            return None;
        };
        let ori = if self.basic() {
            cols
        } else if self.config.ori_k != 0 {
            Some(self.config.ori_k as usize).filter(|&o| o <= cols).unwrap_or(cols)
        } else {
            ori.filter(|&o| o <= cols).unwrap_or(cols)
        };
        Some((rows, cols, ori))
    }

    /// The temporary space: the sharedTmpBuffer, or without one the UB the TPipe's buffers leave, must hold
    /// GetSoftMaxFlashV2MinTmpSize's minimum.
    fn tmp_fits(&self, cx: &mut Ctx, cols: usize) -> bool {
        let what = self.what();
        let need = if self.v1 {
            super::softmax_flash_v1::flash_v1_min_tmp_bytes(self.t.size(), cols, self.update(cx))
        } else {
            flash_v2_min_tmp_bytes(self.t, self.stat, cols, self.basic())
        };
        let Some((have, place)) = crate::queue::tmp_space(cx, self.tmp) else {
            return true;
        };
        if have >= need {
            if let Some(h) = self.tmp {
                // the library's casts and reductions write the buffer's first `need` bytes: one placed past the
                // end of UB faults there
                let th = cx.handle(h);
                return cx
                    .range(th, 0, need, true, 1, &format!("{what}'s temporary buffer"))
                    .is_some();
            }
            return true;
        }
        let code = if self.tmp.is_some() {
            code::INVALID_OPERAND
        } else {
            code::LOCAL_OUT_OF_BOUNDS
        };
        cx.report(
            code,
            format!(
                "{what} over rows of {cols} elements needs at least {need} bytes of temporary space \
                 (Get{}MinTmpSize's minimum), and {place} holds {have}: the library writes past it \
                 (on the device: 'ub address out of bounds')",
                if self.v1 { "SoftMaxFlash" } else { "SoftMaxFlashV2" }
            ),
        );
        false
    }
}

impl ApiOp for SoftmaxFlashV2 {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let (what, update) = (self.what(), self.update(cx));
        if self.nz {
            cx.report(
                code::NOT_MODELLED,
                format!("{what} with isDataFormatNZ: the NZ layout's reduction is not modelled (ND only)"),
            );
            return Flow::Stop;
        }
        if self.config.mode != 0 {
            cx.report(
                code::NOT_MODELLED,
                format!(
                    "{what} with a SoftmaxConfig mode other than SOFTMAX_NORMAL (SOFTMAX_OUTPUT_WITHOUT_BRC: one \
                     value per row, not filled over a block) is not modelled"
                ),
            );
            return Flow::Stop;
        }
        let Some((rows, cols, ori)) = self.shape(cx) else {
            return Flow::Stop;
        };
        if rows.checked_mul(cols).is_none_or(|n| n > 1 << 32) {
            cx.report(
                code::INVALID_OPERAND,
                format!("{what} over [{rows}, {cols}]: more elements than any local memory holds"),
            );
            return Flow::Stop;
        }
        if !(cols * self.t.size()).is_multiple_of(32) {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "{what}'s srcK is {cols}: the last axis must be 32-byte aligned ({} bytes); pass the \
                     unaligned length as oriSrcK",
                    cols * self.t.size()
                ),
            );
            return Flow::Stop;
        }
        if !self.tmp_fits(cx, cols) {
            return Flow::Stop;
        }
        let (t, st) = (self.t, self.stat);
        // every operand is read before any is written: kernels pass the same tensors as dst and src, and as
        // expSum / max and inExpSum / inMax
        crate::timing::vector_pass(cx.core, (rows * cols) as u64, t.size() as u64);
        let Some((src, _)) = read(cx, self.src, rows * cols, t, what) else {
            return Flow::Stop;
        };
        // known bytes as the library computes: max and sum over a row's first oriSrcK columns (and the running
        // inMax / inSum), the exponent over all srcK, each column from its own source element; an unwritten
        // padding column leaves the row's other results known
        let src_known = local_known(cx, self.src, rows * cols, t.size());
        let mut row_known: Vec<bool> = (0..rows)
            .map(|r| src_known[r * cols..r * cols + ori].iter().all(|&k| k))
            .collect();
        let mut running = None;
        if update {
            let per = 32 / st.size();
            let n = rows * per;
            let (Some((in_max, _)), Some((in_sum, _))) =
                (read(cx, self.in_max, n, st, what), read(cx, self.in_sum, n, st, what))
            else {
                return Flow::Stop;
            };
            let (mk, sk) = (
                local_known(cx, self.in_max, n, st.size()),
                local_known(cx, self.in_sum, n, st.size()),
            );
            for (r, k) in row_known.iter_mut().enumerate() {
                *k &= mk[r * per] && sk[r * per];
            }
            let first = |v: Vec<f32>| -> Vec<f32> { v.chunks(per).map(|c| c[0]).collect() };
            running = Some((first(in_max), first(in_sum)));
        }
        let dst_known: Vec<bool> = (0..rows * cols)
            .map(|e| row_known[e / cols] && (e % cols < ori || src_known[e]))
            .collect();
        let stat_known = |t: DType| -> Vec<bool> {
            row_known
                .iter()
                .flat_map(|&k| std::iter::repeat_n(k, 32 / t.size()))
                .collect()
        };
        let step = if self.v1 {
            super::softmax_flash_v1::flash_v1
        } else {
            flash_v2
        };
        let (dst, maxes, sums, exp_maxes) = step(
            &src,
            rows,
            cols,
            ori,
            running.as_ref().map(|(m, s)| (m.as_slice(), s.as_slice())),
        );
        let ok = write(cx, self.dst, &dst, t, &dst_known, what)
            && write(cx, self.max, &blocks(&maxes, st), st, &stat_known(st), what)
            && write(cx, self.sum, &blocks(&sums, st), st, &stat_known(st), what)
            && (!update || write(cx, self.exp_max, &blocks(&exp_maxes, t), t, &stat_known(t), what));
        if ok {
            Flow::Next
        } else {
            Flow::Stop
        }
    }
}

pub fn register(r: &mut Registry) {
    r.add("SetShapeInfo.plain", decode_set_shape_info);
    r.add_all(
        &["SoftmaxFlashV2"],
        &["plain", "tmp", "half_float", "half_float_tmp"],
        decode,
    );
    r.add_all(
        &["SoftmaxFlash"],
        &["plain", "tmp", "half_float", "half_float_tmp"],
        decode_v1,
    );
}
