//! Mmad: C (L0C, NZ) = A (L0A, ZZ) x B (L0B, ZN) [+ the initial C], on PIPE_M.
//!
//! `m`, `n`, `k` are element counts (0 in any: a no-op). The cube works on whole 16 x 16 output fractals: rows
//! up to m rounded to 16 and columns up to n rounded to 16 are computed (padding rows from whatever L0A holds
//! there), over exactly k products. The initial C is 0 when cmatrixInitVal is set (and the deprecated isBias
//! is not); otherwise the bias table (cmatrixSource, or a bias tensor in C2), broadcast over the rows, or
//! what L0C already holds. Each output element accumulates in k order in the accumulator type: f32 for
//! half / bfloat16 / float (products of 16-bit inputs are exact in f32), i32 for int8.
//!
//! GEMV: with m = 1 the cube reads A as k contiguous elements and writes one row per output fractal.
//! kDirectionAlign (float inputs): L0A rows of fractals span K rounded to 16, not to 8.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::cube::{c0, gemm_f32, gemm_i32, read, write, FRACTAL};
use crate::dtype::DType;
use crate::memory::{MemKind, Space};
use crate::program::Sv;

#[derive(Debug)]
struct Mmad {
    c_t: DType,
    a_t: DType,
    b_t: DType,
    bias_t: Option<DType>,
    dst: u32,
    fm: u32,
    filter: u32,
    bias: Option<u32>,
    m: Sv,
    n: Sv,
    k: Sv,
    init_val: Option<Sv>,
    source: Option<Sv>,
    is_bias: Option<Sv>,
    k_align: Option<Sv>,
    unit_flag: Option<Sv>,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let p = "mmadParams";
    let with_bias = a.overload == "bias";
    Ok(Box::new(Mmad {
        c_t: a.dtype("T")?,
        a_t: a.dtype("U")?,
        b_t: a.dtype("S")?,
        bias_t: if with_bias { Some(a.dtype("V")?) } else { None },
        dst: a.handle("dst")?,
        fm: a.handle("fm")?,
        filter: a.handle("filter")?,
        bias: if with_bias { Some(a.handle("bias")?) } else { None },
        m: a.field(p, "m")?,
        n: a.field(p, "n")?,
        k: a.field(p, "k")?,
        init_val: a.opt_field(p, "cmatrixInitVal")?,
        source: a.opt_field(p, "cmatrixSource")?,
        is_bias: a.opt_field(p, "isBias")?,
        k_align: a.opt_field(p, "kDirectionAlign")?,
        unit_flag: a.opt_field(p, "unitFlag")?,
    }))
}

/// Where the initial C comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Init {
    Zero,
    L0c,
    BiasTable,
}

/// The geometry of one Mmad in elements and fractals.
#[derive(Clone, Copy, Debug)]
pub struct Geometry {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    /// fractal rows / columns / K blocks
    pub m1: usize,
    pub n1: usize,
    pub k1: usize,
    /// elements of a fractal row in L0A / L0B
    pub c0: usize,
    pub gemv: bool,
}

impl Geometry {
    pub fn new(m: usize, n: usize, k: usize, t: DType, k_align16: bool) -> Geometry {
        let c0 = c0(t);
        let k_pad = if k_align16 && t.size() == 4 {
            k.div_ceil(16) * 16
        } else {
            k.div_ceil(c0) * c0
        };
        Geometry {
            m,
            n,
            k,
            m1: m.div_ceil(16),
            n1: n.div_ceil(16),
            k1: k_pad / c0,
            c0,
            gemv: m == 1,
        }
    }

    /// Rows the cube computes (whole fractals, one row in GEMV mode).
    pub fn rows(&self) -> usize {
        if self.gemv {
            1
        } else {
            self.m1 * 16
        }
    }

    pub fn cols(&self) -> usize {
        self.n1 * 16
    }

    /// Element index of A(i, p) in L0A.
    #[inline]
    pub fn a_index(&self, i: usize, p: usize) -> usize {
        if self.gemv {
            return p;
        }
        ((i / 16) * self.k1 + p / self.c0) * (16 * self.c0) + (i % 16) * self.c0 + p % self.c0
    }

    /// Element index of B(p, j) in L0B.
    #[inline]
    pub fn b_index(&self, p: usize, j: usize) -> usize {
        ((p / self.c0) * self.n1 + j / 16) * (16 * self.c0) + (j % 16) * self.c0 + p % self.c0
    }

    /// Element index of C(i, j) in L0C.
    #[inline]
    pub fn c_index(&self, i: usize, j: usize) -> usize {
        ((j / 16) * self.m1 + i / 16) * 256 + (i % 16) * 16 + j % 16
    }

    pub fn a_bytes(&self, size: usize) -> usize {
        if self.gemv {
            self.k * size
        } else {
            self.m1 * self.k1 * FRACTAL as usize
        }
    }

    pub fn b_bytes(&self) -> usize {
        self.k.div_ceil(self.c0) * self.n1 * FRACTAL as usize
    }

    pub fn c_elems(&self) -> usize {
        self.m1.max(1) * self.n1 * 256
    }
}

impl ApiOp for Mmad {
    fn pipe(&self) -> Pipe {
        Pipe::M
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let (m, n, k) = (
            (cx.uint(self.m) & 0xFFFF) as usize,
            (cx.uint(self.n) & 0xFFFF) as usize,
            (cx.uint(self.k) & 0xFFFF) as usize,
        );
        if m == 0 || n == 0 || k == 0 {
            return Flow::Next;
        }
        super::unit_flag_handshake(cx, self.unit_flag, Pipe::Fix, Pipe::M);
        if let Some(meter) = crate::timing::meter(cx.core) {
            meter.mmad(m as u64, n as u64, k as u64, self.a_t.size() as u64);
        }
        if m > 4095 || n > 4095 || k > 4095 {
            cx.report(
                code::INVALID_OPERAND,
                format!("Mmad with m {m}, n {n}, k {k}: each must be at most 4095"),
            );
            return Flow::Next;
        }
        let combos = [
            (DType::I8, DType::I8, DType::I32),
            (DType::F16, DType::F16, DType::F32),
            (DType::F32, DType::F32, DType::F32),
            (DType::BF16, DType::BF16, DType::F32),
        ];
        if !combos.contains(&(self.a_t, self.b_t, self.c_t)) {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "Mmad of {} x {} into {}: the cube multiplies int8 x int8 -> int32 and half / bfloat16_t / \
                     float pairs -> float",
                    self.a_t.name(),
                    self.b_t.name(),
                    self.c_t.name()
                ),
            );
            return Flow::Next;
        }
        if cx.core.cube.hf32 && self.a_t == DType::F32 {
            // SetHF32Mode(true): the device rounds float L0A / L0B data to HF32 first (mode.rs)
            cx.warn(
                code::NOT_MODELLED,
                "Mmad of float under SetHF32Mode(true) is computed in FP32: HF32's format is not documented \
                 (its rounding modes are), so results can be more exact than the device's"
                    .to_string(),
            );
        }
        let flag = |sv: Option<Sv>, default: bool| sv.map(|s| cx.uint(s) & 1 != 0).unwrap_or(default);
        let init_zero = flag(self.init_val, true) && !flag(self.is_bias, false);
        let init = if self.bias.is_some() {
            let in_bt = self
                .bias
                .is_some_and(|b| cx.handle(b).space == Space::Local(MemKind::Bt));
            match (init_zero, in_bt) {
                (true, _) => Init::Zero,
                (false, true) => Init::BiasTable,
                (false, false) => Init::L0c,
            }
        } else if init_zero {
            Init::Zero
        } else if flag(self.source, false) {
            Init::BiasTable
        } else {
            Init::L0c
        };
        let g = Geometry::new(m, n, k, self.a_t, flag(self.k_align, false));
        mmad(cx, self, g, init);
        Flow::Next
    }
}

fn mmad(cx: &mut Ctx, op: &Mmad, g: Geometry, init: Init) {
    let (dst, fm, filter) = (cx.handle(op.dst), cx.handle(op.fm), cx.handle(op.filter));
    let dst = crate::cube::fixed_buffer(cx, dst, MemKind::L0c, "Mmad (C in L0C)");
    let (asz, bsz) = (op.a_t.size(), op.b_t.size());
    let Some(a) = read(cx, fm, 0, g.a_bytes(asz) as i64, asz, "Mmad (A in L0A)") else {
        return;
    };
    let Some(b) = read(cx, filter, 0, g.b_bytes() as i64, bsz, "Mmad (B in L0B)") else {
        return;
    };
    let c_bytes = (g.c_elems() * 4) as i64;
    let Some(mut c) = read(cx, dst, 0, c_bytes, 4, "Mmad (C in L0C)") else {
        return;
    };
    let (rows, cols) = (g.rows(), g.cols());
    // initialised-ness of each A row and B column over the k products
    let a_row_init: Vec<bool> = (0..rows)
        .map(|i| (0..g.k).all(|p| a.is_init(g.a_index(i, p) * asz, asz)))
        .collect();
    let b_col_init: Vec<bool> = (0..cols)
        .map(|j| (0..g.k).all(|p| b.is_init(g.b_index(p, j) * bsz, bsz)))
        .collect();
    // the initial C, row-major rows x cols, and whether each element of it is initialised
    let mut c_init = vec![true; rows * cols];
    let bias: Option<Vec<f64>> = match init {
        Init::BiasTable => {
            let bt = match op.bias {
                Some(h) => cx.handle(h),
                None => crate::memory::Handle::local(MemKind::Bt, 0, -1, 0),
            };
            let bt_t = op.bias_t.unwrap_or(op.c_t);
            let Some(r) = read(cx, bt, 0, (cols * bt_t.size()) as i64, bt_t.size(), "Mmad (bias)") else {
                return;
            };
            for j in 0..cols {
                if !r.is_init(j * bt_t.size(), bt_t.size()) {
                    for i in 0..rows {
                        c_init[i * cols + j] = false;
                    }
                }
            }
            Some((0..cols).map(|j| crate::cube::elem_f64(bt_t, &r.data, j)).collect())
        }
        _ => None,
    };
    if init == Init::L0c {
        for i in 0..rows {
            for j in 0..cols {
                c_init[i * cols + j] = c.is_init(g.c_index(i, j) * 4, 4);
            }
        }
    }
    let mut out: Vec<u32> = vec![0; rows * cols];
    if op.c_t == DType::I32 {
        let av: Vec<i32> = gather(
            rows,
            g.k,
            |i, p| g.a_index(i, p),
            &a.data,
            op.a_t,
            |t, x| t.to_i64(x) as i32,
        );
        let bv: Vec<i32> = gather(
            g.k,
            cols,
            |p, j| g.b_index(p, j),
            &b.data,
            op.b_t,
            |t, x| t.to_i64(x) as i32,
        );
        let mut cv = vec![0i32; rows * cols];
        for i in 0..rows {
            for j in 0..cols {
                cv[i * cols + j] = match init {
                    Init::Zero => 0,
                    Init::L0c => DType::I32.to_i64(DType::I32.load_bits(&c.data[g.c_index(i, j) * 4..])) as i32,
                    Init::BiasTable => bias.as_ref().map(|b| b[j] as i32).unwrap_or(0),
                };
            }
        }
        gemm_i32(rows, cols, g.k, &av, &bv, &mut cv);
        for (o, v) in out.iter_mut().zip(&cv) {
            *o = *v as u32;
        }
    } else {
        let av = gather(
            rows,
            g.k,
            |i, p| g.a_index(i, p),
            &a.data,
            op.a_t,
            |t, x| t.to_f64(x) as f32,
        );
        let bv = gather(
            g.k,
            cols,
            |p, j| g.b_index(p, j),
            &b.data,
            op.b_t,
            |t, x| t.to_f64(x) as f32,
        );
        let mut cv = vec![0f32; rows * cols];
        for i in 0..rows {
            for j in 0..cols {
                cv[i * cols + j] = match init {
                    Init::Zero => 0.0,
                    Init::L0c => f32::from_bits(DType::F32.load_bits(&c.data[g.c_index(i, j) * 4..]) as u32),
                    Init::BiasTable => bias.as_ref().map(|b| b[j] as f32).unwrap_or(0.0),
                };
            }
        }
        gemm_f32(rows, cols, g.k, &av, &bv, &mut cv);
        for (o, v) in out.iter_mut().zip(&cv) {
            *o = v.to_bits();
        }
    }
    for i in 0..rows {
        for j in 0..cols {
            let at = g.c_index(i, j) * 4;
            c.data[at..at + 4].copy_from_slice(&out[i * cols + j].to_le_bytes());
            let ok = a_row_init[i] && b_col_init[j] && c_init[i * cols + j];
            c.init[at..at + 4].fill(ok as u8);
        }
    }
    write(cx, dst, 0, &c.data, &c.init, op.c_t, "Mmad");
}

/// A rows x cols row-major array of the elements at `index(r, c)` of `data`.
fn gather<V: Copy + Default>(
    rows: usize,
    cols: usize,
    index: impl Fn(usize, usize) -> usize,
    data: &[u8],
    t: DType,
    conv: impl Fn(DType, u64) -> V,
) -> Vec<V> {
    let s = t.size();
    let mut out = vec![V::default(); rows * cols];
    for r in 0..rows {
        for c in 0..cols {
            let at = index(r, c) * s;
            out[r * cols + c] = conv(t, t.load_bits(&data[at..]));
        }
    }
    out
}

pub fn register(r: &mut Registry) {
    // MmadImpl: the body Mmad calls (asc-devkit kernel_operator_mm_base_impl.h 463-497), which vendor kernels
    // call directly (ops-nn conv3d_backprop_input_v2's L0C clearing)
    r.add_all(&["Mmad", "MmadImpl"], &["plain", "bias"], decode);
}
