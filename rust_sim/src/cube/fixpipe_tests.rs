//! Layout changes around the cube against hand-computed values: Fixpipe's quant conversions and NZ -> ND /
//! NZ writes, ND2NZ into L1, NZ2ND out of UB, and the enhanced L0C -> UB copy.

use half::{bf16, f16};

use crate::cube::fixpipe::{convert, scale, Quant};
use crate::cube::tests::{f16_bytes, f32_bytes, read_f16, read_i32, Rig};
use crate::dtype::DType;
use crate::memory::{GmRole, MemKind};

// ---------------------------------------------------------------------------------------------- Fixpipe

#[test]
fn fixpipe_conversions_follow_the_quant_modes() {
    let f = |x: f32| x.to_bits() as u64;
    // F322F16 rounds to nearest even; ReLU zeroes negatives first
    let x = 1.0f32 + 2f32.powi(-11); // exactly halfway between two halves: stays at the even one
    assert_eq!(
        convert(f(x), DType::F32, DType::F16, Quant::F322F16, 0, false),
        f16::from_f32(1.0).to_bits() as u64
    );
    assert_eq!(convert(f(-3.0), DType::F32, DType::F16, Quant::F322F16, 0, true), 0);
    assert_eq!(
        convert(
            f(1.0 + 2f32.powi(-8)),
            DType::F32,
            DType::BF16,
            Quant::F322BF16,
            0,
            false
        ),
        bf16::from_f32(1.0).to_bits() as u64
    );
    // the scale keeps 10 mantissa bits: 0.1 becomes 0.0999755859375
    let p = 0.1f32.to_bits() as u64;
    let tenth = f32::from_bits(0x3DCC_C000);
    assert_eq!(scale(p), tenth);
    // DEQF16: int32 * scale -> half
    assert_eq!(
        convert(1000, DType::I32, DType::F16, Quant::Deqf16, p, false),
        f16::from_f32(1000.0 * tenth).to_bits() as u64
    );
    // REQ8: round half to even, saturate to int8 with the sign bit, add the offset
    let signed = p | (1 << 46);
    assert_eq!(convert(25, DType::I32, DType::I8, Quant::Req8, signed, false), 2); // 2.499 -> 2
    assert_eq!(convert(5000, DType::I32, DType::I8, Quant::Req8, signed, false), 127);
    assert_eq!(
        convert(
            (-5000i32) as u32 as u64,
            DType::I32,
            DType::I8,
            Quant::Req8,
            signed,
            false
        ) as u8 as i8,
        -128
    );
    assert_eq!(
        convert((-50i32) as u32 as u64, DType::I32, DType::U8, Quant::Req8, p, false),
        0
    ); // unsigned
    let with_offset = signed | (3 << 37);
    assert_eq!(convert(25, DType::I32, DType::I8, Quant::Req8, with_offset, false), 5);
    // ReLU in a quant mode: negative values scale by 0
    assert_eq!(
        convert(f(-20.0), DType::F32, DType::I8, Quant::Qf322b8, signed, true),
        0
    );
    assert_eq!(
        convert(f(-20.0), DType::F32, DType::I8, Quant::Qf322b8, signed, false) as u8 as i8,
        -2
    );
}

#[test]
fn fixpipe_writes_nd_rows_from_nz_fractals_with_f322f16() {
    // a 20 x 24 float matrix in L0C NZ (M1 = 2 fractal rows, srcStride = 32 rows between z-columns)
    let (m, n) = (20usize, 24usize);
    let mut l0c = vec![0f32; 2 * 2 * 256];
    for i in 0..m {
        for j in 0..n {
            l0c[((j / 16) * 2 + i / 16) * 256 + (i % 16) * 16 + j % 16] = (i * 100 + j) as f32;
        }
    }
    let out = Rig::new("aic")
        .gm("c", GmRole::Output, vec![0; m * n * 2])
        .fill(MemKind::L0c, 0, f32_bytes(&l0c))
        .run(
            &[
                (1, "i32", 0),
                (2, "i32", 1024),
                (3, "i16", n as u64),
                (4, "i16", m as u64),
                (5, "i16", 32),
                (6, "i32", n as u64),
                (7, "i32", 1),
            ],
            "  h1 = LocalAt.f32 L0C r1:i32 r2:i32\n  \
             call Fixpipe.gm<T=f16,U=f32> dst=h0 src=h1 intriParams.nSize=r3:i16 intriParams.mSize=r4:i16 \
             intriParams.srcStride=r5:i16 intriParams.dstStride=r6:i32 intriParams.quantPre=r7:i32",
        );
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    let c = read_f16(&out.gm[0]);
    for i in 0..m {
        for j in 0..n {
            assert_eq!(c[i * n + j], f16::from_f32((i * 100 + j) as f32).to_f32());
        }
    }
}

#[test]
fn fixpipe_to_nz_keeps_fractals_and_ndnum_repeats_matrices() {
    // two 16 x 16 int32 matrices back to back in L0C, copied out as ND with ndNum 2
    let l0c: Vec<u8> = (0..512).flat_map(|i: i32| i.to_le_bytes()).collect();
    let out = Rig::new("aic")
        .gm("c", GmRole::Output, vec![0; 512 * 4])
        .fill(MemKind::L0c, 0, l0c.clone())
        .run(
            &[
                (1, "i32", 0),
                (2, "i32", 512),
                (3, "i16", 16),
                (5, "i16", 16),
                (6, "i32", 16),
                (7, "i32", 0),
                (8, "i16", 2),
                (9, "i16", 16),
                (10, "i16", 256),
            ],
            "  h1 = LocalAt.i32 L0C r1:i32 r2:i32\n  \
             call Fixpipe.gm<T=i32,U=i32> dst=h0 src=h1 intriParams.nSize=r3:i16 intriParams.mSize=r3:i16 \
             intriParams.srcStride=r5:i16 intriParams.dstStride=r6:i32 intriParams.quantPre=r7:i32 \
             intriParams.ndNum=r8:i16 intriParams.srcNdStride=r9:i16 intriParams.dstNdStride=r10:i16",
        );
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    assert_eq!(read_i32(&out.gm[0]), (0..512).collect::<Vec<i32>>());
    // CFG_NZ: z-column j/16 at j/16 * dstStride * 32 bytes; rows of 16 elements
    let out = Rig::new("aic")
        .gm("c", GmRole::Output, vec![0; 512 * 4])
        .fill(MemKind::L0c, 0, l0c)
        .run(
            &[
                (1, "i32", 0),
                (2, "i32", 512),
                (3, "i16", 32),
                (4, "i16", 16),
                (5, "i16", 16),
                (6, "i32", 32),
                (7, "i32", 0),
            ],
            "  h1 = LocalAt.i32 L0C r1:i32 r2:i32\n  \
             call Fixpipe.gm<T=i32,U=i32,config=CFG_NZ> dst=h0 src=h1 intriParams.nSize=r3:i16 \
             intriParams.mSize=r4:i16 intriParams.srcStride=r5:i16 intriParams.dstStride=r6:i32 \
             intriParams.quantPre=r7:i32",
        );
    assert_eq!(read_i32(&out.gm[0]), (0..512).collect::<Vec<i32>>());
}

#[test]
fn fixpipe_of_a_mismatched_mode_is_a_finding() {
    let out = Rig::new("aic")
        .gm("c", GmRole::Output, vec![0; 1024])
        .fill(MemKind::L0c, 0, vec![0; 1024])
        .run(
            &[(1, "i32", 0), (2, "i32", 256), (3, "i16", 16), (7, "i32", 0)],
            "  h1 = LocalAt.f32 L0C r1:i32 r2:i32\n  \
         call Fixpipe.gm<T=f16,U=f32> dst=h0 src=h1 intriParams.nSize=r3:i16 intriParams.mSize=r3:i16 \
         intriParams.srcStride=r3:i16 intriParams.dstStride=r3:i16 intriParams.quantPre=r7:i32",
        );
    assert_eq!(out.codes(), vec!["ASC959"]);
}

// ---------------------------------------------------------------------------------------------- ND2NZ

#[test]
fn nd2nz_cuts_rows_into_zero_padded_32_byte_blocks() {
    // 3 rows x 20 half columns (row stride 24) -> two z-columns of 16, the second padded with zeros
    let src: Vec<f32> = (0..3 * 24).map(|i| i as f32 + 1.0).collect();
    let out = Rig::new("aic").gm("x", GmRole::Input, f16_bytes(&src)).run(
        &[
            (1, "i32", 0),
            (2, "i32", 1024),
            (3, "i16", 1),
            (4, "i16", 3),
            (5, "i16", 20),
            (6, "i16", 0),
            (7, "i16", 24),
            (8, "i16", 4),
            (9, "i16", 1),
        ],
        "  h1 = LocalAt.f16 L1 r1:i32 r2:i32\n  \
         call DataCopy.nd2nz<T=f16> dst=h1 src=h0 intriParams.ndNum=r3:i16 intriParams.nValue=r4:i16 \
         intriParams.dValue=r5:i16 intriParams.srcNdMatrixStride=r6:i16 intriParams.srcDValue=r7:i16 \
         intriParams.dstNzC0Stride=r8:i16 intriParams.dstNzNStride=r9:i16 intriParams.dstNzMatrixStride=r6:i16",
    );
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    let l1 = read_f16(&out.mem(MemKind::L1)[..8 * 32]);
    for r in 0..3 {
        for c in 0..16 {
            assert_eq!(l1[r * 16 + c], src[r * 24 + c]);
        }
        for c in 0..16 {
            let want = if c < 4 { src[r * 24 + 16 + c] } else { 0.0 };
            assert_eq!(l1[4 * 16 + r * 16 + c], want);
        }
    }
    // the padding row 3 of each z-column was not written
    assert_eq!(out.core.mem[MemKind::L1 as usize].as_ref().unwrap().init[3 * 32], 0);
}

#[test]
fn nz2nd_turns_16_wide_z_columns_into_rows() {
    // one 3 x 32 half matrix in UB as two z-columns 4 rows apart (srcNStride 4), written with rows 40 apart
    let mut ub = vec![0f32; 128];
    for i in 0..3 {
        for j in 0..32 {
            ub[(j / 16) * 64 + i * 16 + j % 16] = (i * 100 + j) as f32;
        }
    }
    let out = Rig::new("aiv")
        .gm("y", GmRole::Output, vec![0; 3 * 40 * 2])
        .fill(MemKind::Ub, 0, f16_bytes(&ub))
        .run(
            &[
                (1, "i32", 0),
                (2, "i32", 128),
                (3, "i16", 1),
                (4, "i16", 3),
                (5, "i16", 32),
                (6, "i16", 4),
                (7, "i16", 40),
            ],
            "  h1 = LocalAt.f16 UB r1:i32 r2:i32\n  \
         call DataCopy.nz2nd<T=f16> dst=h0 src=h1 intriParams.ndNum=r3:i16 intriParams.nValue=r4:i16 \
         intriParams.dValue=r5:i16 intriParams.srcNdMatrixStride=r3:i16 intriParams.srcNStride=r6:i16 \
         intriParams.dstDStride=r7:i16 intriParams.dstNdMatrixStride=r3:i16",
        );
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    let y = read_f16(&out.gm[0]);
    for i in 0..3 {
        for j in 0..32 {
            assert_eq!(y[i * 40 + j], (i * 100 + j) as f32);
        }
    }
}

#[test]
fn the_enhanced_copy_moves_l0c_fractals_to_ub_converting_and_rectifying() {
    // two float fractals in L0C, one fractal apart in the source (srcStride 1), to half in UB, ReLU on
    let l0c: Vec<f32> = (0..768).map(|i| i as f32 - 300.0).collect();
    let out = Rig::new("aiv").fill(MemKind::L0c, 0, f32_bytes(&l0c)).run(
        &[
            (1, "i32", 0),
            (2, "i32", 768),
            (3, "i16", 2),
            (4, "i16", 1),
            (5, "i16", 1),
            (6, "i16", 0),
            (7, "i32", 1),
            (8, "i32", 0),
            (9, "i1", 1),
        ],
        "  h0 = LocalAt.f32 L0C r1:i32 r2:i32\n  h1 = LocalAt.f16 UB r1:i32 r2:i32\n  \
         call DataCopy.enhanced<T=f16,U=f32> dst=h1 src=h0 intriParams.blockCount=r3:i16 \
         intriParams.blockLen=r4:i16 intriParams.srcStride=r5:i16 intriParams.dstStride=r6:i16 \
         enhancedParams.blockMode=r7:i32 enhancedParams.deqScale=r8:i32 enhancedParams.isRelu=r9:i1",
    );
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    let ub = read_f16(&out.mem(MemKind::Ub)[..512 * 2]);
    for e in 0..256 {
        assert_eq!(ub[e], (l0c[e]).max(0.0));
        assert_eq!(ub[256 + e], (l0c[512 + e]).max(0.0));
    }
}
