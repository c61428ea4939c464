//! The cube family against hand-computed values: fractal layouts of LoadData (with transpose), Mmad on every
//! input type with its accumulator, Fixpipe's conversions and NZ2ND, ND2NZ, and the Matmul object.
//!
//! Each test runs a small program on one core whose local memories are filled beforehand, then reads the
//! memories and GM back.

use half::{bf16, f16};

use crate::checks::Findings;
use crate::core::{self, Core};
use crate::cube::fixpipe::{convert, scale, Quant};
use crate::dtype::DType;
use crate::memory::{Gm, GmRole, LocalMem, MemKind, OwnedBuf};
use crate::parse::parse;

/// One core, its local memories, and GM buffers, around a program body.
pub(super) struct Rig {
    header: String,
    gm: Vec<(String, GmRole, Vec<u8>)>,
    fills: Vec<(MemKind, usize, Vec<u8>)>,
}

pub(super) struct Out {
    core: Core,
    pub(super) gm: Vec<Vec<u8>>,
    pub(super) findings: Findings,
}

impl Out {
    pub(super) fn mem(&self, m: MemKind) -> &[u8] {
        self.core.mem[m as usize]
            .as_ref()
            .map(|l| l.data.as_slice())
            .unwrap_or(&[])
    }

    pub(super) fn codes(&self) -> Vec<&'static str> {
        self.findings.list.iter().map(|f| f.code).collect()
    }
}

impl Rig {
    pub(super) fn new(kernel_type: &str) -> Rig {
        Rig {
            header: format!(
                "ascendir-sim 1\nkernel k {kernel_type}\nchip 910B2\nmem UB 196608 32\nmem L1 524288 32\n\
                 mem L0A 65536 512\nmem L0B 65536 512\nmem L0C 131072 64\nmem BT 1024 64\nmem FB 2048 64\n"
            ),
            gm: Vec::new(),
            fills: Vec::new(),
        }
    }

    pub(super) fn gm(mut self, name: &str, role: GmRole, data: Vec<u8>) -> Rig {
        self.gm.push((name.into(), role, data));
        self
    }

    pub(super) fn fill(mut self, m: MemKind, at: usize, data: Vec<u8>) -> Rig {
        self.fills.push((m, at, data));
        self
    }

    /// Runs `code` (instructions, one per line) with `regs` scalar registers set as given.
    pub(super) fn run(self, consts: &[(u32, &str, u64)], code: &str) -> Out {
        let mut text = self.header.clone();
        for (i, (name, _, _)) in self.gm.iter().enumerate() {
            text += &format!("param {i} {name} h{i} gm\n");
        }
        text += "regs 64 32\nstack 16\n";
        for (r, ty, v) in consts {
            text += &format!("const r{r} {ty} {v}\n");
        }
        text += "code\n";
        text += code;
        text += "\n  ret\nend\n";
        let prog = parse(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        let mut owned: Vec<OwnedBuf> = self.gm.iter().map(|(_, _, d)| OwnedBuf::new(d.clone())).collect();
        let bufs = owned
            .iter_mut()
            .zip(&self.gm)
            .map(|(o, (name, role, _))| unsafe { o.gm(name, *role) })
            .collect();
        let mut gm = Gm { bufs };
        let mut core = Core::new(&prog, 0, 1);
        for (i, p) in prog.params.iter().enumerate() {
            if let Some(h) = p.handle {
                core.h[h as usize] = crate::memory::Handle {
                    space: crate::memory::Space::Gm(i as u32),
                    addr: 0,
                    len: gm.bufs[i].len() as i64,
                    alloc: 0,
                };
            }
        }
        for (m, at, data) in &self.fills {
            let size = prog.memory(*m).unwrap().0;
            let mem = core.mem[*m as usize].get_or_insert_with(|| LocalMem::new(size));
            mem.data.as_mut_slice()[*at..*at + data.len()].copy_from_slice(data);
            mem.init[*at..*at + data.len()].fill(1);
        }
        let mut findings = Findings::new();
        let mut budget = 1_000_000u64;
        core::run(&mut core, &mut gm, &prog, &mut findings, &mut budget);
        drop(gm);
        Out {
            core,
            gm: owned.into_iter().map(|o| o.data).collect(),
            findings,
        }
    }

    /// Runs `code` as a whole launch of `block_dim` blocks (every core of a MIX block), without local fills;
    /// the findings and GM afterwards.
    fn launch(self, consts: &[(u32, &str, u64)], code: &str, block_dim: u32) -> (Findings, Vec<Vec<u8>>) {
        let mut text = self.header.clone();
        for (i, (name, _, _)) in self.gm.iter().enumerate() {
            text += &format!("param {i} {name} h{i} gm\n");
        }
        text += "regs 64 32\nstack 0\n";
        for (r, ty, v) in consts {
            text += &format!("const r{r} {ty} {v}\n");
        }
        text += &format!("code\n{code}\n  ret\nend\n");
        let prog = parse(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        let mut owned: Vec<OwnedBuf> = self.gm.iter().map(|(_, _, d)| OwnedBuf::new(d.clone())).collect();
        let bufs = owned
            .iter_mut()
            .zip(&self.gm)
            .map(|(o, (name, role, _))| unsafe { o.gm(name, *role) })
            .collect();
        let mut gm = Gm { bufs };
        let cfg = crate::sim::Config {
            block_dim,
            cores: 24,
            budget: 1_000_000,
            timing: None,
            trace_limit: None,
        };
        let out = crate::sim::run(&prog, &mut gm, &cfg);
        drop(gm);
        (out.findings, owned.into_iter().map(|o| o.data).collect())
    }
}

pub(super) fn f16_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| f16::from_f32(*x).to_le_bytes()).collect()
}

pub(super) fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn i8_bytes(v: &[i32]) -> Vec<u8> {
    v.iter().map(|x| *x as i8 as u8).collect()
}

pub(super) fn read_f32(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn read_i32(b: &[u8]) -> Vec<i32> {
    b.chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub(super) fn read_f16(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(2)
        .map(|c| f16::from_le_bytes([c[0], c[1]]).to_f32())
        .collect()
}

/// Packs a row-major m x k matrix into L0A's ZZ layout (fractals 16 x c0, row-major across).
fn zz(a: &[f32], m: usize, k: usize, c0: usize) -> Vec<f32> {
    let (m1, k1) = (m.div_ceil(16), k.div_ceil(c0));
    let mut out = vec![0f32; m1 * k1 * 16 * c0];
    for i in 0..m {
        for p in 0..k {
            out[((i / 16) * k1 + p / c0) * 16 * c0 + (i % 16) * c0 + p % c0] = a[i * k + p];
        }
    }
    out
}

/// Packs a row-major k x n matrix into L0B's ZN layout (fractals of 16 n-rows of c0 k, row-major across).
fn zn(b: &[f32], k: usize, n: usize, c0: usize) -> Vec<f32> {
    let (k1, n1) = (k.div_ceil(c0), n.div_ceil(16));
    let mut out = vec![0f32; k1 * n1 * 16 * c0];
    for p in 0..k {
        for j in 0..n {
            out[((p / c0) * n1 + j / 16) * 16 * c0 + (j % 16) * c0 + p % c0] = b[p * n + j];
        }
    }
    out
}

/// Element (i, j) of an m x n NZ matrix in L0C.
fn nz_at(c: &[f32], m: usize, i: usize, j: usize) -> f32 {
    c[((j / 16) * m.div_ceil(16) + i / 16) * 256 + (i % 16) * 16 + j % 16]
}

fn lcg(seed: &mut u64) -> f32 {
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    ((*seed >> 40) % 17) as f32 / 4.0 - 2.0
}

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

fn reference(a: &[f32], b: &[f32], m: usize, n: usize, k: usize) -> Vec<f32> {
    let mut c = vec![0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            for p in 0..k {
                c[i * n + j] += a[i * k + p] * b[p * n + j];
            }
        }
    }
    c
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

// ---------------------------------------------------------------------------------------------- Matmul

fn matmul_program(calls: &str) -> String {
    format!(
        "  call REGIST_MATMUL_OBJ.one tpipe=o0 workspace=h3 mm=o1 tiling.M=r1:i32 tiling.N=r2:i32 tiling.Ka=r3:i32 \
         tiling.Kb=r3:i32 tiling.singleCoreM=r1:i32 tiling.singleCoreN=r2:i32 tiling.singleCoreK=r3:i32 \
         tiling.baseM=r4:i32 tiling.baseN=r5:i32 tiling.iterateOrder=r6:i32\n{calls}"
    )
}

#[test]
fn matmul_iterate_all_and_iterate_get_tensor_c_give_the_same_c() {
    let (m, n, k) = (37usize, 45usize, 29usize);
    let mut seed = 3;
    let a: Vec<f32> = (0..m * k).map(|_| lcg(&mut seed)).collect();
    let b: Vec<f32> = (0..k * n).map(|_| lcg(&mut seed)).collect();
    let bias: Vec<f32> = (0..n).map(|j| j as f32 * 0.25).collect();
    let mut want = reference(&a, &b, m, n, k);
    for i in 0..m {
        for j in 0..n {
            want[i * n + j] += bias[j];
        }
    }
    let consts = [
        (1, "i32", m as u64),
        (2, "i32", n as u64),
        (3, "i32", k as u64),
        (4, "i32", 16),
        (5, "i32", 32),
        (6, "i32", 1),
    ];
    let rig = || {
        Rig::new("aic")
            .gm("a", GmRole::Input, f16_bytes(&a))
            .gm("b", GmRole::Input, f16_bytes(&b))
            .gm("bias", GmRole::Input, f32_bytes(&bias))
            .gm("c", GmRole::Output, vec![0; m * n * 4])
    };
    let set = "  call SetTensorA.gm<T=f16> self=o1 gm=h0\n  call SetTensorB.gm<T=f16> self=o1 gm=h1\n  \
               call SetBias.gm<T=f32> self=o1 gm=h2\n";
    let out = rig().run(
        &consts,
        &matmul_program(&format!(
            "{set}  call IterateAll.gm<T=f32> self=o1 gm=h3\n  call End.plain self=o1"
        )),
    );
    // o0 / o1 are objects the program does not declare here: the decoder only needs their ids
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    assert_eq!(read_f32(&out.gm[3]), want);
    let looped = format!(
        "{set}L1:\n  r10:i1 = call Iterate.plain self=o1\n  brz r10 L2\n  call GetTensorC.gm<T=f32> self=o1 gm=h3\n  br L1\nL2:"
    );
    // any base block and either iteration order give the same C (each element summed over the whole K)
    for (base_m, base_n, order) in [(16, 32, 1), (16, 16, 0), (48, 16, 1), (64, 64, 0), (32, 48, 0)] {
        let mut c = consts;
        c[3] = (4, "i32", base_m);
        c[4] = (5, "i32", base_n);
        c[5] = (6, "i32", order);
        let out = rig().run(&c, &matmul_program(&looped));
        assert!(out.codes().is_empty(), "{:?}", out.findings.list);
        assert_eq!(
            read_f32(&out.gm[3]),
            want,
            "baseM {base_m} baseN {base_n} order {order}"
        );
    }
}

#[test]
fn matmul_transposed_operands_tails_and_half_output() {
    // A stored K x M, B stored N x K; SetTail computes the top-left 20 x 24 of a 32 x 32 C
    let (m, n, k) = (32usize, 32usize, 16usize);
    let a_t: Vec<f32> = (0..k * m).map(|i| (i % 11) as f32 - 5.0).collect();
    let b_t: Vec<f32> = (0..n * k).map(|i| (i % 13) as f32 - 6.0).collect();
    let a: Vec<f32> = (0..m * k).map(|x| a_t[(x % k) * m + x / k]).collect();
    let b: Vec<f32> = (0..k * n).map(|x| b_t[(x % n) * k + x / n]).collect();
    let want = reference(&a, &b, m, n, k);
    let out = Rig::new("aic")
        .gm("a", GmRole::Input, f16_bytes(&a_t))
        .gm("b", GmRole::Input, f16_bytes(&b_t))
        .gm("bias", GmRole::Input, vec![])
        .gm("c", GmRole::Output, vec![0; m * n * 2])
        .run(
            &[
                (1, "i32", 32),
                (2, "i32", 32),
                (3, "i32", 16),
                (4, "i32", 16),
                (5, "i32", 16),
                (6, "i32", 0),
                (7, "i1", 1),
                (8, "i32", 20),
                (9, "i32", 24),
            ],
            &matmul_program(
                "  call SetTail.plain self=o1 tailM=r8:i32 tailN=r9:i32\n  \
                 call SetTensorA.gm<T=f16> self=o1 gm=h0 isTransposeA=r7:i1\n  \
                 call SetTensorB.gm<T=f16> self=o1 gm=h1 isTransposeB=r7:i1\n  \
                 call IterateAll.gm<T=f16> self=o1 gm=h3",
            ),
        );
    let c = read_f16(&out.gm[3]);
    for i in 0..m {
        for j in 0..n {
            let expect = if i < 20 && j < 24 {
                f16::from_f32(want[i * n + j]).to_f32()
            } else {
                0.0
            };
            assert_eq!(c[i * n + j], expect, "C({i},{j})");
        }
    }
}

#[test]
fn matmul_without_a_tiling_says_so() {
    let out = Rig::new("aic").gm("a", GmRole::Input, vec![0; 64]).run(
        &[],
        "  call SetTensorA.gm<T=f16> self=o1 gm=h0\n  call SetTensorB.gm<T=f16> self=o1 gm=h0\n  \
         call IterateAll.gm<T=f32> self=o1 gm=h0",
    );
    assert_eq!(out.codes(), vec!["ASC958"]);
}

#[test]
fn matmul_past_the_end_of_its_matrices_reports_it_and_computes_what_is_inside() {
    // singleCoreM 32 over an A of 20 rows (no SetTail): rows 20..31 read past A and write past C
    let (m, n, k) = (20usize, 16usize, 16usize);
    let a: Vec<f32> = (0..m * k).map(|i| (i % 5) as f32).collect();
    let b: Vec<f32> = (0..k * n).map(|i| (i % 3) as f32).collect();
    let want = reference(&a, &b, m, n, k);
    let out = Rig::new("aic")
        .gm("a", GmRole::Input, f16_bytes(&a))
        .gm("b", GmRole::Input, f16_bytes(&b))
        .gm("bias", GmRole::Input, vec![])
        .gm("c", GmRole::Output, vec![0; m * n * 4])
        .run(
            &[
                (1, "i32", 32),
                (2, "i32", 16),
                (3, "i32", 16),
                (4, "i32", 32),
                (5, "i32", 16),
                (6, "i32", 0),
            ],
            &matmul_program(
                "  call SetTensorA.gm<T=f16> self=o1 gm=h0\n  call SetTensorB.gm<T=f16> self=o1 gm=h1\n  \
                 call IterateAll.gm<T=f32> self=o1 gm=h3",
            ),
        );
    // one finding at the call, for the read past A and the write past C
    assert_eq!(out.codes(), vec!["ASC950"]);
    assert_eq!(out.findings.list[0].count, 2);
    assert_eq!(read_f32(&out.gm[3]), want);
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

#[test]
fn matmul_iterate_into_a_co1_tensor_leaves_nz_partial_sums_in_l0c() {
    let (m, n, k) = (20usize, 24usize, 16usize);
    let a: Vec<f32> = (0..m * k).map(|i| (i % 7) as f32 - 3.0).collect();
    let b: Vec<f32> = (0..k * n).map(|i| (i % 5) as f32 - 2.0).collect();
    let want = reference(&a, &b, m, n, k);
    let program = matmul_program(
        "  call SetTensorA.gm<T=f16> self=o1 gm=h0\n  call SetTensorB.gm<T=f16> self=o1 gm=h1\n  \
         h4 = LocalAt.f32 L0C r10:i32 r11:i32\n  \
         r12:i1 = call Iterate.co1<T=f32> self=o1 enPartialSum=r13:i1 localCmatrix=h4\n  \
         call SetTensorA.gm<T=f16> self=o1 gm=h0\n  call SetTensorB.gm<T=f16> self=o1 gm=h1\n  \
         r12:i1 = call Iterate.co1<T=f32> self=o1 enPartialSum=r14:i1 localCmatrix=h4",
    );
    let out = Rig::new("aic")
        .gm("a", GmRole::Input, f16_bytes(&a))
        .gm("b", GmRole::Input, f16_bytes(&b))
        .gm("bias", GmRole::Input, vec![])
        .gm("c", GmRole::Output, vec![])
        .run(
            &[
                (1, "i32", m as u64),
                (2, "i32", n as u64),
                (3, "i32", k as u64),
                (4, "i32", 32),
                (5, "i32", 32),
                (6, "i32", 0),
                (10, "i32", 0),
                (11, "i32", 1024),
                (13, "i1", 0),
                (14, "i1", 1),
            ],
            &program,
        );
    assert!(out.codes().is_empty(), "{:?}", out.findings.list);
    // the second Iterate accumulated onto the first: 2 * A @ B, in NZ with rows rounded up to 32
    let l0c = read_f32(&out.mem(MemKind::L0c)[..2 * 32 * 16 * 4]);
    for i in 0..m {
        for j in 0..n {
            assert_eq!(
                l0c[(j / 16) * 32 * 16 + i * 16 + j % 16],
                2.0 * want[i * n + j],
                "C({i},{j})"
            );
        }
    }
}

#[test]
fn a_mix_blocks_aic_writes_c_for_both_of_its_aivs_one_request_after_the_other() {
    // both AIVs of a MIX 1:2 block ask for the same C (no offsets by GetBlockIdx): the block's AIC computes
    // and writes it twice, in turn, which is no race between cores
    let (m, n, k) = (32usize, 16usize, 16usize);
    let a: Vec<f32> = (0..m * k).map(|i| (i % 5) as f32).collect();
    let b: Vec<f32> = (0..k * n).map(|i| (i % 3) as f32).collect();
    let rig = || {
        Rig::new("mix_aic_1_2")
            .gm("a", GmRole::Input, f16_bytes(&a))
            .gm("b", GmRole::Input, f16_bytes(&b))
            .gm("bias", GmRole::Input, vec![])
            .gm("c", GmRole::Output, vec![0; m * n * 4])
    };
    let consts = [
        (1, "i32", 32),
        (2, "i32", 16),
        (3, "i32", 16),
        (4, "i32", 32),
        (5, "i32", 16),
        (6, "i32", 0),
    ];
    let calls = "  call SetTensorA.gm<T=f16> self=o1 gm=h0\n  call SetTensorB.gm<T=f16> self=o1 gm=h1\n  \
                 call IterateAll.gm<T=f32> self=o1 gm=h3";
    let (findings, gm) = rig().launch(&consts, &matmul_program(calls), 1);
    assert!(findings.list.is_empty(), "{:?}", findings.list);
    assert_eq!(read_f32(&gm[3]), reference(&a, &b, m, n, k));
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
