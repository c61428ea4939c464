//! The order in which the vector sums add their terms, each partial sum rounded to the element type. Evidence:
//!
//! - ReduceSum (API page atlasascendc_api_07_0078, "Method 1/2"): a repeat's lanes as a tree of adjacent pairs
//!   (tree.rs); then method 1, the per-repeat results as a tree again, or method 2, the per-repeat results added
//!   in sequence. A2/A3: the count form ("first n elements") uses method 2, the mask/repeat form method 1. The
//!   2201 implementation agrees: asc-devkit impl/basic_api/dav_c220/kernel_operator_vec_reduce_impl.h:167-174
//!   (count form: one vcadd in counter mode with accumulation, mode 1, read back from ACC_VAL), :332-352 and
//!   :710-744 (mask form: vcadd per repeat into the work tensor, vcadd of those a repeat's worth at a time in
//!   counter mode, a last vcadd of the second-level results).
//! - BlockReduceSum (atlasascendc_api_07_0084): each 32-byte block's elements as a tree of adjacent pairs.
//! - PairReduceSum: one addition per pair of adjacent lanes: no order to choose.
//! - AscendC::Sum and Mean (impl/adv_api/detail/reduce/sum/sum_common_impl.h:60-100,
//!   mean/mean_common_impl.h:108-135): per row, RepeatReduceSum (vcadd) in counter mode over the n elements, then
//!   over the per-repeat results again until one remains: method 1. Mean multiplies by `T(1.0f / n)` in T
//!   (:107, :136-137); with accType float for half (MeanCast, :38-80) the row is cast to float, summed so, scaled
//!   by 1.0f / n in float and cast to half once.
//! - ReduceSum<T, pattern> (float only; impl/adv_api/detail/reduce/reduce_sum/reduce_sum_v220_impl.h): AR, a row
//!   of `last` elements: up to one repeat (64), WholeReduceSum / BlockReduceSum over it (:152-172, the tree);
//!   longer, P = the largest power of two below `last` (`last` halved when it is one, :229-232 and :266-270,
//!   FindClosestPowerOfTwo = floor(log2), reduce_common_util_impl.h:68-73), element j + P added onto element j
//!   (:34-119), then PairReduceSum down to 64 and BlockReduceSum twice (:121-145): a tree of adjacent pairs over
//!   the P partial sums. RA, over the rows (reduce_common_util_v220_impl.h:472-531, BinaryReduceByFirstAxis):
//!   K = the largest power of two <= rows; row K + r added onto row r, then the upper half of the K rows onto
//!   the lower half until one row is left (halves, not adjacent pairs).
//!
//! Half overflow: the ReduceSum and BlockReduceSum pages show a pairwise sum over 65504 kept as 65504. That is
//! the saturation mode, the only one of the Atlas training series; on A2/A3 the process default is the INF/NaN
//! mode (the runtime's aclrtFloatOverflowMode page: "Atlas A2/A3 ... default Inf/NaN mode"; set_device_sat_mode:
//! "keep the default 1 (INF/NaN)", saturation "only for compatibility with old versions"), and this simulator
//! models A2/A3 (2201): an overflowing half partial sum becomes +-inf, as IEEE rounding gives it.

use crate::dtype::DType;
use crate::vector::binary::round_to;
use crate::vector::reduce::tree::fold_adjacent_pairs;

/// The tree of adjacent pairs over `vals` at lanes 0, 1, ... (zeros past the end, up to a power of two).
pub(crate) fn pair_tree(t: DType, vals: &[f32]) -> f32 {
    if vals.is_empty() {
        return 0.0;
    }
    let mut acc = vals.to_vec();
    acc.resize(vals.len().next_power_of_two(), 0.0);
    fold_adjacent_pairs(t, acc)
}

/// Method 1 above the first level: the per-repeat results as trees, a repeat's worth (`per_rep`) at a time,
/// until one value remains.
pub(crate) fn tree_of_partials(t: DType, partials: &[f32], per_rep: usize) -> f32 {
    let mut level = partials.to_vec();
    while level.len() > 1 {
        level = level.chunks(per_rep.max(2)).map(|c| pair_tree(t, c)).collect();
    }
    level.first().copied().unwrap_or(0.0)
}

/// Method 2 above the first level: the per-repeat results added in sequence, each sum rounded to `t`.
pub(crate) fn partials_in_sequence(t: DType, partials: &[f32]) -> f32 {
    partials.iter().fold(0.0f32, |acc, &p| round_to(t, acc + p))
}

/// Method 1 over a contiguous run (AscendC::Sum and Mean over a row's n elements): a tree per repeat, then
/// trees of those.
pub(crate) fn repeats_then_tree(t: DType, vals: &[f32]) -> f32 {
    let per_rep = 256 / t.size().max(1);
    let firsts: Vec<f32> = vals.chunks(per_rep).map(|c| pair_tree(t, c)).collect();
    tree_of_partials(t, &firsts, per_rep)
}

/// ReduceSum<T, AR>'s order over one row of `last` elements (see the module comment).
pub(crate) fn ar_row_sum(t: DType, row: &[f32]) -> f32 {
    let last = row.len();
    let per_rep = 256 / t.size().max(1);
    if last <= per_rep {
        return pair_tree(t, row);
    }
    let floor_p2 = 1usize << (usize::BITS - 1 - last.leading_zeros());
    let p = if floor_p2 == last { last / 2 } else { floor_p2 };
    let mut folded = row[..p].to_vec();
    for j in 0..last - p {
        folded[j] = round_to(t, folded[j] + row[p + j]);
    }
    pair_tree(t, &folded)
}

/// ReduceSum<T, RA>'s order over one column of `rows` values: fold the rows past the largest power of two onto
/// the first ones, then the upper half onto the lower half until one remains.
pub(crate) fn fold_halves(t: DType, col: &[f32]) -> f32 {
    let n = col.len();
    if n == 0 {
        return 0.0;
    }
    let k = 1usize << (usize::BITS - 1 - n.leading_zeros());
    let mut buf = col[..k].to_vec();
    for r in 0..n - k {
        buf[r] = round_to(t, buf[r] + col[k + r]);
    }
    let mut s = k;
    while s > 1 {
        s /= 2;
        for r in 0..s {
            buf[r] = round_to(t, buf[r] + buf[r + s]);
        }
    }
    buf[0]
}

/// Mean's value from a row's sum (method 1 in `t`, or in float for accType float with half T).
pub(crate) fn mean_of(t: DType, sum: f32, n: usize, float_acc: bool) -> f32 {
    if n == 0 {
        return sum;
    }
    if float_acc {
        return round_to(t, sum * (1.0f32 / n as f32));
    }
    round_to(t, sum * round_to(t, 1.0f32 / n as f32))
}

#[cfg(test)]
mod tests {
    use super::*;

    const E: f32 = 1.0 / 16_777_216.0; // 2^-24: 1 + E is 1 in f32 (a tie, to even), 1 + 2E is exact

    fn in_lane_order(t: DType, vals: &[f32]) -> f32 {
        vals.iter().fold(0.0f32, |acc, &v| round_to(t, acc + v))
    }

    #[test]
    fn count_form_adds_repeats_in_sequence() {
        // half, three repeats whose trees give 2048, 1, 1 (the step is 2 from 2048 up): in sequence
        // 2048 + 1 = 2049 -> 2048 (tie, to even), + 1 -> 2048 again; method 1's tree (2048 + 1) + (1 + 0) would
        // give 2048 + 1 -> 2048 as well, and lane order over the 384 elements 2048; f32 rounded once 2050
        let mut vals = vec![0f32; 3 * 128];
        vals[0] = 2048.0;
        vals[128] = 1.0;
        vals[256] = 1.0;
        let firsts: Vec<f32> = vals.chunks(128).map(|c| pair_tree(DType::F16, c)).collect();
        assert_eq!(firsts, [2048.0, 1.0, 1.0]);
        assert_eq!(partials_in_sequence(DType::F16, &firsts), 2048.0);
        assert_eq!(round_to(DType::F16, vals.iter().sum()), 2050.0);
        // repeats 1, 1, 2048 tell sequence and tree apart from f32: 1 + 1 = 2, + 2048 = 2050 in sequence
        assert_eq!(partials_in_sequence(DType::F16, &[1.0, 1.0, 2048.0]), 2050.0);
    }

    #[test]
    fn mask_form_and_sum_build_a_tree_of_repeats() {
        // half, 130 repeats: the first's tree is 2048, the last two 1 each. Level 2, a repeat's worth (128) at a
        // time: tree(first 128) = 2048, tree(1, 1) = 2; level 3: 2048 + 2 = 2050. Lane order (or in sequence):
        // each + 1 ties back to 2048
        let mut partials = vec![0f32; 130];
        partials[0] = 2048.0;
        partials[128] = 1.0;
        partials[129] = 1.0;
        assert_eq!(tree_of_partials(DType::F16, &partials, 128), 2050.0);
        assert_eq!(partials_in_sequence(DType::F16, &partials), 2048.0);
        assert_eq!(in_lane_order(DType::F16, &partials), 2048.0);
        // the same over a row of 130 elements (AscendC::Sum / Mean): a repeat of 128 (tree 2048), one of 2
        // (tree 2), then 2048 + 2
        assert_eq!(repeats_then_tree(DType::F16, &partials), 2050.0);
    }

    #[test]
    fn ar_rows_fold_at_a_power_of_two_then_pair() {
        // float row of 96: P = 64; element j + 64 onto element j for j < 32, then the tree over the 64 sums.
        // row[1] + row[65] = 2E, then the pair (1, 2E) = 1 + 2E; lane order: 1 + E = 1 twice
        let mut row = vec![0f32; 96];
        row[0] = 1.0;
        row[1] = E;
        row[65] = E;
        assert_eq!(ar_row_sum(DType::F32, &row), 1.0 + 2.0 * E);
        assert_eq!(in_lane_order(DType::F32, &row), 1.0);
        // a power of two (128) folds at half of it (64): row[64] + row[0] first
        let mut row = vec![0f32; 128];
        row[0] = E;
        row[64] = E;
        row[1] = 1.0;
        // folded[0] = 2E, folded[1] = 1: 2E + 1 exact; lane order E + 1 = 1, + E = 1
        assert_eq!(ar_row_sum(DType::F32, &row), 1.0 + 2.0 * E);
        assert_eq!(in_lane_order(DType::F32, &row), 1.0);
        // up to a repeat: one tree
        let short = [1.0, 0.0, E, E];
        assert_eq!(ar_row_sum(DType::F32, &short), 1.0 + 2.0 * E);
        assert_eq!(in_lane_order(DType::F32, &short), 1.0);
    }

    #[test]
    fn ra_columns_fold_halves() {
        // 3 rows [E, 1, E]: K = 2, row 2 onto row 0 (2E), then 2E + 1; lane order E + 1 = 1, + E = 1
        let col = [E, 1.0, E];
        assert_eq!(fold_halves(DType::F32, &col), 1.0 + 2.0 * E);
        assert_eq!(in_lane_order(DType::F32, &col), 1.0);
        // 4 rows [1, E, 0, E]: halves (1 + 0, E + E), then 1 + 2E; adjacent pairs (1 + E) + (0 + E) = 1
        let col = [1.0, E, 0.0, E];
        assert_eq!(fold_halves(DType::F32, &col), 1.0 + 2.0 * E);
        assert_eq!(pair_tree(DType::F32, &col), 1.0);
        assert_eq!(in_lane_order(DType::F32, &col), 1.0);
    }

    #[test]
    fn mean_scales_by_the_rounded_reciprocal() {
        // half: Muls by T(1.0f / n), each rounded to half. n = 11, sum 11: 1/11 in half is 0.09088135
        // (1489 * 2^-14), 11 * it = 0.99969482 = 2047.375 * 2^-11 -> 2047 * 2^-11 = 0.99951172, where the sum
        // divided by n gives 1.0 (n = 3, 5, 7 land on ties at 2047.5 * 2^-11 and round to even, 1.0)
        assert_eq!(mean_of(DType::F16, 11.0, 11, false), 2047.0 / 2048.0);
        assert_eq!(round_to(DType::F16, 11.0 / 11.0), 1.0);
        assert_eq!(mean_of(DType::F16, 3.0, 3, false), 1.0);
        // accType float: 11 * (1/11 in f32) = 1.0 in f32, then half 1.0; a division would give 1.0 as well
        assert_eq!(mean_of(DType::F16, 11.0, 11, true), 1.0);
    }

    #[test]
    fn half_overflow_is_inf_not_65504() {
        // the pages' saturating example [60000, 60000, -30000, 100] gives 35604 in saturation mode only; A2/A3's
        // default INF/NaN mode: 60000 + 60000 = inf, inf + (-29900) = inf
        let v = [60000.0, 60000.0, -30000.0, 100.0];
        assert_eq!(pair_tree(DType::F16, &v), f32::INFINITY);
    }
}
