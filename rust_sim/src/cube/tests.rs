//! The rig the cube tests share: one core with its local memories filled beforehand (or a whole launch), a
//! program body run on it, and the memories and GM read back; with the byte conversions and the fractal
//! layouts (ZZ, ZN, NZ) the hand-computed expectations are written in. The tests themselves are by topic in
//! load_tests, mmad_tests, fixpipe_tests, matmul_tests (and load3d_tests, fill, fixpipe, mode).

use half::f16;

use crate::checks::Findings;
use crate::core::{self, Core};
use crate::memory::{Gm, GmRole, LocalMem, MemKind, OwnedBuf};
use crate::parse::parse;
use crate::program::Program;

/// One core, its local memories, and GM buffers, around a program body.
pub(super) struct Rig {
    header: String,
    gm: Vec<(String, GmRole, Vec<u8>)>,
    fills: Vec<(MemKind, usize, Vec<u8>)>,
}

pub(super) struct Out {
    pub(super) core: Core,
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

    /// The program around `code`: the GM parameters, 64 registers, `stack` bytes of stack, `consts` set.
    fn program(&self, consts: &[(u32, &str, u64)], code: &str, stack: usize) -> Program {
        let mut text = self.header.clone();
        for (i, (name, _, _)) in self.gm.iter().enumerate() {
            text += &format!("param {i} {name} h{i} gm\n");
        }
        text += &format!("regs 64 32\nstack {stack}\n");
        for (r, ty, v) in consts {
            text += &format!("const r{r} {ty} {v}\n");
        }
        text += &format!("code\n{code}\n  ret\nend\n");
        parse(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"))
    }

    /// Calls `run` with GM buffers holding copies of the rig's GM data; its result and those buffers afterwards.
    fn on_gm<T>(&self, run: impl FnOnce(&mut Gm) -> T) -> (T, Vec<Vec<u8>>) {
        let mut owned: Vec<OwnedBuf> = self.gm.iter().map(|(_, _, d)| OwnedBuf::new(d.clone())).collect();
        let bufs = owned
            .iter_mut()
            .zip(&self.gm)
            .map(|(o, (name, role, _))| unsafe { o.gm(name, *role) })
            .collect();
        let mut gm = Gm { bufs };
        let result = run(&mut gm);
        drop(gm);
        (result, owned.into_iter().map(|o| o.data).collect())
    }

    /// Runs `code` (instructions, one per line) with `regs` scalar registers set as given.
    pub(super) fn run(self, consts: &[(u32, &str, u64)], code: &str) -> Out {
        let prog = self.program(consts, code, 16);
        let ((core, findings), gm) = self.on_gm(|gm| {
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
            core::run(&mut core, gm, &prog, &mut findings, &mut budget);
            (core, findings)
        });
        Out { core, gm, findings }
    }

    /// Runs `code` as a whole launch of `block_dim` blocks (every core of a MIX block), without local fills;
    /// the findings and GM afterwards.
    pub(super) fn launch(self, consts: &[(u32, &str, u64)], code: &str, block_dim: u32) -> (Findings, Vec<Vec<u8>>) {
        let prog = self.program(consts, code, 0);
        let cfg = crate::sim::Config {
            block_dim,
            cores: 24,
            budget: 1_000_000,
            timing: None,
            trace_limit: None,
        };
        let (out, gm) = self.on_gm(|gm| crate::sim::run(&prog, gm, &cfg));
        (out.findings, gm)
    }
}

pub(super) fn f16_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| f16::from_f32(*x).to_le_bytes()).collect()
}

pub(super) fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub(super) fn i8_bytes(v: &[i32]) -> Vec<u8> {
    v.iter().map(|x| *x as i8 as u8).collect()
}

pub(super) fn read_f32(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub(super) fn read_i32(b: &[u8]) -> Vec<i32> {
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
pub(super) fn zz(a: &[f32], m: usize, k: usize, c0: usize) -> Vec<f32> {
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
pub(super) fn zn(b: &[f32], k: usize, n: usize, c0: usize) -> Vec<f32> {
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
pub(super) fn nz_at(c: &[f32], m: usize, i: usize, j: usize) -> f32 {
    c[((j / 16) * m.div_ceil(16) + i / 16) * 256 + (i % 16) * 16 + j % 16]
}

pub(super) fn lcg(seed: &mut u64) -> f32 {
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    ((*seed >> 40) % 17) as f32 / 4.0 - 2.0
}

pub(super) fn reference(a: &[f32], b: &[f32], m: usize, n: usize, k: usize) -> Vec<f32> {
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
