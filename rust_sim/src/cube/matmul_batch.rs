//! Matmul::IterateBatch: several singleCoreM x singleCoreN x singleCoreK products in one call, their A, B and C
//! matrices found in GM (or C in UB) by the layout each MatmulType declares (asc-devkit docs IterateBatch,
//! SetBatchNum; the tiling's A/B/CLayoutInfo fields, from SetALayout / SetBLayout / SetCLayout):
//!
//! - NORMAL: the matrices one after another, `[batch][M][K]`, `[batch][K][N]`, `[batch][M][N]` (with the
//!   object's org shape as the row length; matrixStrideA/B/C, when not 0, the elements from one to the next);
//! - BSNGD: `[B][S][N][G][D]`, one S x D matrix per (b, n, g), rows N * G * D apart; C `[B][S1][N][G][S2]`;
//! - BNGS1S2: `[B][N][G][S][D]`, each (b, n, g) matrix S x D contiguous; C `[B][N][G][S1][S2]`;
//! - SBNGD: `[S][B][N][G][D]`, matrix i (in (b, n, g) order) from element i * D, rows B * N * G * D apart; C
//!   `[S1][B][N][G][S2]` (the library's batch copy-in: srcStride the matrix width, srcDValue D * N * G * B).
//!
//! Batch i (of max(batchA, batchB); the larger a multiple of the smaller) writes C matrix i. NORMAL reads A
//! matrix i / (batch / batchA) (and B likewise); the other layouts broadcast along the axis whose A (or B)
//! extent is 1 where the other operand's is not (G, then N, then B), as the library's batch scheduler does.
//! The bias, when set, is one row of N per C matrix (isBiasBatch, the default configuration), or one row for all
//! (a MatmulConfig from GetMMConfig with a MatmulBatchParams whose isBiasBatch is false). Each product
//! is the object's IterateAll on the offset matrices. The MIX forms take batchA / batchB; the cube-only forms
//! take them from SetBatchNum. Not modelled (reported, naming the form): other layouts, the partial
//! sum (enPartialSum), a bias under a MatmulConfig whose isBiasBatch is not known here. IterateNBatch's loops
//! run these batches too (matmul_nbatch.rs).

use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::cube::matmul::{Call, MatmulObj};
use crate::cube::matmul_compute::compute;
use crate::memory::{Handle, Space};

/// How an operand's matrices lie in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Normal,
    Bsngd,
    Bngs1s2,
    Sbngd,
}

/// The LayoutMode a MatmulType argument declares (`LayoutMode::NONE` when it names none).
pub fn layout_text(arg: &str) -> &str {
    match arg.find("LayoutMode::") {
        Some(at) => {
            let rest = &arg[at + "LayoutMode::".len()..];
            let end = rest
                .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .unwrap_or(rest.len());
            &rest[..end]
        }
        None => "NONE",
    }
}

/// One operand's matrices: the element offset of matrix `idx` and the elements between stored rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub layout: Layout,
    /// B, S, N, G, D (C: B, S1, N, G, S2) of a BSNGD / BNGS1S2 layout
    pub dims: [usize; 5],
    /// NORMAL: the elements of one matrix and its row length
    pub normal: (usize, usize),
}

impl Placement {
    pub fn offset(&self, idx: usize) -> usize {
        let [_, s, n, g, d] = self.dims;
        match self.layout {
            Layout::Normal => idx * self.normal.0,
            Layout::Bsngd => (idx / (n * g)) * s * n * g * d + (idx % (n * g)) * d,
            Layout::Bngs1s2 => idx * s * d,
            // the (b, n, g) matrices side by side in each of the S rows
            Layout::Sbngd => idx * d,
        }
    }

    pub fn row_len(&self) -> usize {
        let [_, _, n, g, d] = self.dims;
        match self.layout {
            Layout::Normal => self.normal.1,
            Layout::Bsngd => n * g * d,
            Layout::Bngs1s2 => d,
            Layout::Sbngd => self.dims[0] * n * g * d,
        }
    }
}

/// The matrix of an operand whose batch count is `own` that batch `i` of `total` reads: NORMAL repeats each
/// matrix total / own times; the others broadcast along the axis whose extent is 1 here but not in `other`'s
/// dims (B, N, G of the layout info).
pub fn source_index(i: usize, total: usize, own: usize, layout: Layout, dims: [usize; 5], other: [usize; 5]) -> usize {
    if layout == Layout::Normal {
        return i / (total / own).max(1);
    }
    let ([b, _, n, g, _], [ob, _, on, og, _]) = (dims, other);
    let (modulus, divisor) = if g == 1 && og != 1 {
        (1, og)
    } else if n == 1 && on != 1 {
        (og, og * on)
    } else if b == 1 && ob != 1 {
        (og * on, og * on * ob)
    } else {
        return i;
    };
    i % modulus + i / divisor
}

/// `h` moved on by `bytes`.
fn advanced(h: Handle, bytes: usize) -> Handle {
    Handle {
        addr: h.addr + bytes as i64,
        len: (h.len - bytes as i64).max(0),
        ..h
    }
}

impl Call {
    fn layout_of(&self, cx: &mut Ctx, m: &MatmulObj, which: usize, name: &str, what: &str) -> Option<Layout> {
        let text = m
            .config
            .get(which)
            .map(|a| layout_text(a).to_string())
            .unwrap_or_else(|| "NONE".into());
        match text.as_str() {
            "NORMAL" => Some(Layout::Normal),
            "BSNGD" => Some(Layout::Bsngd),
            "BNGS1S2" => Some(Layout::Bngs1s2),
            "SBNGD" => Some(Layout::Sbngd),
            other => {
                cx.report(
                    code::NOT_MODELLED,
                    format!(
                        "Matmul::{what} with {name}'s MatmulType of LayoutMode::{other} is not modelled \
                         (NORMAL, BSNGD, SBNGD and BNGS1S2 are)"
                    ),
                );
                None
            }
        }
    }

    /// The layout info (B, S, N, G, D) of operand `x` ("A", "B", "C") from the tiling, or a finding.
    fn dims(&self, cx: &mut Ctx, m: &MatmulObj, x: &str, what: &str) -> Option<[usize; 5]> {
        let names: [&str; 5] = if x == "C" {
            ["B", "S1", "N", "G", "S2"]
        } else {
            ["B", "S", "N", "G", "D"]
        };
        let mut out = [0usize; 5];
        for (o, n) in out.iter_mut().zip(names) {
            let field = format!("{x}LayoutInfo{n}");
            let v = m.fields.iter().find(|(f, _)| *f == field).map(|(_, v)| *v).unwrap_or(0);
            if v <= 0 {
                cx.report(
                    code::INVALID_OPERAND,
                    format!(
                        "Matmul::{what} reads {x}'s layout from the tiling's {field}, which is {v} (set it with \
                         Set{x}Layout on the host)"
                    ),
                );
                return None;
            }
            *o = v as usize;
        }
        Some(out)
    }

    pub(super) fn iterate_batch(&self, cx: &mut Ctx) -> Flow {
        let obj = self.obj;
        cx.core.cube.matmuls.entry(obj).or_default();
        let Some(h) = self.tensor.map(|t| cx.handle(t)) else {
            cx.report(
                code::NOT_MODELLED,
                "Matmul::IterateBatch without a destination tensor is not modelled".into(),
            );
            return Flow::Stop;
        };
        let int = |cx: &Ctx, i: usize| self.ints.get(i).copied().flatten().map(|v| cx.int(v));
        let counts = match (int(cx, 0), int(cx, 1)) {
            (Some(a), Some(b)) => Some((a, b)),
            _ => cx.core.cube.matmuls[&obj].batch_num,
        };
        let Some((batch_a, batch_b)) = counts else {
            cx.report(
                code::INVALID_OPERAND,
                "Matmul::IterateBatch (the cube-only form) before SetBatchNum: the batch counts are not set".into(),
            );
            return Flow::Next;
        };
        let strides = [int(cx, 2), int(cx, 3), int(cx, 4)];
        let batch = BatchCall {
            batch_a,
            batch_b,
            sequential: self.flag(cx, 0),
            partial: self.flag(cx, 1),
            strides,
            atomic: int(cx, 5).unwrap_or(0),
        };
        self.batches(cx, h, &batch, "IterateBatch", [0, 0, 0]);
        Flow::Next
    }

    pub(super) fn flag(&self, cx: &Ctx, i: usize) -> bool {
        self.flags
            .get(i)
            .copied()
            .flatten()
            .is_some_and(|v| cx.uint(v) & 1 != 0)
    }

    /// Whether the object's MatmulConfig gives the bias a batch axis (isBiasBatch: true in the default
    /// configurations; the lowering notes `{isBiasBatch=...}` after a config the program builds with GetMMConfig
    /// from its own MatmulBatchParams); None when not known here.
    fn bias_batch(m: &MatmulObj) -> Option<bool> {
        match m.config.get(4).map(|c| c.trim()) {
            None | Some("CFG_NORM" | "CFG_MDL") => Some(true),
            Some(c) if c.contains("{isBiasBatch=false}") => Some(false),
            Some(c) if c.contains("{isBiasBatch=true}") => Some(true),
            Some(_) => None,
        }
    }

    /// The operands' layouts and layout info (B, S, N, G, D / B, S1, N, G, S2), or findings.
    pub(super) fn layouts(&self, cx: &mut Ctx, m: &MatmulObj, what: &str) -> Option<[(Layout, [usize; 5]); 3]> {
        let (Some(la), Some(lb), Some(lc)) = (
            self.layout_of(cx, m, 0, "A", what),
            self.layout_of(cx, m, 1, "B", what),
            self.layout_of(cx, m, 2, "C", what),
        ) else {
            return None;
        };
        let dims = |cx: &mut Ctx, l: Layout, x: &str| {
            if l == Layout::Normal {
                Some([1, 1, 1, 1, 1])
            } else {
                self.dims(cx, m, x, what)
            }
        };
        let (Some(da), Some(db), Some(dc)) = (dims(cx, la, "A"), dims(cx, lb, "B"), dims(cx, lc, "C")) else {
            return None;
        };
        Some([(la, da), (lb, db), (lc, dc)])
    }

    /// One IterateBatch: max(batchA, batchB) products into `h`, A, B and the bias found `offsets` elements on from
    /// where the object's tensors start (IterateNBatch's loops); false when a finding stopped it.
    pub(super) fn batches(&self, cx: &mut Ctx, h: Handle, call: &BatchCall, what: &str, offsets: [usize; 3]) -> bool {
        let obj = self.obj;
        let Some((_, s, org)) = self.ready(cx, what) else {
            return false;
        };
        let m = cx.core.cube.matmuls[&obj].clone();
        let (batch_a, batch_b) = (call.batch_a, call.batch_b);
        if batch_a <= 0 || batch_b <= 0 || (batch_a % batch_b != 0 && batch_b % batch_a != 0) {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "Matmul::{what} with batchA {batch_a} and batchB {batch_b}: both must be positive and one a \
                     multiple of the other"
                ),
            );
            return false;
        }
        if call.partial {
            cx.report(
                code::NOT_MODELLED,
                format!("Matmul::{what} with enPartialSum is not modelled"),
            );
            return false;
        }
        let with_bias = m.bias.is_some() && !m.bias_off;
        let bias_batch = Self::bias_batch(&m);
        if with_bias && bias_batch.is_none() {
            cx.report(
                code::NOT_MODELLED,
                format!(
                    "Matmul::{what} with a bias under MatmulConfig {}: whether the bias has a batch axis \
                     (isBiasBatch) is not known here",
                    m.config[4].trim()
                ),
            );
            return false;
        }
        let bias_step = if bias_batch == Some(false) { 0 } else { s[1] };
        let Some([(la, da), (lb, db), (lc, dc)]) = self.layouts(cx, &m, what) else {
            return false;
        };
        let (a, b) = (m.a.unwrap(), m.b.unwrap());
        let (org_m, org_n, org_ka, org_kb) = (
            org[0].max(1) as usize,
            org[1].max(1) as usize,
            org[2].max(1) as usize,
            org[3].max(1) as usize,
        );
        let n_c = if org[4] > 0 { org[4] as usize } else { org_n };
        let stride = |i: usize, d: usize| call.strides[i].filter(|v| *v > 0).map(|v| v as usize).unwrap_or(d);
        let pa = Placement {
            layout: la,
            dims: da,
            normal: (stride(0, org_m * org_ka), if a.trans { org_m } else { org_ka }),
        };
        let pb = Placement {
            layout: lb,
            dims: db,
            normal: (stride(1, org_kb * org_n), if b.trans { org_kb } else { org_n }),
        };
        let local = matches!(h.space, Space::Local(_));
        let pc = Placement {
            layout: if call.sequential || local { Layout::Normal } else { lc },
            dims: dc,
            normal: if call.sequential || local {
                (s[0] * s[1], s[1])
            } else {
                (stride(2, org_m * n_c), n_c)
            },
        };
        let total = batch_a.max(batch_b) as usize;
        let ct = self.t.unwrap_or(crate::dtype::DType::F32);
        for i in 0..total {
            let ai = source_index(i, total, batch_a as usize, la, da, db);
            let bi = source_index(i, total, batch_b as usize, lb, db, da);
            let mut one = m.clone();
            one.a = Some(crate::cube::matmul::Operand {
                h: advanced(a.h, (offsets[0] + pa.offset(ai)) * a.t.size()),
                ..a
            });
            one.b = Some(crate::cube::matmul::Operand {
                h: advanced(b.h, (offsets[1] + pb.offset(bi)) * b.t.size()),
                ..b
            });
            if let (true, Some(bias)) = (with_bias, m.bias) {
                one.bias = Some(crate::cube::matmul::Operand {
                    h: advanced(bias.h, (offsets[2] + i * bias_step) * bias.t.size()),
                    ..bias
                });
            }
            // the row lengths of this batch's matrices, as the object's org shape
            let mut o = [
                org_m as i64,
                org_n as i64,
                org_ka as i64,
                org_kb as i64,
                pc.row_len() as i64,
            ];
            o[if a.trans { 0 } else { 2 }] = pa.row_len() as i64;
            o[if b.trans { 3 } else { 1 }] = pb.row_len() as i64;
            one.org = Some(o);
            cx.core.cube.matmuls.insert(obj, one);
            let block = compute(cx, obj, 0, 0, s[0], s[1], None);
            if let Some(block) = block {
                self.time(cx, (0, 0, s[0], s[1]), Some(h.space));
                let out = advanced(h, pc.offset(i) * ct.size());
                self.write_block(cx, out, &block, false, call.atomic, what);
            }
            cx.core.cube.matmuls.insert(obj, m.clone());
        }
        true
    }
}

/// The arguments of one IterateBatch (or of each of IterateNBatch's loops).
pub(super) struct BatchCall {
    pub batch_a: i64,
    pub batch_b: i64,
    pub sequential: bool,
    pub partial: bool,
    /// matrixStrideA / B / C (NORMAL layouts; 0 or absent: the org shape's matrix)
    pub strides: [Option<i64>; 3],
    pub atomic: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placements_and_broadcasts_by_hand() {
        // BSNGD A [2][32][1][3][64]: matrix (b 1, g 2) = index 5 starts at 1 * 32 * 3 * 64 + 2 * 64
        let p = Placement {
            layout: Layout::Bsngd,
            dims: [2, 32, 1, 3, 64],
            normal: (0, 0),
        };
        assert_eq!(p.offset(5), 6144 + 128);
        assert_eq!(p.row_len(), 192);
        // BNGS1S2: each matrix S x D contiguous
        let q = Placement {
            layout: Layout::Bngs1s2,
            ..p
        };
        assert_eq!((q.offset(5), q.row_len()), (5 * 32 * 64, 64));
        // SBNGD [S 32][B 2][N 1][G 3][D 64]: matrix (b 1, g 2) = index 5 starts at 5 * 64, rows 2 * 3 * 64 apart
        let r = Placement {
            layout: Layout::Sbngd,
            ..p
        };
        assert_eq!((r.offset(5), r.row_len()), (5 * 64, 384));
        // NORMAL: 3 A matrices for 6 batches: A 0, 0, 1, 1, 2, 2
        let seen: Vec<usize> = (0..6)
            .map(|i| source_index(i, 6, 3, Layout::Normal, [1; 5], [1; 5]))
            .collect();
        assert_eq!(seen, vec![0, 0, 1, 1, 2, 2]);
        // BSNGD with G 1 in A and 3 in B: A matrix i / 3
        let a = [2, 32, 1, 1, 64];
        let b = [2, 256, 1, 3, 64];
        let seen: Vec<usize> = (0..6).map(|i| source_index(i, 6, 2, Layout::Bsngd, a, b)).collect();
        assert_eq!(seen, vec![0, 0, 0, 1, 1, 1]);
        // N broadcast: A N 1, B N 2, G 3: i % 3 + i / 6
        let a = [1, 8, 1, 3, 16];
        let b = [1, 8, 2, 3, 16];
        let seen: Vec<usize> = (0..6).map(|i| source_index(i, 6, 3, Layout::Bsngd, a, b)).collect();
        assert_eq!(seen, vec![0, 1, 2, 0, 1, 2]);
        assert_eq!(
            layout_text("MatmulType<AscendC::TPosition::GM,CubeFormat::ND,half,false,LayoutMode::BSNGD>"),
            "BSNGD"
        );
        assert_eq!(
            layout_text("MatmulType<AscendC::TPosition::GM,CubeFormat::ND,float>"),
            "NONE"
        );
    }
}
