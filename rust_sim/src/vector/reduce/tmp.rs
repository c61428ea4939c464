//! The temporary space ReduceSum / ReduceMax / ReduceMin / ReduceProd<T, pattern> need over [first, last].
//!
//! GetReduce*MaxMinTmpSize's page: "to ensure correct functions, the temporary space to be reserved or allocated
//! cannot be less than the minimum temporary space", and its maximum currently equals its minimum. The sizes are
//! the tiling library's for the 220x chips (asc-devkit impl/adv_api/tiling/reduce/reduce_tiling.cpp; the host
//! lowering computes the same in ascendir/lower/host_tiling_api.py). p2(n) below is the largest power of two
//! <= n, halved when it is n itself and the halving condition holds (the split the binary reduction starts
//! from); the RA pattern reduces the first axis, AR the last.

use super::Red;

fn p2(n: u64, halve: bool) -> u64 {
    let k = if n <= 1 { 1 } else { 1u64 << (63 - n.leading_zeros()) };
    if k == n && halve && n > 1 {
        k / 2
    } else {
        k
    }
}

fn align(n: u64, unit: u64) -> u64 {
    n.div_ceil(unit) * unit
}

/// The minimum bytes of temporary space (`t_size` bytes an element; `last_axis`: the AR pattern).
pub fn min_tmp_bytes(op: Red, t_size: u64, last_axis: bool, first: u64, last: u64, reuse_source: bool) -> u64 {
    let t = t_size.max(1);
    let many_rows = first > 1;
    match op {
        // ReduceSum / ReduceMean: float only, counted in floats
        Red::Sum if reuse_source => 0,
        Red::Sum if last_axis => {
            if last <= 64 {
                0
            } else {
                first * p2(last, many_rows) * 4
            }
        }
        Red::Sum => p2(first, many_rows) * align(last, 8) * 4,
        Red::Max | Red::Min if reuse_source => 0,
        Red::Max | Red::Min if last_axis => {
            let (per_blk, per_rep) = (32 / t, 256 / t);
            if last <= per_blk {
                0
            } else if last < per_rep {
                first * 32
            } else {
                first * 256
            }
        }
        Red::Prod if reuse_source => {
            if last_axis {
                256
            } else {
                0
            }
        }
        Red::Prod if last_axis => (p2(last, many_rows).max(8) + first * 8) * 4 + 256,
        Red::Max | Red::Min | Red::Prod => p2(first, many_rows) * align(last * t, 32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sum_sizes() {
        // KernelHive sum_reduction_over_a_dimension#0's tile: 256 rows (a power of two: halved) of 64 floats
        assert_eq!(min_tmp_bytes(Red::Sum, 4, false, 256, 64, false), 128 * 64 * 4);
        assert_eq!(min_tmp_bytes(Red::Sum, 4, false, 300, 20, false), 256 * 24 * 4);
        assert_eq!(min_tmp_bytes(Red::Sum, 4, false, 1, 64, false), 64 * 4);
        assert_eq!(min_tmp_bytes(Red::Sum, 4, true, 16, 64, false), 0);
        assert_eq!(min_tmp_bytes(Red::Sum, 4, true, 16, 256, false), 16 * 128 * 4);
        assert_eq!(min_tmp_bytes(Red::Sum, 4, false, 256, 64, true), 0);
    }

    #[test]
    fn max_min_prod_sizes() {
        assert_eq!(min_tmp_bytes(Red::Max, 4, true, 10, 8, false), 0);
        assert_eq!(min_tmp_bytes(Red::Max, 4, true, 10, 40, false), 10 * 32);
        assert_eq!(min_tmp_bytes(Red::Min, 2, true, 10, 128, false), 10 * 256);
        assert_eq!(min_tmp_bytes(Red::Max, 2, false, 33, 10, false), 32 * 32);
        // Prod AR: (max(8, p2(last)) + first * 8) floats and a repeat
        assert_eq!(min_tmp_bytes(Red::Prod, 4, true, 4, 16, false), (8 + 32) * 4 + 256);
        assert_eq!(min_tmp_bytes(Red::Prod, 4, true, 4, 16, true), 256);
    }
}
