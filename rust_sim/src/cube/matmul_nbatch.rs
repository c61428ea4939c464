//! Matmul::IterateNBatch and GetBatchTensorC, by asc-devkit's matmul_client.h / matmul_server_impl_c220.h /
//! batch_matmul_utils.h (read for facts):
//!
//! - SetWorkspace(gm) names the GM block the object's results go to and restarts GetBatchTensorC's position.
//! - IterateNBatch(batchLoop, batchA, batchB, enSequentialWrite, strides..., enPartialSum, enAtomic) runs
//!   batchLoop IterateBatch computations; loop l reads A and B and writes C (into the workspace) from the loop's
//!   offset of each layout (CalcNBatchoffset: BNGS1S2 `l * batch * S * D`; BSNGD the (b, n*g) place of matrix
//!   `l * batch`), the bias `l * S2 * batchC` on. batchC is max(batchA, batchB), divided by the larger G when
//!   C's layout G is 1 and A's or B's is not (GetBatchCNum). It does nothing unless the object's MatmulConfig
//!   sets isNBatch (the client returns at once); A and B need a BSNGD / BNGS1S2 layout (a static_assert rejects
//!   NONE / NORMAL).
//! - GetBatchTensorC, after the asynchronous IterateNBatch<false>: the local form copies loop i's C (i counting
//!   the calls) from the workspace into the UB tensor: BNGS1S2 one block of batchC * singleM * singleN; BSNGD
//!   singleM rows of batchC * singleN elements N * G * singleN apart, at the same places in UB (its DataCopy's
//!   dstGap is its srcGap). The GM form returns the workspace tensor from the running offset on,
//!   max(batchA, batchB) * singleM * singleN elements, and moves the offset past it.
//!
//! The products themselves are IterateBatch's (matmul_batch.rs), computed at once. GetTensorC's form returning a
//! GlobalTensor (after Iterate<false>) hands out the blocks through the same workspace and offset.

use crate::checks::code;
use crate::core::{Ctx, Flow};
use crate::cube::matmul::{Call, MatmulObj};
use crate::cube::matmul_batch::{BatchCall, Layout};
use crate::dtype::DType;
use crate::memory::{Handle, Space};

/// The state IterateNBatch leaves for GetBatchTensorC.
#[derive(Clone, Copy, Debug, Default)]
pub struct NBatch {
    /// whether the last IterateNBatch was the synchronous form (GetBatchTensorC serves the asynchronous one)
    pub sync: bool,
    pub ran: bool,
    /// the local form's loop counter (nbatchIter_)
    pub iter: usize,
    /// the GM form's byte offset into the workspace (cOffset_)
    pub c_offset: usize,
}

/// The element offset of loop `l`'s first matrix of an operand with `batch` matrices per loop
/// (CalcNBatchoffset; `dims` are the layout's B, S, N, G, D, for C B, S1, N, G, S2).
pub fn loop_offset(layout: Layout, batch: usize, l: usize, dims: [usize; 5]) -> usize {
    let [_, s, n, g, d] = dims;
    match layout {
        Layout::Normal | Layout::Bngs1s2 => d * s * batch * l,
        Layout::Sbngd => d * batch * l,
        Layout::Bsngd => {
            let first = l * batch;
            (first / (n * g)) * d * s * n * g + (first % (n * g)) * d
        }
    }
}

/// The C matrices of one loop (GetBatchCNum): max(batchA, batchB), over the larger G when C's G is 1 and A's
/// or B's is not.
pub fn batch_c(batch_a: usize, batch_b: usize, ga: usize, gb: usize, gc: usize) -> usize {
    let c = batch_a.max(batch_b);
    if gc == 1 && (ga != 1 || gb != 1) {
        c / ga.max(gb).max(1)
    } else {
        c
    }
}

/// `h` moved on by `bytes`.
fn advanced(h: Handle, bytes: usize) -> Handle {
    Handle {
        addr: h.addr + bytes as i64,
        len: if h.len < 0 {
            h.len
        } else {
            (h.len - bytes as i64).max(0)
        },
        ..h
    }
}

/// C's element type from the declaration's C MatmulType (`MatmulType<pos, format, float, ...>`).
fn c_type(m: &MatmulObj) -> Option<DType> {
    let args = crate::cube::matmul::split_config(m.config.get(2)?);
    let t = args.get(2)?.trim();
    let t = t.rsplit("::").next().unwrap_or(t);
    Some(match t {
        "half" | "float16_t" => DType::F16,
        "float" | "float32_t" => DType::F32,
        "bfloat16_t" => DType::BF16,
        "int8_t" => DType::I8,
        "uint8_t" => DType::U8,
        "int32_t" => DType::I32,
        _ => return None,
    })
}

impl Call {
    /// Whether the object's MatmulConfig sets isNBatch: Some(false) for the default configurations and a
    /// GetMMConfig over MatmulBatchParams whose isNBatch is false, None when not known here.
    fn n_batch_config(m: &MatmulObj) -> Option<bool> {
        match m.config.get(4).map(|c| c.trim()) {
            None | Some("CFG_NORM" | "CFG_MDL" | "CFG_IBSHARE_NORM" | "MM_CFG_NO_PRELOAD") => Some(false),
            Some(c) if c.contains("{isNBatch=true}") => Some(true),
            Some(c) if c.contains("{isNBatch=false}") => Some(false),
            Some(_) => None,
        }
    }

    /// A finding when the config does not enable the N-batch forms (the client's calls then do nothing).
    fn n_batch_enabled(&self, cx: &mut Ctx, m: &MatmulObj) -> bool {
        let cfg = m
            .config
            .get(4)
            .map(|c| c.trim().to_string())
            .unwrap_or_else(|| "(default)".into());
        match Self::n_batch_config(m) {
            Some(true) => true,
            Some(false) => {
                cx.report(
                    code::INVALID_OPERAND,
                    format!(
                        "Matmul::{} under MatmulConfig {cfg}, whose isNBatch is false, returns without doing anything \
                         (the library's client checks ToMatmulConfig(MM_CFG).isNBatch): build the config with \
                         GetMMConfig from a MatmulBatchParams whose isNBatch is true",
                        self.api
                    ),
                );
                false
            }
            None => {
                cx.report(
                    code::NOT_MODELLED,
                    format!(
                        "Matmul::{} under MatmulConfig {cfg}: whether it sets isNBatch is not known here (a \
                         `constexpr MatmulConfig X = GetMMConfig<...>(params)` over a braced `constexpr \
                         MatmulBatchParams params` is read)",
                        self.api
                    ),
                );
                false
            }
        }
    }

    pub(super) fn set_workspace(&self, cx: &mut Ctx) -> Flow {
        let Some(mut h) = self.tensor.map(|t| cx.handle(t)) else {
            return Flow::Next;
        };
        if let Some(size) = self.ints.first().copied().flatten().map(|v| cx.int(v)) {
            h.len = size; // the pointer form gives the size in bytes
        }
        let m = cx.core.cube.matmuls.entry(self.obj).or_default();
        m.workspace = Some(h);
        m.nbatch.c_offset = 0;
        Flow::Next
    }

    pub(super) fn iterate_n_batch(&self, cx: &mut Ctx) -> Flow {
        let obj = self.obj;
        let m = cx.core.cube.matmuls.entry(obj).or_default().clone();
        if !self.n_batch_enabled(cx, &m) {
            return Flow::Next;
        }
        let Some(ws) = m.workspace else {
            cx.report(
                code::INVALID_OPERAND,
                "Matmul::IterateNBatch writes C into the workspace SetWorkspace names, and none was set".into(),
            );
            return Flow::Next;
        };
        let int = |cx: &Ctx, i: usize| self.ints.get(i).copied().flatten().map(|v| cx.int(v));
        let (loops, batch_a, batch_b) = (
            int(cx, 0).unwrap_or(0),
            int(cx, 1).unwrap_or(0),
            int(cx, 2).unwrap_or(0),
        );
        if loops <= 0 {
            cx.report(
                code::INVALID_OPERAND,
                format!("Matmul::IterateNBatch with batchLoop {loops}: it must be positive"),
            );
            return Flow::Next;
        }
        if self.ready(cx, "IterateNBatch").is_none() {
            return Flow::Next;
        }
        let Some([(la, da), (lb, db), (lc, dc)]) = self.layouts(cx, &m, "IterateNBatch") else {
            return Flow::Next;
        };
        if la == Layout::Normal || lb == Layout::Normal || lc == Layout::Normal {
            cx.report(
                code::INVALID_OPERAND,
                "Matmul::IterateNBatch with a NORMAL layout: the library rejects it (static_assert: 'BMM does not \
                 support the layout being NONE or NORMAL')"
                    .into(),
            );
            return Flow::Next;
        }
        let Some(ct) = self.t.or_else(|| c_type(&m)) else {
            cx.report(
                code::NOT_MODELLED,
                format!(
                    "Matmul::IterateNBatch: C's element type in {} is not known here",
                    m.config[2]
                ),
            );
            return Flow::Next;
        };
        let call = BatchCall {
            batch_a,
            batch_b,
            sequential: self.flag(cx, 0),
            partial: self.flag(cx, 1),
            strides: [int(cx, 3), int(cx, 4), int(cx, 5)],
            atomic: int(cx, 6).unwrap_or(0),
        };
        let (ba, bb) = (batch_a.max(0) as usize, batch_b.max(0) as usize);
        let bc = batch_c(ba, bb, da[3], db[3], dc[3]);
        let mut me = self.clone();
        me.t = Some(ct);
        for l in 0..loops as usize {
            let offsets = [loop_offset(la, ba, l, da), loop_offset(lb, bb, l, db), l * dc[4] * bc];
            let out = advanced(ws, loop_offset(lc, bc, l, dc) * ct.size());
            if !me.batches(cx, out, &call, "IterateNBatch", offsets) {
                return Flow::Next;
            }
        }
        let m = cx.core.cube.matmuls.get_mut(&obj).unwrap();
        m.nbatch = NBatch {
            sync: self.sync,
            ran: true,
            iter: 0,
            c_offset: 0,
        };
        Flow::Next
    }

    pub(super) fn get_batch_tensor_c(&self, cx: &mut Ctx) -> Flow {
        let obj = self.obj;
        let m = cx.core.cube.matmuls.entry(obj).or_default().clone();
        if !self.n_batch_enabled(cx, &m) {
            return Flow::Next;
        }
        let (Some(ws), true) = (m.workspace, m.nbatch.ran) else {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "Matmul::{} before any IterateNBatch into a workspace (SetWorkspace, then IterateNBatch<false>)",
                    self.api
                ),
            );
            return Flow::Next;
        };
        if m.nbatch.sync {
            cx.report(
                code::INVALID_OPERAND,
                format!(
                    "Matmul::{} after the synchronous IterateNBatch: it serves the asynchronous IterateNBatch<false> \
                     (the library asserts !isSyncGetC); the synchronous form's C is in the workspace already",
                    self.api
                ),
            );
            return Flow::Next;
        }
        let Some((_, s, _)) = self.ready(cx, "GetBatchTensorC") else {
            return Flow::Next;
        };
        let int = |cx: &Ctx, i: usize| self.ints.get(i).copied().flatten().map(|v| cx.int(v));
        let (ba, bb) = (
            int(cx, 0).unwrap_or(0).max(0) as usize,
            int(cx, 1).unwrap_or(0).max(0) as usize,
        );
        let Some(ct) = self.t.or_else(|| c_type(&m)) else {
            cx.report(
                code::NOT_MODELLED,
                format!("Matmul::{}: C's element type is not known here", self.api),
            );
            return Flow::Next;
        };
        let Some(dst) = self.tensor.map(|t| cx.handle(t)) else {
            // the GM form: the workspace from the running offset on
            let elems = ba.max(bb) * s[0] * s[1];
            let out = Handle {
                len: (elems * ct.size()) as i64,
                ..advanced(ws, m.nbatch.c_offset)
            };
            if let Some(r) = self.result_handle() {
                cx.set_handle(r, out);
            }
            let m = cx.core.cube.matmuls.get_mut(&obj).unwrap();
            m.nbatch.c_offset += elems * ct.size();
            return Flow::Next;
        };
        if !matches!(dst.space, Space::Local(_)) {
            cx.report(
                code::INVALID_OPERAND,
                format!("Matmul::{} copies C into a local (UB) tensor", self.api),
            );
            return Flow::Next;
        }
        let Some([(_, da), (_, db), (lc, dc)]) = self.layouts(cx, &m, "GetBatchTensorC") else {
            return Flow::Next;
        };
        let bc = batch_c(ba, bb, da[3], db[3], dc[3]);
        // CalcNBatchoffset<C> as the client calls it: singleCoreN in the D place
        let place = [dc[0], dc[1], dc[2], dc[3], s[1]];
        let start = loop_offset(lc, bc, m.nbatch.iter, place) * ct.size();
        let what = "GetBatchTensorC";
        match lc {
            Layout::Bsngd | Layout::Sbngd => {
                // BSNGD rows N * G * singleN apart, SBNGD B * N * G * singleN
                let lines = if lc == Layout::Sbngd { dc[0] } else { 1 };
                let (row, pitch) = (bc * s[1] * ct.size(), lines * dc[2] * dc[3] * s[1] * ct.size());
                for r in 0..s[0] {
                    let at = (r * pitch) as i64;
                    if !cx.copy(dst, at, ws, start as i64 + at, row as i64, ct, what) {
                        break;
                    }
                }
            }
            _ => {
                let len = (bc * s[0] * s[1] * ct.size()) as i64;
                cx.copy(dst, 0, ws, start as i64, len, ct, what);
            }
        }
        cx.core.cube.matmuls.get_mut(&obj).unwrap().nbatch.iter += 1;
        Flow::Next
    }
}

impl Call {
    /// GetTensorC() returning a GlobalTensor, after the asynchronous Iterate<false>: the next block of C written
    /// into the SetWorkspace GM at the running offset (cOffset_), baseM x baseN elements with rows baseN apart (the
    /// server writes each block there sequentially), and that workspace tensor returned; the offset moves past it.
    pub(super) fn get_tensor_c_workspace(&self, cx: &mut Ctx) -> Flow {
        let obj = self.obj;
        let m = cx.core.cube.matmuls.entry(obj).or_default().clone();
        let Some(ws) = m.workspace else {
            cx.report(
                code::INVALID_OPERAND,
                "GetTensorC returning the block in the workspace before SetWorkspace: the library asserts a \
                 workspace (cacheWorkspaceAddr)"
                    .into(),
            );
            return Flow::Next;
        };
        let Some((t, _, _)) = self.ready(cx, "GetTensorC") else {
            return Flow::Next;
        };
        let mm = cx.core.cube.matmuls.get_mut(&obj).unwrap();
        let Some(block) = mm.pending.pop_front().or_else(|| mm.current.clone()) else {
            cx.report(
                code::INVALID_OPERAND,
                "GetTensorC before any Iterate computed a block of C".into(),
            );
            return Flow::Next;
        };
        let ct = self.t.or_else(|| c_type(&m)).unwrap_or(DType::F32);
        let bytes = (t.base_m.max(1) * t.base_n.max(1)) as usize * ct.size();
        let out = Handle {
            len: bytes as i64,
            ..advanced(ws, m.nbatch.c_offset)
        };
        let mut me = self.clone();
        me.t = Some(ct);
        me.write_block(cx, out, &block, true, 0, "GetTensorC");
        if let Some(r) = self.result_handle() {
            cx.set_handle(r, out);
        }
        cx.core.cube.matmuls.get_mut(&obj).unwrap().nbatch.c_offset += bytes;
        Flow::Next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loop_offsets_and_batch_counts_by_hand() {
        // BSNGD A [B 2][S 32][N 1][G 4][D 64], 2 matrices a loop: loop 1 starts at matrix 2 = (b 0, g 2): 2 * 64;
        // loop 2 at matrix 4 = (b 1, g 0): 32 * 4 * 64
        let a = [2, 32, 1, 4, 64];
        assert_eq!(loop_offset(Layout::Bsngd, 2, 1, a), 128);
        assert_eq!(loop_offset(Layout::Bsngd, 2, 2, a), 8192);
        assert_eq!(loop_offset(Layout::Bsngd, 2, 3, a), 8192 + 128);
        // BNGS1S2: each loop batch * S * D on; SBNGD: batch * D (the matrices side by side in a row)
        assert_eq!(loop_offset(Layout::Bngs1s2, 3, 2, [1, 17, 1, 6, 24]), 2 * 3 * 17 * 24);
        assert_eq!(loop_offset(Layout::Sbngd, 3, 2, [2, 17, 1, 3, 24]), 2 * 3 * 24);
        // batchC: max of the two; over the larger G when C's G is 1 and A's or B's is not
        assert_eq!(batch_c(3, 3, 3, 3, 3), 3);
        assert_eq!(batch_c(4, 2, 1, 1, 1), 4);
        assert_eq!(batch_c(6, 6, 3, 1, 1), 2);
    }

    #[test]
    fn c_type_from_the_declaration() {
        let m = MatmulObj {
            config: vec![
                "MatmulType<TPosition::GM,CubeFormat::ND,half,false,LayoutMode::BSNGD>".into(),
                "MatmulType<TPosition::GM,CubeFormat::ND,half,true,LayoutMode::BSNGD>".into(),
                "MatmulType<AscendC::TPosition::GM,CubeFormat::ND,float,false,LayoutMode::BSNGD>".into(),
            ],
            ..MatmulObj::default()
        };
        assert_eq!(c_type(&m), Some(DType::F32));
        assert_eq!(Call::n_batch_config(&m), Some(false));
        let with = |cfg: &str| MatmulObj {
            config: vec![String::new(), String::new(), String::new(), String::new(), cfg.into()],
            ..MatmulObj::default()
        };
        assert_eq!(
            Call::n_batch_config(&with("CFG_MM{isNBatch=true}{isBiasBatch=false}")),
            Some(true)
        );
        assert_eq!(Call::n_batch_config(&with("CFG_MM{isNBatch=false}")), Some(false));
        assert_eq!(Call::n_batch_config(&with("MY_CFG")), None);
    }
}
