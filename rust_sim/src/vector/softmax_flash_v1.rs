//! SoftmaxFlash (the first, deprecated form that SoftmaxFlashV2 replaced; ops-transformer's arch32
//! prompt_flash_attention still calls it): one step of the online softmax whose output, unlike V2's, is already
//! divided by the running sum. The call runs through SoftmaxFlashV2's operation (softmax_flash.rs: shape, tiling
//! check, temporary space, known bytes); this file holds what differs: the formulas and the temporary size.
//!
//! asc-devkit's 220x implementation (impl/adv_api/detail/activation/softmax/softmax_common/
//! softmax_common_flash.h:31-87 picks the path; softmax_flash_base_impl/softmax_flash_nd_process_impl.h:59-111
//! the half/float step, 167-240 the float one, with the same formulas), per row, in float:
//! m = rowmax(x) and s = rowsum(exp(x - m)) over the first oriSrcK columns, exp over all srcK; isUpdate false is
//! plain SoftMax (SoftMaxNDImpl): dst = exp(x - m) / s, max m, sum s, expMax not written. isUpdate true, with the
//! running inMax / inSum: M = max(inMax, m), a = exp(m - M), b = exp(inMax - M), S = b inSum + a s,
//! expMax = b inSum / S, dst = exp(x - m) * (a / S). isUpdate is a run-time argument here (a template
//! argument in V2). Statistics are filled over a 32-byte block per row, as in V2.

use crate::vector::softmax::lanes_fold;

/// One SoftmaxFlash step over `rows` rows of `cols` (`src`, row-major), reducing over the first `ori` columns;
/// `running`: each row's inMax and inSum (isUpdate). Returns dst and, per row, the new max, sum and expMax (1
/// when not updating: the API does not write it then).
pub fn flash_v1(
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
        let m = lanes_fold(&x[..ori], f32::NEG_INFINITY, f32::max);
        let o = &mut dst[r * cols..(r + 1) * cols];
        for (d, &v) in o.iter_mut().zip(x) {
            *d = (v - m).exp();
        }
        let s = lanes_fold(&o[..ori], 0.0, |a, b| a + b);
        let scale = match running {
            Some((in_max, in_sum)) => {
                let big = in_max[r].max(m);
                let (a, b) = ((m - big).exp(), (in_max[r] - big).exp());
                let kept = b * in_sum[r];
                let total = kept + a * s;
                maxes[r] = big;
                sums[r] = total;
                exp_maxes[r] = kept / total;
                a / total
            }
            None => {
                maxes[r] = m;
                sums[r] = s;
                // SoftMaxNDImpl divides each element by the sum
                for d in o.iter_mut() {
                    *d /= s;
                }
                continue;
            }
        };
        for d in o.iter_mut() {
            *d *= scale;
        }
    }
    (dst, maxes, sums, exp_maxes)
}

/// GetSoftMaxFlashMinTmpSize on the 220x chips, in bytes (asc-devkit impl/adv_api/tiling/activation/
/// softmax_tiling.cpp:265-304): in floats, isUpdate false one block of `t` (32 / sizeof(T) elements) + srcK + 64,
/// isUpdate true 4 blocks + 2 srcK.
pub fn flash_v1_min_tmp_bytes(t_size: usize, cols: usize, update: bool) -> i64 {
    let per_block = 32 / t_size;
    let floats = if update {
        4 * per_block + 2 * cols
    } else {
        per_block + cols + 64
    };
    (floats * 4) as i64
}

#[cfg(test)]
mod tests {
    use super::{flash_v1, flash_v1_min_tmp_bytes};

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() <= 1e-6 * b.abs().max(1.0)
    }

    #[test]
    fn the_first_block_is_the_plain_softmax() {
        // [0, ln 3]: max ln 3, exp(x - max) = [1/3, 1], sum 4/3, dst [1/4, 3/4]
        let l3 = 3f32.ln();
        let (dst, max, sum, em) = flash_v1(&[0.0, l3], 1, 2, 2, None);
        assert!(close(dst[0], 0.25) && close(dst[1], 0.75), "{dst:?}");
        assert!(close(max[0], l3) && close(sum[0], 4.0 / 3.0) && em[0] == 1.0);
    }

    #[test]
    fn an_update_divides_by_the_new_running_sum() {
        // inMax 0, inSum 2; block [ln 2, 0]: m ln 2, s 3/2; M ln 2, a 1, b 1/2; S 1/2 * 2 + 3/2 = 5/2;
        // expMax (1/2 * 2) / (5/2) = 2/5; dst exp(x - ln 2) / (5/2) = [2/5, 1/5]
        let l2 = 2f32.ln();
        let (dst, max, sum, em) = flash_v1(&[l2, 0.0], 1, 2, 2, Some((&[0.0], &[2.0])));
        assert!(close(dst[0], 0.4) && close(dst[1], 0.2), "{dst:?}");
        assert!(
            close(max[0], l2) && close(sum[0], 2.5) && close(em[0], 0.4),
            "{max:?} {sum:?} {em:?}"
        );
        // the running max above the block's: a = exp(m - M) scales the block down
        let (dst, max, sum, em) = flash_v1(&[0.0, 0.0], 1, 2, 2, Some((&[1.0], &[1.0])));
        let a = (-1f32).exp();
        let total = 1.0 + 2.0 * a;
        assert!(close(max[0], 1.0) && close(sum[0], total) && close(em[0], 1.0 / total));
        assert!(close(dst[0], a / total) && close(dst[1], a / total), "{dst:?}");
    }

    #[test]
    fn padding_columns_are_not_reduced() {
        let (dst, max, sum, _) = flash_v1(&[0.0, 0.0, 9.0, 9.0], 1, 4, 2, None);
        assert!(close(max[0], 0.0) && close(sum[0], 2.0), "{max:?} {sum:?}");
        assert!(close(dst[0], 0.5) && close(dst[2], 9f32.exp() / 2.0), "{dst:?}");
    }

    #[test]
    fn min_tmp_sizes_of_the_tiling_library() {
        assert_eq!(flash_v1_min_tmp_bytes(4, 128, false), (8 + 128 + 64) * 4);
        assert_eq!(flash_v1_min_tmp_bytes(2, 128, true), (4 * 16 + 2 * 128) * 4);
    }
}
