//! SoftmaxFlashV2's formulas (one step of the online softmax over a tile's rows), GetSoftMaxFlashV2MinTmpSize's
//! minimum, and the SoftmaxConfig template argument.

use crate::dtype::DType;
use crate::vector::softmax::lanes_fold;

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

#[cfg(test)]
mod tests {
    use super::{flash_v2, flash_v2_min_tmp_bytes, parse_config, DEFAULT_CONFIG};
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
}
