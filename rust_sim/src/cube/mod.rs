//! The cube unit and its data path: GM -MTE2-> L1 (A1/B1, ND2NZ on the way) -MTE1 LoadData-> L0A (A2) /
//! L0B (B2) -Mmad (PIPE_M)-> L0C (CO1) -Fixpipe (PIPE_FIX)-> GM or L1, and the high-level Matmul object that
//! drives the whole path from GM or UB operands.
//!
//! The fractal layouts (reference §5; asc-devkit's LoadData / Mmad / Fixpipe pages):
//! - a fractal is 512 bytes: 16 rows of C0 = 32 B / sizeof(T) elements (L0C: 16 x 16 of 4-byte elements);
//! - L1 operands are usually NZ: `[D / C0][N_pad][C0]` (what ND2NZ writes);
//! - L0A is ZZ: fractal (m1, k1) at `m1 * K1 + k1`, row-major inside (16 m x C0 k);
//! - L0B is ZN: fractal (k1, n1) at `k1 * N1 + n1`, each holding 16 n-rows of C0 k (column-major in k x n);
//! - L0C is NZ: fractal (m1, n1) at `n1 * M1 + m1`, row-major inside (16 m x 16 n).
//!
//! Every family here reads whole regions of memory once (bounds-checked, with the initialised-ness of each
//! byte), computes on plain arrays, and writes the result back through `Ctx::store_bytes`, so the live-buffer,
//! atomic and GM-write checks of the core apply.

pub mod bias_table;
pub mod enhanced;
pub mod fill;
pub mod fixpipe;
pub mod load;
pub mod load3d;
pub mod load3d_repeat;
pub mod matmul;
pub mod matmul_batch;
pub mod matmul_compute;
pub mod matmul_nbatch;
pub mod mmad;
pub mod mode;
pub mod nd2nz;

use std::collections::HashMap;

use crate::api::{Pipe, Registry};
use crate::core::Ctx;
use crate::dtype::DType;
use crate::memory::{Handle, Space};
use crate::program::Sv;

/// Bytes of one fractal row (and of the 32-byte blocks strides count in).
pub const BLOCK: i64 = 32;
/// Bytes of one L0A / L0B fractal.
pub const FRACTAL: i64 = 512;

/// Elements in one 32-byte fractal row of `t` (C0): 16 for half, 8 for float, 32 for int8.
pub fn c0(t: DType) -> usize {
    32 / t.size().max(1)
}

/// The cube-side registers and library objects of one core.
#[derive(Default)]
pub struct CubeState {
    /// Matmul objects by object id
    pub matmuls: HashMap<u32, matmul::MatmulObj>,
    /// SetFixpipeNz2ndFlag: (ndNum, srcNdStride, dstNdStride) for the DataCopy forms out of L0C
    pub nz2nd: Option<(u64, u64, u64)>,
    /// SetFixpipePreQuantFlag: the scalar quantisation parameter of the DataCopy forms out of L0C
    pub quant_scalar: u64,
    /// SetFixPipeConfig: where the per-channel quantisation parameters are (an L1 tensor of uint64)
    pub quant_tensor: Option<Handle>,
    /// where the core sits in its launch (its kind, block and sub-block; mix.rs)
    pub slot: crate::mix::Slot,
    /// the cross-core flags of a MIX launch
    pub cross: Option<crate::mix::Shared>,
    /// Load3D's FMATRIX registers (left, right): the feature map's size and padding (load3d/)
    pub fmatrix: [Option<load3d::Fmatrix>; 2],
    /// the bits of the value Load3D writes at padding positions
    pub pad_value: u64,
    /// SetHF32Mode: float Mmads are reported as computed in FP32 while it is on (mode.rs)
    pub hf32: bool,
    /// SetLoadDataRepeat's register (load3d_repeat.rs) and SetLoadDataBoundary's value (0: none)
    pub load3d_repeat: load3d_repeat::Repeat,
    pub load3d_boundary: u64,
}

/// An Mmad or Fixpipe with a non-zero unitFlag: PIPE_M and PIPE_FIX hand L0C over unit by unit themselves
/// (race.rs's `unit_handshake`); `to` is the pipe of the instruction now running.
pub fn unit_flag_handshake(cx: &mut Ctx, flag: Option<Sv>, from: Pipe, to: Pipe) {
    if let Some(f) = flag {
        if cx.uint(f) != 0 {
            cx.core.race.unit_handshake(from as usize, to as usize);
        }
    }
}

pub fn register(r: &mut Registry) {
    load::register(r);
    load3d::register(r);
    bias_table::register(r);
    enhanced::register(r);
    mmad::register(r);
    mode::register(r);
    fixpipe::register(r);
    fill::register(r);
    nd2nz::register(r);
    matmul::register(r);
}

/// Bytes read from one memory with their initialised-ness (1 written, else never written).
pub struct Region {
    pub data: Vec<u8>,
    pub init: Vec<u8>,
}

impl Region {
    pub fn is_init(&self, at: usize, len: usize) -> bool {
        crate::memory::all_ones(&self.init[at..at + len])
    }
}

/// Reads `len` bytes at byte `off` of `h` (GM or a local memory); None when they are out of bounds (reported).
pub fn read(cx: &mut Ctx, h: Handle, off: i64, len: i64, elem: usize, what: &str) -> Option<Region> {
    if len <= 0 {
        return Some(Region {
            data: Vec::new(),
            init: Vec::new(),
        });
    }
    let at = cx.range(h, off, len, false, elem, what)?;
    if let Some(m) = crate::timing::meter(cx.core) {
        m.read(h.space, at, len as u64);
    }
    let n = len as usize;
    match h.space {
        Space::Gm(i) => {
            let buf = &cx.gm.bufs[i as usize];
            let data = buf.bytes()[at..at + n].to_vec();
            let mut init = vec![0u8; n];
            buf.init_flags(at, &mut init);
            Some(Region { data, init })
        }
        Space::Local(m) => {
            let mem = cx.local(m);
            Some(Region {
                data: mem.data.as_slice()[at..at + n].to_vec(),
                init: mem.init[at..at + n].to_vec(),
            })
        }
        Space::Null => None,
    }
}

/// Reads `len` bytes at byte `off` of `h` as the hardware would: bytes past the end of the memory are reported
/// (once) and read as zeros never written, so what lies inside is still computed on.
pub fn read_clamped(cx: &mut Ctx, h: Handle, off: i64, len: i64, elem: usize, what: &str) -> Option<Region> {
    let size = match h.space {
        Space::Gm(i) => cx.gm.bufs[i as usize].len() as i64,
        Space::Local(m) => cx.local_size(m) as i64,
        Space::Null => {
            cx.range(h, off, len, false, elem, what);
            return None;
        }
    };
    let start = h.addr + off;
    let inside = (size - start).clamp(0, len.max(0));
    if start >= 0 && inside == len {
        return read(cx, h, off, len, elem, what);
    }
    cx.range(h, off, len, false, elem, what); // the finding
    let mut region = Region {
        data: vec![0u8; len.max(0) as usize],
        init: vec![0u8; len.max(0) as usize],
    };
    if start >= 0 && inside > 0 {
        let part = read(cx, h, off, inside, elem, what)?;
        region.data[..inside as usize].copy_from_slice(&part.data);
        region.init[..inside as usize].copy_from_slice(&part.init);
    }
    Some(region)
}

/// Writes `data` (with per-byte initialised flags) at byte `off` of `h`; false when out of bounds (reported).
pub fn write(cx: &mut Ctx, h: Handle, off: i64, data: &[u8], init: &[u8], t: DType, what: &str) -> bool {
    if data.is_empty() {
        return true;
    }
    let Some(at) = cx.range(h, off, data.len() as i64, true, t.size(), what) else {
        return false;
    };
    if let Some(m) = crate::timing::meter(cx.core) {
        m.wrote(data.len() as u64, h.space, at);
    }
    cx.store_bytes(h, at, data, init, t, what);
    true
}

/// `write`, but what lies inside the memory is written when the rest does not fit (the rest is reported).
fn write_clamped(cx: &mut Ctx, h: Handle, off: i64, data: &[u8], init: &[u8], t: DType, what: &str) -> bool {
    let size = match h.space {
        Space::Gm(i) => cx.gm.bufs[i as usize].len() as i64,
        Space::Local(m) => cx.local_size(m) as i64,
        Space::Null => return write(cx, h, off, data, init, t, what),
    };
    let start = h.addr + off;
    let len = data.len() as i64;
    if start < 0 || start + len <= size {
        return write(cx, h, off, data, init, t, what);
    }
    cx.range(h, off, len, true, t.size(), what); // the finding
    let inside = (size - start).max(0) as usize;
    if inside > 0 {
        write(cx, h, off, &data[..inside], &init[..inside], t, what);
    }
    false
}

/// Writes scattered runs: each (byte offset from `h`, bytes, init) in order; false when any was out of bounds.
/// Adjacent runs are merged so GM-write records stay short.
pub fn write_runs(cx: &mut Ctx, h: Handle, runs: &[(i64, Vec<u8>, Vec<u8>)], t: DType, what: &str) -> bool {
    let mut i = 0;
    let mut ok = true;
    while i < runs.len() {
        let start = runs[i].0;
        let mut data = runs[i].1.clone();
        let mut init = runs[i].2.clone();
        let mut j = i + 1;
        while j < runs.len() && runs[j].0 == start + data.len() as i64 {
            data.extend_from_slice(&runs[j].1);
            init.extend_from_slice(&runs[j].2);
            j += 1;
        }
        // bytes out of bounds are reported and dropped; the hardware writes the others
        ok &= write_clamped(cx, h, start, &data, &init, t, what);
        i = j;
    }
    ok
}

/// The value of element `i` of a byte slice as f64.
#[inline]
pub fn elem_f64(t: DType, bytes: &[u8], i: usize) -> f64 {
    let s = t.size();
    t.to_f64(t.load_bits(&bytes[i * s..]))
}

/// Converts a byte slice of `t` elements to f32 (half and bfloat16 exactly).
pub fn to_f32(t: DType, bytes: &[u8]) -> Vec<f32> {
    let s = t.size();
    bytes.chunks_exact(s).map(|c| t.to_f64(t.load_bits(c)) as f32).collect()
}

/// Converts a byte slice of integer `t` elements to i32.
pub fn to_i32(t: DType, bytes: &[u8]) -> Vec<i32> {
    let s = t.size();
    bytes.chunks_exact(s).map(|c| t.to_i64(t.load_bits(c)) as i32).collect()
}

/// Whether a tensor handle lives in local memory `m`.
pub fn in_mem(h: Handle, m: crate::memory::MemKind) -> bool {
    h.space == Space::Local(m)
}

/// A LocalTensor that was never given memory (default-constructed and never assigned: asc-devkit's
/// `LocalTensor<T>() {}` leaves its TBuffAddr unset) used where the instruction fixes the buffer: Mmad's C and
/// Fixpipe's source are in L0C whatever the tensor says, at the tensor's bufferAddr. ops-nn
/// transpose_batch_mat_mul's PpMatmulEinSum accumulates in such a member (`l0c_buf`), correct on the device;
/// it is read here as `m` from address 0, with a warning that names the assumption. Any other tensor is as it was.
pub fn fixed_buffer(cx: &mut Ctx, h: Handle, m: crate::memory::MemKind, what: &str) -> Handle {
    if h.space != Space::Null {
        return h;
    }
    cx.warn(
        crate::checks::code::NOT_MODELLED,
        format!(
            "{what} goes through a LocalTensor never given memory (default-constructed, its address never set): \
             taken as {} from address 0, the buffer this operand of the instruction is always in",
            m.name()
        ),
    );
    Handle::local(m, h.addr, -1, 0)
}

/// The accumulator type of an Mmad input type (reference §5: s8 -> s32, f16/bf16/f32 -> f32).
pub fn accumulator(t: DType) -> Option<DType> {
    match t {
        DType::I8 | DType::U8 => Some(DType::I32),
        DType::F16 | DType::BF16 | DType::F32 => Some(DType::F32),
        _ => None,
    }
}

/// One product-sum engine for all input types: C[i][j] (+)= sum_k A[i][k] * B[k][j] over row-major f32 (or
/// i32) arrays, each element accumulated in k order in the accumulator type, as the cube's L0C accumulates.
/// Four rows of C share each pass over a row of B and the columns go in chunks that stay in cache; neither
/// changes the order in which any one element is summed.
pub fn gemm_f32(m: usize, n: usize, k: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    const CHUNK: usize = 512;
    let mut i = 0;
    while i < m {
        let rows = (m - i).min(4);
        for j0 in (0..n).step_by(CHUNK) {
            let j1 = (j0 + CHUNK).min(n);
            let (c0, rest) = c[i * n..].split_at_mut(n);
            let mut more: Vec<&mut [f32]> = rest.chunks_mut(n).take(rows - 1).collect();
            for p in 0..k {
                let brow = &b[p * n + j0..p * n + j1];
                let x0 = a[i * k + p];
                for (cj, &bj) in c0[j0..j1].iter_mut().zip(brow) {
                    *cj += x0 * bj;
                }
                for (r, crow) in more.iter_mut().enumerate() {
                    let x = a[(i + 1 + r) * k + p];
                    for (cj, &bj) in crow[j0..j1].iter_mut().zip(brow) {
                        *cj += x * bj;
                    }
                }
            }
        }
        i += rows;
    }
}

pub fn gemm_i32(m: usize, n: usize, k: usize, a: &[i32], b: &[i32], c: &mut [i32]) {
    for i in 0..m {
        let row = &mut c[i * n..(i + 1) * n];
        for p in 0..k {
            let x = a[i * k + p];
            let brow = &b[p * n..(p + 1) * n];
            for (cj, &bj) in row.iter_mut().zip(brow) {
                *cj = cj.wrapping_add(x.wrapping_mul(bj));
            }
        }
    }
}

#[cfg(test)]
mod fixpipe_tests;
#[cfg(test)]
mod load3d_tests;
#[cfg(test)]
mod load_tests;
#[cfg(test)]
mod matmul_tests;
#[cfg(test)]
mod mmad_tests;
#[cfg(test)]
mod tests;
