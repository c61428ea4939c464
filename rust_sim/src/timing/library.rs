//! The 220x library's instruction sequences of the high-level APIs that issue instructions per row, per column
//! block or per tmp piece (issue 29): SoftMax / LogSoftMax, LayerNorm (both forms), Normalize, RmsNorm, Xor.
//!
//! cost.rs's composite letters charge one startup per pass over the call's data. These APIs loop: LayerNorm
//! broadcasts each row's mean and rstd by a Select per row and applies gamma and beta row by row, Normalize
//! Duplicates each row's mean and rstd and applies gamma / beta per row, RmsNorm reduces each row by its own
//! RepeatReduceSum and scales it by a Muls, SoftMax subtracts and divides per 8-column block of narrow rows (per
//! row of wide ones), Xor runs its four instructions per piece of the tmp buffer. Short rows make those
//! per-instruction startups the bulk of the time, so the composite formula was 1.5-4x low for them. Here each
//! API's sequence is transcribed from asc-devkit's impl headers (cited per function) into how many
//! instructions of which class it issues and how many repeats each runs, for the shape its call reported
//! (`Shape`, through `timing::library_shape`); the same per-class throughputs cost them (cost.rs
//! `letter_cpr`). Left out: scalar reads (GetValue), flag waits and SetCmpMask; the float path is costed for
//! half data plus its Casts (the library computes in float).

use super::cost::letter_cpr;
use super::params::Params;

/// Which sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    SoftMax,
    LogSoftMax,
    /// LayerNorm(output, mean, variance, x, gamma, beta, [tmp,] epsilon, LayerNormTiling)
    LayerNorm,
    /// LayerNorm(output, mean, rstd, x, gamma, beta, epsilon, [tmp,] LayerNormPara, LayerNormSeparateTiling)
    LayerNormRstd,
    Normalize,
    RmsNorm,
    Xor,
}

/// What a call worked on, as the library's loops see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    pub kind: Kind,
    /// rows (Xor: the elements)
    pub rows: u64,
    /// columns a row takes in memory, padding included (Xor: the elements of one tmp piece)
    pub cols: u64,
    /// the real columns (SoftMax's oriSrcK, LayerNorm's rLength, RmsNorm's originalHLength)
    pub real: u64,
    /// the library's rounds over the rows (LayerNorm's loopRound + tail, RmsNorm's blocks of mainBsLength):
    /// the per-round instructions are issued once each
    pub blocks: u64,
    /// Normalize's rows a pass (the N its tmp buffer holds; for LayerNorm's rstd form, the tmp past
    /// firstTmpStartPos); 0: every row in one pass
    pub inner: u64,
    /// bytes of the call's element type (half data adds Casts)
    pub elem: u64,
}

/// The cycles of the sequence `s` describes on the chip of `p`.
pub fn cycles(s: &Shape, p: &Params) -> f64 {
    let mut q = Seq { p, cycles: 0.0 };
    match s.kind {
        Kind::SoftMax => softmax(&mut q, s, false),
        Kind::LogSoftMax => softmax(&mut q, s, true),
        Kind::LayerNorm => layer_norm(&mut q, s),
        Kind::LayerNormRstd => layer_norm_rstd(&mut q, s),
        Kind::Normalize => normalize(&mut q, s.rows, s.real, s.cols, s.inner),
        Kind::RmsNorm => rms_norm(&mut q, s),
        Kind::Xor => xor(&mut q, s),
    }
    q.cycles
}

struct Seq<'a> {
    p: &'a Params,
    cycles: f64,
}

impl Seq<'_> {
    /// `count` instructions of class `letter` (cost.rs), `repeats` repeats in all
    fn issue(&mut self, letter: char, count: u64, repeats: u64) {
        self.cycles += count as f64 * self.p.vector_startup + repeats as f64 * letter_cpr(letter, false, self.p);
    }
}

/// Repeats of a pass over `elems` floats (256 bytes a repeat).
fn f(elems: u64) -> u64 {
    (elems * 4).div_ceil(256)
}

/// LayerNormReduceSumImpl (layernorm_common_basic_impl.h:38-118) over `rows` rows of `h` floats, `blocks` times:
/// rows longer than 64 are first folded to 64 columns by Adds per row (the 64-column blocks as the repeats,
/// then the tail), then two WholeReduceSums (the isRelocate copy and the result), one repeat a row.
fn layer_norm_reduce(q: &mut Seq, rows: u64, h: u64, blocks: u64) {
    if h > 64 {
        let more = h / 64 - 1;
        if more > 0 {
            q.issue('B', rows, rows * more);
        }
        if !h.is_multiple_of(64) {
            q.issue('B', rows, rows);
        }
    }
    q.issue('R', 2 * blocks, 2 * rows);
}

/// BroadcastLastDim (layernorm_common_basic_impl.h:122-149): a Muls of one int16 row to make the select mask,
/// then a Select per row.
fn layer_norm_broadcast(q: &mut Seq, rows: u64, h: u64, blocks: u64) {
    q.issue('S', blocks, blocks * (h * 2).div_ceil(256));
    q.issue('B', rows, rows * f(h));
}

/// LayerNormExe (layernorm_common_impl.h:98-143) per round: the mean (GetLayerNormOutputMean: Muls, reduce),
/// the variance (GetLayerNormOutputVariance: broadcast, Sub, Mul, Muls, reduce), rstd x (x - mean)
/// (GetLayerNormOutputPre: broadcast, Adds, Sqrt, a one-repeat Duplicate, Div, Mul; basic_impl.h:348-446),
/// then gamma and beta a row at a time (GetLayerNormOutput<float>, impl.h:76-87: DuplicateMulImpl /
/// DuplicateAddImpl, basic_impl.h:151-171); half: Casts of x, gamma, beta and the output.
fn layer_norm(q: &mut Seq, s: &Shape) {
    let (r, h, b) = (s.rows, s.cols, s.blocks.max(1));
    let all = f(r * h);
    if s.elem == 2 {
        q.issue('S', b, all);
        q.issue('S', 2 * b, 2 * b * f(h));
        q.issue('S', b, all);
    }
    q.issue('S', b, all);
    layer_norm_reduce(q, r, h, b);
    layer_norm_broadcast(q, r, h, b);
    q.issue('B', 2 * b, 2 * all);
    q.issue('S', b, all);
    layer_norm_reduce(q, r, h, b);
    layer_norm_broadcast(q, r, h, b);
    q.issue('S', b, all);
    q.issue('E', b, all);
    q.issue('S', b, b);
    q.issue('D', b, all);
    q.issue('B', b, all);
    q.issue('B', 2 * r, 2 * r * f(h));
}

/// The rstd form (layernorm_common_impl.h:281-345): padding columns zeroed first when rLength is short
/// (LayerNormPreProc, basic_impl.h:297-310: Duplicate, Adds, a Mul per row), ComputeMeanVariance
/// (impl.h:227-279: copy or Cast, Muls, reduce, copy or Cast, an Adds of -mean per row, Mul, Muls, reduce), then
/// Normalize.
fn layer_norm_rstd(q: &mut Seq, s: &Shape) {
    let (a, rp, r) = (s.rows, s.cols, s.real);
    if r != rp {
        q.issue('S', 1, f(rp));
        q.issue('S', 1, f(r));
        q.issue('B', a, a * f(rp));
    }
    let b = s.blocks.max(1);
    let all = f(a * rp);
    q.issue('S', 2 * b, 2 * all);
    layer_norm_reduce(q, a, rp, b);
    q.issue('S', b, all);
    q.issue('S', a, a * f(r));
    q.issue('B', b, all);
    q.issue('S', b, all);
    layer_norm_reduce(q, a, rp, b);
    normalize(q, a, r, rp, s.inner);
}

/// NormalizeImpl (normalize_common_impl.h:234-290) with gamma and beta: rstd from the variance row
/// (GetNormalizeOutputRstd, :98-117: Adds, a one-repeat Duplicate, Sqrt, Div over the aLength values), x copied
/// or Cast into the tmp (CastSrc, :143-158), each row's mean and rstd Duplicated (GetNormalizeOutputPre,
/// :161-200) around a Sub and a Mul of the whole block, gamma and beta a row at a time (GetNormalizeOutput,
/// :203-232) and the output copied or Cast; the block passes once per `n` rows (the N of the tmp buffer,
/// :71-96 and the loop at :263-290), 0 for all of them.
fn normalize(q: &mut Seq, a: u64, r: u64, rp: u64, n: u64) {
    let stats = f(a);
    q.issue('S', 1, stats);
    q.issue('S', 1, 1);
    q.issue('E', 1, stats);
    q.issue('D', 1, stats);
    let n = if n == 0 { a.max(1) } else { n.min(a.max(1)) };
    let (whole, tail) = (a / n, a % n);
    let blocks = whole + u64::from(tail > 0);
    let all = whole * f(n * rp) + f(tail * rp);
    let row = a * f(r);
    q.issue('S', blocks, all);
    q.issue('S', a, row);
    q.issue('B', blocks, all);
    q.issue('S', a, row);
    q.issue('B', blocks, all);
    q.issue('B', 2 * a, 2 * row);
    q.issue('S', blocks, all);
}

/// RmsNormCompute (rmsnorm_common_impl.h:220-282) per block of mainBsLength rows, the generic (not basic block)
/// path: x squared (Mul), each row summed by its own chain of RepeatReduceSums (RmsNormGenericReduceSum,
/// :62-83), 1 / sqrt(mean + eps) over the block's sums as Muls, Adds, Ln, Muls, Exp, each row scaled by a Muls of
/// its value (RmsNormGeneralFirstAxisBrcMul, :119-135), gamma applied by RmsNormLastAxisBrcMul (:158-218: one Mul
/// for 64 columns or fewer, a Mul per row when a row spans as many 64-column blocks as the block has rows, else
/// a Mul per 64-column block); half: Casts of x, gamma and the output.
fn rms_norm(q: &mut Seq, s: &Shape) {
    let (r, h, b) = (s.rows, s.cols, s.blocks.max(1));
    let all = f(r * h);
    if s.elem == 2 {
        q.issue('S', 2 * b, 2 * all);
        q.issue('S', b, b * f(h));
    }
    q.issue('B', b, all);
    let (mut left, mut count, mut reps) = (s.real.max(1), 0, 0);
    while left > 1 {
        reps += left.div_ceil(64);
        count += 1;
        left = left.div_ceil(64);
    }
    q.issue('R', r * count, r * reps);
    let stats = f(r).max(b);
    q.issue('S', 3 * b, 3 * stats);
    q.issue('E', 2 * b, 2 * stats);
    q.issue('S', r, r * f(h));
    let per_block = r.div_ceil(b);
    if h <= 64 {
        q.issue('B', b, if h == 64 { all } else { r });
    } else if h / 64 >= per_block {
        q.issue('B', r, r * f(h));
    } else {
        let blocks64 = h / 64;
        q.issue('B', b * blocks64, blocks64 * r);
        if !h.is_multiple_of(64) {
            q.issue('B', b, r);
        }
    }
}

/// XorImpl (xor_membase_impl.h:53-82): And, Or, Not, And (XorCalcSimplified, :35-52) per piece of the tmp
/// buffer's size, the tail a piece of its own.
fn xor(q: &mut Seq, s: &Shape) {
    let (n, piece) = (s.rows, s.cols.max(1));
    let reps = |len: u64| (len * s.elem).div_ceil(256);
    let (whole, tail) = (n / piece, n % piece);
    for (count, len) in [(whole, piece), (u64::from(tail > 0), tail)] {
        q.issue('B', 3 * count, 3 * count * reps(len));
        q.issue('S', count, count * reps(len));
    }
}

/// SoftMaxGenericNDImpl (softmax_generic_nd_impl.h:27-53; LogSoftMaxGenericNDImpl, logsoftmax_common_impl.h:
/// 313-339): the row max (NewReduceMaxLastNDImpl, softmax_common_nd_reduce.h:184-226), x - max
/// (GenericSubNDImpl, softmax_common_arithmetic.h:218-245), Exp, the row sum (NewReduceSumLastNDImpl, :297-335),
/// the division (GenericDivNDImpl, :249-275); LogSoftMax then Ln and a Muls by 1 / ln 10 (GenericLogNDImpl,
/// logsoftmax_common_impl.h:277-311). Half data is Cast to float and back.
fn softmax(q: &mut Seq, s: &Shape, log: bool) {
    let (m, k) = (s.rows, s.cols);
    let all = f(m * k);
    if s.elem == 2 {
        q.issue('S', 2, 2 * all);
    }
    softmax_reduce(q, m, s.real);
    softmax_rows(q, 'B', m, k);
    q.issue('E', 1, all);
    softmax_reduce(q, m, s.real);
    softmax_rows(q, 'D', m, k);
    if log {
        softmax_rows(q, 'E', m, k);
        softmax_rows(q, 'S', m, k);
    }
}

/// A row reduction of SoftMax over the first `k0` columns of `m` rows: narrower than 64, WholeReduce (one repeat a
/// row); else the first 64-column block copied (FirstBlockCopyImpl) or the further blocks folded onto it (Max /
/// Add with a repeat a row each), the tail folded, then a WholeReduce of the one row or two BlockReduces
/// (BasicBlockReduceMaxImpl / SumImpl, softmax_common_nd_reduce.h:161-181), and the result broadcast to a block
/// per row (AlignedBroadCastImpl, softmax_common_broadcast.h:110-135: Brcb, 8 rows a repeat, and a copy).
fn softmax_reduce(q: &mut Seq, m: u64, k0: u64) {
    if k0 < 64 {
        q.issue('R', m.div_ceil(255).max(1), m);
    } else {
        let split = k0 / 64;
        if split == 1 {
            q.issue('S', 1, m);
        } else {
            q.issue('B', split - 1, (split - 1) * m);
        }
        if !k0.is_multiple_of(64) {
            q.issue('B', 1, m);
        }
        if m == 1 {
            q.issue('R', 1, 1);
        } else {
            q.issue('K', 2, m + m.div_ceil(8));
        }
    }
    q.issue('S', 1, m.div_ceil(8));
    q.issue('S', 1, f(m * 8));
}

/// GenericSubNDImpl / GenericDivNDImpl's loop (softmax_common_arithmetic.h:218-275): rows narrower than 192
/// columns take one instruction per 8-column block over every row (8 rows a repeat), wider ones one per row.
fn softmax_rows(q: &mut Seq, letter: char, m: u64, k: u64) {
    if k < 192 {
        let count = k / 8;
        q.issue(letter, count, count * m.div_ceil(8));
    } else {
        q.issue(letter, m, m * f(k));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(kind: Kind, rows: u64, cols: u64, real: u64) -> Shape {
        Shape {
            kind,
            rows,
            cols,
            real,
            blocks: 1,
            inner: 0,
            elem: 4,
        }
    }

    // within 0.5%: the table rounds the throughputs (S is 256 / 255 cycles a repeat, D 256 / 63, R 256 / 85)
    fn near(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.005 * b
    }

    // the hand counts of bench/README.md's issue 29 table (910B2: startup 2, S 1, B 2, E 2, D 4.1, R 3 a repeat)
    #[test]
    fn the_sequences_cost_what_the_library_issues() {
        let p = Params::default();
        // Normalize 5 x 40: stats 16.1, Adds 6, Duplicates 2 x 15, Sub 10, Mul 10, gamma + beta 40, Adds 6
        assert!(near(cycles(&shape(Kind::Normalize, 5, 40, 40), &p), 118.1));
        // test_normalize_matches_numpy's tmp holds 2 rows a pass: 3 passes of CastSrc, Sub, Mul and Adds (2 + 2 + 1
        // repeats each), 22 more
        let in_passes = Shape {
            inner: 2,
            ..shape(Kind::Normalize, 5, 40, 40)
        };
        assert!(near(cycles(&in_passes, &p), 140.1));
        // LayerNorm 4 x 64: reduces 2 x 28, broadcasts 2 x 19, eight passes 76.4, Duplicate 3, gamma + beta 32
        assert!(near(cycles(&shape(Kind::LayerNorm, 4, 64, 64), &p), 205.4));
        assert!(near(cycles(&shape(Kind::LayerNorm, 1, 64, 64), &p), 76.1));
        // RmsNorm 4 x 64: Mul 10, RepeatReduceSums 20, stats 17, Muls 12, Mul 10
        assert!(near(cycles(&shape(Kind::RmsNorm, 4, 64, 64), &p), 69.0));
        assert!(near(cycles(&shape(Kind::RmsNorm, 1, 64, 64), &p), 33.0));
        // Xor 176 int16 in pieces of 64: 3 x (And, Or, Not, And) of one repeat
        let xor = Shape {
            elem: 2,
            ..shape(Kind::Xor, 176, 64, 176)
        };
        assert!(near(cycles(&xor, &p), 45.0));
        // SoftMax 1 x 64: reduces 2 x 14, 8 Subs 32, Exp 4, 8 Divs 48.8
        assert!(near(cycles(&shape(Kind::SoftMax, 1, 64, 64), &p), 112.8));
        // LayerNorm's rstd form 4 x 64: mean and variance 102, Normalize 104.1
        assert!(near(cycles(&shape(Kind::LayerNormRstd, 4, 64, 64), &p), 206.1));
    }

    #[test]
    fn wide_rows_divide_per_row_and_narrow_ones_per_column_block() {
        let p = Params::default();
        let narrow = cycles(&shape(Kind::SoftMax, 64, 128, 128), &p);
        let wide = cycles(&shape(Kind::SoftMax, 64, 256, 256), &p);
        // 64 rows: 16 Subs + 16 Divs of 8 repeats for 128 columns; 64 Subs + 64 Divs of 4 for 256
        assert!(wide > narrow);
        let log = cycles(&shape(Kind::LogSoftMax, 64, 256, 256), &p);
        let row = |cpr: f64| 64.0 * (2.0 + 4.0 * cpr);
        assert!(near(log - wide, row(2.0) + row(256.0 / 255.0)));
    }
}
