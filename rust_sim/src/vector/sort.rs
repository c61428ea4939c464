//! The (score, index) sorts of the A2/A3 vector units (arch 2201: 910B, 910_93), by their API pages (Sort32,
//! MrgSort, Sort, Concat, Extract, GetSortLen, GetSortOffset, GetMrgSortResult; asc-devkit's dav_c220 headers read
//! for the facts the pages leave out). The older chips' region-proposal forms are vector/proposal.rs.
//!
//! A sorted element is an 8-byte pair: the score in the low bytes (float: bytes 0..4; half: bytes 0..2, bytes 2..4
//! reserved, written 0 here), the uint32 index in bytes 4..8.
//! - Sort32 sorts each group of 32 (score, index) pairs by score, largest first; of equal scores the one at the
//!   lower position comes first (the page: score[i] == score[j] with i > j puts j first). Groups are not merged.
//! - MrgSort merges up to four sorted lists (validBit 3 / 7 / 15: the first 2, 3 or 4; lengths in pairs, 0..4095)
//!   into one, largest first; equal scores come from the earlier list first (the merge keeps each list's order, so
//!   Sort's full sort, built from it, is a stable sort). With ifExhaustedSuspension it stops when a list is used
//!   up; the pairs it took of each list go to VMS4_SR (GetMrgSortResult), and to sortedNum in the list form.
//!   repeatTimes > 1 runs the merge again on the next four lists, which the page allows only with four equal,
//!   contiguous lists, validBit 15 and no suspension.
//! - Sort<T, isFullSort> is Sort32 over repeatTime groups; isFullSort then merges all of them (the library does
//!   it by rounds of MrgSort through tmp, and leaves tmp holding a copy of the result).
//! - Concat on 2201 moves nothing: the concat tensor becomes src (the library's 2201 branch assigns it).
//! - Extract reads 32 pairs per repeat (256 bytes: "64 float or 128 half elements") into the scores and indices.
//!
//! Scores compare as numbers: -0 equals +0 (ties keep their order). Where NaN goes is not documented: here a NaN
//! ranks below every number (numpy's stable argsort of -x puts it last too), and the call warns.
//!
//! This file holds the pure semantics (the pair, the order, the merge) and what the calls share; sort/sort32.rs
//! has Sort32 and Sort, sort/mrgsort.rs MrgSort and GetMrgSortResult, sort/extract.rs Concat, Extract and
//! GetSortLen / GetSortOffset; sort/config.rs the Ascend 950's Sort with a SortConfig (values in, values out).

use crate::api::{Args, Registry};
use crate::checks::code;
use crate::core::Ctx;
use crate::dtype::DType;

mod config;
mod extract;
mod mrgsort;
mod sort32;
use extract::{decode_concat, decode_extract, decode_len};
use mrgsort::{decode_mrgsort_info, decode_mrgsort_lists, decode_result};
use sort32::{decode_sort, decode_sort32};

/// Bytes of one (score, index) pair.
pub const PAIR: usize = 8;
/// Pairs Sort32 sorts per repeat, and Extract reads per repeat.
pub const GROUP: usize = 32;
/// Longest list MrgSort takes.
pub const MAX_LIST_LEN: u64 = 4095;

// ------------------------------------------------------------------------------------------- pure semantics

/// The score of the pair at the start of `rec`.
pub fn score(rec: &[u8], t: DType) -> f64 {
    t.to_f64(t.load_bits(&rec[..t.size()]))
}

/// True when score `a` goes before score `b` (strictly): the larger number; any number before a NaN.
pub fn before(a: f64, b: f64) -> bool {
    match (a.is_nan(), b.is_nan()) {
        (false, true) => true,
        (false, false) => a > b,
        _ => false,
    }
}

/// One pair's bytes: the score's bits, the reserved bytes of half 0, the index.
pub fn pair(score_bits: &[u8], index: u32) -> [u8; PAIR] {
    let mut out = [0u8; PAIR];
    out[..score_bits.len()].copy_from_slice(score_bits);
    out[4..].copy_from_slice(&index.to_le_bytes());
    out
}

/// The order Sort32 puts `scores` in: positions, largest score first, equal scores by position.
pub fn order(scores: &[f64]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..scores.len()).collect();
    // a stable sort: equal (or both NaN) scores keep their positions' order
    idx.sort_by(|&a, &b| {
        let (x, y) = (scores[a], scores[b]);
        if before(x, y) {
            std::cmp::Ordering::Less
        } else if before(y, x) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    idx
}

/// The positions Sort32 puts `n` scores (raw bytes of T) in: each group of 32 on its own; with `full`, all of
/// them (Sort's full sort: the stable merge of the groups is the stable sort of the whole).
pub fn sort_positions(scores: &[u8], n: usize, t: DType, full: bool) -> Vec<usize> {
    let size = t.size();
    let vals: Vec<f64> = (0..n).map(|i| score(&scores[i * size..], t)).collect();
    if full {
        return order(&vals);
    }
    (0..n)
        .step_by(GROUP)
        .flat_map(|g| order(&vals[g..(g + GROUP).min(n)]).into_iter().map(move |k| g + k))
        .collect()
}

/// The pairs of the scores (raw bytes of T) and uint32 indices at `positions`, in that order.
pub fn pairs_at(scores: &[u8], indices: &[u8], positions: &[usize], t: DType) -> Vec<u8> {
    let size = t.size();
    positions
        .iter()
        .flat_map(|&i| {
            let index = u32::from_le_bytes(indices[i * 4..i * 4 + 4].try_into().unwrap());
            pair(&scores[i * size..(i + 1) * size], index)
        })
        .collect()
}

/// Sort32 on `n` scores and `n` uint32 indices: the sorted pairs, each group of 32 on its own.
pub fn sort32(scores: &[u8], indices: &[u8], n: usize, t: DType) -> Vec<u8> {
    pairs_at(scores, indices, &sort_positions(scores, n, t, false), t)
}

/// One MrgSort merge of up to four lists of pairs (None: not valid). Returns, per output pair, (list, position in
/// it), and the count taken of each list. Largest first, the earlier list on ties; `suspend`: stop when a list is
/// used up (a valid empty list stops it before anything moves).
pub fn merge(lists: &[Option<&[u8]>; 4], t: DType, suspend: bool) -> (Vec<(usize, usize)>, [usize; 4]) {
    let lens: Vec<usize> = lists.iter().map(|l| l.map_or(0, |b| b.len() / PAIR)).collect();
    let mut taken = [0usize; 4];
    let mut out = Vec::new();
    if suspend && lists.iter().zip(&lens).any(|(l, &n)| l.is_some() && n == 0) {
        return (out, taken);
    }
    loop {
        let mut best: Option<(usize, f64)> = None;
        for (i, l) in lists.iter().enumerate() {
            let Some(bytes) = l else { continue };
            if taken[i] >= lens[i] {
                continue;
            }
            let s = score(&bytes[taken[i] * PAIR..], t);
            if best.is_none_or(|(_, b)| before(s, b)) {
                best = Some((i, s));
            }
        }
        let Some((i, _)) = best else { break };
        out.push((i, taken[i]));
        taken[i] += 1;
        if suspend && taken[i] == lens[i] {
            break;
        }
    }
    (out, taken)
}

/// VMS4_SR's bits for the counts taken.
pub fn vms4_bits(taken: &[usize; 4]) -> u64 {
    taken
        .iter()
        .enumerate()
        .fold(0u64, |acc, (i, &n)| acc | ((n as u64 & 0xFFFF) << (16 * i)))
}

/// GetSortLen / GetSortOffset on 2201: elements of T that `n` pairs take (8 bytes each: 4 half, 2 float).
pub fn sort_len(n: u64, t: DType) -> u64 {
    n * (PAIR / t.size()) as u64
}

// ------------------------------------------------------------------------------------------- shared checks

/// True on the chips whose sort family works on region proposals (310P, 910): these 2201 forms do not apply.
fn proposal_chip(cx: &mut Ctx, what: &str) -> bool {
    let chip = cx.prog.chip.as_str();
    if matches!(chip, "310P" | "910") {
        cx.report(
            code::NOT_MODELLED,
            format!(
                "{what} on the {chip} works on region proposals (8 elements each); the simulator models that form \
                 through ProposalConcat / RpSort16 / MrgSort4 / ProposalExtract, and {what}'s (score, index) form \
                 of the A2/A3 parts only"
            ),
        );
        return true;
    }
    false
}

fn warn_nan(cx: &mut Ctx, scores: &[f64], what: &str) {
    if scores.iter().any(|s| s.is_nan()) {
        cx.warn(
            code::INVALID_OPERAND,
            format!(
                "{what}: a NaN score; where the hardware puts it is not documented (the simulator ranks it below \
                 every number)"
            ),
        );
    }
}

fn flag(a: &Args, name: &str) -> bool {
    a.targ(name).is_some_and(|v| !matches!(v, "false" | "0" | ""))
}

pub fn register(r: &mut Registry) {
    r.add("Sort32.plain", decode_sort32);
    r.add("Sort.plain", decode_sort);
    // the 950's forms with a SortConfig template argument, with or without indices and a sharedTmpBuffer
    let forms = [
        "config",
        "config_index",
        "config_src_index",
        "config_tmp",
        "config_index_tmp",
        "config_src_index_tmp",
    ];
    r.add_all(&["Sort"], &forms, config::decode);
    r.add("MrgSort.info", decode_mrgsort_info);
    r.add("MrgSort.plain", decode_mrgsort_lists);
    r.add("GetMrgSortResult.plain", decode_result);
    r.add("Concat.plain", decode_concat);
    r.add("Extract.plain", decode_extract);
    r.add("GetSortLen.plain", |a| decode_len(a, "elemCount"));
    r.add("GetSortOffset.plain", |a| decode_len(a, "elemOffset"));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    fn idx(n: u32) -> Vec<u8> {
        (0..n).flat_map(|i| (100 + i).to_le_bytes()).collect()
    }

    /// (score, index) of each pair of float pairs
    fn unpack(p: &[u8]) -> Vec<(f32, u32)> {
        p.chunks(PAIR)
            .map(|c| {
                (
                    f32::from_le_bytes(c[..4].try_into().unwrap()),
                    u32::from_le_bytes(c[4..].try_into().unwrap()),
                )
            })
            .collect()
    }

    fn pairs(v: &[(f32, u32)]) -> Vec<u8> {
        v.iter().flat_map(|&(s, i)| pair(&s.to_le_bytes(), i)).collect()
    }

    #[test]
    fn sort32_orders_each_group_largest_first_and_ties_by_position() {
        // 32 scores: ties at 3.0 (positions 1 and 4), -0 and +0 (positions 5 and 6, equal), the rest -9
        let mut s = vec![-9.0f32; 32];
        s[..8].copy_from_slice(&[0.5, 3.0, -7.0, 2.0, 3.0, -0.0, 0.0, 9.0]);
        let out = unpack(&sort32(&f32s(&s), &idx(32), 32, DType::F32));
        let head: Vec<u32> = out[..7].iter().map(|p| p.1).collect();
        assert_eq!(head, vec![107, 101, 104, 103, 100, 105, 106]);
        // then -7, then the twenty-four -9s in their positions' order
        assert_eq!(out[7], (-7.0, 102));
        let tail: Vec<u32> = out[8..].iter().map(|p| p.1).collect();
        assert_eq!(tail, (108..132).collect::<Vec<u32>>());
        // -0 keeps its sign bit
        assert_eq!(out[5].0.to_bits(), (-0.0f32).to_bits());
    }

    #[test]
    fn sort32_does_not_merge_groups_and_sorts_a_short_tail_alone() {
        // 40 scores: group 1 = 0..32 ascending, the tail 8 = 100..108
        let s: Vec<f32> = (0..40).map(|i| i as f32).collect();
        let out = unpack(&sort32(&f32s(&s), &idx(40), 40, DType::F32));
        assert_eq!(out[0], (31.0, 131));
        assert_eq!(out[31], (0.0, 100));
        assert_eq!(out[32], (39.0, 139));
        assert_eq!(out[39], (32.0, 132));
    }

    #[test]
    fn half_pairs_put_the_score_low_zero_the_reserved_bytes_and_the_index_high() {
        let h = |x: f32| half::f16::from_f32(x).to_bits().to_le_bytes();
        let scores: Vec<u8> = [1.0f32, 2.0].iter().flat_map(|&x| h(x)).collect();
        let out = sort32(&scores, &idx(2), 2, DType::F16);
        assert_eq!(&out[..8], &[h(2.0)[0], h(2.0)[1], 0, 0, 101, 0, 0, 0]);
        assert_eq!(&out[8..], &[h(1.0)[0], h(1.0)[1], 0, 0, 100, 0, 0, 0]);
    }

    #[test]
    fn nan_ranks_below_every_number() {
        let s = [f32::NAN, -f32::INFINITY, 1.0, f32::NAN];
        let out = unpack(&sort32(&f32s(&s), &idx(4), 4, DType::F32));
        let order: Vec<u32> = out.iter().map(|p| p.1).collect();
        assert_eq!(order, vec![102, 101, 100, 103]);
    }

    #[test]
    fn merge_of_four_lists_takes_the_earlier_list_on_ties() {
        let a = pairs(&[(9.0, 0), (5.0, 1), (1.0, 2)]);
        let b = pairs(&[(7.0, 10), (5.0, 11)]);
        let c = pairs(&[(8.0, 20)]);
        let d = pairs(&[(5.0, 30), (-1.0, 31)]);
        let (order, taken) = merge(&[Some(&a), Some(&b), Some(&c), Some(&d)], DType::F32, false);
        // 9 a0, 8 c0, 7 b0, then the 5s from a, b, d in list order, 1 a2, -1 d1
        assert_eq!(
            order,
            vec![(0, 0), (2, 0), (1, 0), (0, 1), (1, 1), (3, 0), (0, 2), (3, 1)]
        );
        assert_eq!(taken, [3, 2, 1, 2]);
        assert_eq!(vms4_bits(&taken), 3 | 2 << 16 | 1 << 32 | 2 << 48);
    }

    #[test]
    fn merge_with_exhaustion_stops_at_the_first_list_used_up() {
        let a = pairs(&[(9.0, 0), (5.0, 1), (1.0, 2)]);
        let b = pairs(&[(7.0, 10), (6.0, 11)]);
        let c = pairs(&[(8.0, 20), (0.0, 21)]);
        let (order, taken) = merge(&[Some(&a), Some(&b), Some(&c), None], DType::F32, true);
        // 9 a0, 8 c0, 7 b0, 6 b1: b is used up, the merge stops
        assert_eq!(order, vec![(0, 0), (2, 0), (1, 0), (1, 1)]);
        assert_eq!(taken, [1, 2, 1, 0]);
        // a valid empty list: nothing moves
        let (order, taken) = merge(&[Some(&a), Some(&[]), None, None], DType::F32, true);
        assert!(order.is_empty() && taken == [0; 4]);
        // without suspension everything moves
        let (order, _) = merge(&[Some(&a), Some(&b), Some(&c), None], DType::F32, false);
        assert_eq!(order.len(), 7);
    }

    #[test]
    fn full_sort_is_stable_across_groups() {
        // 64 scores, all 1.0 but position 40 = 2.0: it comes first, the rest keep their positions' order
        let mut s = vec![1.0f32; 64];
        s[40] = 2.0;
        let positions = sort_positions(&f32s(&s), 64, DType::F32, true);
        let out = unpack(&pairs_at(&f32s(&s), &idx(64), &positions, DType::F32));
        let order: Vec<u32> = out.iter().map(|p| p.1 - 100).collect();
        let mut want = vec![40u32];
        want.extend((0..64).filter(|&i| i != 40));
        assert_eq!(order, want);
    }

    #[test]
    fn sort_len_counts_elements_of_t() {
        assert_eq!(sort_len(32, DType::F32), 64);
        assert_eq!(sort_len(32, DType::F16), 128);
    }
}
