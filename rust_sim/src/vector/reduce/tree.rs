//! The order in which one repeat of a whole-repeat sum (the `vcadd` instruction: WholeReduceSum, the intrinsic
//! itself) adds its lanes. ReduceSum's page (asc-devkit API reference, "Method 1/2: binary tree accumulation is
//! first performed on a repeat"): data0 + data1, data2 + data3, ..., then those pairwise again, until one value
//! remains, each addition in the element type. Lanes the mask leaves out add as zeros (an exact addition), so
//! the tree keeps every active value at its lane's position.

use crate::dtype::DType;
use crate::vector::binary::round_to;

/// The sum of one repeat's active lanes (`vals[k]` at lane `lanes[k]`) as the hardware's adjacent-pair tree
/// over the repeat's 256 bytes of lanes, each partial sum rounded to `t`. Lanes past the repeat (not expected)
/// fall back to summing in lane order.
pub(crate) fn repeat_sum(t: DType, vals: &[f32], lanes: &[u32]) -> f32 {
    lanes_tree(t, 256 / t.size().max(1), vals, lanes)
}

/// The adjacent-pair tree over `width` lanes (a power of two) with `vals[k]` at lane `lanes[k]` and zeros
/// elsewhere, each partial rounded to `t` (a repeat for vcadd, a 32-byte block for BlockReduceSum). Lanes
/// past the width (not expected) fall back to summing in lane order.
pub(crate) fn lanes_tree(t: DType, width: usize, vals: &[f32], lanes: &[u32]) -> f32 {
    if vals.len() != lanes.len() || lanes.iter().any(|&l| l as usize >= width) {
        return round_to(t, vals.iter().sum());
    }
    let mut acc = vec![0f32; width];
    for (&v, &l) in vals.iter().zip(lanes) {
        acc[l as usize] = v;
    }
    fold_adjacent_pairs(t, acc)
}

/// Adds `acc[2i] + acc[2i + 1]` level by level until one value is left, each partial rounded to `t`; `acc`'s
/// length is a power of two (zeros where no lane is active).
pub(crate) fn fold_adjacent_pairs(t: DType, mut acc: Vec<f32>) -> f32 {
    let mut w = acc.len();
    while w > 1 {
        w /= 2;
        for i in 0..w {
            acc[i] = round_to(t, acc[2 * i] + acc[2 * i + 1]);
        }
    }
    acc.first().copied().unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_adjacent_pairs_first() {
        // 1 + 2^-24 is 1 in f32 (a tie, to even): in lane order 1 + 0 + e + e stays 1; the tree adds e + e
        // first (2e, exact) and then 1 + 2e, which f32 holds
        let e = 2f32.powi(-24);
        let vals = [1.0, 0.0, e, e];
        let lanes: Vec<u32> = (0..4).collect();
        assert_eq!(vals.iter().sum::<f32>(), 1.0);
        assert_eq!(repeat_sum(DType::F32, &vals, &lanes), 1.0 + 2.0 * e);
        // masked lanes are zeros in their places: lanes 0 and 63 only
        assert_eq!(repeat_sum(DType::F32, &[1.0, e], &[0, 63]), 1.0);
        assert_eq!(repeat_sum(DType::F32, &[e, e], &[1, 63]), 2.0 * e);
    }

    #[test]
    fn a_block_is_a_tree_of_its_own_lanes() {
        // BlockReduceSum, half: a 32-byte block of 16 lanes. [2048, 0, 1, 1]: (2048 + 0) + (1 + 1) = 2050; in
        // lane order each + 1 ties back to 2048 (the step is 2 there)
        let lanes: Vec<u32> = (0..4).collect();
        assert_eq!(lanes_tree(DType::F16, 16, &[2048.0, 0.0, 1.0, 1.0], &lanes), 2050.0);
        let in_order = [2048.0f32, 0.0, 1.0, 1.0]
            .iter()
            .fold(0.0f32, |acc, &v| round_to(DType::F16, acc + v));
        assert_eq!(in_order, 2048.0);
        // lanes 14 and 15 of the block pair with each other first
        assert_eq!(lanes_tree(DType::F16, 16, &[2048.0, 1.0, 1.0], &[0, 14, 15]), 2050.0);
    }

    #[test]
    fn half_partial_sums_round_to_half() {
        // 2048 + 1 is 2048 in half (step 2 there); then + 1 again stays 2048 per pair, where f32 would give 2050
        let lanes: Vec<u32> = (0..4).collect();
        assert_eq!(repeat_sum(DType::F16, &[2048.0, 1.0, 1.0, 0.0], &lanes), 2048.0);
    }
}
