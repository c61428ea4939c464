//! RepeatReduceSum's mask overload: the deprecated name of ReduceRepeat<SUM>, one sum per repeat as WholeReduceSum
//! (repeatTime before mask, dstBlkStride without effect), at dst + r * dstRepStride elements.

use crate::checks::Findings;
use crate::memory::GmRole;
use crate::test_rig::{f32_bytes, Rig};

/// Copies x (320 f32 from GM) to UB byte 0, fills 24 f32 at UB byte 2048 with -1, runs `call` (a line of the
/// program, dst h2, src h1) and returns those 24 and the findings.
fn run(x: &[f32], call: &str) -> (Vec<f32>, Findings) {
    let head = format!(
        "kernel k default\nchip 910B2\nmem UB 196608 32\nparam 0 x h0 gm\nregs 16 8\n\
         const r1 i32 0\nconst r2 i32 320\nconst r3 i32 2048\nconst r4 i32 24\nconst r5 f32 {}\n\
         const r6 i32 4\nconst r7 i32 64\nconst r8 i32 3\nconst r9 i32 1\nconst r10 i32 10\nconst r11 i32 48\n\
         const r12 i32 2\n",
        (-1.0f32).to_bits()
    );
    let code = format!(
        "  h1 = LocalAt.f32 UB r1:i32 r2:i32\n  h2 = LocalAt.f32 UB r3:i32 r4:i32\n\
         \x20 call DataCopy.count_gm_to_local<T=f32> dst=h1 src=h0 count=r2:i32\n\
         \x20 call Duplicate.count<T=f32> dst=h2 scalarValue=r5:f32 count=r4:i32\n\
         \x20 call PipeBarrier.plain<pipe=PIPE_ALL>\n  {call}"
    );
    let out = Rig::new(head)
        .gm(GmRole::Input, f32_bytes(x.iter().copied()))
        .run(&code);
    (out.ub_f32(2048, 24), out.findings)
}

/// 4 rows of 80 (small integers, so every order of addition is exact) and the sum of each row's first `n`.
fn rows_and_sums(n: usize) -> (Vec<f32>, Vec<f32>) {
    let x: Vec<f32> = (0..320).map(|i| (i % 7) as f32 - 3.0).collect();
    let sums = (0..4).map(|r| x[r * 80..r * 80 + n].iter().sum()).collect();
    (x, sums)
}

#[test]
fn one_sum_a_repeat_whatever_dst_blk_stride() {
    let (x, sums) = rows_and_sums(64);
    // repeatTime 4, mask 64, dstBlkStride 3 (no effect), srcBlkStride 1, dstRepStride 1, srcRepStride 10 blocks
    let (y, f) = run(
        &x,
        "call RepeatReduceSum.mask<T=f32> dst=h2 src=h1 repeatTime=r6:i32 mask=r7:i32 dstBlkStride=r8:i32 \
         srcBlkStride=r9:i32 dstRepStride=r9:i32 srcRepStride=r10:i32",
    );
    assert!(f.list.is_empty(), "{:?}", f.list);
    assert_eq!(&y[..4], &sums[..]);
    assert!(y[4..].iter().all(|&v| v == -1.0), "{y:?}");
}

#[test]
fn a_partial_mask_and_a_dst_repeat_stride_of_two() {
    let (x, sums) = rows_and_sums(48);
    let (y, f) = run(
        &x,
        "call RepeatReduceSum.mask<T=f32> dst=h2 src=h1 repeatTime=r6:i32 mask=r11:i32 dstBlkStride=r1:i32 \
         srcBlkStride=r9:i32 dstRepStride=r12:i32 srcRepStride=r10:i32",
    );
    assert!(f.list.is_empty(), "{:?}", f.list);
    for r in 0..4 {
        assert_eq!(y[2 * r], sums[r]);
        assert_eq!(y[2 * r + 1], -1.0, "dstRepStride 2 leaves the odd ones");
    }
}
