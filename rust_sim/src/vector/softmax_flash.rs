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

use crate::api::{ApiOp, Args, Pipe, Registry, StackArray};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::memory::Handle;
use crate::program::Sv;
use crate::vector::elem::store_f32;
use crate::vector::softmax::{known_bytes, lanes_fold, local_known};

/// A LocalTensor's ShapeInfo (SetShapeInfo): its dimensions and original dimensions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShapeRec {
    pub shape: Vec<u64>,
    pub original: Vec<u64>,
}

impl ShapeRec {
    /// [product of all but the last dimension, the last]; None without dimensions or with a last of 0.
    fn last_axis(dims: &[u64]) -> Option<(u64, u64)> {
        let (&k, rest) = dims.split_last()?;
        (k > 0).then(|| (rest.iter().product(), k))
    }
}

/// The ShapeInfos set on tensors, by the tensor's memory (space, address, length and allocation): a tensor
/// copied, or a class member loaded again, is the same tensor; a slice of it (operator[]) is another. The most
/// recent 64 are kept (a kernel that sets one on a moving window of a buffer would otherwise grow the list).
#[derive(Clone, Debug, Default)]
pub struct ShapeInfos(Vec<(Handle, ShapeRec)>);

const KEPT: usize = 64;

impl ShapeInfos {
    pub fn set(&mut self, h: Handle, rec: ShapeRec) {
        self.0.retain(|(at, _)| *at != h);
        if self.0.len() == KEPT {
            self.0.remove(0);
        }
        self.0.push((h, rec));
    }

    pub fn get(&self, h: Handle) -> Option<&ShapeRec> {
        self.0.iter().find(|(at, _)| *at == h).map(|(_, s)| s)
    }
}

/// The rows, columns and original columns of the tensor in handle register `reg` from its ShapeInfo, as the
/// softmax APIs read them when the call's SoftMaxShapeInfo is left out or has srcM or srcK 0
/// (GetLastAxisShapeND / GetLastAxisOriginShapeND): the product of all but the last dimension, and the last.
/// None when the tensor has no ShapeInfo; no original columns when it has no original shape.
pub fn tensor_shape(cx: &Ctx, reg: u32) -> Option<(usize, usize, Option<usize>)> {
    let rec = cx.core.shape_infos.get(cx.handle(reg))?;
    let (m, k) = ShapeRec::last_axis(&rec.shape)?;
    let ori = ShapeRec::last_axis(&rec.original).map(|(_, k)| k as usize);
    Some((m as usize, k as usize, ori))
}

// ---------------------------------------------------------------------------------------------------------
// LocalTensor::SetShapeInfo(ShapeInfo(shapeDim, shape[], [originalShapeDim, originalShape[],] format))

#[derive(Debug)]
struct SetShapeInfo {
    this: u32,
    dim: Option<Sv>,
    shape: Option<StackArray>,
    ori_dim: Option<Sv>,
    ori: Option<StackArray>,
}

fn decode_set_shape_info(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(SetShapeInfo {
        this: a.handle("self")?,
        dim: a.opt_field("shapeInfo", "shapeDim")?,
        shape: a.stack_array("shapeInfo.shape"),
        ori_dim: a.opt_field("shapeInfo", "originalShapeDim")?,
        ori: a.stack_array("shapeInfo.originalShape"),
    }))
}

fn read_dims(cx: &Ctx, dim: Option<Sv>, arr: Option<StackArray>) -> Vec<u64> {
    let (Some(d), Some(arr)) = (dim, arr) else {
        return Vec::new();
    };
    let n = (cx.uint(d) as usize).min(arr.len as usize).min(8);
    (0..n).map(|i| arr.get(cx, i)).collect()
}

impl ApiOp for SetShapeInfo {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let rec = ShapeRec {
            shape: read_dims(cx, self.dim, self.shape),
            original: read_dims(cx, self.ori_dim, self.ori),
        };
        let h = cx.handle(self.this);
        cx.core.shape_infos.set(h, rec);
        Flow::Next
    }
}

// ---------------------------------------------------------------------------------------------------------
// the computation

/// One SoftmaxFlashV2 step over `rows` rows of `cols` (`src`, row-major), reducing over the first `ori` columns.
/// `running`: each row's inMax and inSum (isUpdate). Returns dst and, per row, the new max, sum and expMax
/// (expMax 1 when not updating: the API does not write it then).
pub fn flash_v2(
    src: &[f32],
    rows: usize,
    cols: usize,
    ori: usize,
    running: Option<(&[f32], &[f32])>,
) -> (Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>) {
    let mut dst = vec![0f32; rows * cols];
    let (mut maxes, mut sums, mut exp_maxes) = (vec![0f32; rows], vec![0f32; rows], vec![1f32; rows]);
    for r in 0..rows {
        let x = &src[r * cols..(r + 1) * cols];
        let row_max = lanes_fold(&x[..ori], f32::NEG_INFINITY, f32::max);
        let m = running.map_or(row_max, |(in_max, _)| in_max[r].max(row_max));
        let o = &mut dst[r * cols..(r + 1) * cols];
        for (d, &v) in o.iter_mut().zip(x) {
            *d = (v - m).exp();
        }
        // summed in 16 lanes and then folded, as SoftMax does (the vector unit's reduction order)
        let row_sum = lanes_fold(&o[..ori], 0.0, |a, b| a + b);
        maxes[r] = m;
        sums[r] = match running {
            Some((in_max, in_sum)) => {
                let e = (in_max[r] - m).exp();
                exp_maxes[r] = e;
                e * in_sum[r] + row_sum
            }
            None => row_sum,
        };
    }
    (dst, maxes, sums, exp_maxes)
}

/// GetSoftMaxFlashV2MinTmpSize's minimum on the 220x chips, in bytes, for rows of `cols` elements of `t` with
/// the statistics in `stat` (asc-devkit impl/adv_api/tiling/activation/softmax_tiling.cpp): in floats, the
/// basic-block form 8 * (32 / sizeof(stat) + 64, or 128 at srcK 1024) plus 8 * srcK for half; otherwise one
/// row's block and a 64-float repeat, plus for half a second block and the row itself.
pub fn flash_v2_min_tmp_bytes(t: DType, stat: DType, cols: usize, basic: bool) -> i64 {
    let per_block = 32 / stat.size();
    let half = t.size() == 2;
    let floats = if basic && cols.is_multiple_of(64) {
        let unit = if cols == 1024 { 128 } else { 64 };
        8 * (per_block + unit + if half { cols } else { 0 })
    } else if half {
        2 * per_block + cols + 64
    } else {
        per_block + 64
    };
    (floats * 4) as i64
}

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

/// The SoftmaxConfig template argument (asc-devkit include/adv_api/activation/softmax_utils.h): whether the
/// library checks the tiling against the shape (and recomputes it when they differ), a constant original shape
/// (0: none), and the output mode (0: SOFTMAX_NORMAL, the statistics filled over a block per row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    pub check_tiling: bool,
    pub ori_m: u64,
    pub ori_k: u64,
    pub mode: u64,
}

pub const DEFAULT_CONFIG: Config = Config {
    check_tiling: true,
    ori_m: 0,
    ori_k: 0,
    mode: 0,
};

/// `SoftmaxConfig:_0=0` (a constexpr struct the program folded) to a Config; anything else (no argument, or
/// the library's SOFTMAX_DEFAULT_CFG by name) is the default.
pub fn parse_config(text: Option<&str>) -> Config {
    let mut c = DEFAULT_CONFIG;
    let Some(fields) = text.and_then(|t| t.strip_prefix("SoftmaxConfig:")) else {
        return c;
    };
    for (k, v) in fields.split(':').filter_map(|kv| kv.split_once('=')) {
        let Ok(v) = v.parse::<i64>() else { continue };
        match k {
            "isCheckTiling" | "_0" => c.check_tiling = v != 0,
            "oriSrcM" | "_1" => c.ori_m = v as u64,
            "oriSrcK" | "_2" => c.ori_k = v as u64,
            "mode" | "_3" => c.mode = v as u64,
            _ => {}
        }
    }
    c
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

#[cfg(test)]
mod tests {
    use super::{flash_v2, flash_v2_min_tmp_bytes, parse_config, ShapeRec, DEFAULT_CONFIG};
    use crate::dtype::DType;

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() <= 1e-6 * b.abs().max(1.0)
    }

    #[test]
    fn first_block_is_exp_of_x_minus_the_row_max_with_its_sum() {
        // row 0: [0, ln 2, ln 4, 0] -> max ln 4; exp(x - ln 4) = [1/4, 1/2, 1, 1/4], sum 2
        // row 1: [1, 1, 1, 1] -> max 1, every exp 1, sum 4
        let l2 = 2f32.ln();
        let src = [0.0, l2, 2.0 * l2, 0.0, 1.0, 1.0, 1.0, 1.0];
        let (dst, max, sum, _) = flash_v2(&src, 2, 4, 4, None);
        let want = [0.25, 0.5, 1.0, 0.25, 1.0, 1.0, 1.0, 1.0];
        assert!(dst.iter().zip(want).all(|(d, w)| close(*d, w)), "{dst:?}");
        assert!(close(max[0], 2.0 * l2) && close(max[1], 1.0), "{max:?}");
        assert!(close(sum[0], 2.0) && close(sum[1], 4.0), "{sum:?}");
    }

    #[test]
    fn update_rescales_the_running_sum_by_exp_of_the_max_change() {
        // inMax 0, inSum 3; block [ln 2, 0]: new max ln 2, dst [1, 1/2], expMax exp(0 - ln 2) = 1/2,
        // sum 1/2 * 3 + 3/2 = 3
        let l2 = 2f32.ln();
        let (dst, max, sum, em) = flash_v2(&[l2, 0.0], 1, 2, 2, Some((&[0.0], &[3.0])));
        assert!(close(dst[0], 1.0) && close(dst[1], 0.5), "{dst:?}");
        assert!(
            close(max[0], l2) && close(em[0], 0.5) && close(sum[0], 3.0),
            "{max:?} {em:?} {sum:?}"
        );
        // a running max above the block's: it stays, expMax 1, dst exp(x - 5)
        let (dst, max, sum, em) = flash_v2(&[1.0, 2.0], 1, 2, 2, Some((&[5.0], &[2.0])));
        assert!(close(max[0], 5.0) && close(em[0], 1.0), "{max:?} {em:?}");
        assert!(close(dst[0], (-4f32).exp()) && close(dst[1], (-3f32).exp()), "{dst:?}");
        assert!(close(sum[0], 2.0 + (-4f32).exp() + (-3f32).exp()), "{sum:?}");
    }

    #[test]
    fn only_the_original_columns_are_reduced_but_every_column_is_exponentiated() {
        // srcK 4, oriSrcK 2: the padding (9) neither sets the max nor adds to the sum; its exp is still written
        let (dst, max, sum, _) = flash_v2(&[0.0, 0.0, 9.0, 9.0], 1, 4, 2, None);
        assert!(close(max[0], 0.0) && close(sum[0], 2.0), "{max:?} {sum:?}");
        assert!(close(dst[2], 9f32.exp()), "{dst:?}");
    }

    #[test]
    fn min_tmp_sizes_of_the_tiling_library() {
        // float, not basic: one block of 8 and a repeat of 64 floats
        assert_eq!(flash_v2_min_tmp_bytes(DType::F32, DType::F32, 128, false), (8 + 64) * 4);
        // half with float statistics: two blocks of 8, the row and a repeat
        assert_eq!(
            flash_v2_min_tmp_bytes(DType::F16, DType::F32, 128, false),
            (16 + 128 + 64) * 4
        );
        // basic blocks: 8 rows of (block + repeat), 1024 columns take two repeats
        assert_eq!(
            flash_v2_min_tmp_bytes(DType::F32, DType::F32, 512, true),
            8 * (8 + 64) * 4
        );
        assert_eq!(
            flash_v2_min_tmp_bytes(DType::F32, DType::F32, 1024, true),
            8 * (8 + 128) * 4
        );
    }

    #[test]
    fn softmax_config_constants() {
        assert_eq!(parse_config(None), DEFAULT_CONFIG);
        assert_eq!(parse_config(Some("SOFTMAX_DEFAULT_CFG")), DEFAULT_CONFIG);
        let c = parse_config(Some("SoftmaxConfig:_0=0"));
        assert!(!c.check_tiling && c.ori_k == 0 && c.mode == 0);
        let c = parse_config(Some("SoftmaxConfig:_0=1:_1=8:_2=100"));
        assert!(c.check_tiling && c.ori_m == 8 && c.ori_k == 100);
    }

    #[test]
    fn last_axis_of_a_shape() {
        assert_eq!(ShapeRec::last_axis(&[2, 3, 64]), Some((6, 64)));
        assert_eq!(ShapeRec::last_axis(&[]), None);
    }
}
