//! Moves out of L1 against hand-computed values: LoadData's fractal copies (with start, stride, gap and the
//! 16 x 16 transpose), LoadDataWithTranspose into L0A / L0B, and DataCopy from L1 into the bias table.

use crate::cube::tests::{f16_bytes, f32_bytes, i8_bytes, read_f16, read_f32, zn, zz, Out, Rig};
use crate::memory::MemKind;

// ---------------------------------------------------------------------------------------------- LoadData

#[test]
fn load_data_copies_fractals_with_start_stride_and_gap() {
    // L1: 4 fractals of half numbered 0..1023; load fractals 1 and 3 (start 1, stride 2) with one fractal gap
    let src: Vec<f32> = (0..1024).map(|i| (i % 2048) as f32).collect();
    let out = Rig::new("aic").fill(MemKind::L1, 0, f16_bytes(&src)).run(
        &[
            (0, "i32", 0),
            (1, "i32", 4096),
            (2, "i16", 1),
            (3, "i8", 2),
            (4, "i16", 2),
            (5, "i16", 1),
            (6, "i1", 0),
        ],
        "  h0 = LocalAt.f16 L1 r0:i32 r1:i32\n  h1 = LocalAt.f16 L0A r0:i32 r1:i32\n  \
         call LoadData.2d<T=f16> dst=h1 src=h0 loadDataParams.startIndex=r2:i16 loadDataParams.repeatTimes=r3:i8 \
         loadDataParams.srcStride=r4:i16 loadDataParams.dstGap=r5:i16 loadDataParams.ifTranspose=r6:i1",
    );
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    let l0a = read_f16(&out.mem(MemKind::L0a)[..2048 * 2]);
    assert_eq!(&l0a[..256], &src[256..512]);
    assert_eq!(&l0a[512..768], &src[768..1024]);
}

#[test]
fn load_data_transposes_each_16x16_fractal() {
    let src: Vec<f32> = (0..256).map(|i| i as f32).collect();
    let out = Rig::new("aic").fill(MemKind::L1, 0, f16_bytes(&src)).run(
        &[
            (0, "i32", 0),
            (1, "i32", 256),
            (2, "i16", 0),
            (3, "i8", 1),
            (6, "i1", 1),
        ],
        "  h0 = LocalAt.f16 L1 r0:i32 r1:i32\n  h1 = LocalAt.f16 L0B r0:i32 r1:i32\n  \
         call LoadData.2d<T=f16> dst=h1 src=h0 loadDataParams.startIndex=r2:i16 loadDataParams.repeatTimes=r3:i8 \
         loadDataParams.srcStride=r2:i16 loadDataParams.dstGap=r2:i16 loadDataParams.ifTranspose=r6:i1",
    );
    let l0b = read_f16(&out.mem(MemKind::L0b)[..512]);
    for r in 0..16 {
        for c in 0..16 {
            assert_eq!(l0b[c * 16 + r], src[r * 16 + c]);
        }
    }
}

#[test]
fn load_data_transpose_of_a_32_bit_type_is_a_finding() {
    let out = Rig::new("aic").fill(MemKind::L1, 0, vec![0; 512]).run(
        &[(0, "i32", 0), (1, "i32", 128), (3, "i8", 1), (6, "i1", 1)],
        "  h0 = LocalAt.f32 L1 r0:i32 r1:i32\n  h1 = LocalAt.f32 L0A r0:i32 r1:i32\n  \
         call LoadData.2d<T=f32> dst=h1 src=h0 loadDataParams.startIndex=r0:i32 loadDataParams.repeatTimes=r3:i8 \
         loadDataParams.srcStride=r0:i32 loadDataParams.dstGap=r0:i32 loadDataParams.ifTranspose=r6:i1",
    );
    assert_eq!(out.codes(), vec!["ASC959"]);
}

// ---------------------------------------------------------------------------------- LoadDataWithTranspose

/// Runs LoadDataWithTranspose<`t`> from L1 into `dst` once per (src byte offset, dst byte offset) pair, with
/// the given (startIndex, repeatTimes, srcStride, dstGap, dstFracGap), as the devkit's samples loop over it.
fn load_with_transpose(t: &str, l1: Vec<u8>, dst: &str, calls: &[(usize, usize)], params: [u64; 5]) -> Out {
    let mut consts: Vec<(u32, &str, u64)> = vec![
        (0, "i16", params[0]),
        (1, "i8", params[1]),
        (2, "i16", params[2]),
        (3, "i16", params[3]),
        (4, "i16", params[4]),
        (5, "i32", 4096),
    ];
    let mut code = String::new();
    for (n, (src, to)) in calls.iter().enumerate() {
        let (rs, rd) = (10 + 2 * n as u32, 11 + 2 * n as u32);
        consts.push((rs, "i32", *src as u64));
        consts.push((rd, "i32", *to as u64));
        code += &format!(
            "  h{a} = LocalAt.{t} L1 r{rs}:i32 r5:i32\n  h{b} = LocalAt.{t} {dst} r{rd}:i32 r5:i32\n  \
             call LoadDataWithTranspose.plain<T={t}> dst=h{b} src=h{a} loadDataParams.startIndex=r0:i16 \
             loadDataParams.repeatTimes=r1:i8 loadDataParams.srcStride=r2:i16 loadDataParams.dstGap=r3:i16 \
             loadDataParams.dstFracGap=r4:i16\n",
            a = 2 * n,
            b = 2 * n + 1
        );
    }
    let out = Rig::new("aic").fill(MemKind::L1, 0, l1).run(&consts, &code);
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    out
}

#[test]
fn load_with_transpose_of_float_b_turns_zz_rows_of_16x8_fractals_into_l0b_zn() {
    // the devkit sample's float B (k x n, not transposed): L1 holds B as Zz (per 16 rows of K, the 16 x 8
    // fractals along N); each repeat transposes a 16 x 16 block made of two fractals side by side
    let (k, n) = (40usize, 24usize);
    let (k16, n16) = (k.div_ceil(16), n.div_ceil(16));
    let n_al = n16 * 16;
    let b: Vec<f32> = (0..k * n).map(|i| (i % 97) as f32 - 40.0).collect();
    let mut l1 = vec![0f32; k16 * 16 * n_al];
    for p in 0..k {
        for j in 0..n {
            l1[(p / 16) * 16 * n_al + (j / 8) * 128 + (p % 16) * 8 + j % 8] = b[p * n + j];
        }
    }
    let calls: Vec<(usize, usize)> = (0..k16).map(|i| (i * 16 * n_al * 4, i * n16 * 256 * 4)).collect();
    let out = load_with_transpose(
        "f32",
        f32_bytes(&l1),
        "L0B",
        &calls,
        [0, n16 as u64, 1, 0, n16 as u64 - 1],
    );
    let mut padded = b.clone();
    padded.resize(k16 * 16 * n, 0.0);
    let want = zn(&padded, k16 * 16, n, 8);
    assert_eq!(read_f32(&out.mem(MemKind::L0b)[..want.len() * 4]), want);
}

#[test]
fn load_with_transpose_of_int8_b_transposes_32x32_blocks_of_two_fractals() {
    // the devkit sample's int8 B (k = 70, n = 50, Nz -> Zn): L1 holds B as z-columns of 32 along N, K rounded
    // to 32; a repeat transposes the 32 x 32 block of two stacked 16 x 32 fractals and splits it by rows
    let (k, n) = (70usize, 50usize);
    let (k32, n32) = (k.div_ceil(32), n.div_ceil(32));
    let k_al = k32 * 32;
    let b: Vec<i32> = (0..k * n).map(|i| (i % 251) as i32 - 125).collect();
    let mut l1 = vec![0i32; n32 * 32 * k_al];
    for p in 0..k {
        for j in 0..n {
            l1[(j / 32) * k_al * 32 + p * 32 + j % 32] = b[p * n + j];
        }
    }
    let calls: Vec<(usize, usize)> = (0..k32).map(|i| (i * 1024, i * n32 * 1024)).collect();
    let out = load_with_transpose("i8", i8_bytes(&l1), "L0B", &calls, [0, n32 as u64, k32 as u64, 1, 0]);
    // as L0B's ZN layout of B with K rounded to 32
    let (n1, got) = (n.div_ceil(16), out.mem(MemKind::L0b));
    for p in 0..k_al {
        for j in 0..n {
            let at = ((p / 32) * n1 + j / 16) * 512 + (j % 16) * 32 + p % 32;
            let want = if p < k { b[p * n + j] } else { 0 };
            assert_eq!(got[at] as i8 as i32, want, "B[{p}][{j}]");
        }
    }
}

#[test]
fn load_with_transpose_of_half_a_is_the_fractal_transpose_into_l0a_zz() {
    // the devkit sample's half A given transposed (k x m in GM, NZ in L1: z-columns of 16 along M)
    let (m, k) = (40usize, 70usize);
    let (m16, k16) = (m.div_ceil(16), k.div_ceil(16));
    let k_al = k16 * 16;
    let a: Vec<f32> = (0..m * k).map(|i| (i % 113) as f32).collect();
    let mut l1 = vec![0f32; m16 * 16 * k_al];
    for i in 0..m {
        for p in 0..k {
            l1[(i / 16) * k_al * 16 + p * 16 + i % 16] = a[i * k + p];
        }
    }
    let calls: Vec<(usize, usize)> = (0..m16).map(|i| (i * k_al * 16 * 2, i * k16 * 256 * 2)).collect();
    let out = load_with_transpose(
        "f16",
        f16_bytes(&l1),
        "L0A",
        &calls,
        [0, k16 as u64, 1, 0, k16 as u64 - 1],
    );
    let mut padded = a.clone();
    padded.resize(m16 * 16 * k, 0.0);
    let want = zz(&padded, m16 * 16, k, 16);
    assert_eq!(read_f16(&out.mem(MemKind::L0a)[..want.len() * 2]), want);
}

// ---------------------------------------------------------------------------------- DataCopy L1 -> bias table

/// DataCopy<T=dt, U=st> from L1 byte 0 into the bias table at byte 0 with (blockCount, blockLen, srcStride,
/// dstStride), the bias table holding 0xFF bytes first.
fn l1_to_bias_table(dt: &str, st: &str, l1: Vec<u8>, params: [u64; 4]) -> Out {
    let [count, len, ss, ds] = params;
    Rig::new("aic")
        .fill(MemKind::L1, 0, l1)
        .fill(MemKind::Bt, 0, vec![0xFF; 1024])
        .run(
            &[
                (0, "i32", 0),
                (1, "i32", 4096),
                (2, "i32", 256),
                (3, "i16", count),
                (4, "i16", len),
                (5, "i16", ss),
                (6, "i16", ds),
            ],
            &format!(
                "  h0 = LocalAt.{st} L1 r0:i32 r1:i32\n  h1 = LocalAt.{dt} BT r0:i32 r2:i32\n  \
             call DataCopy.params_l1_to_bt<T={dt},U={st}> dst=h1 src=h0 repeatParams.blockCount=r3:i16 \
             repeatParams.blockLen=r4:i16 repeatParams.srcStride=r5:i16 repeatParams.dstStride=r6:i16"
            ),
        )
}

#[test]
fn l1_to_bias_table_converts_half_to_float_in_64_byte_source_units() {
    // catlass's CopyL1ToBT: blockLen = n / (64 / sizeof(half)): 2 units move 64 halves into 64 floats
    let bias: Vec<f32> = (0..64).map(|j| j as f32 * 0.5 - 3.0).collect();
    let out = l1_to_bias_table("f32", "f16", f16_bytes(&bias), [1, 2, 0, 0]);
    assert!(out.codes().is_empty(), "{:?}", out.codes());
    let table = read_f32(&out.mem(MemKind::Bt)[..256]);
    assert_eq!(table, bias);
    assert!(
        out.mem(MemKind::Bt)[256..260].iter().all(|b| *b == 0xFF),
        "nothing past the 64 floats"
    );
}

#[test]
fn l1_to_bias_table_strides_source_in_32_and_table_in_64_byte_units() {
    // two blocks of 16 floats (one 64-byte unit each): source gap 1 x 32 B (8 floats), table gap 1 x 64 B
    let src: Vec<f32> = (0..40).map(|j| j as f32).collect();
    let out = l1_to_bias_table("f32", "f32", f32_bytes(&src), [2, 1, 1, 1]);
    assert!(out.codes().is_empty(), "{:?}", out.codes());
    let table = read_f32(&out.mem(MemKind::Bt)[..192]);
    assert_eq!(&table[..16], &src[..16]);
    assert_eq!(&table[32..48], &src[24..40]);
    assert!(
        out.mem(MemKind::Bt)[64..128].iter().all(|b| *b == 0xFF),
        "the table gap is left alone"
    );
}

#[test]
fn l1_to_bias_table_rejects_conversions_other_than_half_to_float() {
    let out = l1_to_bias_table("f16", "f32", vec![0u8; 256], [1, 1, 0, 0]);
    assert_eq!(out.codes(), vec!["ASC959"]);
}
