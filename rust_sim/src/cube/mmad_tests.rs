//! Mmad against a row-major reference: every input type with its accumulator over ZZ / ZN fractals,
//! accumulation into L0C, the bias table, GEMV, and the type pairs that are reported instead of run.

use half::bf16;

use crate::cube::tests::{f16_bytes, f32_bytes, i8_bytes, lcg, nz_at, read_f32, read_i32, reference, zn, zz, Out, Rig};
use crate::memory::MemKind;

// ---------------------------------------------------------------------------------------------- Mmad

/// Runs one Mmad of m x k by k x n on the given L0A/L0B bytes; returns L0C as f32 (or i32 bits).
#[allow(clippy::too_many_arguments)]
fn mmad(t: &str, c_t: &str, a: Vec<u8>, b: Vec<u8>, m: u64, n: u64, k: u64, extra: &str) -> Out {
    Rig::new("aic").fill(MemKind::L0a, 0, a).fill(MemKind::L0b, 0, b).run(
        &[
            (0, "i32", 0),
            (1, "i32", 4096),
            (2, "i16", m),
            (3, "i16", n),
            (4, "i16", k),
            (5, "i1", 1),
            (6, "i1", 0),
        ],
        &format!(
            "  h0 = LocalAt.{t} L0A r0:i32 r1:i32\n  h1 = LocalAt.{t} L0B r0:i32 r1:i32\n  \
             h2 = LocalAt.{c_t} L0C r0:i32 r1:i32\n  \
             call Mmad.plain<T={c_t},U={t},S={t}> dst=h2 fm=h0 filter=h1 mmadParams.m=r2:i16 mmadParams.n=r3:i16 \
             mmadParams.k=r4:i16 {extra}"
        ),
    )
}

#[test]
fn mmad_half_accumulates_in_float_over_zz_and_zn_fractals() {
    let (m, n, k) = (20usize, 18usize, 40usize);
    let mut seed = 7;
    let a: Vec<f32> = (0..m * k).map(|_| lcg(&mut seed)).collect();
    let b: Vec<f32> = (0..k * n).map(|_| lcg(&mut seed)).collect();
    let out = mmad(
        "f16",
        "f32",
        f16_bytes(&zz(&a, m, k, 16)),
        f16_bytes(&zn(&b, k, n, 16)),
        m as u64,
        n as u64,
        k as u64,
        "",
    );
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    let c = read_f32(out.mem(MemKind::L0c));
    let want = reference(&a, &b, m, n, k);
    for i in 0..m {
        for j in 0..n {
            assert_eq!(nz_at(&c, m, i, j), want[i * n + j], "C({i},{j})");
        }
    }
}

#[test]
fn mmad_bfloat16_and_float_use_their_fractal_widths() {
    let (m, n, k) = (16usize, 16usize, 12usize);
    let a: Vec<f32> = (0..m * k).map(|i| (i % 7) as f32 - 3.0).collect();
    let b: Vec<f32> = (0..k * n).map(|i| (i % 5) as f32 * 0.5).collect();
    let want = reference(&a, &b, m, n, k);
    let bf = |v: &[f32]| {
        v.iter()
            .flat_map(|x| bf16::from_f32(*x).to_le_bytes())
            .collect::<Vec<u8>>()
    };
    let out = mmad(
        "bf16",
        "f32",
        bf(&zz(&a, m, k, 16)),
        bf(&zn(&b, k, n, 16)),
        16,
        16,
        12,
        "",
    );
    let c = read_f32(out.mem(MemKind::L0c));
    assert!((0..m * n).all(|x| nz_at(&c, m, x / n, x % n) == want[x]));
    // float: C0 = 8, so K = 12 spans two fractals per row of L0A
    let out = mmad(
        "f32",
        "f32",
        f32_bytes(&zz(&a, m, k, 8)),
        f32_bytes(&zn(&b, k, n, 8)),
        16,
        16,
        12,
        "",
    );
    let c = read_f32(out.mem(MemKind::L0c));
    assert!((0..m * n).all(|x| nz_at(&c, m, x / n, x % n) == want[x]));
}

#[test]
fn mmad_int8_accumulates_in_int32() {
    let (m, n, k) = (16usize, 32usize, 64usize);
    let a: Vec<i32> = (0..m * k).map(|i| (i as i32 % 255) - 127).collect();
    let b: Vec<i32> = (0..k * n).map(|i| (i as i32 * 7 % 255) - 127).collect();
    let af: Vec<f32> = a.iter().map(|x| *x as f32).collect();
    let bf: Vec<f32> = b.iter().map(|x| *x as f32).collect();
    let pack = |v: Vec<f32>| i8_bytes(&v.iter().map(|x| *x as i32).collect::<Vec<_>>());
    let out = mmad(
        "i8",
        "i32",
        pack(zz(&af, m, k, 32)),
        pack(zn(&bf, k, n, 32)),
        16,
        32,
        64,
        "",
    );
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    let c = read_i32(out.mem(MemKind::L0c));
    for i in 0..m {
        for j in 0..n {
            let want: i32 = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
            let got = c[((j / 16) + i / 16) * 256 + (i % 16) * 16 + j % 16];
            assert_eq!(got, want);
        }
    }
}

#[test]
fn mmad_accumulates_into_l0c_when_cmatrix_init_val_is_off() {
    let a = vec![1f32; 256];
    let b = vec![1f32; 256];
    let mut c0 = vec![0u8; 1024];
    for (i, ch) in c0.chunks_exact_mut(4).enumerate() {
        ch.copy_from_slice(&(i as f32).to_le_bytes());
    }
    let out = Rig::new("aic")
        .fill(MemKind::L0a, 0, f16_bytes(&a))
        .fill(MemKind::L0b, 0, f16_bytes(&b))
        .fill(MemKind::L0c, 0, c0)
        .run(
            &[(0, "i32", 0), (1, "i32", 256), (2, "i16", 16), (6, "i1", 0)],
            "  h0 = LocalAt.f16 L0A r0:i32 r1:i32\n  h1 = LocalAt.f16 L0B r0:i32 r1:i32\n  \
             h2 = LocalAt.f32 L0C r0:i32 r1:i32\n  \
             call Mmad.plain<T=f32,U=f16,S=f16> dst=h2 fm=h0 filter=h1 mmadParams.m=r2:i16 mmadParams.n=r2:i16 \
             mmadParams.k=r2:i16 mmadParams.cmatrixInitVal=r6:i1",
        );
    let c = read_f32(&out.mem(MemKind::L0c)[..1024]);
    assert!(c.iter().enumerate().all(|(i, v)| *v == i as f32 + 16.0));
}

#[test]
fn mmad_with_a_bias_table_starts_from_the_bias() {
    let a = vec![1f32; 256];
    let b = vec![0.5f32; 256];
    let bias: Vec<f32> = (0..16).map(|j| j as f32).collect();
    let out = Rig::new("aic")
        .fill(MemKind::L0a, 0, f16_bytes(&a))
        .fill(MemKind::L0b, 0, f16_bytes(&b))
        .fill(MemKind::Bt, 0, f32_bytes(&bias))
        .run(
            &[
                (0, "i32", 0),
                (1, "i32", 256),
                (2, "i16", 16),
                (3, "i32", 16),
                (6, "i1", 0),
            ],
            "  h0 = LocalAt.f16 L0A r0:i32 r1:i32\n  h1 = LocalAt.f16 L0B r0:i32 r1:i32\n  \
             h2 = LocalAt.f32 L0C r0:i32 r1:i32\n  h3 = LocalAt.f32 BT r0:i32 r3:i32\n  \
             call Mmad.bias<T=f32,U=f16,S=f16,V=f32> dst=h2 fm=h0 filter=h1 bias=h3 mmadParams.m=r2:i16 \
             mmadParams.n=r2:i16 mmadParams.k=r2:i16 mmadParams.cmatrixInitVal=r6:i1",
        );
    let c = read_f32(&out.mem(MemKind::L0c)[..1024]);
    for i in 0..16 {
        for j in 0..16 {
            assert_eq!(c[i * 16 + j], 8.0 + j as f32);
        }
    }
}

#[test]
fn mmad_gemv_reads_a_as_a_contiguous_row() {
    let k = 32usize;
    let a: Vec<f32> = (0..k).map(|p| p as f32 / 8.0).collect();
    let b: Vec<f32> = (0..k * 16).map(|i| (i % 3) as f32).collect();
    let out = mmad(
        "f16",
        "f32",
        f16_bytes(&a),
        f16_bytes(&zn(&b, k, 16, 16)),
        1,
        16,
        k as u64,
        "",
    );
    let c = read_f32(out.mem(MemKind::L0c));
    let want = reference(&a, &b, 1, 16, k);
    assert_eq!(&c[..16], &want[..]);
}

#[test]
fn mmad_of_an_unsupported_type_pair_is_a_finding() {
    let out = mmad("f16", "f16", vec![0; 512], vec![0; 512], 16, 16, 16, "");
    assert_eq!(out.codes(), vec!["ASC959"]);
}
