//! The rig the cube tests share: the shared test rig (crate::test_rig) with a header declaring every local
//! memory, GM parameters by name and constants given as registers; with the byte conversions and the fractal
//! layouts (ZZ, ZN, NZ) the hand-computed expectations are written in. The tests themselves are by topic in
//! load_tests, mmad_tests, fixpipe_tests, matmul_tests (and load3d_tests, fill, fixpipe, mode).

use half::f16;

use crate::checks::Findings;
use crate::memory::{GmRole, MemKind};
use crate::test_rig;
pub(super) use crate::test_rig::{read_f32, Out};

/// One core, its local memories, and GM buffers, around a program body.
pub(super) struct Rig {
    header: String,
    gm: Vec<(String, GmRole, Vec<u8>)>,
    fills: Vec<(MemKind, usize, Vec<u8>)>,
}

impl Rig {
    pub(super) fn new(kernel_type: &str) -> Rig {
        Rig {
            header: format!(
                "kernel k {kernel_type}\nchip 910B2\nmem UB 196608 32\nmem L1 524288 32\n\
                 mem L0A 65536 512\nmem L0B 65536 512\nmem L0C 131072 64\nmem BT 1024 64\nmem FB 2048 64\n"
            ),
            gm: Vec::new(),
            fills: Vec::new(),
        }
    }

    /// Declares the program's objects (`object` lines, o0 first): a call's object operand must be one.
    pub(super) fn objects(mut self, decls: &str) -> Rig {
        self.header += decls;
        self
    }

    pub(super) fn gm(mut self, name: &str, role: GmRole, data: Vec<u8>) -> Rig {
        self.gm.push((name.into(), role, data));
        self
    }

    pub(super) fn fill(mut self, m: MemKind, at: usize, data: Vec<u8>) -> Rig {
        self.fills.push((m, at, data));
        self
    }

    /// The shared rig around a program body: the GM parameters, 64 registers, `stack` bytes of stack, `consts`
    /// set, the GM data and the fills.
    fn shared(self, consts: &[(u32, &str, u64)], stack: usize) -> test_rig::Rig {
        let mut head = self.header;
        for (i, (name, _, _)) in self.gm.iter().enumerate() {
            head += &format!("param {i} {name} h{i} gm\n");
        }
        head += &format!("regs 64 32\nstack {stack}\n");
        for (r, ty, v) in consts {
            head += &format!("const r{r} {ty} {v}\n");
        }
        let mut rig = test_rig::Rig::new(head);
        for (_, role, data) in self.gm {
            rig = rig.gm(role, data);
        }
        for (m, at, data) in self.fills {
            rig = rig.fill(m, at, data);
        }
        rig
    }

    /// Runs `code` (instructions, one per line) with `regs` scalar registers set as given.
    pub(super) fn run(self, consts: &[(u32, &str, u64)], code: &str) -> Out {
        self.shared(consts, 16).run(code)
    }

    /// Runs `code` as a whole launch of `block_dim` blocks (every core of a MIX block), without local fills;
    /// the findings and GM afterwards.
    pub(super) fn launch(self, consts: &[(u32, &str, u64)], code: &str, block_dim: u32) -> (Findings, Vec<Vec<u8>>) {
        self.shared(consts, 0).launch(code, block_dim)
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
